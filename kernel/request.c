// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: request objects and the per-file event channel.
 *
 * Lifetime rules:
 *
 *  - A request is allocated with one reference, which becomes the handle
 *    table's reference when it is published.  It is published (xa_alloc)
 *    only once every input field is set; the ioctl that creates it holds
 *    its own reference across publication, because another thread may
 *    destroy it the moment it is findable.
 *  - Lookups take a reference under the xarray lock, so an object that is
 *    findable is never freed: removal from the table (xa_erase) comes
 *    first, the table's reference is dropped after.
 *  - Exactly one party removes a handle: whoever gets the pointer back from
 *    xa_erase()/xa_cmpxchg().  Release itself (rai_request_release()) is
 *    guarded once more, by @detached under the file lock, so that a
 *    request without a handle (RESOLVE_RESULTS), or one its creator
 *    cancels on two error paths, is still released once: a second
 *    release is a no-op, by construction.  The releaser detaches the
 *    request: a pending
 *    request turns RAI_REQ_CANCELLED (its later completion is discarded),
 *    a queued event is unlinked, an event that a reader is copying out
 *    at that moment is revoked (the reader does not report it).  All of
 *    it happens under the file lock, as do completion, event removal and
 *    the reader's check after its copy, so no event of a detached request
 *    is reported once DESTROY has returned.
 *  - Handles are allocated cyclically: a destroyed handle is not reused
 *    soon, so an event that a reader reported just before a concurrent
 *    DESTROY cannot be taken for the event of a new request.
 *  - A backend that works asynchronously holds a reference of its own;
 *    every request holds a reference on its file, so a late completion
 *    after close() finds valid memory and is simply dropped.
 *  - Requests come from a dedicated slab cache: one that is leaked makes
 *    kmem_cache_destroy() complain when the module is unloaded.
 */
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <net/net_namespace.h>

#include "backend.h"
#include "charge.h"
#include "param.h"
#include "request.h"
#include "stats.h"
#include "user.h"

#define CREATE_TRACE_POINTS
#include "rai_trace.h"

static unsigned int rai_max_requests_per_fd = 4096;
static unsigned int rai_max_requests = 65536;
static unsigned int rai_max_requests_host_reserve = 16384;
static unsigned int rai_max_requests_per_user = 16384;
static unsigned int rai_max_results = 64;
static unsigned int rai_max_result_kib_per_user = 32768;

RAI_PARAM_RANGE(max_requests_per_fd, 1, 1 << 20);
RAI_PARAM_RANGE(max_requests, 1, 1 << 24);
RAI_PARAM_RANGE(max_requests_host_reserve, 0, 1 << 24);
RAI_PARAM_RANGE(max_requests_per_user, 1, 1 << 24);
RAI_PARAM_RANGE(max_results, 1, 1024);
RAI_PARAM_RANGE(max_result_kib_per_user, 1, 1 << 24);

module_param_cb(max_requests_per_fd, &rai_param_ops_max_requests_per_fd,
		&rai_max_requests_per_fd, 0644);
MODULE_PARM_DESC(max_requests_per_fd,
		 "Requests one open file may hold, in flight or done; beyond: EMFILE (default 4096)");
module_param_cb(max_requests, &rai_param_ops_max_requests,
		&rai_max_requests, 0644);
MODULE_PARM_DESC(max_requests,
		 "Requests the module holds in all; beyond: ENFILE (default 65536)");
module_param_cb(max_requests_host_reserve,
		&rai_param_ops_max_requests_host_reserve,
		&rai_max_requests_host_reserve, 0644);
MODULE_PARM_DESC(max_requests_host_reserve,
		 "Of max_requests, how many only callers of the initial user namespace (the host, not its containers) may use, at most max_requests/4 (the lower applies; GET_INFO reports it): callers in any other user namespace get ENFILE once max_requests minus that many are held (default 16384)");
module_param_cb(max_requests_per_user, &rai_param_ops_max_requests_per_user,
		&rai_max_requests_per_user, 0644);
MODULE_PARM_DESC(max_requests_per_user,
		 "Requests one user (real uid of the caller in its user namespace; a user namespace as a whole counts as one user of its parent) may hold, in flight or done; beyond: EDQUOT (default 16384)");
module_param_cb(max_results, &rai_param_ops_max_results,
		&rai_max_results, 0644);
