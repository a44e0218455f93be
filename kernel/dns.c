// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the DNS backend.
 *
 * The DNS wing, a file per concern: this one is the backend (requests,
 * asking for one name or a batch of them, refresh ahead, time-outs);
 * dns_slots.c hands out the upcall slots and gathers batches;
 * dns_upcall.c asks dns_query() and chooses the helper; dns_answer.c
 * parses an answer once; dns_cache.c keeps answers; dns_keys.c bounds
 * the keys left behind; dns_view.c says whose view the upcall answers
 * from; dns_batch.c speaks the batch protocol; dns_resident.c and
 * dns_resident_queue.c serve resident resolvers.
 *
 * Names go to the kernel's dns_resolver key type: dns_query() with the
 * option "list" (every A and AAAA address, comma-separated), in the
 * network namespace of the file's opener.  dns_query() sleeps until the
 * request-key upcall has answered, so it runs on a workqueue, in one of
 * max_upcalls slots (each upcall is a root process), handed out
 * round-robin between users, at most max_upcalls_per_user to one user
 * (kernel/dns_slots.c).  Answers are cached in the keyring for the
 * key's lifetime; a cached name costs no upcall.  The module keeps the
 * answers too (kernel/dns_cache.c) and serves a name it has inside the
 * RESOLVE ioctl, before any slot or keyring search.  The keys count against
 * root's key quota: the module bounds those it leaves behind
 * (kernel/dns_keys.c).
 *
 * Batches: the request given a slot takes its user's waiting requests
 * along (kernel/dns_slots.c gathers them); their names go to our helper
 * in one upcall, resolved there in parallel, and requests for the same
 * name share one answer.  The batch's key is read once and invalidated,
 * and each name's answer is kept in the module's cache for the TTL the
 * helper read from DNS.  If the helper does not answer a batch (it is
 * older, or key.dns_resolver got the key), every name is asked for on its
 * own, and batches stay off for RAI_DNS_BATCH_BACKOFF_S.
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
 * Resident resolvers (kernel/dns_resident.c) come first: a request the
 * cache cannot answer goes to the resolver registered for the caller's
 * network namespace and view, if there is one, and comes back here (to
 * rai_dns_to_upcall()) when that resolver is full, closes or misses its
 * deadline.  Their answers are cached under their view.
 *
 * Containers: the upcall answers from the host's view; a request from
 * another view without a resolver of its own completes with -EPERM
 * (counted as dns_view_refused), unless dns_host_view is set
 * (kernel/dns_view.c).  Numeric literals need no upcall and are not
 * affected.
 *
 * Locking: no lock of its own.  A request's state is its file's
 * (kernel/request.c); the slots, and the waiting lists of users and
 * requests, are dns_slots.c's (rai_dns_slot_lock); the counters here
 * (upcalls in progress, refreshes, the batch sequence) are atomic.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/rdma_addrinfo_upcall.h>

#include "backend.h"
#include "dns.h"
#include "dns_answer.h"
#include "dns_batch.h"
#include "dns_cache.h"
#include "dns_keys.h"
#include "dns_resident.h"
#include "dns_resident_queue.h"
#include "dns_slots.h"
#include "dns_upcall.h"
#include "dns_view.h"
#include "param.h"
#include "request.h"
#include "result.h"
#include "rai_trace.h"
#include "stats.h"

static struct workqueue_struct *rai_dns_wq;
/* The time-outs of DNS requests (dns_timeout_ms). */
static struct workqueue_struct *rai_dns_timeout_wq;

static unsigned int rai_dns_timeout_ms = 20000;

RAI_PARAM_RANGE(dns_timeout_ms, 0, 600000);

module_param_cb(dns_timeout_ms, &rai_param_ops_dns_timeout_ms,
		&rai_dns_timeout_ms, 0644);
MODULE_PARM_DESC(dns_timeout_ms,
		 "A DNS request still unanswered after this fails with ETIMEDOUT; 0: no limit (default 20000)");

/* dns_query() calls in progress. */
static atomic_t rai_upcalls_active = ATOMIC_INIT(0);

static u64 rai_dns_upcalls_running(void)
{
	return atomic_read(&rai_upcalls_active);
}

static struct rai_stats_gauge rai_dns_upcalls_gauge = {
	.name = "upcalls_active", .read = rai_dns_upcalls_running,
};

