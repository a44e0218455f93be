// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the DNS upcall slots, handed out round-robin between
 * users, and the batches a user's waiting requests gather into.
 *
 * dns_query() sleeps until the request-key upcall has answered, and each
 * upcall is a root process: at most max_upcalls run at once, each in a
 * slot, at most max_upcalls_per_user of them for one user, and as many
 * for each share above it (a user namespace's as a whole, up to the
 * initial one: kernel/user.c).  A request
 * waits on its user's waiting list; users with waiting requests and a
 * free share take turns on rai_dns_turns.  Whenever a slot is free, the
 * user at the head of the turns gets it for its oldest request and goes
 * to the tail; a user at max_upcalls_per_user leaves the turns until one
 * of its upcalls ends; a user whose namespace's share is spent keeps its
 * place but is passed over, as is a container's user while only the
 * host's reserve of slots is free (max_upcalls_host_reserve, at most a
 * quarter of max_upcalls: kernel/user.h).  A request holding a slot has its work queued on
 * the DNS workqueue (max_active = max_upcalls: it runs at once), where
 * kernel/dns.c asks for its name and gives the slot back.
 *
 * Batches: when a user's request gets a slot while more of that user's
 * requests wait for one, the names of up to dns_batch_names of them go to
 * our helper in one upcall (rai_dns_batch_collect(); kernel/dns_ask.c asks,
 * kernel/dns_batch.c has the format).  While the user has an upcall in
 * progress, its waiting requests wait up to dns_batch_wait_ms more to go
 * in one batch ("gathering") rather than take a slot each: a name asked
 * alone is asked at once.  A batch holds one slot, and only one user's
 * names: a slow name delays no other user.  If the helper does not answer
 * a batch, batches stay off for RAI_DNS_BATCH_BACKOFF_S (or until
 * dns_batch_names is written).
 *
 * Locking: rai_dns_slot_lock (a spinlock) protects rai_dns_turns,
 * rai_dns_slots_busy and rai_dns_stopping, each share's struct
 * rai_dns_user but its @nr_keys (of a share above a user's, only
 * @nr_upcalls is used), and each request's struct
 * rai_dns_request's @slot_entry and @slot (kernel/dns_state.h).  The
 * parameters and the back-off are read with READ_ONCE(), under no lock.
 */
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "charge.h"
#include "dns_batch.h"
#include "dns_slots.h"
#include "dns_upcall.h"
#include "param.h"
#include "request.h"
#include "stats.h"
#include "user.h"

static unsigned int rai_max_upcalls = 16;
static unsigned int rai_max_upcalls_per_user = 8;
static unsigned int rai_max_upcalls_host_reserve = 4;

RAI_PARAM_RANGE(max_upcalls, 1, 1024);
RAI_PARAM_RANGE(max_upcalls_per_user, 1, 1024);
RAI_PARAM_RANGE(max_upcalls_host_reserve, 0, 1024);

module_param_cb(max_upcalls, &rai_param_ops_max_upcalls,
		&rai_max_upcalls, 0444);
MODULE_PARM_DESC(max_upcalls,
		 "DNS resolver upcalls in progress at most (default 16)");
module_param_cb(max_upcalls_per_user, &rai_param_ops_max_upcalls_per_user,
		&rai_max_upcalls_per_user, 0644);
MODULE_PARM_DESC(max_upcalls_per_user,
		 "DNS resolver upcalls one user may have in progress; slots go round-robin between users (default 8)");
module_param_cb(max_upcalls_host_reserve,
		&rai_param_ops_max_upcalls_host_reserve,
		&rai_max_upcalls_host_reserve, 0644);
MODULE_PARM_DESC(max_upcalls_host_reserve,
		 "Of max_upcalls, how many slots only callers of the initial user namespace (the host, not its containers) may hold, at most max_upcalls/4 (the lower applies; GET_INFO reports it): containers' names wait once max_upcalls minus that many are busy (default 4)");

/* The slots only the host's callers may hold (rai_host_reserve()). */
static unsigned int rai_dns_slots_host_free(void)
{
	return rai_host_reserve(READ_ONCE(rai_max_upcalls_host_reserve),
				rai_max_upcalls);
}

