// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: resident resolvers: registration, lookup, the names
 * asked of them, their deadlines, and their end.
 *
 * Every name the DNS upcall resolves costs two process starts
 * (request-key, then a helper).  A resident resolver (rdma-addrinfo-
 * resolved) is one process that stays: it registers its file as the
 * resolver of its network namespace and /etc view (RESOLVER_REGISTER,
 * CAP_NET_ADMIN over the namespace in the opener's and the caller's
 * credentials), takes the
 * names the module wants (RESOLVER_TAKE) and answers them (RESOLVER_ANSWER),
 * many per call.  The uapi header has the protocol; the ioctls, which
 * check and copy what a resolver says, are kernel/dns_resident_ioctl.c's
 * and call in here (rai_resident_create(), rai_resident_take_names(),
 * rai_resident_answered()).
 *
 * kernel/dns.c asks here first, for a request the cache cannot answer:
 * rai_resident_find() finds the resolver of the caller's namespace and
 * view, rai_resident_submit() queues the request on its name
 * (kernel/dns_resident_queue.c: a name once for every request that asks
 * it, users served round-robin).  Each resolver holds at most
 * resolver_max_outstanding names, a user at most
 * resolver_max_outstanding_per_user, and a user at most
 * resolver_max_names_per_user over every resolver and registers at most
 * resolver_max_per_user resolvers (kernel/dns_resident_owner.c): past
 * any, the request goes the way it would without a resolver.  What a
 * resolver and its names hold is charged to the memory cgroup of whoever
 * registered or asked (RAI_GFP_CALLER); a name not yet taken leaves
 * its queue with its last request.  An answer goes through the strict
 * parser (kernel/dns_answer.c) into the cache, under the resolver's view,
 * then to every request of the name.
 *
 * A resolver loses nothing it is given.  A name not taken within
 * resolver_wait_ms (its workers busy, or it takes nothing at all), a name
 * taken and not answered within resolver_deadline_ms, and every name of
 * a resolver whose file is closed, goes back to kernel/dns.c (the fallback given to
 * rai_resident_init()): to the upcall when it may answer the caller, else
 * -EPERM, as without a resolver.
 *
 * Resolvers are kept per network namespace (net_generic(), as
 * net/handshake keeps its requests): finding the caller's resolver looks
 * at its own namespace's only, however many namespaces register.
 *
 * Locking: rai_resident_lock protects the lists of resolvers (read under
 * RCU by rai_resident_find()), the view ids, each resolver's @gone and
 * each file's @resident (read with READ_ONCE() by the ioctls: set once,
 * cleared only by release); each queue has its own lock
 * (kernel/dns_resident_queue.c).  A resolver is referenced by its file (until release)
 * and by whoever found it; the last reference frees it from
 * rai_resident_wq (paths are put there, memory after an RCU grace
 * period).
 */
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "charge.h"
#include "dns_answer.h"
#include "dns_cache.h"
#include "dns_resident.h"
#include "dns_resident_owner.h"
#include "dns_resident_queue.h"
#include "dns_view.h"
#include "param.h"
#include "request.h"
#include "stats.h"
#include "user.h"

static unsigned int rai_resident_deadline_ms = 5000;
static unsigned int rai_resident_wait_ms = 5000;
static unsigned int rai_resident_max_outstanding = 4096;
static unsigned int rai_resident_max_per_user = 1024;

RAI_PARAM_RANGE(resolver_deadline_ms, 10, 600000);
RAI_PARAM_RANGE(resolver_wait_ms, 10, 600000);
RAI_PARAM_RANGE(resolver_max_outstanding, 1, 65536);
RAI_PARAM_RANGE(resolver_max_outstanding_per_user, 1, 65536);

module_param_cb(resolver_deadline_ms, &rai_param_ops_resolver_deadline_ms,
		&rai_resident_deadline_ms, 0644);
