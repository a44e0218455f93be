// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the DNS backend: its operations, where a request goes,
 * and its time-out.
 *
 * The DNS wing, a file per concern: this one is the backend (a request's
 * start, its answer from the cache, its route to a resident resolver or
 * the upcall, its time-out and cancel, the work of an upcall slot);
 * dns_ask.c asks the upcall for one name or a batch, and refreshes
 * answers ahead; dns_slots.c hands out the upcall slots and gathers
 * batches; dns_upcall.c asks dns_query() and chooses the helper (its
 * header tells the statuses and the keys); dns_answer.c parses an answer
 * once; dns_cache.c keeps answers; dns_keys.c bounds the keys left
 * behind; dns_view.c says whose view the upcall answers from;
 * dns_batch.c speaks the batch protocol; dns_resident.c,
 * dns_resident_ioctl.c and dns_resident_queue.c serve resident resolvers.
 *
 * Names go to the kernel's dns_resolver key type: dns_query() with the
 * option "list" (every A and AAAA address), in the network namespace of
 * the file's opener.  dns_query() sleeps until the request-key upcall has
 * answered, so it runs on a workqueue, in one of max_upcalls slots (each
 * upcall is a root process), handed out round-robin between users, at
 * most max_upcalls_per_user to one user (kernel/dns_slots.c).  Answers are
 * cached in the keyring for the key's lifetime; a cached name costs no
 * upcall.  The module keeps the answers too (kernel/dns_cache.c) and
 * serves a name it has inside the RESOLVE ioctl, before any slot or
 * keyring search.  The keys count against root's key quota: the module
 * bounds those it leaves behind (kernel/dns_keys.c).
 *
 * A request that has not been answered dns_timeout_ms after RESOLVE
 * completes with -ETIMEDOUT, whether it waited for a slot or for the
 * resolver; an upcall itself cannot be interrupted and its late answer is
 * dropped (it still fills the key cache).
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
 * requests, are dns_slots.c's (rai_dns_slot_lock); a request's route
 * (struct rai_dns_request: @view, @route, @by_resident) is set in its
 * RESOLVE ioctl, before anyone else sees it, and changed only by
 * rai_dns_to_upcall(), by whoever holds the DNS queue's reference.
 */
#include <linux/fs_struct.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include "backend.h"
#include "dns.h"
#include "dns_answer.h"
#include "dns_ask.h"
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