/* dns_slots.h */
unsigned int rai_dns_slots_max(void)
{
	return rai_max_upcalls;
}

void rai_dns_slots_info(struct rdma_addrinfo_info *info)
{
	info->max_upcalls = rai_max_upcalls;
	info->max_upcalls_per_user = READ_ONCE(rai_max_upcalls_per_user);
	info->max_upcalls_host_reserve = rai_dns_slots_host_free();
}

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

/* Where a request with a slot runs, and where gathering ends (dns.c's). */
static struct workqueue_struct *rai_dns_slot_wq;
static struct workqueue_struct *rai_dns_gather_wq;

static DEFINE_SPINLOCK(rai_dns_slot_lock);
static LIST_HEAD(rai_dns_turns);
static unsigned int rai_dns_slots_busy;
/*
 * Set once by rai_dns_slots_stop(), under the slot lock: from then on
 * nobody gathers, so rai_dns_dispatch() never arms rai_dns_gather_work
 * again and the requests that the last upcalls still hand back run at
 * once.
 */
static bool rai_dns_stopping;

static void rai_dns_gather_end(struct work_struct *work);
/* Dispatches again when a user's gathering ends. */
static DECLARE_DELAYED_WORK(rai_dns_gather_work, rai_dns_gather_end);

/* Whether the helper is asked for batches (dns_batch_names, back-off). */
static bool rai_dns_batches_on(void)
{
	return READ_ONCE(rai_dns_batch_names) >= 2 && rai_dns_helper_enabled() &&
	       ktime_get_real_seconds() >= READ_ONCE(rai_dns_batch_off_until);
}

/* Whether a helper that did not answer a batch still keeps batches off. */
bool rai_dns_batches_backed_off(void)
{
	return ktime_get_real_seconds() < READ_ONCE(rai_dns_batch_off_until);
}

/* The helper did not answer a batch at @now: none for a while. */
void rai_dns_batches_back_off(time64_t now)
{
	WRITE_ONCE(rai_dns_batch_off_until, now + RAI_DNS_BATCH_BACKOFF_S);
}

/*
 * Whether the waiting requests of @du's user should wait a little longer
 * for others to join them in one upcall: while the user has an upcall in
 * progress, until dns_batch_wait_ms after the oldest began to wait or
 * after the user's last upcall started, whichever is later (that upcall's
 * batch takes the requests waiting when it starts: the next one waits
 * again).  *@until: when that wait ends.
 */
static bool rai_dns_gathering(struct rai_dns_user *du, unsigned long *until)
{
	unsigned int wait_ms = READ_ONCE(rai_dns_batch_wait_ms);
	struct rai_request *req;
	unsigned long since;

	lockdep_assert_held(&rai_dns_slot_lock);
	if (rai_dns_stopping || !du->nr_upcalls || !wait_ms ||
	    !rai_dns_batches_on())
		return false;
	req = list_first_entry(&du->waiting, struct rai_request,
			       dns.slot_entry);
	since = req->started;
	if (time_after(du->dispatched, since))
		since = du->dispatched;
	*until = since + msecs_to_jiffies(wait_ms);
	return time_before(jiffies, *until);
}

/*
 * Whether @user may not have another slot now because only the host's
 * reserve is left (@reserve, rai_dns_slots_host_free()) and it is a
 * container's.
 */
static bool rai_dns_slots_reserved(const struct rai_user *user,
				   unsigned int reserve)
{
	lockdep_assert_held(&rai_dns_slot_lock);
	return !rai_user_in_host(user) &&
	       rai_dns_slots_busy >= rai_max_upcalls - reserve;
}

/*
 * Whether a share above @user (its namespace's, up to the initial one)
 * holds max_upcalls_per_user slots already.
 */
static bool rai_dns_share_above_full(struct rai_user *user,
				     unsigned int per_user)
{
	struct rai_user *u;

	lockdep_assert_held(&rai_dns_slot_lock);
	for (u = user->parent; u; u = u->parent)
		if (u->dns.nr_upcalls >= per_user)
			return true;
	return false;
}