MODULE_PARM_DESC(resolver_deadline_ms,
		 "A name a resident resolver took and did not answer in this time goes to the upcall (default 5000)");
module_param_cb(resolver_wait_ms, &rai_param_ops_resolver_wait_ms,
		&rai_resident_wait_ms, 0644);
MODULE_PARM_DESC(resolver_wait_ms,
		 "A name a resident resolver did not take in this time goes to the upcall (default 5000)");
module_param_cb(resolver_max_outstanding,
		&rai_param_ops_resolver_max_outstanding,
		&rai_resident_max_outstanding, 0644);
MODULE_PARM_DESC(resolver_max_outstanding,
		 "Names one resident resolver holds at most, waiting or taken; more go to the upcall (default 4096)");
module_param_cb(resolver_max_outstanding_per_user,
		&rai_param_ops_resolver_max_outstanding_per_user,
		&rai_resident_max_per_user, 0644);
MODULE_PARM_DESC(resolver_max_outstanding_per_user,
		 "Names of one user a resident resolver holds at most; more go to the upcall (default 1024)");

/**
 * struct rai_resident - a registered resolver
 * @node: in the resolvers of its network namespace (struct rai_resident_net)
 * @ref: its file's, and one per finder
 * @rcu: frees it after readers of its namespace's resolvers are done
 * @free_work: puts its paths and namespace (process context)
 * @net: the network namespace it serves (its file's, referenced)
 * @view: the view it serves (the registering process's)
 * @view_id: its answers' view in the cache: 0 for the host's view
 * @owner: the user who registered it (its share), until it is released
 * @gone: unregistered (under rai_resident_lock): the deadline work stops
 * @due: jiffies the deadline work is queued for, 0 when it is not
 *	(written under rai_resident_lock)
 * @wait: TAKE waits, poll() watches here
 * @queue: the names it is asked for
 * @deadline_work: sends the names past their deadline to the fallback
 */
struct rai_resident {
	struct list_head node;
	refcount_t ref;
	struct rcu_head rcu;
	struct work_struct free_work;
	struct net *net;
	struct rai_dns_view view;
	u64 view_id;
	struct rai_user *owner;
	bool gone;
	unsigned long due;
	wait_queue_head_t wait;
	struct rai_resident_queue queue;
	struct delayed_work deadline_work;
};

/**
 * struct rai_resident_net - what a network namespace has of resolvers
 * @resolvers: its resolvers, one per view (RCU list, written under
 *	rai_resident_lock)
 */
struct rai_resident_net {
	struct list_head resolvers;
};

static DEFINE_SPINLOCK(rai_resident_lock);
static unsigned int rai_resident_net_id;
static u64 rai_resident_views;
static struct workqueue_struct *rai_resident_wq;
static void (*rai_resident_fallback)(struct rai_request *req);

/* Resolvers registered (a gauge). */
static atomic_t rai_resident_count = ATOMIC_INIT(0);

static u64 rai_resident_registered(void)
{
	return atomic_read(&rai_resident_count);
}

static struct rai_stats_gauge rai_resident_gauge = {
	.name = "resolvers", .read = rai_resident_registered,
};

static void rai_resident_free(struct work_struct *work)
{
	struct rai_resident *r = container_of(work, struct rai_resident,
					      free_work);

	rai_dns_view_put(&r->view);
	put_net(r->net);
	kfree_rcu(r, rcu);
}

/* Any context: the last reference frees it from a worker. */
void rai_resident_put(struct rai_resident *r)
{
	if (r && refcount_dec_and_test(&r->ref))
		queue_work(rai_resident_wq, &r->free_work);
}

/* The cache's view of @r's answers (struct rai_dns_cache_key). */
u64 rai_resident_view(const struct rai_resident *r)
{
	return r->view_id;
}

/* When a name not taken by now stops waiting for the resolver. */
static unsigned long rai_resident_wait_until(void)
{
	return jiffies + msecs_to_jiffies(READ_ONCE(rai_resident_wait_ms));
}