static void rai_dns_slot_work(struct rai_request *req)
{
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

/*
 * A request's turn in an upcall slot.  What is allocated for it here (its
 * batch, the callout, parsed answers, key records) is charged to its
 * creator's memory cgroup; our own reference keeps that cgroup while it
 * is the active one, past the delivery that drops the queue's.
 */
static void rai_dns_work(struct work_struct *work)
{
	struct rai_request *req = container_of(work, struct rai_request, work);
	struct mem_cgroup *old_memcg;

	rai_request_get(req);
	old_memcg = rai_request_charge_begin(req);
	rai_dns_slot_work(req);
	rai_request_charge_end(old_memcg);
	rai_request_put(req);
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
 * Who may answer @req, decided once, in its RESOLVE ioctl (the caller's
 * view is read): the caller's resident resolver, returned referenced, and
 * whether the upcall may (@req->dns.route.upcall_ok).  A route decided by
 * answer_now in the same ioctl is taken over, with its reference.
 */
static struct rai_resident *rai_dns_route(struct rai_request *req)
{
	struct rai_dns_route *route = &req->dns.route;
	struct rai_resident *r;
	struct path root;

	if (route->known) {
		r = route->resident;
		route->resident = NULL;
	} else {
		/* The caller's root, read once for both questions. */
		get_fs_root(current->fs, &root);
		r = rai_resident_find(req, &root);
		route->upcall_ok = rai_dns_view_ok(req, &root);
		path_put(&root);
		route->known = true;
	}
	req->dns.by_resident = r;
	req->dns.view = r ? rai_resident_view(r) : 0;
	return r;
}

/*
 * A name that goes to the resolver must be a host name (the grammar is
 * rai_dns_name_valid()'s, which checks resolvers' canonical names too):
 * the dns_resolver key description is "[type:]name" and request-key's
 * callout sees it.  Checked in RESOLVE before anything is queued, so a
 * bad name never makes an upcall.
 */
static int rai_dns_check(const struct rai_names *n)
{
	return rai_dns_name_valid(n->node, n->node_len) ? 0 : -EINVAL;
}

/* A new request's (zeroed): nothing decided yet. */
static void rai_dns_init_request(struct rai_request *req,
				 const struct rai_names *n)
{
	rai_dns_request_init(&req->dns);
}

/*
 * A RESOLVE_RESULTS that answer_now could not answer goes on with @to: the
 * route @from decided, with its resolver's reference, and the cache
 * looked at already (@from missed it).
 */
static void rai_dns_carry(struct rai_request *to, struct rai_request *from)
{
	rai_dns_request_init(&to->dns);
	rai_dns_route_pass(&to->dns.route, &from->dns.route);
	to->dns.looked = true;
}

/*
 * A route no start took (its RESOLVE failed after answer_now missed, or
 * the request was destroyed before it started): its resolver's reference.
 */
static void rai_dns_drop(struct rai_request *req)
{
	struct rai_dns_route *route = &req->dns.route;

	/* Mostly none: no call for nothing on every request's way. */
	if (route->resident) {
		rai_resident_put(route->resident);
		route->resident = NULL;
	}
}

/*
 * May anyone answer @req, routed to @r: a resident resolver of its view,
 * or the upcall?  If not, neither may the cache (its entries for the
 * host's view are the upcall's answers): rai_dns_to_upcall() refuses it.
 */
static bool rai_dns_answerable(const struct rai_request *req,
			       const struct rai_resident *r)
{
	return r || req->dns.route.upcall_ok;
}

/*
 * @req, holding the DNS queue's reference, to the upcall; or, when the
 * upcall must not answer it (another view, no resolver of its own),
 * completed with -EPERM: the one place a request is refused its view.
 * Also the fallback of resident resolvers (kernel/dns_resident.c): any
 * context that may sleep.
 */
static void rai_dns_to_upcall(struct rai_request *req)
{
	static const struct rai_dns_answer refused = { .status = -EPERM };

	if (!req->dns.route.upcall_ok) {
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
 * host's, without a resolver of its own) goes straight to
 * rai_dns_to_upcall(), which refuses it inline: it never holds a slot, a
 * timer or a work item, so a cancel finds nothing to give back.  The
 * deadline runs from here: the wait for a resolver or a slot counts, so
 * that no request waits longer than dns_timeout_ms for anything.
 */
static void rai_dns_start(struct rai_request *req)
{
	unsigned int timeout_ms = READ_ONCE(rai_dns_timeout_ms);
	struct rai_resident *r = rai_dns_route(req);

	if (rai_dns_answerable(req, r)) {
		/*
		 * Served in the RESOLVE ioctl: the event is queued at once.
		 * A RESOLVE_RESULTS looked already, in answer_now: its miss
		 * is counted here, by the request that goes on.
		 */
		if (req->dns.looked)
			rai_stat_inc(RAI_STAT_DNS_CACHE_MISSES);
		else if (rai_dns_answer_cached(req, r, true, true))
			goto out;
		if (timeout_ms) {
			rai_request_get(req);
			queue_delayed_work(rai_dns_timeout_wq, &req->timeout,
					   msecs_to_jiffies(timeout_ms));
		}
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
 * refused its view never gets an answer from the cache either.  On a miss
 * the route stays in @req (@dns.route, with its resolver's reference) for
 * the request the ioctl starts next (rai_dns_carry()).
 */
static bool rai_dns_answer_now(struct rai_request *req)
{
	struct rai_resident *r = rai_dns_route(req);

	if (rai_dns_answerable(req, r) &&
	    rai_dns_answer_cached(req, r, true, false)) {
		if (r)
			rai_resident_put(r);
		return true;
	}
	req->dns.route.resident = r;
	return false;
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
	.check = rai_dns_check,
	.init = rai_dns_init_request,
	.carry = rai_dns_carry,
	.drop = rai_dns_drop,
	.prepare = rai_dns_prepare,
	.start = rai_dns_start,
	.cancel = rai_dns_cancel,
	.answer_now = rai_dns_answer_now,
};

int rai_dns_init(void)
{
	rai_dns_timeout_wq = alloc_workqueue("rai", WQ_UNBOUND, 0);
	if (!rai_dns_timeout_wq)
		return -ENOMEM;
	/* Each slot's upcall, and the refreshes beside them, run at once. */
	rai_dns_wq = alloc_workqueue("rai_dns", WQ_UNBOUND,
				     rai_dns_slots_max() + RAI_DNS_REFRESH_MAX);
	if (!rai_dns_wq)
		goto err_timeout_wq;
	if (rai_resident_init(rai_dns_to_upcall))
		goto err_wq;
	rai_dns_ask_init(rai_dns_wq);
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
	rai_dns_ask_exit();
	rai_dns_slots_exit();
	rai_dns_keys_exit();
	destroy_workqueue(rai_dns_timeout_wq);
}