/* A slot taken (@n 1) or given back (@n -1) at every level of @user. */
static void rai_dns_share_add(struct rai_user *user, int n)
{
	struct rai_user *u;

	lockdep_assert_held(&rai_dns_slot_lock);
	for (u = user; u; u = u->parent)
		u->dns.nr_upcalls += n;
}

static void rai_dns_dispatch(void)
{
	unsigned int per_user = READ_ONCE(rai_max_upcalls_per_user);
	unsigned int reserve = rai_dns_slots_host_free();
	struct rai_user *user;
	unsigned long until, next = 0;
	struct rai_dns_user *du;
	struct rai_request *req;
	bool held = false;
	LIST_HEAD(gathering);
	LIST_HEAD(blocked);

	lockdep_assert_held(&rai_dns_slot_lock);
	while (rai_dns_slots_busy < rai_max_upcalls &&
	       !list_empty(&rai_dns_turns)) {
		du = list_first_entry(&rai_dns_turns, struct rai_dns_user, turn);
		list_del_init(&du->turn);
		if (du->nr_upcalls >= per_user)
			continue;	/* back in turn when one of its ends */
		user = container_of(du, struct rai_user, dns);
		/*
		 * Its namespace's share is spent by other users of it, or
		 * only the host's reserve is left and it is a container's:
		 * it keeps its place, and is looked at again whenever a
		 * slot is given back (one of those may be its namespace's).
		 */
		if (rai_dns_share_above_full(user, per_user) ||
		    rai_dns_slots_reserved(user, reserve)) {
			list_add_tail(&du->turn, &blocked);
			continue;
		}
		if (rai_dns_gathering(du, &until)) {
			list_add_tail(&du->turn, &gathering);
			if (!held || time_before(until, next))
				next = until;
			held = true;
			continue;
		}
		req = list_first_entry(&du->waiting, struct rai_request,
				       dns.slot_entry);
		list_del_init(&req->dns.slot_entry);
		if (!list_empty(&du->waiting))
			list_add_tail(&du->turn, &rai_dns_turns);
		req->dns.slot = true;
		rai_dns_share_add(req->user, 1);
		du->dispatched = jiffies;
		rai_dns_slots_busy++;
		/* The queue's reference goes with the work. */
		queue_work(rai_dns_slot_wq, &req->work);
	}
	/*
	 * Users still gathering, or held by their namespace's share, keep
	 * their place, ahead of those served.
	 */
	list_splice(&blocked, &rai_dns_turns);
	list_splice(&gathering, &rai_dns_turns);
	if (held)
		mod_delayed_work(rai_dns_gather_wq, &rai_dns_gather_work,
				 time_after(next, jiffies) ? next - jiffies : 0);
}

static void rai_dns_gather_end(struct work_struct *work)
{
	spin_lock(&rai_dns_slot_lock);
	rai_dns_dispatch();
	spin_unlock(&rai_dns_slot_lock);
}

/*
 * @req, with the DNS queue's reference, waits for a slot; its work
 * (rai_request.work) is queued with that reference when it gets one.
 */
void rai_dns_slot_wait(struct rai_request *req)
{
	struct rai_dns_user *du = &req->user->dns;

	unsigned int per_user = READ_ONCE(rai_max_upcalls_per_user);

	spin_lock(&rai_dns_slot_lock);
	if (rai_dns_slots_busy >= rai_max_upcalls ||
	    du->nr_upcalls >= per_user ||
	    rai_dns_share_above_full(req->user, per_user) ||
	    rai_dns_slots_reserved(req->user, rai_dns_slots_host_free()))
		rai_stat_inc(RAI_STAT_DNS_THROTTLED);
	list_add_tail(&req->dns.slot_entry, &du->waiting);
	if (list_empty(&du->turn))
		list_add_tail(&du->turn, &rai_dns_turns);
	rai_dns_dispatch();
	spin_unlock(&rai_dns_slot_lock);
}

/*
 * Take a request that has no slot yet off its user's list: true when it
 * waited (the caller drops the queue's reference).
 */