/* The queue's limits, as the parameters say now. */
static void rai_resident_limits(struct rai_resident_limits *max)
{
	max->names = READ_ONCE(rai_resident_max_outstanding);
	max->per_user = READ_ONCE(rai_resident_max_per_user);
	max->wait_until = rai_resident_wait_until();
}

/*
 * The deadline work of @r runs by @when.  Deadlines come mostly in the
 * order of their names: a work queued already for no later needs no lock.
 */
static void rai_resident_arm(struct rai_resident *r, unsigned long when)
{
	unsigned long due = READ_ONCE(r->due);

	if (due && !time_before(when, due))
		return;
	spin_lock(&rai_resident_lock);
	if (!r->gone && (!r->due || time_before(when, r->due))) {
		WRITE_ONCE(r->due, when ? when : 1);
		mod_delayed_work(rai_resident_wq, &r->deadline_work,
				 time_after(when, jiffies) ? when - jiffies : 0);
	}
	spin_unlock(&rai_resident_lock);
}

/*
 * @req's name asked of @r; @attach (@req, or NULL for a refresh) waits
 * for it, holding the DNS queue's reference.  False when @r is gone or
 * full.
 */
static bool rai_resident_ask(struct rai_resident *r,
			     const struct rai_request *req,
			     struct rai_request *attach)
{
	struct rai_resident_limits max;
	struct rai_user *user;
	int ret;

	/* An on-stack request (answer_now) has no user: it is the caller. */
	user = req->user ? rai_user_hold(req->user) : rai_user_get_current();
	if (!user)
		return false;
	rai_resident_limits(&max);
	ret = rai_resident_queue_ask(&r->queue, &max, user, req->node,
				     req->node_len, attach);
	rai_user_put(user);
	if (ret > 0) {
		rai_resident_arm(r, max.wait_until);
		wake_up(&r->wait);
	}
	return ret >= 0;
}

/**
 * rai_resident_submit - ask @r for @req's name
 * @r: the resolver of @req's caller (rai_resident_find())
 * @req: a DNS request, holding a reference for the DNS queue
 *
 * Return: true when @req waits at @r (the queue's reference with it);
 * false when @r is gone or full: the caller sends it on.
 */
bool rai_resident_submit(struct rai_resident *r, struct rai_request *req)
{
	if (rai_resident_ask(r, req, req))
		return true;
	rai_stat_inc(RAI_STAT_RESOLVER_FALLBACKS);
	return false;
}

/* Ask @r again for @req's name, for the cache (no request waits). */
void rai_resident_refresh(struct rai_resident *r,
			  const struct rai_request *req)
{
	rai_resident_ask(r, req, NULL);
}

/* Names past their deadline, taken or not, go to the fallback. */
static void rai_resident_deadline(struct work_struct *work)
{
	struct rai_resident *r = container_of(to_delayed_work(work),
					      struct rai_resident,
					      deadline_work);
	unsigned long next;
	unsigned int missed;
	LIST_HEAD(gone);

	/* Running: a deadline armed from now on queues it again. */
	spin_lock(&rai_resident_lock);
	WRITE_ONCE(r->due, 0);
	spin_unlock(&rai_resident_lock);
	missed = rai_resident_queue_expire(&r->queue, &gone, &next);
	if (next)
		rai_resident_arm(r, next);
	if (!missed)
		return;
	atomic64_add(missed, &rai_stats[RAI_STAT_RESOLVER_DEADLINES]);
	pr_notice_ratelimited("resident resolver did not take or answer %u names in time: they go to the upcall\n",
			      missed);
	rai_resident_hand_over_all(&gone, rai_resident_fallback);
}

/**
 * rai_resident_take_names - names for @r's resolver to answer
 * @r: the resolver
 * @out: filled with up to @max names
 * @max: entries of @out
 *
 * Return: names taken; their deadline runs from now (the deadline work
 * armed).
 */