MODULE_PARM_DESC(max_results, "Results kept per request (default 64)");
module_param_cb(max_result_kib_per_user,
		&rai_param_ops_max_result_kib_per_user,
		&rai_max_result_kib_per_user, 0644);
MODULE_PARM_DESC(max_result_kib_per_user,
		 "KiB of results one user (a user namespace as a whole counts as one user of its parent) may hold in requests not yet destroyed; beyond, a request completes with ENOBUFS (default 32768: 32 MiB)");

/* The host's reserve of @max requests (rai_host_reserve()). */
static unsigned int rai_requests_host_reserve(unsigned int max)
{
	return rai_host_reserve(READ_ONCE(rai_max_requests_host_reserve), max);
}

void rai_request_info(struct rdma_addrinfo_info *info)
{
	info->max_results = READ_ONCE(rai_max_results);
	info->max_requests_per_fd = READ_ONCE(rai_max_requests_per_fd);
	info->max_requests_total = READ_ONCE(rai_max_requests);
	info->max_requests_per_user = READ_ONCE(rai_max_requests_per_user);
	info->max_requests_host_reserve =
		rai_requests_host_reserve(info->max_requests_total);
}

unsigned int rai_request_max_results(void)
{
	return READ_ONCE(rai_max_results);
}

static struct kmem_cache *rai_request_cache;

/*
 * A constructor keeps the cache from being merged with another of the same
 * size, so that a leaked request is reported under our name.  Objects are
 * cleared in rai_request_alloc() (__GFP_ZERO is not allowed with a ctor).
 */
static void rai_request_ctor(void *obj)
{
}

/* Live request objects, of all files (max_requests). */
static atomic_t rai_requests_total = ATOMIC_INIT(0);

static u64 rai_requests_live(void)
{
	return atomic_read(&rai_requests_total);
}

static struct rai_stats_gauge rai_requests_gauge = {
	.name = "requests_live",
	.read = rai_requests_live,
};

int rai_request_init(void)
{
	rai_request_cache = kmem_cache_create("rai_request",
					      sizeof(struct rai_request), 0,
					      SLAB_ACCOUNT, rai_request_ctor);
	if (!rai_request_cache)
		return -ENOMEM;
	rai_stats_gauge_add(&rai_requests_gauge);
	return 0;
}

void rai_request_exit(void)
{
	rai_stats_gauge_del(&rai_requests_gauge);
	kmem_cache_destroy(rai_request_cache);
}

/*
 * Results for @req, charged to the caller's memory cgroup (or, built in a
 * worker, to the request's: rai_request_charge_begin()).  Those of a
 * request answered in its ioctl too: they are held across the copy to
 * the caller, which can wait as long as the caller's page fault does (a
 * FUSE mapping), so every thread of a tenant could pin them at once.
 */
struct rdma_addrinfo_result *rai_results_alloc(const struct rai_request *req,
					       u32 nr)
{
	return kvcalloc(nr, sizeof(struct rdma_addrinfo_result),
			RAI_GFP_CALLER);
}

void rai_results_free(struct rdma_addrinfo_result *results)
{
	kvfree(results);
}

/* A copy of the canonical name @name for @req, charged as its results. */
char *rai_canonname_dup(const struct rai_request *req, const char *name)
{
	return kstrdup(name, RAI_GFP_CALLER);
}

/* The record QUERY and RESOLVE copy out for @name (NULL: none). */
void rai_canonname_out(struct rdma_addrinfo_canonname *out, const char *name)
{
	memset(out, 0, sizeof(*out));
	if (name)
		out->len = strscpy(out->name, name, sizeof(out->name));
}

static void rai_file_release(struct kref *ref)
{
	struct rai_file *file = container_of(ref, struct rai_file, ref);

	WARN_ON_ONCE(!list_empty(&file->events));
	put_net(file->net);
	kfree(file);
}

struct rai_file *rai_file_create(void)
{
	struct rai_file *file;

	file = kzalloc(sizeof(*file), RAI_GFP_CALLER);
	if (!file)
		return NULL;
	xa_init_flags(&file->handles, XA_FLAGS_ALLOC1);
	spin_lock_init(&file->lock);
	INIT_LIST_HEAD(&file->events);
	init_waitqueue_head(&file->wait);
	atomic_set(&file->nr_requests, 0);
	kref_init(&file->ref);
	file->net = get_net(current->nsproxy->net_ns);
	return file;
}