bool rai_dns_slot_unwait(struct rai_request *req)
{
	struct rai_dns_user *du = &req->user->dns;
	bool waiting;

	spin_lock(&rai_dns_slot_lock);
	waiting = !list_empty(&req->dns.slot_entry);
	if (waiting) {
		list_del_init(&req->dns.slot_entry);
		if (list_empty(&du->waiting))
			list_del_init(&du->turn);
	}
	spin_unlock(&rai_dns_slot_lock);
	return waiting;
}

/*
 * Give back the slot @req holds.  Only a request that rai_dns_dispatch()
 * gave a slot has one (@dns.slot, under the slot lock), and it gives it
 * back once: a call for a request without one does nothing.
 */
void rai_dns_slot_release(struct rai_request *req)
{
	struct rai_dns_user *du = &req->user->dns;

	spin_lock(&rai_dns_slot_lock);
	if (!req->dns.slot) {
		spin_unlock(&rai_dns_slot_lock);
		return;
	}
	req->dns.slot = false;
	rai_dns_share_add(req->user, -1);
	rai_dns_slots_busy--;
	if (!list_empty(&du->waiting) && list_empty(&du->turn))
		list_add_tail(&du->turn, &rai_dns_turns);
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
struct rai_dns_batch *rai_dns_batch_collect(struct rai_request *req)
{
	unsigned int max = READ_ONCE(rai_dns_batch_names);
	struct rai_dns_user *du = &req->user->dns;
	struct rai_dns_batch *batch;
	struct rai_request *r, *tmp;

	if (!rai_dns_batches_on() ||
	    !rai_dns_batch_name_ok(req->node, req->node_len))
		return NULL;
	batch = kzalloc(sizeof(*batch), RAI_GFP_CALLER);
	if (!batch)
		return NULL;
	rai_dns_batch_add(batch, req, req->node, req->node_len);
	spin_lock(&rai_dns_slot_lock);
	list_for_each_entry_safe(r, tmp, &du->waiting, dns.slot_entry) {
		if (batch->nr_reqs == max)
			break;
		if (r->file->net != req->file->net ||
		    !rai_dns_batch_name_ok(r->node, r->node_len))
			continue;
		list_del_init(&r->dns.slot_entry);
		rai_dns_batch_add(batch, r, r->node, r->node_len);
	}
	if (list_empty(&du->waiting))
		list_del_init(&du->turn);
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
void rai_dns_batch_requeue(struct rai_dns_batch *batch)
{
	struct rai_dns_user *du = &batch->reqs[0]->user->dns;
	unsigned int i;

	spin_lock(&rai_dns_slot_lock);
	for (i = batch->nr_reqs - 1; i > 0; i--)
		list_add(&batch->reqs[i]->dns.slot_entry, &du->waiting);
	if (list_empty(&du->turn))
		list_add_tail(&du->turn, &rai_dns_turns);
	spin_unlock(&rai_dns_slot_lock);
	batch->nr_reqs = 1;
	batch->nr_names = 1;
}

/* Upcall slots held now; 0 when no upcall runs. */
static u64 rai_dns_slots_in_use(void)
{
	return READ_ONCE(rai_dns_slots_busy);
}

static struct rai_stats_gauge rai_dns_slots_gauge = {
	.name = "dns_slots_busy", .read = rai_dns_slots_in_use,
};

/*
 * Before any request: requests with a slot run on @wq, and gathering
 * ends on @gather_wq, both kept until rai_dns_slots_exit().
 */
void rai_dns_slots_init(struct workqueue_struct *wq,
			struct workqueue_struct *gather_wq)
{
	rai_dns_slot_wq = wq;
	rai_dns_gather_wq = gather_wq;
	rai_stats_gauge_add(&rai_dns_slots_gauge);
}

/*
 * After every file is closed: nobody gathers any more, and
 * rai_dns_gather_work, cancelled, is never armed again.
 */
void rai_dns_slots_stop(void)
{
	spin_lock(&rai_dns_slot_lock);
	rai_dns_stopping = true;
	spin_unlock(&rai_dns_slot_lock);
	cancel_delayed_work_sync(&rai_dns_gather_work);
}

/* After the last upcall (the DNS workqueue is destroyed). */
void rai_dns_slots_exit(void)
{
	rai_stats_gauge_del(&rai_dns_slots_gauge);
}