u32 rai_resident_take_names(struct rai_resident *r,
			    struct rdma_addrinfo_resolver_name *out, u32 max)
{
	unsigned long deadline = jiffies +
		msecs_to_jiffies(READ_ONCE(rai_resident_deadline_ms));
	u32 nr;

	nr = rai_resident_queue_take(&r->queue, out, max, deadline);
	if (!nr)
		return 0;
	rai_resident_arm(r, deadline);
	/* TAKE waiters are woken one at a time: the next one, if any left. */
	if (rai_resident_queue_waiting(&r->queue))
		wake_up(&r->wait);
	return nr;
}

static bool rai_resident_has_names(struct rai_resident *r)
{
	return rai_resident_queue_waiting(&r->queue);
}

/*
 * Sleep until names wait for @r (TAKE waiters are woken one at a time).
 * 0 at once when they do.
 */
int rai_resident_wait_names(struct rai_resident *r)
{
	return wait_event_interruptible_exclusive(r->wait,
						  rai_resident_has_names(r));
}

/* Names wait for @r: a TAKE may find some (no lock: a hint). */
bool rai_resident_names_wait(struct rai_resident *r)
{
	return rai_resident_has_names(r);
}

/* A TAKE woken for names gives up: the next waiter, if names wait. */
void rai_resident_pass_wake(struct rai_resident *r)
{
	if (rai_resident_has_names(r))
		wake_up(&r->wait);
}

/* @nr names taken into @out that the resolver never saw: offered again. */
void rai_resident_untake(struct rai_resident *r,
			 const struct rdma_addrinfo_resolver_name *out, u32 nr)
{
	rai_resident_queue_untake(&r->queue, out, nr,
				  rai_resident_wait_until());
	rai_resident_arm(r, rai_resident_wait_until());
	wake_up(&r->wait);
}

/* The network namespace @r serves (its answers' IPv6 scopes). */
struct net *rai_resident_net(const struct rai_resident *r)
{
	return r->net;
}

/**
 * rai_resident_answered - @r's resolver answered name @id
 * @r: the resolver
 * @id: the id it was given the name with
 * @answer: the answer, its addresses parsed (the caller releases them);
 *	-EPROTO for an answer that broke the protocol
 *
 * Every request of the name completes with @answer; a good answer is
 * cached under @r's view.
 * Return: 0; -EPROTO for a malformed answer (not cached); -ENOENT when @r
 * holds no name @id (answered already, past its deadline, or never given).
 */
int rai_resident_answered(struct rai_resident *r, u64 id,
			  const struct rai_dns_answer *answer)
{
	struct rai_dns_cache_key key = {
		.net = r->net, .view = r->view_id, .helper = true, .source = r,
	};
	int ret;

	ret = rai_resident_queue_answer(&r->queue, id, answer, &key);
	if (ret == -ENOENT) {
		rai_stat_inc(RAI_STAT_RESOLVER_STALE);
		return ret;
	}
	return answer->status == -EPROTO ? -EPROTO : 0;
}

/* @r counts no more against the share of the user who registered it. */
static void rai_resident_disown(struct rai_resident *r)
{
	rai_resident_owner_del_resolver(r->owner);
	rai_user_put(r->owner);
	r->owner = NULL;
}

/* The resolvers of @net (a namespace lives while a resolver of it does). */
static struct list_head *rai_resident_list(const struct net *net)
{
	struct rai_resident_net *rn = net_generic(net, rai_resident_net_id);

	return &rn->resolvers;
}

static int __net_init rai_resident_net_init(struct net *net)
{
	INIT_LIST_HEAD(rai_resident_list(net));
	return 0;
}

/* Its resolvers held it: none is left. */
static void __net_exit rai_resident_net_exit(struct net *net)
{
	WARN_ON_ONCE(!list_empty(rai_resident_list(net)));
}