/* ---- one name, one upcall ------------------------------------------------ */

/*
 * One name, one upcall: @answer for @req->node, its addresses parsed
 * (the caller releases them).
 */
static void rai_dns_ask_one(struct rai_request *req, bool helper,
			    struct rai_dns_answer *answer)
{
	struct rai_dns_cache_key cache = {};
	bool invalidate = false;
	struct rai_dns_key *key;
	time64_t expiry = 0;
	u64 t0;
	int ret;

	/* The rai: key, and the plain one should our helper be missing. */
	key = rai_dns_key_charge(req->file->net, req->user, req->node,
				 req->node_len, helper ? 2 : 1, &invalidate);
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
		ret = rai_dns_upcall_name(req->file->net, req->node,
					  req->node_len, helper, invalidate,
					  answer, &expiry);
		module_put(THIS_MODULE);
	} else {
		ret = -ESHUTDOWN;
		answer->status = rai_dns_status(ret);
	}
	trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	rai_dns_key_settle(key, ret, expiry, invalidate);
	cache.net = req->file->net;
	cache.helper = helper;
	rai_dns_cache_remember(&cache, req->node, req->node_len, answer);
}

/* ---- batches: many names in one upcall ------------------------------- */

static atomic64_t rai_dns_batch_seq;
static u32 rai_dns_batch_boot;

/*
 * Ask our helper for every name of @batch in one upcall, in @net, on
 * behalf of @req (its first request, holding the slot; NULL for a
 * refresh).  Each name's answer gets its addresses parsed (released by
 * rai_dns_batch_release()) and is kept in the cache.  A helper that does
 * not answer batches turns them off for RAI_DNS_BATCH_BACKOFF_S.
 */
static int rai_dns_ask_batch(struct net *net, struct rai_request *req,
			     struct rai_dns_batch *batch)
{
	struct rai_dns_cache_key key = { .net = net, .helper = true };
	time64_t now;
	char *callout, *payload = NULL;
	unsigned int i;
	char desc[32];
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
		ret = rai_dns_upcall_batch(net, desc, len, callout, &payload);
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
		ret = rai_dns_batch_parse(batch, payload, now);
	if (ret < 0) {
		kfree(payload);
		rai_stat_inc(RAI_STAT_DNS_BATCH_REFUSED);
		if (ret != -ENOMEM && ret != -ESHUTDOWN) {
			rai_dns_batches_back_off(now);
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
		} else {
			rai_dns_answer_parse(&bn->answer, net, bn->list, false);
		}
		bn->list = NULL;
		rai_dns_cache_remember(&key, bn->name, bn->len, &bn->answer);
	}
	kfree(payload);
	return 0;
}

/* The addresses of @batch's answers (rai_dns_ask_batch()). */
static void rai_dns_batch_release(struct rai_dns_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr_names; i++)
		rai_dns_answer_release(&batch->names[i].answer);
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

	if (!rai_dns_ask_batch(r->net, NULL, &r->batch) &&
	    !r->batch.names[0].answer.status)
		rai_stat_inc(RAI_STAT_DNS_REFRESHES);
	rai_dns_batch_release(&r->batch);
	put_net(r->net);
	kfree(r);
	atomic_dec(&rai_dns_refreshing);
}

