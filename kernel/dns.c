// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the DNS backend.
 *
 * Names go to the kernel's dns_resolver key type: dns_query() with the
 * option "list" (every A and AAAA address, comma-separated), in the
 * network namespace of the file's opener.  dns_query() sleeps until the
 * request-key upcall has answered, so it runs on a workqueue whose
 * max_active, together with a semaphore, bounds the number of upcalls in
 * progress (max_upcalls): each upcall is a root process.  Answers are cached
 * in the keyring for the key's lifetime; a cached name costs no upcall.
 *
 * A request whose upcall has not answered dns_timeout_ms after it began
 * completes with -ETIMEDOUT; the upcall itself cannot be interrupted and
 * its late answer is dropped (it still fills the key cache).  Time spent
 * waiting for a free upcall slot does not count.
 *
 * Which helper answers: with dns_helper set (the default), names are asked
 * for as "rai:NAME", which request-key hands to our own helper
 * (rdma-addrinfo-dns-helper, through /etc/request-key.d/rdma-addrinfo.conf):
 * it rejects each failure with its own errno, which passes through as the
 * request's status:
 *
 *  -ENXIO      NXDOMAIN
 *  -ENODATA    the name exists without an A/AAAA record
 *  -EAGAIN     temporary failure (no server answered, SERVFAIL)
 *  -EREMOTEIO  permanent failure (REFUSED, FORMERR, NOTIMP)
 *
 * Any other failure of a "rai:" key means that our helper is not installed
 * (request-key found no program, or gave the key to key.dns_resolver,
 * which does not know the type): the name is asked for again as a plain
 * dns_resolver key, answered by key.dns_resolver, and the fallback is
 * counted (dns_fallbacks).
 *
 * The keyring is shared: NFS, CIFS and Ceph ask dns_query() for plain
 * names without options and read one address; a key is found by its
 * description "[type:]name" only, whatever options created it.  A plain
 * name is therefore asked for exactly as they ask (no options): one IPv4
 * address, results with origin RDMA_ADDRINFO_ORIGIN_DNS_SINGLE, counted
 * (dns_single) and said once in the kernel log.  Our own "rai:" keys hold
 * every address.  dns_query() (6.1 to 7.3) refuses names shorter than
 * 3 bytes but checks the name only: for a short name the whole description
 * ("rai:db", or "a:db" for key.dns_resolver, its legacy one-address form)
 * is passed as the name.  Names were checked against host name syntax
 * before (resolve.c): no ':' can select another query type.
 *
 * How key.dns_resolver (keyutils) reports failures, and what we make of
 * them:
 *
 *  - keyutils up to 1.6.3 (Debian 12) rejects the key with the *h_errno*
 *    value NO_DATA (4) for every getaddrinfo() failure: nsError() maps
 *    the code for its log message only and passes the raw value to
 *    keyctl_reject().  The kernel then reports -4, i.e. -EINTR, for a
 *    missing name, a name without addresses and an unreachable server
 *    alike, and keeps that negative key for 60 s.  We report -ENXIO
 *    (EAI_NONAME), the most likely cause; the others cannot be told apart.
 *  - Later keyutils map h_errno through a table before rejecting:
 *    HOST_NOT_FOUND and NO_DATA become -ENODATA, TRY_AGAIN -EAGAIN,
 *    NO_RECOVERY -ECONNREFUSED (reported as -EREMOTEIO).
 *  - A helper that failed without instantiating the key, or that is not
 *    configured, leaves a negative key: -ENOKEY.  Expired or revoked keys
 *    give -EKEYEXPIRED/-EKEYREVOKED.
 *  - A helper may answer "#dnserror=N" (dns_resolver's own convention);
 *    dns_query() returns -N.  Statuses of our ABI pass through as they are.
 *
 * Containers: the upcall runs in the initial namespaces, with the host's
 * /etc/hosts, nsswitch.conf and resolv.conf.  A request from another
 * network namespace, or from a process that sees other files there (its
 * own mount namespace or root with a different /etc/hosts, resolv.conf or
 * nsswitch.conf), would be answered from the wrong view: it completes with
 * -EPERM instead (counted as dns_view_refused), unless the administrator
 * sets dns_host_view, which answers such requests from the host's view.
 * Numeric literals need no upcall and are not affected.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/dns_resolver.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include "backend.h"
#include "main.h"
#include "numeric.h"
#include "rai_trace.h"
#include "stats.h"

static struct workqueue_struct *rai_dns_wq;
static struct semaphore rai_upcall_sem;

/* dns_query() attempts when the key expires under it. */
#define RAI_DNS_EXPIRED_TRIES	3
/* Key description prefix that request-key routes to our own helper. */
#define RAI_DNS_HELPER_TYPE	"rai"
/* key.dns_resolver's A/AAAA query type: only for names dns_query() refuses. */
#define RAI_DNS_SHORT_TYPE	"a"
/* dns_query() refuses names shorter than this (6.1 to 7.3). */
#define RAI_DNS_NAME_MIN	3

static bool rai_dns_helper = true;
module_param_named(dns_helper, rai_dns_helper, bool, 0644);
MODULE_PARM_DESC(dns_helper,
		 "Ask rdma-addrinfo-dns-helper first (\"rai:NAME\" keys), key.dns_resolver if it is not installed (default Y)");

static bool rai_dns_host_view;
module_param_named(dns_host_view, rai_dns_host_view, bool, 0644);
MODULE_PARM_DESC(dns_host_view,
		 "Answer DNS names for containers (another network namespace or /etc view) from the host's resolver and /etc/hosts; else -EPERM (default N)");

static int rai_dns_status(int ret)
{
	switch (ret) {
	case -ENXIO:
	case -ENODATA:
	case -EADDRNOTAVAIL:
	case -EAGAIN:
	case -ETIMEDOUT:
	case -ENOMEM:
		return ret;
	case -EINTR:		/* keyutils <= 1.6.3: any getaddrinfo() failure */
	case -EKEYREJECTED:
	case -EINVAL:		/* dns_query() refused the name */
		return -ENXIO;
	case -EREMOTEIO:
	case -ECONNREFUSED:	/* keyutils: NO_RECOVERY */
		return -EREMOTEIO;
	case -ENOKEY:		/* no helper, or it failed */
	case -EKEYEXPIRED:
	case -EKEYREVOKED:
	default:
		return -EAGAIN;
	}
}

/* Turn the helper's "a,b,c" into results; consumes nothing. */
static int rai_dns_parse(struct rai_request *req, char *list, u32 ttl,
			 u32 origin, struct rdma_addrinfo_result **resultsp,
			 u32 *nrp)
{
	u32 max = READ_ONCE(rai_max_results), n = 1, nr = 0;
	struct rdma_addrinfo_result *results;
	union rai_sockaddr addr;
	bool any = false;
	char *tok, *p;

	if (!*list)
		return -ENODATA;
	for (p = list; *p; p++)
		n += *p == ',';
	results = rai_results_alloc(min(n, max));
	if (!results)
		return -ENOMEM;

	p = list;
	while ((tok = strsep(&p, ",")) && nr < max) {
		if (rai_numeric_parse_ip(req->file->net, tok, strlen(tok),
					 &addr))
			continue;
		any = true;
		if (!rai_request_wants(req, addr.sa.sa_family))
			continue;
		rai_result_fill_ip(req, &results[nr++], &addr.sa, origin, ttl);
	}
	if (!nr) {
		rai_results_free(results);
		return any ? -EADDRNOTAVAIL : -ENODATA;
	}
	*resultsp = results;
	*nrp = nr;
	return 0;
}

/* Did our own helper answer a "rai:" key with this error? */
static bool rai_dns_helper_answered(int ret)
{
	switch (ret) {
	case -ENXIO:
	case -ENODATA:
	case -EAGAIN:
	case -EREMOTEIO:
	case -ENOMEM:
		return true;
	default:
		return false;
	}
}

/* dns_query() of the key "type:node" (type set) or "node", short or not. */
static int rai_dns_query_type(struct rai_request *req, const char *type,
			      const char *options, char **list,
			      time64_t *expiry)
{
	char desc[sizeof(RAI_DNS_HELPER_TYPE) + RAI_DNS_NAME_MIN];
	const char *name = req->node;
	size_t len = req->node_len;
	int tries, ret = -EKEYEXPIRED;

	/* The same description, passed whole as a name long enough. */
	if (len < RAI_DNS_NAME_MIN && type) {
		len = snprintf(desc, sizeof(desc), "%s:%s", type, name);
		name = desc;
		type = NULL;
	}

	/*
	 * A cached key can expire between the keyring finding it and
	 * dns_query() checking it; asking again makes a fresh upcall.
	 */
	for (tries = 0; tries < RAI_DNS_EXPIRED_TRIES; tries++) {
		ret = dns_query(req->file->net, type, name, len, options, list,
				expiry, false);
		if (ret != -EKEYEXPIRED && ret != -EKEYREVOKED)
			break;
	}
	return ret;
}

/*
 * Our helper first when enabled; key.dns_resolver if it is not there,
 * asked as NFS and CIFS ask (no options: one address).
 */
static int rai_dns_query(struct rai_request *req, char **list,
			 time64_t *expiry, u32 *origin)
{
	int ret;

	*origin = RDMA_ADDRINFO_ORIGIN_DNS;
	if (READ_ONCE(rai_dns_helper)) {
		ret = rai_dns_query_type(req, RAI_DNS_HELPER_TYPE, "list", list,
					 expiry);
		if (ret >= 0 || rai_dns_helper_answered(ret))
			return ret;
		rai_stat_inc(RAI_STAT_DNS_FALLBACKS);
		pr_debug("no helper for %s:%s (%d)\n", RAI_DNS_HELPER_TYPE,
			 req->node, ret);
	}
	*origin = RDMA_ADDRINFO_ORIGIN_DNS_SINGLE;
	rai_stat_inc(RAI_STAT_DNS_SINGLE);
	pr_notice_once("rdma-addrinfo-dns-helper not used: DNS names resolve to one IPv4 address each, as for NFS and CIFS (the dns_resolver keys are shared)\n");
	return rai_dns_query_type(req, req->node_len < RAI_DNS_NAME_MIN ?
				  RAI_DNS_SHORT_TYPE : NULL, NULL, list,
				  expiry);
}

static void rai_dns_work(struct work_struct *work)
{
	struct rai_request *req = container_of(work, struct rai_request, work);
	struct rdma_addrinfo_result *results = NULL;
	time64_t expiry = 0, now;
	struct mem_cgroup *old_memcg;
	unsigned int timeout_ms;
	char *list = NULL;
	u64 t0;
	u32 nr = 0, ttl = 0, origin;
	int ret;

	if (rai_request_cancelled(req))
		goto out;

	if (down_trylock(&rai_upcall_sem)) {
		rai_stat_inc(RAI_STAT_DNS_THROTTLED);
		down(&rai_upcall_sem);
	}
	/*
	 * The deadline covers the resolver, not the wait for a free slot:
	 * our own throttling is not the resolver's failure.
	 */
	timeout_ms = READ_ONCE(rai_dns_timeout_ms);
	if (timeout_ms) {
		rai_request_get(req);
		queue_delayed_work(rai_wq, &req->timeout,
				   msecs_to_jiffies(timeout_ms));
	}
	atomic_inc(&rai_upcalls_active);
	rai_stat_inc(RAI_STAT_DNS_QUERIES);
	t0 = ktime_get_ns();
	ret = rai_dns_query(req, &list, &expiry, &origin);
	trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	up(&rai_upcall_sem);

	if (ret < 0) {
		rai_stat_inc(RAI_STAT_DNS_FAILURES);
		pr_debug("dns_query(%s): %d\n", req->node, ret);
		ret = rai_dns_status(ret);
	} else {
		now = ktime_get_real_seconds();
		if (expiry > now)
			ttl = min_t(time64_t, expiry - now, U32_MAX);
		/* The results are the caller's memory. */
		old_memcg = rai_request_charge_begin(req);
		ret = rai_dns_parse(req, list, ttl, origin, &results, &nr);
		rai_request_charge_end(old_memcg);
		kfree(list);
	}
	rai_request_complete(req, ret, results, nr);

	if (cancel_delayed_work(&req->timeout))
		rai_request_put(req);
out:
	rai_request_put(req);
}

static void rai_dns_timeout(struct work_struct *work)
{
	struct rai_request *req = container_of(to_delayed_work(work),
					       struct rai_request, timeout);

	if (rai_request_complete(req, -ETIMEDOUT, NULL, 0))
		rai_stat_inc(RAI_STAT_DNS_TIMEOUTS);
	rai_request_put(req);
}

/* The files of the resolver's view: the helper's getaddrinfo() reads them. */
static const char * const rai_dns_view_files[] = {
	"/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf",
};

/* Does the caller see @name as the host (the upcall, from @host_root) does? */
static bool rai_dns_same_file(const struct path *host_root, const char *name)
{
	struct file *mine, *host;
	bool same;

	/* O_PATH: no open of the file itself, symbolic links followed. */
	mine = filp_open(name, O_PATH, 0);
	host = file_open_root(host_root, name, O_PATH, 0);
	if (IS_ERR(mine) || IS_ERR(host))
		same = PTR_ERR_OR_ZERO(mine) == PTR_ERR_OR_ZERO(host);
	else
		same = file_inode(mine) == file_inode(host);
	if (!IS_ERR(mine))
		fput(mine);
	if (!IS_ERR(host))
		fput(host);
	return same;
}

/*
 * Would the upcall, which runs in the initial namespaces with init's root,
 * answer @req as the caller's own resolver would?  Same network namespace,
 * and the same root or else the same resolver files.  Process context.
 */
static bool rai_dns_same_view(const struct rai_request *req)
{
	struct path mine, host;
	bool same = true;
	unsigned int i;

	if (!net_eq(req->file->net, &init_net) ||
	    !net_eq(current->nsproxy->net_ns, &init_net))
		return false;
	get_fs_root(current->fs, &mine);
	get_fs_root(init_task.fs, &host);
	if (!path_equal(&mine, &host))
		for (i = 0; same && i < ARRAY_SIZE(rai_dns_view_files); i++)
			same = rai_dns_same_file(&host, rai_dns_view_files[i]);
	path_put(&mine);
	path_put(&host);
	return same;
}

/* A request from another view than the host's: refused, no upcall. */
static void rai_dns_refuse_work(struct work_struct *work)
{
	struct rai_request *req = container_of(work, struct rai_request, work);

	rai_request_complete(req, -EPERM, NULL, 0);
	rai_request_put(req);
}

/* In the RESOLVE ioctl, in the caller's context. */
static void rai_dns_prepare(struct rai_request *req)
{
	INIT_DELAYED_WORK(&req->timeout, rai_dns_timeout);
	if (!READ_ONCE(rai_dns_host_view) && !rai_dns_same_view(req)) {
		rai_stat_inc(RAI_STAT_DNS_VIEW_REFUSED);
		pr_notice_once("DNS names refused for a process in a container (another network namespace or /etc); dns_host_view=Y answers them from the host's resolver\n");
		INIT_WORK(&req->work, rai_dns_refuse_work);
		return;
	}
	INIT_WORK(&req->work, rai_dns_work);
}

static void rai_dns_start(struct rai_request *req)
{
	rai_request_get(req);
	queue_work(rai_dns_wq, &req->work);
}

/* Process context, no locks held; the caller holds a reference. */
static void rai_dns_cancel(struct rai_request *req)
{
	if (cancel_work(&req->work))
		rai_request_put(req);
	if (cancel_delayed_work(&req->timeout))
		rai_request_put(req);
}

const struct rai_backend_ops rai_dns_ops = {
	.name = "dns",
	.feature = RDMA_ADDRINFO_FEATURE_DNS,
	.prepare = rai_dns_prepare,
	.start = rai_dns_start,
	.cancel = rai_dns_cancel,
};

int rai_dns_init(void)
{
	sema_init(&rai_upcall_sem, rai_max_upcalls);
	rai_dns_wq = alloc_workqueue("rai_dns", WQ_UNBOUND, rai_max_upcalls);
	return rai_dns_wq ? 0 : -ENOMEM;
}

/* After every file is closed: waits for upcalls still in progress. */
void rai_dns_exit(void)
{
	destroy_workqueue(rai_dns_wq);
}