static struct pernet_operations rai_resident_net_ops = {
	.init = rai_resident_net_init,
	.exit = rai_resident_net_exit,
	.id = &rai_resident_net_id,
	.size = sizeof(struct rai_resident_net),
};

/* Is another resolver registered for @r's namespace and view? */
static bool rai_resident_taken_view(const struct rai_resident *r)
{
	struct rai_resident *other;

	lockdep_assert_held(&rai_resident_lock);
	list_for_each_entry(other, rai_resident_list(r->net), node)
		if (rai_dns_view_equal(&other->view, &r->view))
			return true;
	return false;
}

/* What a resolver is told at RESOLVER_REGISTER: the limits it works under. */
void rai_resident_terms(struct rdma_addrinfo_resolver_register *reg)
{
	reg->max_outstanding = READ_ONCE(rai_resident_max_outstanding);
	reg->deadline_ms = READ_ONCE(rai_resident_deadline_ms);
}

/**
 * rai_resident_create - @file becomes the resolver of its namespace and view
 * @file: the file of RESOLVER_REGISTER (its caller allowed to register)
 *
 * The view is the calling process's; the resolver counts against its
 * user's share (resolver_max_per_user), its memory against the caller's
 * memory cgroup.
 * Return: 0; -EBUSY when @file is a resolver already or another resolver
 * serves the same namespace and view; -EDQUOT when the user has as many
 * resolvers as it may; -ENOMEM.
 */
int rai_resident_create(struct rai_file *file)
{
	struct rai_user *owner;
	struct rai_resident *r;
	bool busy;

	owner = rai_user_get_current();
	if (!owner)
		return -ENOMEM;
	if (!rai_resident_owner_add_resolver(owner)) {
		rai_user_put(owner);
		return -EDQUOT;
	}
	r = kzalloc(sizeof(*r), RAI_GFP_CALLER);
	if (!r) {
		rai_resident_owner_del_resolver(owner);
		rai_user_put(owner);
		return -ENOMEM;
	}
	r->owner = owner;
	refcount_set(&r->ref, 1);
	INIT_WORK(&r->free_work, rai_resident_free);
	INIT_DELAYED_WORK(&r->deadline_work, rai_resident_deadline);
	init_waitqueue_head(&r->wait);
	rai_resident_queue_init(&r->queue);
	r->net = get_net(file->net);
	rai_dns_view_get(&r->view);
	/* Answers in the host's view share the upcall's cache entries. */
	r->view_id = rai_dns_view_is_host(&r->view, r->net) ? 0 : 1;

	spin_lock(&rai_resident_lock);
	busy = file->dns.resident || rai_resident_taken_view(r);
	if (!busy) {
		if (r->view_id)
			r->view_id = ++rai_resident_views;
		list_add_rcu(&r->node, rai_resident_list(r->net));
		WRITE_ONCE(file->dns.resident, r);
	}
	spin_unlock(&rai_resident_lock);
	if (busy) {
		rai_resident_disown(r);
		rai_resident_put(r);
		return -EBUSY;
	}
	atomic_inc(&rai_resident_count);
	rai_stat_inc(RAI_STAT_RESOLVER_REGISTERED);
	/* Rate-limited: any user may register in a namespace of its own. */
	pr_info_ratelimited("resident resolver registered by pid %d for the %s view\n",
			    task_tgid_nr(current),
			    r->view_id ? "container's" : "host's");
	return 0;
}