static void rai_dns_refresh(struct net *net, const char *name, u32 len)
{
	struct rai_dns_refresh *r;

	if (rai_dns_batches_backed_off() ||
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

/* ---- requests ------------------------------------------------------------- */

/* The cache's key for @req's answers. */
static void rai_dns_cache_key(const struct rai_request *req,
			      struct rai_dns_cache_key *key)
{
	key->net = req->file->net;
	key->view = req->dns.view;
	/* A resolver's answers list every address, as our helper's. */
	key->helper = req->dns.by_resident || rai_dns_helper_enabled();
}

/*
 * A live answer in the cache: @req completed with it.  @first: the look
 * in RESOLVE, which also refreshes an answer past half its TTL (from @r,
 * the caller's resident resolver, if it has one); @count_miss: a miss is
 * counted (a request's first look that can wait).
 */
static bool rai_dns_answer_cached(struct rai_request *req,
				  struct rai_resident *r, bool first,
				  bool count_miss)
{
	struct rai_dns_cache_key key;
	struct rai_dns_answer answer;
	struct rai_dns_cached *entry;
	bool refresh;

	rai_dns_cache_key(req, &key);
	entry = rai_dns_cache_get(&key, req->node, req->node_len, count_miss,
				  &answer, first && key.helper ? &refresh : NULL);
	if (!entry)
		return false;
	rai_dns_answer_complete(req, &answer);
	rai_dns_cache_put(entry);
	if (!first || !key.helper || !refresh)
		return true;
	if (r)
		rai_resident_refresh(r, req);
	else if (!key.view)
		rai_dns_refresh(req->file->net, req->node, req->node_len);
	return true;
}

static void rai_dns_work(struct work_struct *work)
{
	struct rai_request *req = container_of(work, struct rai_request, work);
	bool helper = rai_dns_helper_enabled();
	struct rai_dns_answer answer = {};
	struct rai_dns_batch *batch;
	unsigned int i;

	/* Destroyed, or timed out, while waiting for the slot. */
	if (READ_ONCE(req->state) != RAI_REQ_PENDING) {
		rai_dns_slot_release(req);
		rai_dns_answer_deliver(req, NULL);
		return;
	}
	/* Answered while this request waited for its slot. */
	if (rai_dns_answer_cached(req, NULL, false, false)) {
		rai_dns_slot_release(req);
		rai_dns_answer_deliver(req, NULL);
		return;
	}
	batch = rai_dns_batch_collect(req);
	if (batch && batch->nr_names > 1) {
		if (!rai_dns_ask_batch(req->file->net, req, batch)) {
			rai_dns_slot_release(req);
			for (i = 0; i < batch->nr_reqs; i++)
				rai_dns_answer_deliver(batch->reqs[i],
						       &batch->names[batch->name_of[i]].answer);
			rai_dns_batch_release(batch);
			goto out;
		}
		rai_dns_batch_requeue(batch);
	}
	rai_dns_ask_one(req, helper, &answer);
	rai_dns_slot_release(req);
	/* The slot holder, and those asking for the same name. */
	rai_dns_answer_deliver(req, &answer);
	for (i = 1; batch && i < batch->nr_reqs; i++)
		rai_dns_answer_deliver(batch->reqs[i], &answer);
	rai_dns_answer_release(&answer);
out:
	kfree(batch);
}

static void rai_dns_timeout(struct work_struct *work)
{
	struct rai_request *req = container_of(to_delayed_work(work),
					       struct rai_request, timeout);

	if (rai_request_complete(req, -ETIMEDOUT, NULL, 0))
		rai_stat_inc(RAI_STAT_DNS_TIMEOUTS);
	/* Its turn for a slot, or its place at a resolver, goes. */
	if (rai_dns_slot_unwait(req))
		rai_request_put(req);
	if (rai_resident_unwait(req))
		rai_request_put(req);
	rai_request_put(req);
}

/* In the RESOLVE ioctl, before the request is published. */
static void rai_dns_prepare(struct rai_request *req)
{
	INIT_DELAYED_WORK(&req->timeout, rai_dns_timeout);
	INIT_WORK(&req->work, rai_dns_work);
}

/*
 * Who may answer @req (in its RESOLVE ioctl: the caller's view is read):
 * the caller's resident resolver, returned referenced, and whether the
 * upcall may (@req->dns.upcall_ok).
 */
static struct rai_resident *rai_dns_route(struct rai_request *req)
{
	struct rai_resident *r = rai_resident_find(req);

	req->dns.upcall_ok = rai_dns_view_ok(req);
	req->dns.by_resident = r;
	req->dns.view = r ? rai_resident_view(r) : 0;
	return r;
}

/*
 * @req, holding the DNS queue's reference, to the upcall; or, when the
 * upcall must not answer it (another view), completed with -EPERM.  Also
 * the fallback of resident resolvers (kernel/dns_resident.c): any context
 * that may sleep.
 */
static void rai_dns_to_upcall(struct rai_request *req)
{
	static const struct rai_dns_answer refused = { .status = -EPERM };

	if (!req->dns.upcall_ok) {
		rai_stat_inc(RAI_STAT_DNS_VIEW_REFUSED);
		pr_notice_once("DNS names refused for a process in a container (another network namespace or /etc) without a resolver of its own; dns_host_view=Y answers them from the host's resolver\n");
		rai_dns_answer_deliver(req, &refused);
		return;
	}
	/* The upcall answers from the host's view, and asks our helper. */
	req->dns.view = 0;
	req->dns.by_resident = false;
	rai_dns_slot_wait(req);
}

/*
 * In the RESOLVE ioctl, in the caller's context.  A request that neither
 * a resident resolver nor the upcall may answer (another view than the
 * host's, without a resolver of its own) is refused here, completed
 * inline: it never holds a slot, a timer or a work item, so a cancel
 * finds nothing to give back.  The deadline runs from here: the wait for
 * a resolver or a slot counts, so that no request waits longer than
 * dns_timeout_ms for anything.
 */
static void rai_dns_start(struct rai_request *req)
{
	unsigned int timeout_ms = READ_ONCE(rai_dns_timeout_ms);
	struct rai_resident *r = rai_dns_route(req);

	if (!r && !req->dns.upcall_ok) {
		rai_stat_inc(RAI_STAT_DNS_VIEW_REFUSED);
		pr_notice_once("DNS names refused for a process in a container (another network namespace or /etc); dns_host_view=Y answers them from the host's resolver\n");
		rai_request_complete(req, -EPERM, NULL, 0);
		return;
	}
	/* Served here, in the RESOLVE ioctl: the event is queued at once. */
	if (rai_dns_answer_cached(req, r, true, true))
		goto out;
	if (timeout_ms) {
		rai_request_get(req);
		queue_delayed_work(rai_dns_timeout_wq, &req->timeout,
				   msecs_to_jiffies(timeout_ms));
	}
	rai_request_get(req);		/* the DNS queue's */
	if (!r || !rai_resident_submit(r, req))
		rai_dns_to_upcall(req);
out:
	rai_resident_put(r);
}

/*
 * RESOLVE_RESULTS of a name with a live answer: served in the ioctl.  A
 * miss is counted by the request that then goes to the resolver; a caller
 * refused its view never gets an answer from the cache either.
 */
static bool rai_dns_answer_now(struct rai_request *req)
{
	struct rai_resident *r = rai_dns_route(req);
	bool done;

	done = (r || req->dns.upcall_ok) &&
	       rai_dns_answer_cached(req, r, true, false);
	rai_resident_put(r);
	return done;
}

/* Process context, no locks held; the caller holds a reference. */
static void rai_dns_cancel(struct rai_request *req)
{
	if (rai_dns_slot_unwait(req))
		rai_request_put(req);
	if (rai_resident_unwait(req))
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
	rai_dns_batch_boot = get_random_u32();
	rai_dns_timeout_wq = alloc_workqueue("rai", WQ_UNBOUND, 0);
	if (!rai_dns_timeout_wq)
		return -ENOMEM;
	/* Each slot's upcall, and the refreshes beside them, run at once. */
	rai_dns_wq = alloc_workqueue("rai_dns", WQ_UNBOUND,
				     rai_max_upcalls + RAI_DNS_REFRESH_MAX);
	if (!rai_dns_wq)
		goto err_timeout_wq;
	if (rai_resident_init(rai_dns_to_upcall))
		goto err_wq;
	rai_stats_gauge_add(&rai_dns_upcalls_gauge);
	rai_dns_slots_init(rai_dns_wq, rai_dns_timeout_wq);
	rai_dns_keys_init();
	rai_dns_cache_init();
	return 0;

err_wq:
	destroy_workqueue(rai_dns_wq);
err_timeout_wq:
	destroy_workqueue(rai_dns_timeout_wq);
	return -ENOMEM;
}

/*
 * After every file is closed (no request waits for a slot, except those
 * that a batch that could not be asked hands back): stops gathering
 * (rai_dns_slots_stop(): the requests handed back run at once); waits
 * for upcalls still in progress and the requests they hand back, then
 * forgets the key records; last, waits for time-outs still running.
 */
void rai_dns_exit(void)
{
	rai_dns_slots_stop();
	/* Resolvers handed what they held to the slot queue at release. */
	rai_resident_exit();
	destroy_workqueue(rai_dns_wq);
	rai_dns_cache_exit();
	rai_stats_gauge_del(&rai_dns_upcalls_gauge);
	rai_dns_slots_exit();
	rai_dns_keys_exit();
	destroy_workqueue(rai_dns_timeout_wq);
}