/*
 * The one release of a request: detach it (a pending request turns
 * RAI_REQ_CANCELLED, a queued event is unlinked, an event being copied
 * out is revoked) and drop the reference of its table, or for a
 * RESOLVE_RESULTS request the one of its creation.  Whoever calls it first
 * releases; every later call, on any path, finds @detached set under the
 * file lock and does nothing.  *@dropped (optional): whether this call
 * dropped an event.
 *
 * Return: whether this call released the request.
 */
static bool rai_request_release(struct rai_request *req, bool *dropped)
{
	struct rai_file *file = req->file;
	bool was_pending = false, drop = false;
	unsigned long flags;

	spin_lock_irqsave(&file->lock, flags);
	if (req->detached) {
		spin_unlock_irqrestore(&file->lock, flags);
		if (dropped)
			*dropped = false;
		return false;
	}
	req->detached = true;
	if (req->state == RAI_REQ_PENDING) {
		WRITE_ONCE(req->state, RAI_REQ_CANCELLED);
		was_pending = true;
	}
	if (req->event_queued) {
		list_del_init(&req->event_entry);
		req->event_queued = false;
		drop = true;
	}
	/* A reader copying it out drops it in rai_event_delivered(). */
	if (req->delivering)
		drop = true;
	spin_unlock_irqrestore(&file->lock, flags);

	trace_rai_request_destroy(req, was_pending, drop);
	atomic_dec(&file->nr_requests);
	if (was_pending) {
		rai_stat_inc_net(file->net, RAI_STAT_CANCELLED);
		/* A synchronous waiter in another thread must not hang. */
		complete_all(&req->done);
		if (req->backend && req->backend->cancel)
			req->backend->cancel(req);
	}
	if (drop)
		rai_stat_inc_net(file->net, RAI_STAT_EVENTS_DROPPED);
	if (dropped)
		*dropped = drop;
	rai_request_put(req);
	return true;
}

void rai_file_close(struct rai_file *file)
{
	struct rai_request *req;
	unsigned long index;

	/* No ioctl can run any more: the file's last reference is gone. */
	xa_for_each(&file->handles, index, req) {
		if (xa_erase(&file->handles, index) == req)
			rai_request_release(req, NULL);
	}
	xa_destroy(&file->handles);
	if (file->last_user)
		rai_user_put(file->last_user);
	kref_put(&file->ref, rai_file_release);
}

/*
 * The calling task's user, referenced: the one of @file's last request if
 * it is the same (the file's reference keeps it alive), else from the
 * table of users, then kept as @file's.  NULL when out of memory.
 */
static struct rai_user *rai_file_user(struct rai_file *file)
{
	struct rai_user *user, *old;

	spin_lock_irq(&file->lock);
	user = file->last_user;
	if (user && rai_user_is_current(user))
		refcount_inc(&user->ref);
	else
		user = NULL;
	spin_unlock_irq(&file->lock);
	if (user)
		return user;

	user = rai_user_get_current();
	if (!user)
		return NULL;
	/* The file's own reference; ours keeps the count above zero. */
	refcount_inc(&user->ref);
	spin_lock_irq(&file->lock);
	old = file->last_user;
	file->last_user = user;
	spin_unlock_irq(&file->lock);
	if (old)
		rai_user_put(old);
	return user;
}

/*
 * One more request module-wide (max_requests): false when full.  The last
 * rai_requests_host_reserve() of them are the host's: callers in a user
 * namespace (containers, however created) cannot take them, so however
 * many containers fill their shares, the host's own processes still get
 * requests; and the reserve is at most a quarter, so containers do too.
 */
static bool rai_requests_charge_total(const struct rai_user *user)
{
	unsigned int max = READ_ONCE(rai_max_requests);
	unsigned int reserve = rai_requests_host_reserve(max);
	int total = atomic_inc_return(&rai_requests_total);

	if (total > (int)max)
		return false;
	return rai_user_in_host(user) || total <= (int)(max - reserve);
}

struct rai_request *rai_request_alloc(struct rai_file *file)
{
	struct rai_request *req;
	struct rai_user *user;
	int ret;