/* EPOLLIN while names wait for the resolver of @file. */
__poll_t rai_resident_poll(struct rai_file *file, struct file *filp,
			   poll_table *wait)
{
	struct rai_resident *r = READ_ONCE(file->dns.resident);

	if (!r)
		return 0;
	poll_wait(filp, &r->wait, wait);
	return rai_resident_has_names(r) ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * The file of a resolver is closed: it is no resolver any more, and every
 * name it held goes to the fallback, with its requests.
 */
void rai_resident_release(struct rai_file *file)
{
	struct rai_resident *r = file->dns.resident;
	unsigned int held;
	LIST_HEAD(gone);

	if (!r)
		return;
	spin_lock(&rai_resident_lock);
	r->gone = true;
	list_del_rcu(&r->node);
	WRITE_ONCE(file->dns.resident, NULL);
	spin_unlock(&rai_resident_lock);
	held = rai_resident_queue_close(&r->queue, &gone);
	cancel_delayed_work_sync(&r->deadline_work);
	rai_dns_cache_forget(r->net, r->view_id, r);
	rai_resident_disown(r);
	atomic_dec(&rai_resident_count);
	rai_stat_inc(RAI_STAT_RESOLVER_UNREGISTERED);
	pr_info_ratelimited("resident resolver gone (its file closed by pid %d), %u names to the upcall\n",
			    task_tgid_nr(current), held);
	rai_resident_hand_over_all(&gone, rai_resident_fallback);
	rai_resident_put(r);
}

/* How many resolvers @net has registered (any view), for GET_STATS. */
u32 rai_resident_nr_in(const struct net *net)
{
	struct rai_resident *r;
	u32 nr = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(r, rai_resident_list(net), node)
		if (!READ_ONCE(r->gone))
			nr++;
	rcu_read_unlock();
	return nr;
}

/**
 * rai_resident_find - the resolver of @req's caller
 * @req: a DNS request, in its RESOLVE ioctl
 * @root: the caller's root (get_fs_root()), held by the caller
 *
 * Only the resolvers of the caller's network namespace are looked at (one
 * per view: mostly none or one), whatever other namespaces register.
 * Return: the resolver registered for the caller's network namespace and
 * view, referenced (rai_resident_put()), or NULL.
 */
struct rai_resident *rai_resident_find(const struct rai_request *req,
				       const struct path *root)
{
	struct list_head *list = rai_resident_list(req->file->net);
	struct rai_resident *r, *found = NULL;
	struct rai_dns_view mine;
	bool others = false;

	if (list_empty(list))
		return NULL;
	/* The root first: a resolver of the caller's own root is common. */
	rcu_read_lock();
	list_for_each_entry_rcu(r, list, node) {
		if (!refcount_inc_not_zero(&r->ref))
			continue;
		if (path_equal(&r->view.root, root)) {
			found = r;
			break;
		}
		others = true;
		rai_resident_put(r);
	}
	rcu_read_unlock();
	if (found || !others)
		return found;

	rai_dns_view_get(&mine);
	rcu_read_lock();
	list_for_each_entry_rcu(r, list, node) {
		if (!refcount_inc_not_zero(&r->ref))
			continue;
		if (rai_dns_view_equal(&r->view, &mine)) {
			found = r;
			break;
		}
		rai_resident_put(r);
	}
	rcu_read_unlock();
	rai_dns_view_put(&mine);
	return found;
}

int rai_resident_init(void (*fallback)(struct rai_request *req))
{
	int ret;

	rai_resident_wq = alloc_workqueue("rai_resident", WQ_UNBOUND, 0);
	if (!rai_resident_wq)
		return -ENOMEM;
	ret = register_pernet_subsys(&rai_resident_net_ops);
	if (ret) {
		destroy_workqueue(rai_resident_wq);
		return ret;
	}
	rai_resident_fallback = fallback;
	rai_stats_gauge_add(&rai_resident_gauge);
	rai_resident_queue_gauges_init();
	return 0;
}

/* Every file is closed: no resolver is left but those being freed. */
void rai_resident_exit(void)
{
	destroy_workqueue(rai_resident_wq);
	unregister_pernet_subsys(&rai_resident_net_ops);
	rai_resident_queue_gauges_exit();
	rai_stats_gauge_del(&rai_resident_gauge);
}
