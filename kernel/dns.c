// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the DNS backend.
 *
 * Names go to the kernel's dns_resolver key type: dns_query() with the
 * option "list" (every A and AAAA address, comma-separated), in the
 * network namespace of the file's opener.  dns_query() sleeps until the
 * request-key upcall has answered, so it runs on a workqueue, in one of
 * max_upcalls slots (each upcall is a root process), handed out
 * round-robin between users, at most max_upcalls_per_user to one user
 * (see "upcall slots" below).  Answers are cached in the keyring for the
 * key's lifetime; a cached name costs no upcall.  The module keeps the
 * answers too (kernel/dns_cache.c) and serves a name it has inside the
 * RESOLVE ioctl, before any slot or keyring search.  The keys count against
 * root's key quota: the module bounds those it leaves behind (see "the
 * module's dns_resolver keys" below).
 *
 * Batches: when a user's request gets a slot while more of that user's
 * requests wait for one, the names of up to dns_batch_names of them go to
 * our helper in one upcall (kernel/dns_batch.c has the format), resolved
 * there in parallel; requests for the same name share one answer.  While
 * the user has an upcall in progress, its waiting requests wait up to
 * dns_batch_wait_ms more to go in one batch ("gathering") rather than take
 * a slot each: a name asked alone is asked at once.  A batch
 * holds one slot, and only one user's names: a slow name delays no other
 * user.  Its key is read once and invalidated, and each name's answer is
 * kept in the module's cache for the TTL the helper read from DNS.  If
 * the helper does not answer a batch (it is older, or key.dns_resolver
 * got the key), every name is asked for on its own, and batches stay off
 * for RAI_DNS_BATCH_BACKOFF_S (or until dns_batch_names is written).
 * A helper's answer served from the cache after half its TTL is asked
 * for again in the background, as a batch of one name ("refresh ahead"),
 * so that a name in use is always answered inside RESOLVE.
 *
 * A request that has not been answered dns_timeout_ms after RESOLVE
 * completes with -ETIMEDOUT, whether it waited for a slot or for the
 * resolver; an upcall itself cannot be interrupted and its late answer is
 * dropped (it still fills the key cache).
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
 *  - keyutils up to 1.6.3 rejects every failure alike, seen here as
 *    -EINTR (Documentation/admin-guide.rst tells why): -ENXIO.
 *  - Later keyutils: -ENODATA, -EAGAIN, -ECONNREFUSED (as -EREMOTEIO).
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
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/spinlock.h>
#include <linux/nsproxy.h>
#include <linux/path.h>
#include <linux/random.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/dns_resolver.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/rdma_addrinfo_upcall.h>

#include "addr.h"
#include "backend.h"
#include "dns.h"
#include "dns_batch.h"
#include "dns_cache.h"
#include "numeric.h"
#include "param.h"
#include "request.h"
#include "result.h"
#include "rai_trace.h"
#include "stats.h"
#include "user.h"

static struct workqueue_struct *rai_dns_wq;
/* The time-outs of DNS requests (dns_timeout_ms). */
static struct workqueue_struct *rai_dns_timeout_wq;

/* dns_query() attempts when the key expires under it. */
#define RAI_DNS_EXPIRED_TRIES	3
/* Reads of a helper's key that outlived its records (see below). */
#define RAI_DNS_STALE_TRIES	3
/*
 * The helper's answer ends in ",until=MS"; "rai:" keys are routed to the
 * helper: the upcall protocol (uapi/rdma/rdma_addrinfo_upcall.h).
 */
#define RAI_DNS_UNTIL		RDMA_ADDRINFO_UPCALL_UNTIL
#define RAI_DNS_HELPER_TYPE	RDMA_ADDRINFO_UPCALL_TYPE
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

unsigned int rai_max_upcalls = 16;
unsigned int rai_max_upcalls_per_user = 8;
static unsigned int rai_dns_timeout_ms = 20000;
static unsigned int rai_dns_max_keys = 1024;
static unsigned int rai_dns_max_keys_per_user = 256;

RAI_PARAM_RANGE(max_upcalls, 1, 1024);
RAI_PARAM_RANGE(max_upcalls_per_user, 1, 1024);
RAI_PARAM_RANGE(dns_timeout_ms, 0, 600000);
RAI_PARAM_RANGE(dns_max_keys, 1, 1 << 20);
RAI_PARAM_RANGE(dns_max_keys_per_user, 1, 1 << 20);

module_param_cb(max_upcalls, &rai_param_ops_max_upcalls,
		&rai_max_upcalls, 0444);
MODULE_PARM_DESC(max_upcalls,
		 "DNS resolver upcalls in progress at most (default 16)");
module_param_cb(max_upcalls_per_user, &rai_param_ops_max_upcalls_per_user,
		&rai_max_upcalls_per_user, 0644);
MODULE_PARM_DESC(max_upcalls_per_user,
		 "DNS resolver upcalls one user may have in progress; slots go round-robin between users (default 8)");
module_param_cb(dns_timeout_ms, &rai_param_ops_dns_timeout_ms,
		&rai_dns_timeout_ms, 0644);
MODULE_PARM_DESC(dns_timeout_ms,
		 "A DNS request still unanswered after this fails with ETIMEDOUT; 0: no limit (default 20000)");
module_param_cb(dns_max_keys, &rai_param_ops_dns_max_keys,
		&rai_dns_max_keys, 0644);
MODULE_PARM_DESC(dns_max_keys,
		 "dns_resolver keys (root's key quota) the module may leave behind; beyond: new names fail with EAGAIN (default 1024)");
module_param_cb(dns_max_keys_per_user, &rai_param_ops_dns_max_keys_per_user,
		&rai_dns_max_keys_per_user, 0644);
MODULE_PARM_DESC(dns_max_keys_per_user,
		 "dns_resolver keys one user's requests may leave behind (default 256)");

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