	if (atomic_inc_return(&file->nr_requests) >
	    READ_ONCE(rai_max_requests_per_fd)) {
		ret = -EMFILE;
		goto err_file;
	}
	user = rai_file_user(file);
	if (!user) {
		ret = -ENOMEM;
		goto err_file;
	}
	if (!rai_user_charge_request(user,
				     READ_ONCE(rai_max_requests_per_user))) {
		ret = -EDQUOT;
		goto err_user;
	}
	if (!rai_requests_charge_total(user)) {
		ret = -ENFILE;
		goto err_total;
	}
	req = kmem_cache_alloc(rai_request_cache, RAI_GFP_CALLER);
	if (!req) {
		ret = -ENOMEM;
		goto err_total;
	}
	memset(req, 0, sizeof(*req));
	req->user = user;
	refcount_set(&req->ref, 1);
	req->file = file;
	kref_get(&file->ref);
	req->state = RAI_REQ_PENDING;
	INIT_LIST_HEAD(&req->event_entry);
	init_completion(&req->done);
	req->started = jiffies;
	req->memcg = get_mem_cgroup_from_mm(current->mm);
	return req;

err_total:
	atomic_dec(&rai_requests_total);
	rai_user_uncharge_request(user);
err_user:
	rai_user_put(user);
err_file:
	atomic_dec(&file->nr_requests);
	return ERR_PTR(ret);
}

/*
 * Charge @nr results of @req to its user's results memory, at every
 * level (max_result_kib_per_user); false, charging nothing, beyond it.
 */
static bool rai_results_charge(struct rai_request *req, u32 nr)
{
	long bytes = (long)nr * sizeof(struct rdma_addrinfo_result);
	long limit = (long)READ_ONCE(rai_max_result_kib_per_user) << 10;

	if (!rai_user_charge_bytes(req->user, bytes, limit))
		return false;
	req->results_charged = bytes;
	return true;
}

static void rai_request_free(struct rai_request *req)
{
	struct rai_file *file = req->file;

	WARN_ON_ONCE(req->event_queued);
	/* What its backend still holds for it (never started, say). */
	if (req->backend && req->backend->drop)
		req->backend->drop(req);
	if (req->results_charged)
		rai_user_uncharge_bytes(req->user, req->results_charged);
	rai_results_free(req->results);
	kfree(req->canonname);
	kfree(req->node);
	mem_cgroup_put(req->memcg);
	rai_user_uncharge_request(req->user);
	rai_user_put(req->user);
	kmem_cache_free(rai_request_cache, req);
	atomic_dec(&rai_requests_total);
	kref_put(&file->ref, rai_file_release);
}

/* Free a request that was never published. */
void rai_request_abandon(struct rai_request *req)
{
	atomic_dec(&req->file->nr_requests);
	rai_request_free(req);
}

void rai_request_get(struct rai_request *req)
{
	refcount_inc(&req->ref);
}

void rai_request_put(struct rai_request *req)
{
	if (refcount_dec_and_test(&req->ref))
		rai_request_free(req);
}

/*
 * Charge allocations of the current (worker) task to the request's creator
 * until rai_request_charge_end(), as RAI_GFP_CALLER in its own context
 * would.
 */
struct mem_cgroup *rai_request_charge_begin(struct rai_request *req)
{
	return set_active_memcg(req->memcg);
}

void rai_request_charge_end(struct mem_cgroup *old)
{
	set_active_memcg(old);
}

/* Whether a pending request was destroyed (a hint: it may change at once). */
bool rai_request_cancelled(struct rai_request *req)
{
	return READ_ONCE(req->state) == RAI_REQ_CANCELLED;
}

/*
 * Make a fully built request findable.  The table takes over the
 * allocation reference; the caller must hold one of its own.
 */
int rai_request_publish(struct rai_request *req)
{
	struct rai_file *file = req->file;
	struct xarray *xa = &file->handles;
	u32 anchor;
	int ret;

	xa_lock(xa);
	ret = __xa_alloc_cyclic(xa, &req->handle, req, XA_LIMIT(1, INT_MAX),
				&file->next_handle, RAI_GFP_CALLER);
	/*
	 * Cyclic handles leave the table's only entry, most of the time,
	 * alone in its node: erasing it freed the nodes (through RCU) and
	 * the next handle allocated them again, more than half of an
	 * asynchronous RESOLVE's slab allocations.  A reserved index at the
	 * end of the current node's range keeps them; it moves on with the
	 * handles.  Reserved indices are never handed out, nor found by a
	 * lookup.
	 */
	anchor = req->handle | XA_CHUNK_MASK;
	if (ret >= 0 && anchor != file->anchor) {
		/* May drop the lock to allocate; failure costs only speed. */
		__xa_cmpxchg(xa, anchor, NULL, XA_ZERO_ENTRY,
			     RAI_GFP_CALLER);
		if (file->anchor)
			__xa_cmpxchg(xa, file->anchor, XA_ZERO_ENTRY, NULL, 0);
		file->anchor = anchor;
	}
	xa_unlock(xa);
	return ret < 0 ? ret : 0;	/* 1: the space wrapped */
}

void rai_request_start(struct rai_request *req)
{
	rai_stat_inc_net(req->file->net, RAI_STAT_REQUESTS);
	trace_rai_request_start(req);
	req->backend->start(req);
	/*
	 * Destroyed by another thread while starting: the cancel may have
	 * run before start() queued anything.  Both sides order the state
	 * change against the queueing with fully ordered atomics.
	 */
	if (rai_request_cancelled(req) && req->backend->cancel)
		req->backend->cancel(req);
}

struct rai_request *rai_request_lookup(struct rai_file *file, u32 handle)
{
	struct rai_request *req;

	xa_lock(&file->handles);
	req = xa_load(&file->handles, handle);
	if (req)
		rai_request_get(req);
	xa_unlock(&file->handles);
	return req;
}

int rai_request_destroy(struct rai_file *file, u32 handle, bool *dropped)
{
	struct rai_request *req;

	req = xa_erase(&file->handles, handle);
	if (!req)
		return -ENOENT;
	rai_request_release(req, dropped);
	return 0;
}

/*
 * Destroy @req on behalf of its creator (an interrupted synchronous
 * RESOLVE, a failed copy-out, RESOLVE_RESULTS done), unless it was
 * released already: by another thread's DESTROY or close, or by an
 * earlier cancel.  The caller holds a reference of its own.  Any number
 * of calls: only the first release counts (rai_request_release()).
 */
void rai_request_cancel(struct rai_request *req)
{
	struct rai_file *file = req->file;

	/* Handle 0: a RESOLVE_RESULTS request, which only its ioctl holds. */
	if (req->handle &&
	    xa_cmpxchg(&file->handles, req->handle, req, NULL, 0) != req)
		return;
	rai_request_release(req, NULL);
}

/* The statistics and trace of a recorded completion. */
static void rai_request_completed(struct rai_request *req, int status, u32 nr)
{
	trace_rai_request_complete(req, status, nr, true);
	rai_stat_inc_net(req->file->net, RAI_STAT_COMPLETED);
	if (status)
		rai_stat_inc_net(req->file->net, RAI_STAT_FAILED);
}

/**
 * rai_request_complete - report the outcome of a request
 * @req: the request; the caller holds a reference
 * @status: 0 or a negative errno
 * @results: array from rai_results_alloc() or NULL; always consumed
 * @nr: entries of @results
 *
 * Only the first completion of a pending request counts; a request that
 * was cancelled or completed already discards this one.  Results that
 * would take the user past max_result_kib_per_user are dropped and the
 * request completes with -ENOBUFS instead.  Any context.
 *
 * Return: whether this completion was recorded.
 */
bool rai_request_complete(struct rai_request *req, int status,
			  struct rdma_addrinfo_result *results, u32 nr)
{
	return rai_request_complete_named(req, status, results, nr, NULL);
}

/**
 * rai_request_complete_named - rai_request_complete() with a canonical name
 * @req: the request; the caller holds a reference
 * @status: 0 or a negative errno
 * @results: array from rai_results_alloc() or NULL; always consumed
 * @nr: entries of @results
 * @canonname: from rai_canonname_dup(), or NULL; always consumed, kept
 *	only with results
 *
 * Return: whether this completion was recorded.
 */