/* Turn the helper's "a,b,c" into results; @list is only read. */
static int rai_dns_parse(struct rai_request *req, const char *list, u32 ttl,
			 u32 origin, struct rdma_addrinfo_result **resultsp,
			 u32 *nrp)
{
	u32 max = READ_ONCE(rai_max_results), n = 1, nr = 0;
	struct rdma_addrinfo_result *results;
	union rai_sockaddr addr;
	const char *p, *end;
	bool any = false;

	if (!*list)
		return -ENODATA;
	for (p = list; *p; p++)
		n += *p == ',';
	results = rai_results_alloc(req, min(n, max));
	if (!results)
		return -ENOMEM;

	for (p = list; *p && nr < max; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (rai_numeric_parse_ip(req->file->net, p, end - p, &addr))
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

/* dns_query() of the key "type:name" (type set) or "name", short or not. */
static int rai_dns_query_type(struct net *net, const char *type,
			      const char *name, size_t len,
			      const char *options, char **list,
			      time64_t *expiry, bool invalidate)
{
	char desc[sizeof(RAI_DNS_HELPER_TYPE) + RAI_DNS_NAME_MIN];
	int tries, ret = -EKEYEXPIRED;

	/* The same description, passed whole as a name long enough. */
	if (len < RAI_DNS_NAME_MIN && type) {
		len = snprintf(desc, sizeof(desc), "%s:%s", type, name);
		name = desc;
		type = NULL;
	}

	/*
	 * A cached key can expire between the keyring finding it and
	 * dns_query() checking it, or be invalidated by another reader
	 * (a stale key of our helper, read once more to drop it): that is
	 * -ENOKEY, as for a negative key.  Asking again makes a fresh upcall,
	 * or finds the negative key again at once.
	 */
	for (tries = 0; tries < RAI_DNS_EXPIRED_TRIES; tries++) {
		ret = dns_query(net, type, name, len, options, list, expiry,
				invalidate);
		if (ret != -EKEYEXPIRED && ret != -EKEYREVOKED &&
		    ret != -ENOKEY)
			break;
	}
	return ret;
}

/*
 * When the records of our helper's answer @list expire: it ends in
 * ",until=MS" (ms since the epoch, CLOCK_REALTIME), which is cut off.
 * 0: no such end (an older helper), the key's own expiry counts.
 */
static s64 rai_dns_take_until(char *list)
{
	char *end = strrchr(list, ',');
	s64 ms;

	if (!end || strncmp(end + 1, RAI_DNS_UNTIL, strlen(RAI_DNS_UNTIL)) ||
	    kstrtos64(end + 1 + strlen(RAI_DNS_UNTIL), 10, &ms) || ms <= 0)
		return 0;
	*end = '\0';
	return ms;
}

/*
 * Our helper's key "rai:NAME".  The key lives at least the helper's
 * floor (a key that expires before request-key has returned fails the
 * upcall with -ENOKEY), so a key found in the keyring may have outlived
 * its records (@list's until): such a key is read once more to
 * invalidate it, and the name asked for again.  An answer that is past
 * its records' TTL even so (a helper slower than the TTL) is used as it
 * is, kept nowhere: *@valid 0 then.  *@expiry: the key's own.
 */
static int rai_dns_helper_query(struct net *net, const char *name, u32 len,
				char **list, time64_t *expiry, time64_t *valid,
				bool invalidate)
{
	int tries, ret;
	s64 until;

	for (tries = 0; tries < RAI_DNS_STALE_TRIES; tries++) {
		ret = rai_dns_query_type(net, RAI_DNS_HELPER_TYPE, name, len,
					 "list", list, expiry,
					 invalidate || tries == 1);
		if (ret < 0) {
			/* Another reader invalidated the stale key first. */
			if (tries == 1 && ret == -ENOKEY)
				continue;
			return ret;
		}
		*valid = *expiry;
		until = rai_dns_take_until(*list);
		if (!until)
			return ret;
		if (until > ktime_to_ms(ktime_get_real())) {
			until = div_s64(until, MSEC_PER_SEC);
			if (!*valid || until < *valid)
				*valid = until;
			return ret;
		}
		if (tries == RAI_DNS_STALE_TRIES - 1)
			break;
		if (!tries)
			rai_stat_inc(RAI_STAT_DNS_STALE_KEYS);
		kfree(*list);
		*list = NULL;
	}
	*valid = 0;
	return ret;
}

/*
 * Our helper first when enabled; key.dns_resolver if it is not there,
 * asked as NFS and CIFS ask (no options: one address).
 */
static int rai_dns_query(struct rai_request *req, char **list,
			 time64_t *expiry, time64_t *valid, u32 *origin,
			 bool invalidate)
{
	int ret;

	*origin = RDMA_ADDRINFO_ORIGIN_DNS;
	if (READ_ONCE(rai_dns_helper)) {
		ret = rai_dns_helper_query(req->file->net, req->node,
					   req->node_len, list, expiry, valid,
					   invalidate);
		if (ret >= 0 || rai_dns_helper_answered(ret))
			return ret;
		rai_stat_inc(RAI_STAT_DNS_FALLBACKS);
		pr_debug("no helper for %s:%s (%d)\n", RAI_DNS_HELPER_TYPE,
			 req->node, ret);
	}
	*origin = RDMA_ADDRINFO_ORIGIN_DNS_SINGLE;
	rai_stat_inc(RAI_STAT_DNS_SINGLE);
	pr_notice_once("rdma-addrinfo-dns-helper not used: DNS names resolve to one IPv4 address each, as for NFS and CIFS (the dns_resolver keys are shared)\n");
	ret = rai_dns_query_type(req->file->net,
				 req->node_len < RAI_DNS_NAME_MIN ?
				 RAI_DNS_SHORT_TYPE : NULL, req->node,
				 req->node_len, NULL, list, expiry,
				 invalidate);
	*valid = *expiry;
	return ret;
}

/* ---- upcall slots: round-robin between users ---------------------------- */

/*
 * A request waits on its user's dns_waiting list; users with waiting
 * requests and a free share take turns on rai_dns_turns.  Whenever a slot
 * is free, the user at the head of the turns gets it for its oldest
 * request and goes to the tail; a user at max_upcalls_per_user leaves the
 * turns until one of its upcalls ends.  A request holding a slot has its
 * work queued on rai_dns_wq (max_active = max_upcalls: it runs at once).
 */
static DEFINE_SPINLOCK(rai_dns_slot_lock);
static LIST_HEAD(rai_dns_turns);
static unsigned int rai_dns_slots_busy;
/*
 * Set once by rai_dns_exit(), under the slot lock: from then on nobody
 * gathers, so rai_dns_dispatch() never arms rai_dns_gather_work again
 * and the requests that the last upcalls still hand back run at once.
 */
static bool rai_dns_stopping;

static bool rai_dns_gathering(struct rai_user *user, unsigned long *until);
static void rai_dns_gather_end(struct work_struct *work);
/* Dispatches again when a user's gathering ends (see "batches" below). */
static DECLARE_DELAYED_WORK(rai_dns_gather_work, rai_dns_gather_end);

static void rai_dns_dispatch(void)
{
	unsigned int per_user = READ_ONCE(rai_max_upcalls_per_user);
	unsigned long until, next = 0;
	struct rai_request *req;
	struct rai_user *user;
	bool held = false;
	LIST_HEAD(gathering);

	lockdep_assert_held(&rai_dns_slot_lock);
	while (rai_dns_slots_busy < rai_max_upcalls &&
	       !list_empty(&rai_dns_turns)) {
		user = list_first_entry(&rai_dns_turns, struct rai_user,
					dns_turn);
		list_del_init(&user->dns_turn);
		if (user->nr_upcalls >= per_user)
			continue;	/* back in turn when one of its ends */
		if (rai_dns_gathering(user, &until)) {
			list_add_tail(&user->dns_turn, &gathering);
			if (!held || time_before(until, next))
				next = until;
			held = true;
			continue;
		}
		req = list_first_entry(&user->dns_waiting, struct rai_request,
				       slot_entry);
		list_del_init(&req->slot_entry);
		if (!list_empty(&user->dns_waiting))
			list_add_tail(&user->dns_turn, &rai_dns_turns);
		req->dns_slot = true;
		user->nr_upcalls++;
		user->dns_dispatched = jiffies;
		rai_dns_slots_busy++;
		/* The queue's reference goes with the work. */
		queue_work(rai_dns_wq, &req->work);
	}
	/* Users still gathering keep their place, ahead of those served. */
	list_splice(&gathering, &rai_dns_turns);
	if (held)
		mod_delayed_work(rai_dns_timeout_wq, &rai_dns_gather_work,
				 time_after(next, jiffies) ? next - jiffies : 0);
}

static void rai_dns_slot_wait(struct rai_request *req)
{
	struct rai_user *user = req->user;

	spin_lock(&rai_dns_slot_lock);
	if (rai_dns_slots_busy >= rai_max_upcalls ||
	    user->nr_upcalls >= READ_ONCE(rai_max_upcalls_per_user))
		rai_stat_inc(RAI_STAT_DNS_THROTTLED);
	list_add_tail(&req->slot_entry, &user->dns_waiting);
	if (list_empty(&user->dns_turn))
		list_add_tail(&user->dns_turn, &rai_dns_turns);
	rai_dns_dispatch();
	spin_unlock(&rai_dns_slot_lock);
}

/* Take a request that has no slot yet off its user's list. */
static bool rai_dns_slot_unwait(struct rai_request *req)
{
	struct rai_user *user = req->user;
	bool waiting;

	spin_lock(&rai_dns_slot_lock);
	waiting = !list_empty(&req->slot_entry);
	if (waiting) {
		list_del_init(&req->slot_entry);
		if (list_empty(&user->dns_waiting))
			list_del_init(&user->dns_turn);
	}
	spin_unlock(&rai_dns_slot_lock);
	return waiting;
}

/*
 * Give back the slot @req holds.  Only a request that rai_dns_dispatch()
 * gave a slot has one (@dns_slot, under the slot lock), and it gives it
 * back once: a call for a request without one does nothing.
 */
static void rai_dns_slot_release(struct rai_request *req)
{
	struct rai_user *user = req->user;

	spin_lock(&rai_dns_slot_lock);
	if (!req->dns_slot) {
		spin_unlock(&rai_dns_slot_lock);
		return;
	}
	req->dns_slot = false;
	user->nr_upcalls--;
	rai_dns_slots_busy--;
	if (!list_empty(&user->dns_waiting) && list_empty(&user->dns_turn))
		list_add_tail(&user->dns_turn, &rai_dns_turns);
	rai_dns_dispatch();
	spin_unlock(&rai_dns_slot_lock);
}

/* ---- the module's dns_resolver keys --------------------------------------- */

/*
 * Every upcall creates dns_resolver keys as root, charged to root's key
 * quota (/proc/key-users), which NFS, CIFS and root's own keys share.
 * They are reaped as soon as they expire (KEY_TYPE_INSTANT_REAP, no
 * key_gc_delay): a positive key after its TTL (our helper's: at least
 * 5 s, see rai_dns_helper_query()), a negative one after the
 * helper's rejection timeout (at most RAI_DNS_NEG_KEY_S assumed: request-
 * key's own and keyutils' is 60 s).  The module keeps a record of each
 * name it asked for that may have left a key, charged to the requesting
 * user until that key expires (a record of a name still being asked for
 * does not expire): at most dns_max_keys in all and
 * dns_max_keys_per_user per user.  A name with a live record is answered
 * from the keyring (no new key); a new name beyond a budget fails with
 * -EAGAIN without an upcall; beyond half a budget a positive answer's key
 * is invalidated once read, so it is reaped at once and costs nothing.
 */
#define RAI_DNS_NEG_KEY_S	60
#define RAI_DNS_KEY_HASH_BITS	8

struct rai_dns_key {
	struct hlist_node hnode;
	struct list_head entry;
	struct rai_user *user;
	const struct net *net;	/* compared, never dereferenced */
	time64_t expiry;
	unsigned int nr;
	u32 len;
	char name[];
};

static DEFINE_SPINLOCK(rai_dns_key_lock);
static DEFINE_HASHTABLE(rai_dns_keys, RAI_DNS_KEY_HASH_BITS);
static LIST_HEAD(rai_dns_key_list);
static unsigned int rai_dns_nr_keys;
static time64_t rai_dns_key_next_expiry;

static void rai_dns_key_drop(struct rai_dns_key *key)
{
	lockdep_assert_held(&rai_dns_key_lock);
	hash_del(&key->hnode);
	list_del(&key->entry);
	rai_dns_nr_keys -= key->nr;
	key->user->nr_keys -= key->nr;
	rai_user_put(key->user);
	kfree(key);
}

static void rai_dns_key_reap(time64_t now)
{
	struct rai_dns_key *key, *tmp;
	time64_t next = TIME64_MAX;

	lockdep_assert_held(&rai_dns_key_lock);
	if (now < rai_dns_key_next_expiry)
		return;
	list_for_each_entry_safe(key, tmp, &rai_dns_key_list, entry) {
		if (key->expiry <= now)
			rai_dns_key_drop(key);
		else
			next = min(next, key->expiry);
	}
	rai_dns_key_next_expiry = next;
}

static u32 rai_dns_key_hash(const struct rai_request *req)
{
	return jhash(req->node, req->node_len,
		     (u32)(unsigned long)req->file->net);
}

/*
 * Before asking for req->node: NULL when a live record of the name exists
 * (the keyring has its key), else a new record charged to the user, or
 * ERR_PTR(-EAGAIN) when a budget is spent.  *invalidate: beyond half a
 * budget.
 */
static struct rai_dns_key *rai_dns_key_charge(struct rai_request *req,
					      bool *invalidate)
{
	unsigned int max = READ_ONCE(rai_dns_max_keys);
	unsigned int umax = READ_ONCE(rai_dns_max_keys_per_user);
	/* The rai: key, and the plain one should our helper be missing. */
	unsigned int nr = READ_ONCE(rai_dns_helper) ? 2 : 1;
	time64_t now = ktime_get_real_seconds();
	struct rai_user *user = req->user;
	u32 hash = rai_dns_key_hash(req);
	struct rai_dns_key *key, *new;

	new = kmalloc(struct_size(new, name, req->node_len), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	spin_lock(&rai_dns_key_lock);
	rai_dns_key_reap(now);
	hash_for_each_possible(rai_dns_keys, key, hnode, hash) {
		if (key->net == req->file->net && key->len == req->node_len &&
		    !memcmp(key->name, req->node, key->len) &&
		    key->expiry > now) {
			spin_unlock(&rai_dns_key_lock);
			kfree(new);
			return NULL;
		}
	}
	if (rai_dns_nr_keys + nr > max || user->nr_keys + nr > umax) {
		spin_unlock(&rai_dns_key_lock);
		kfree(new);
		rai_stat_inc(RAI_STAT_DNS_KEYS_FULL);
		return ERR_PTR(-EAGAIN);
	}
	*invalidate = rai_dns_nr_keys + nr > max / 2 ||
		      user->nr_keys + nr > umax / 2;
	new->net = req->file->net;
	new->len = req->node_len;
	memcpy(new->name, req->node, new->len);
	new->nr = nr;
	/*
	 * Never reaped while its upcall runs, however long: the upcall
	 * settles (or drops) this record when it ends.
	 */
	new->expiry = TIME64_MAX;
	refcount_inc(&user->ref);
	new->user = user;
	user->nr_keys += nr;
	rai_dns_nr_keys += nr;
	hash_add(rai_dns_keys, &new->hnode, hash);
	list_add_tail(&new->entry, &rai_dns_key_list);
	spin_unlock(&rai_dns_key_lock);
	return new;
}

/* dns_query() calls in progress. */
static atomic_t rai_upcalls_active = ATOMIC_INIT(0);

static u64 rai_dns_upcalls_running(void)
{
	return atomic_read(&rai_upcalls_active);
}

/* Upcall slots held now; 0 when no upcall runs. */
static u64 rai_dns_slots_in_use(void)
{
	return READ_ONCE(rai_dns_slots_busy);
}

/* Keys the records stand for now. */
static u64 rai_dns_keys_charged(void)
{
	return READ_ONCE(rai_dns_nr_keys);
}

static struct rai_stats_gauge rai_dns_gauges[] = {
	{ .name = "upcalls_active", .read = rai_dns_upcalls_running },
	{ .name = "dns_slots_busy", .read = rai_dns_slots_in_use },
	{ .name = "dns_keys", .read = rai_dns_keys_charged },
};

/* After the answer: the record lives as long as the key it stands for. */
static void rai_dns_key_settle(struct rai_dns_key *key, int ret,
			       time64_t expiry, bool invalidated)
{
	if (!key)
		return;
	spin_lock(&rai_dns_key_lock);
	if (ret == -EINVAL || (ret >= 0 && invalidated)) {
		rai_dns_key_drop(key);		/* no key left behind */
	} else {
		if (ret < 0)
			expiry = ktime_get_real_seconds() + RAI_DNS_NEG_KEY_S;
		else if (!expiry)
			expiry = TIME64_MAX;	/* a key that never expires */
		key->expiry = expiry;
		rai_dns_key_next_expiry = min(rai_dns_key_next_expiry,
					      key->expiry);
	}
	spin_unlock(&rai_dns_key_lock);
}

/* ---- requests ------------------------------------------------------------- */

/*
 * Results of @answer for @req (the caller's memory charged), and the
 * request completed.
 */
static void rai_dns_complete(struct rai_request *req,
			     const struct rai_dns_answer *answer)
{
	struct rdma_addrinfo_result *results = NULL;
	time64_t now = ktime_get_real_seconds();
	struct mem_cgroup *old_memcg;
	u32 nr = 0, ttl = 0;
	int ret = answer->status;

	if (!ret) {
		if (answer->expiry > now)
			ttl = min_t(time64_t, answer->expiry - now, U32_MAX);
		old_memcg = rai_request_charge_begin(req);
		ret = rai_dns_parse(req, answer->list, ttl, answer->origin,
				    &results, &nr);
		rai_request_charge_end(old_memcg);
	}
	rai_request_complete(req, ret, results, nr);
}

static void rai_dns_refresh(struct net *net, const char *name, u32 len);

/*
 * A live answer in the cache: @req completed with it.  @first: the look
 * in RESOLVE, which also refreshes a helper's answer past half its TTL;
 * @count_miss: a miss is counted (a request's first look that can wait).
 */
static bool rai_dns_answer_cached(struct rai_request *req, bool first,
				  bool count_miss)
{
	bool helper = READ_ONCE(rai_dns_helper), refresh;
	struct rai_dns_answer answer;
	struct rai_dns_cached *entry;

	entry = rai_dns_cache_get(req->file->net, helper, req->node,
				  req->node_len, count_miss, &answer,
				  first && helper ? &refresh : NULL);
	if (!entry)
		return false;
	rai_dns_complete(req, &answer);
	rai_dns_cache_put(entry);
	if (first && helper && refresh)
		rai_dns_refresh(req->file->net, req->node, req->node_len);
	return true;
}

/* Keep what the upcall answered: addresses, or that there are none. */
static void rai_dns_remember(const struct net *net, bool helper,
			     const char *name, u32 len, int ret,
			     const char *list, u32 origin, time64_t expiry)
{
	struct rai_dns_answer answer = {
		.status = ret < 0 ? ret : 0,
		.list = ret < 0 ? NULL : list,
		.origin = origin,
		.expiry = expiry,
	};

	if (ret == -ENXIO || ret == -ENODATA)
		answer.expiry = ktime_get_real_seconds() +
				rai_dns_negative_ttl();
	else if (ret < 0)
		return;		/* temporary */
	/* rai_dns_cache_store() keeps nothing without a lifetime left. */
	rai_dns_cache_store(net, helper, name, len, &answer);
}

/*
 * One name, one upcall: @answer for @req->node (@answer->list allocated in
 * *@list).
 */
static void rai_dns_ask_one(struct rai_request *req, bool helper,
			    struct rai_dns_answer *answer, char **list)
{
	bool invalidate = false;
	struct rai_dns_key *key;
	time64_t expiry = 0, valid = 0;
	u32 origin = 0;
	u64 t0;
	int ret;

	key = rai_dns_key_charge(req, &invalidate);
	if (IS_ERR(key)) {
		answer->status = PTR_ERR(key);
		return;
	}
	atomic_inc(&rai_upcalls_active);
	rai_stat_inc(RAI_STAT_DNS_QUERIES);
	t0 = ktime_get_ns();
	/*
	 * An upcall may never return (a helper that hangs): while one runs,
	 * rmmod fails with EBUSY rather than wait for it in rai_dns_exit().
	 * The module going away means every file is closed: skip it.
	 */
	if (try_module_get(THIS_MODULE)) {
		ret = rai_dns_query(req, list, &expiry, &valid, &origin,
				    invalidate);
		module_put(THIS_MODULE);
	} else {
		ret = -ESHUTDOWN;
	}
	trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	rai_dns_key_settle(key, ret, expiry, invalidate);

	if (ret < 0) {
		rai_stat_inc(RAI_STAT_DNS_FAILURES);
		pr_debug("dns_query(%s): %d\n", req->node, ret);
		ret = rai_dns_status(ret);
	}
	rai_dns_remember(req->file->net, helper, req->node, req->node_len,
			 ret, *list, origin, valid);
	answer->status = ret < 0 ? ret : 0;
	answer->list = *list;
	answer->origin = origin;
	answer->expiry = valid;
}

/* ---- batches: the names of a user's waiting requests in one upcall ---- */

static unsigned int rai_dns_batch_names = RAI_DNS_BATCH_MAX;

static time64_t rai_dns_batch_off_until;

/* Writing it also ends a back-off (RAI_DNS_BATCH_BACKOFF_S). */
static int rai_dns_batch_names_set(const char *val,
				   const struct kernel_param *kp)
{
	int ret = param_set_uint_minmax(val, kp, 1, RAI_DNS_BATCH_MAX);

	if (!ret)
		WRITE_ONCE(rai_dns_batch_off_until, 0);
	return ret;
}

static const struct kernel_param_ops rai_dns_batch_names_ops = {
	.set = rai_dns_batch_names_set,
	.get = param_get_uint,
};

module_param_cb(dns_batch_names, &rai_dns_batch_names_ops,
		&rai_dns_batch_names, 0644);
MODULE_PARM_DESC(dns_batch_names,
		 "Names of one user's waiting DNS requests asked for in one upcall, at most (1: one name per upcall; default and most 64)");

/* A helper that did not answer a batch is not asked for one for a while. */
#define RAI_DNS_BATCH_BACKOFF_S	60

static atomic64_t rai_dns_batch_seq;
static u32 rai_dns_batch_boot;

/*
 * How long a user's request waits for others to share its upcall while
 * the user already has one in progress.  A name asked alone gets its
 * upcall at once; names asked together, a burst of rdma_resolve_addrinfo()
 * or threads each with a name, go in a few batches instead of a process
 * pair each (the processes, not the names, cost the time).
 */
static unsigned int rai_dns_batch_wait_ms = 10;
RAI_PARAM_RANGE(dns_batch_wait_ms, 0, 10000);
module_param_cb(dns_batch_wait_ms, &rai_param_ops_dns_batch_wait_ms,
		&rai_dns_batch_wait_ms, 0644);
MODULE_PARM_DESC(dns_batch_wait_ms,
		 "While a user has a DNS upcall in progress, its waiting requests wait up to this long for others to share their upcall; 0: a slot each at once (default 10)");

/* Whether the helper is asked for batches (dns_batch_names, back-off). */
static bool rai_dns_batches_on(void)
{
	return READ_ONCE(rai_dns_batch_names) >= 2 && READ_ONCE(rai_dns_helper) &&
	       ktime_get_real_seconds() >= READ_ONCE(rai_dns_batch_off_until);
}

/*
 * Whether @user's waiting requests should wait a little longer for others
 * to join them in one upcall: while the user has an upcall in progress,
 * until dns_batch_wait_ms after the oldest began to wait or after the
 * user's last upcall started, whichever is later (that upcall's batch
 * takes the requests waiting when it starts: the next one waits again).
 * *@until: when that wait ends.
 */
static bool rai_dns_gathering(struct rai_user *user, unsigned long *until)
{
	unsigned int wait_ms = READ_ONCE(rai_dns_batch_wait_ms);
	struct rai_request *req;
	unsigned long since;

	lockdep_assert_held(&rai_dns_slot_lock);
	if (rai_dns_stopping || !user->nr_upcalls || !wait_ms ||
	    !rai_dns_batches_on())
		return false;
	req = list_first_entry(&user->dns_waiting, struct rai_request,
			       slot_entry);
	since = req->started;
	if (time_after(user->dns_dispatched, since))
		since = user->dns_dispatched;
	*until = since + msecs_to_jiffies(wait_ms);
	return time_before(jiffies, *until);
}

static void rai_dns_gather_end(struct work_struct *work)
{
	spin_lock(&rai_dns_slot_lock);
	rai_dns_dispatch();
	spin_unlock(&rai_dns_slot_lock);
}

/*
 * @req, which holds a slot, and the requests of its user waiting for one
 * in the same network namespace, oldest first, up to dns_batch_names, all
 * with names a batch can carry: they leave the wait with their slot
 * queue's reference.  NULL when there are
 * none (or batches are off).
 */
static struct rai_dns_batch *rai_dns_batch_collect(struct rai_request *req)
{
	unsigned int max = READ_ONCE(rai_dns_batch_names);
	struct rai_user *user = req->user;
	struct rai_dns_batch *batch;
	struct rai_request *r, *tmp;

	if (!rai_dns_batches_on() ||
	    !rai_dns_batch_name_ok(req->node, req->node_len))
		return NULL;
	batch = kzalloc(sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return NULL;
	rai_dns_batch_add(batch, req, req->node, req->node_len);
	spin_lock(&rai_dns_slot_lock);
	list_for_each_entry_safe(r, tmp, &user->dns_waiting, slot_entry) {
		if (batch->nr_reqs == max)
			break;
		if (r->file->net != req->file->net ||
		    !rai_dns_batch_name_ok(r->node, r->node_len))
			continue;
		list_del_init(&r->slot_entry);
		rai_dns_batch_add(batch, r, r->node, r->node_len);
	}
	if (list_empty(&user->dns_waiting))
		list_del_init(&user->dns_turn);
	spin_unlock(&rai_dns_slot_lock);
	if (batch->nr_reqs == 1) {
		kfree(batch);
		return NULL;
	}
	return batch;
}

/*
 * The batch could not be asked for: its other requests wait again, at the
 * head of their user's queue, each for a slot of its own.
 */
static void rai_dns_batch_requeue(struct rai_dns_batch *batch)
{
	struct rai_user *user = batch->reqs[0]->user;
	unsigned int i;

	spin_lock(&rai_dns_slot_lock);
	for (i = batch->nr_reqs - 1; i > 0; i--)
		list_add(&batch->reqs[i]->slot_entry, &user->dns_waiting);
	if (list_empty(&user->dns_turn))
		list_add_tail(&user->dns_turn, &rai_dns_turns);
	spin_unlock(&rai_dns_slot_lock);
	batch->nr_reqs = 1;
	batch->nr_names = 1;
}

/*
 * Ask our helper for every name of @batch in one upcall, in @net, on
 * behalf of @req (its first request, holding the slot; NULL for a
 * refresh).  The answers point into *@payload and are kept in the cache.
 * A helper that does not answer batches turns them off for
 * RAI_DNS_BATCH_BACKOFF_S.
 */
static int rai_dns_ask_batch(struct net *net, struct rai_request *req,
			     struct rai_dns_batch *batch, char **payload)
{
	time64_t expiry = 0, now;
	unsigned int i;
	char desc[32];
	char *callout;
	int len, ret;
	u64 t0;

	callout = rai_dns_batch_callout(batch);
	if (!callout)
		return -ENOMEM;
	len = snprintf(desc, sizeof(desc),
		       RDMA_ADDRINFO_UPCALL_BATCH_PREFIX "%08x-%llx", rai_dns_batch_boot,
		       (unsigned long long)atomic64_inc_return(&rai_dns_batch_seq));
	atomic_inc(&rai_upcalls_active);
	rai_stat_inc(RAI_STAT_DNS_QUERIES);
	t0 = ktime_get_ns();
	if (try_module_get(THIS_MODULE)) {
		/* Read once: invalidated, nothing is left in the keyring. */
		ret = rai_dns_query_type(net, RAI_DNS_HELPER_TYPE, desc, len,
					 callout, payload, &expiry, true);
		module_put(THIS_MODULE);
	} else {
		ret = -ESHUTDOWN;
	}
	if (req)
		trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	kfree(callout);

	now = ktime_get_real_seconds();
	if (ret >= 0)
		ret = rai_dns_batch_parse(batch, *payload, now);
	if (ret < 0) {
		rai_stat_inc(RAI_STAT_DNS_BATCH_REFUSED);
		if (ret != -ENOMEM && ret != -ESHUTDOWN) {
			WRITE_ONCE(rai_dns_batch_off_until,
				   now + RAI_DNS_BATCH_BACKOFF_S);
			pr_notice_ratelimited("DNS helper did not answer a batch of names (%d): one name per upcall for %d s\n",
					      ret, RAI_DNS_BATCH_BACKOFF_S);
		}
		return ret;
	}
	/* A refresh (no @req) counts as dns_refreshes, by its caller. */
	if (req)
		rai_stat_inc(RAI_STAT_DNS_BATCHES);
	for (i = 0; i < batch->nr_names; i++) {
		struct rai_dns_batch_name *bn = &batch->names[i];
		int status = bn->answer.status;

		bn->answer.origin = RDMA_ADDRINFO_ORIGIN_DNS;
		if (req)
			rai_stat_inc(RAI_STAT_DNS_BATCH_NAMES);
		if (status) {
			rai_stat_inc(RAI_STAT_DNS_FAILURES);
			if (!rai_dns_helper_answered(status))
				bn->answer.status = -EAGAIN;
		}
		rai_dns_remember(net, true, bn->name, bn->len,
				 bn->answer.status, bn->answer.list,
				 bn->answer.origin, bn->answer.expiry);
	}
	return 0;
}

/* ---- refresh ahead: a name in use never expires from the cache -------- */

/*
 * A helper's answer asked for after half its TTL is asked for again in the
 * background, as a batch of one name (a fresh key, whatever the keyring
 * holds), so that the requests that follow are still answered from the
 * cache.  At most RAI_DNS_REFRESH_MAX at once, beside the upcall slots;
 * each answer is refreshed once (the new answer may be again).
 */
#define RAI_DNS_REFRESH_MAX	4

static atomic_t rai_dns_refreshing = ATOMIC_INIT(0);

struct rai_dns_refresh {
	struct work_struct work;
	struct net *net;
	struct rai_dns_batch batch;
	char name[];
};

static void rai_dns_refresh_work(struct work_struct *work)
{
	struct rai_dns_refresh *r = container_of(work, struct rai_dns_refresh,
						 work);
	char *payload = NULL;

	if (!rai_dns_ask_batch(r->net, NULL, &r->batch, &payload) &&
	    !r->batch.names[0].answer.status)
		rai_stat_inc(RAI_STAT_DNS_REFRESHES);
	kfree(payload);
	put_net(r->net);
	kfree(r);
	atomic_dec(&rai_dns_refreshing);
}

static void rai_dns_refresh(struct net *net, const char *name, u32 len)
{
	struct rai_dns_refresh *r;

	if (ktime_get_real_seconds() < READ_ONCE(rai_dns_batch_off_until) ||
	    !rai_dns_batch_name_ok(name, len))
		return;		/* the helper answers no batch, or not of it */
	if (atomic_inc_return(&rai_dns_refreshing) > RAI_DNS_REFRESH_MAX)
		goto out;
	r = kzalloc(struct_size(r, name, len + 1), GFP_KERNEL);
	if (!r)
		goto out;
	memcpy(r->name, name, len);
	r->batch.names[0].name = r->name;
	r->batch.names[0].len = len;
	r->batch.nr_names = 1;
	r->net = get_net(net);
	INIT_WORK(&r->work, rai_dns_refresh_work);
	queue_work(rai_dns_wq, &r->work);
	return;
out:
	atomic_dec(&rai_dns_refreshing);
}

/* ---- requests, continued -------------------------------------------------- */

/*
 * The end of a request the slot queue handed over: completed with
 * @answer if it is still pending, its timer and the queue's reference
 * dropped.
 */
static void rai_dns_finish(struct rai_request *req,
			   const struct rai_dns_answer *answer)
{
	if (answer && READ_ONCE(req->state) == RAI_REQ_PENDING)
		rai_dns_complete(req, answer);
	if (cancel_delayed_work(&req->timeout))
		rai_request_put(req);
	rai_request_put(req);
}

static void rai_dns_work(struct work_struct *work)
{
	struct rai_request *req = container_of(work, struct rai_request, work);
	bool helper = READ_ONCE(rai_dns_helper);
	struct rai_dns_answer answer = {};
	struct rai_dns_batch *batch;
	char *list = NULL;
	unsigned int i;

	/* Destroyed, or timed out, while waiting for the slot. */
	if (READ_ONCE(req->state) != RAI_REQ_PENDING) {
		rai_dns_slot_release(req);
		rai_dns_finish(req, NULL);
		return;
	}
	/* Answered while this request waited for its slot. */
	if (rai_dns_answer_cached(req, false, false)) {
		rai_dns_slot_release(req);
		rai_dns_finish(req, NULL);
		return;
	}
	batch = rai_dns_batch_collect(req);
	if (batch && batch->nr_names > 1) {
		if (!rai_dns_ask_batch(req->file->net, req, batch, &list)) {
			rai_dns_slot_release(req);
			for (i = 0; i < batch->nr_reqs; i++)
				rai_dns_finish(batch->reqs[i],
					       &batch->names[batch->name_of[i]].answer);
			goto out;
		}
		rai_dns_batch_requeue(batch);
		kfree(list);
		list = NULL;
	}
	rai_dns_ask_one(req, helper, &answer, &list);
	rai_dns_slot_release(req);
	/* The slot holder, and those asking for the same name. */
	rai_dns_finish(req, &answer);
	for (i = 1; batch && i < batch->nr_reqs; i++)
		rai_dns_finish(batch->reqs[i], &answer);
out:
	kfree(batch);
	kfree(list);
}

static void rai_dns_timeout(struct work_struct *work)
{
	struct rai_request *req = container_of(to_delayed_work(work),
					       struct rai_request, timeout);

	if (rai_request_complete(req, -ETIMEDOUT, NULL, 0))
		rai_stat_inc(RAI_STAT_DNS_TIMEOUTS);
	/* Its turn for a slot goes to the next request. */
	if (rai_dns_slot_unwait(req))
		rai_request_put(req);
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
 * The root the host's resolver sees: that of init (PID 1 of the initial
 * PID namespace), which after an initramfs's switch_root is the real root
 * (swapper's may still be the initramfs).
 */
static bool rai_dns_host_root(struct path *root)
{
	struct task_struct *init;
	bool ok = false;

	rcu_read_lock();
	init = READ_ONCE(init_pid_ns.child_reaper);
	if (init)
		get_task_struct(init);
	rcu_read_unlock();
	if (!init)
		return false;
	task_lock(init);
	if (init->fs) {
		get_fs_root(init->fs, root);
		ok = true;
	}
	task_unlock(init);
	put_task_struct(init);
	return ok;
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
	if (!rai_dns_host_root(&host))
		return false;
	get_fs_root(current->fs, &mine);
	if (!path_equal(&mine, &host))
		for (i = 0; same && i < ARRAY_SIZE(rai_dns_view_files); i++)
			same = rai_dns_same_file(&host, rai_dns_view_files[i]);
	path_put(&mine);
	path_put(&host);
	return same;
}

/* May @req be answered from the host's resolver (dns_host_view, or same view)? */
static bool rai_dns_view_ok(const struct rai_request *req)
{
	return READ_ONCE(rai_dns_host_view) || rai_dns_same_view(req);
}

/* In the RESOLVE ioctl, before the request is published. */
static void rai_dns_prepare(struct rai_request *req)
{
	INIT_DELAYED_WORK(&req->timeout, rai_dns_timeout);
	INIT_WORK(&req->work, rai_dns_work);
}

/*
 * In the RESOLVE ioctl, in the caller's context.  A request from another
 * view than the host's is refused here, completed inline: it never holds
 * a slot, a timer or a work item, so a cancel finds nothing to give back.
 * The deadline runs from here: the wait for a slot counts, so that no
 * request waits longer than dns_timeout_ms for anything.
 */
static void rai_dns_start(struct rai_request *req)
{
	unsigned int timeout_ms = READ_ONCE(rai_dns_timeout_ms);

	if (!rai_dns_view_ok(req)) {
		rai_stat_inc(RAI_STAT_DNS_VIEW_REFUSED);
		pr_notice_once("DNS names refused for a process in a container (another network namespace or /etc); dns_host_view=Y answers them from the host's resolver\n");
		rai_request_complete(req, -EPERM, NULL, 0);
		return;
	}
	/* Served here, in the RESOLVE ioctl: the event is queued at once. */
	if (rai_dns_answer_cached(req, true, true))
		return;
	if (timeout_ms) {
		rai_request_get(req);
		queue_delayed_work(rai_dns_timeout_wq, &req->timeout,
				   msecs_to_jiffies(timeout_ms));
	}
	rai_request_get(req);		/* the slot queue's */
	rai_dns_slot_wait(req);
}

/*
 * RESOLVE_RESULTS of a name with a live answer: served in the ioctl.  A
 * miss is counted by the request that then goes to the resolver; a caller
 * refused its view never gets an answer from the cache either.
 */
static bool rai_dns_answer_now(struct rai_request *req)
{
	return rai_dns_view_ok(req) && rai_dns_answer_cached(req, true, false);
}

/* Process context, no locks held; the caller holds a reference. */
static void rai_dns_cancel(struct rai_request *req)
{
	if (rai_dns_slot_unwait(req))
		rai_request_put(req);
	/*
	 * Given a slot, not yet running: the slot goes back (the work is
	 * queued only with a slot; rai_dns_slot_release() checks anyway).
	 */
	if (cancel_work(&req->work)) {
		rai_dns_slot_release(req);
		rai_request_put(req);
	}
	if (cancel_delayed_work(&req->timeout))
		rai_request_put(req);
}

const struct rai_backend_ops rai_dns_ops = {
	.name = "dns",
	.feature = RDMA_ADDRINFO_FEATURE_DNS,
	.prepare = rai_dns_prepare,
	.start = rai_dns_start,
	.cancel = rai_dns_cancel,
	.answer_now = rai_dns_answer_now,
};

int rai_dns_init(void)
{
	unsigned int i;

	rai_dns_key_next_expiry = TIME64_MAX;
	rai_dns_batch_boot = get_random_u32();
	rai_dns_timeout_wq = alloc_workqueue("rai", WQ_UNBOUND, 0);
	if (!rai_dns_timeout_wq)
		return -ENOMEM;
	/* Each slot's upcall, and the refreshes beside them, run at once. */
	rai_dns_wq = alloc_workqueue("rai_dns", WQ_UNBOUND,
				     rai_max_upcalls + RAI_DNS_REFRESH_MAX);
	if (!rai_dns_wq)
		goto err_timeout_wq;
	for (i = 0; i < ARRAY_SIZE(rai_dns_gauges); i++)
		rai_stats_gauge_add(&rai_dns_gauges[i]);
	rai_dns_cache_init();
	return 0;

err_timeout_wq:
	destroy_workqueue(rai_dns_timeout_wq);
	return -ENOMEM;
}

/*
 * After every file is closed (no request waits for a slot, except those
 * that a batch that could not be asked hands back): stops gathering, so
 * that nothing arms rai_dns_gather_work again once it is cancelled; waits
 * for upcalls still in progress and the requests they hand back, then
 * forgets the key records; last, waits for time-outs still running.
 */
void rai_dns_exit(void)
{
	struct rai_dns_key *key, *tmp;
	unsigned int i;

	spin_lock(&rai_dns_slot_lock);
	rai_dns_stopping = true;
	spin_unlock(&rai_dns_slot_lock);
	cancel_delayed_work_sync(&rai_dns_gather_work);
	destroy_workqueue(rai_dns_wq);
	rai_dns_cache_exit();
	for (i = 0; i < ARRAY_SIZE(rai_dns_gauges); i++)
		rai_stats_gauge_del(&rai_dns_gauges[i]);
	spin_lock(&rai_dns_key_lock);
	list_for_each_entry_safe(key, tmp, &rai_dns_key_list, entry)
		rai_dns_key_drop(key);
	spin_unlock(&rai_dns_key_lock);
	destroy_workqueue(rai_dns_timeout_wq);
}