bool rai_request_complete_named(struct rai_request *req, int status,
				struct rdma_addrinfo_result *results, u32 nr,
				char *canonname)
{
	struct rdma_addrinfo_result *over = NULL;
	struct rai_file *file = req->file;
	unsigned long flags;

	if (status || !nr) {
		rai_results_free(results);
		results = NULL;
		nr = 0;
		kfree(canonname);
		canonname = NULL;
	}

	/*
	 * Answered in the RESOLVE ioctl, which alone knows of it: no lock,
	 * nobody to wake; it starts and completes here.
	 */
	if (req->on_stack) {
		rai_stat_inc_net(req->file->net, RAI_STAT_REQUESTS);
		trace_rai_request_start(req);
		req->results = results;
		req->nr_results = nr;
		req->canonname = canonname;
		req->status = status;
		req->state = RAI_REQ_DONE;
		rai_request_completed(req, status, nr);
		return true;
	}

	spin_lock_irqsave(&file->lock, flags);
	if (req->state != RAI_REQ_PENDING) {
		spin_unlock_irqrestore(&file->lock, flags);
		trace_rai_request_complete(req, status, nr, false);
		rai_results_free(results);
		kfree(canonname);
		return false;
	}
	if (nr && !rai_results_charge(req, nr)) {
		over = results;		/* freed outside the lock (kvfree) */
		results = NULL;
		nr = 0;
		status = -ENOBUFS;
		kfree(canonname);
		canonname = NULL;
	}
	req->results = results;
	req->nr_results = nr;
	req->canonname = canonname;
	req->status = status;
	WRITE_ONCE(req->state, RAI_REQ_DONE);
	if (!req->sync) {
		list_add_tail(&req->event_entry, &file->events);
		req->event_queued = true;
	}
	spin_unlock_irqrestore(&file->lock, flags);

	rai_results_free(over);
	rai_request_completed(req, status, nr);
	if (req->sync)
		complete_all(&req->done);
	else
		wake_up_interruptible_poll(&file->wait, EPOLLIN | EPOLLRDNORM);
	return true;
}

bool rai_events_pending(struct rai_file *file)
{
	bool pending;

	spin_lock_irq(&file->lock);
	pending = !list_empty(&file->events);
	spin_unlock_irq(&file->lock);
	return pending;
}

/**
 * rai_event_pop - take the oldest event off the queue
 * @file: the channel
 * @nonblock: fail with -EAGAIN rather than wait
 * @ev: filled in
 * @reqp: the request, referenced: hand it to rai_event_unpop() if @ev could
 *	not be copied out, else to rai_event_delivered()
 *
 * Return: 0, -EAGAIN or -ERESTARTSYS.
 */
int rai_event_pop(struct rai_file *file, bool nonblock,
		  struct rdma_addrinfo_event *ev, struct rai_request **reqp)
{
	struct rai_request *req;
	int ret;

	for (;;) {
		spin_lock_irq(&file->lock);
		req = list_first_entry_or_null(&file->events,
					       struct rai_request, event_entry);
		if (req) {
			list_del_init(&req->event_entry);
			req->event_queued = false;
			req->delivering = true;
			rai_request_get(req);
			memset(ev, 0, sizeof(*ev));
			ev->context = req->context;
			ev->handle = req->handle;
			ev->status = req->status;
			ev->event = req->status ? RDMA_ADDRINFO_EVENT_ERROR :
						  RDMA_ADDRINFO_EVENT_RESOLVED;
			ev->num_results = req->nr_results;
			spin_unlock_irq(&file->lock);
			*reqp = req;
			return 0;
		}
		spin_unlock_irq(&file->lock);

		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(file->wait,
					       rai_events_pending(file));
		if (ret)
			return ret;
	}
}

/*
 * Put an event that could not be copied out back at the head of the queue,
 * unless its request was destroyed meanwhile.
 */
void rai_event_unpop(struct rai_request *req)
{
	struct rai_file *file = req->file;

	spin_lock_irq(&file->lock);
	req->delivering = false;
	if (!req->detached && req->state == RAI_REQ_DONE &&
	    !req->event_queued) {
		list_add(&req->event_entry, &file->events);
		req->event_queued = true;
	}
	spin_unlock_irq(&file->lock);
	rai_request_put(req);
}

/**
 * rai_event_delivered - an event popped by rai_event_pop() was copied out
 * @req: the request of the event; its reference is dropped
 *
 * Return: whether the event may be reported.  False when the request was
 * destroyed while its event was being copied: DESTROY counted it as
 * dropped, and the reader must neither count nor return it.
 */
bool rai_event_delivered(struct rai_request *req)
{
	struct rai_file *file = req->file;
	bool delivered;

	spin_lock_irq(&file->lock);
	req->delivering = false;
	delivered = !req->detached;
	spin_unlock_irq(&file->lock);
	rai_request_put(req);
	return delivered;
}
