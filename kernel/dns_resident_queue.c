// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the names a resident resolver is asked for.
 *
 * Each resolver (kernel/dns_resident.c) has a queue of names: one per
 * name, however many requests wait for it.  A name waits on the list of
 * the user who asked it first; TAKE serves the users round-robin, oldest
 * name first, and names that a TAKE could not hand out (a fault while
 * copying them out) before any other.  A name waits to be taken until the
 * end of its wait (resolver_wait_ms, kernel/dns_resident.c), a taken name
 * for its answer until its deadline.  A name leaves the queue once, by claim (its
 * answer), expiry (its deadline), close (its resolver gone), or when the
 * last request waiting for it goes before it is taken (destroyed, closed,
 * timed out: no one would read its answer, and an untaken name of no one
 * would hold the caller's memory for nothing).  Its requests stay on it
 * until rai_resident_hand_over() gives them their answer or fallback and
 * frees it.
 *
 * A request leaves a name exactly once too: whoever takes it off a name's
 * list of requests, under its queue's lock, owns the reference the DNS
 * queue holds (rai_resident_hand_over(), or the request's cancel and
 * time-out through rai_resident_unwait()).  While it waits, the request
 * points at the queue (@dns.resident_queue), which lives while one of its
 * names does: a cancel finds the queue's lock through it, under RCU (a
 * resolver is freed after a grace period).
 *
 * Names and users are allocated on behalf of the caller that asks
 * (RAI_GFP_CALLER: charged to its memory cgroup, ENOMEM over its limit),
 * and counted against its share over every queue (kernel/user.c's, up
 * through its parents: kernel/dns_resident_owner.c) besides the queue's
 * own limits.  Within a queue, a tenant is the top of its share's chain
 * (a uid of the host, or a container root created): its entry bounds
 * what the tenant, over all its uids and namespaces, holds there.
 *
 * Each queue's @lock protects it, its users and names, each name's
 * requests and their @dns.resident_entry and @dns.resident_queue: queues
 * of different resolvers share no lock.  kernel/user.c's lock nests
 * inside (a share's last reference dropped).
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "charge.h"
#include "dns_answer.h"
#include "dns_cache.h"
#include "dns_resident_owner.h"
#include "dns_resident_queue.h"
#include "request.h"
#include "stats.h"
#include "user.h"

/**
 * struct rai_resident_name - a name a resolver is asked for
 * @id_node: in its queue's @by_id
 * @name_node: in its queue's @by_name
 * @entry: in its user's @names, the queue's @returned, (taken) the
 *	queue's @taken, or once out of the queue a list of names to hand over
 * @user: the tenant who asked first (struct rai_resident_user, below)
 * @share: the share of kernel/user.c it is charged to, referenced
 * @queue: the queue it is in (it leaves that queue once; the last request
 *	that leaves a name not yet taken takes the name out)
 * @reqs: the requests waiting for it (their @dns.resident_entry); they stay
 *	here when the name leaves its queue, until it is handed over
 * @id: what the resolver is told, and answers with
 * @age: in the queue's @asked while not taken
 * @deadline: jiffies when the name goes to the fallback: taken, its
 *	answer's deadline; not taken, the end of its wait (resolver_wait_ms)
 * @taken: taken by the resolver, not yet answered
 * @len: bytes of @name
 * @name: the name, NUL-terminated
 */
struct rai_resident_name {
	struct hlist_node id_node;
	struct hlist_node name_node;
	struct list_head entry;
	struct rai_resident_user *user;
	struct rai_user *share;
	struct rai_resident_queue *queue;
	struct list_head reqs;
	struct list_head age;
	u64 id;
	unsigned long deadline;
	bool taken;
	u32 len;
	char name[];
};

/**
 * struct rai_resident_user - one tenant's names in a queue
 * @node: in the queue's @users, by @owner
 * @turn: in the queue's @turns while @names is not empty
 * @names: its names not yet taken, oldest first
 * @owner: the tenant (rai_user_top() of its callers' shares), referenced
 * @nr: its names in the queue, waiting or taken
 */
struct rai_resident_user {
	struct hlist_node node;
	struct list_head turn;
	struct list_head names;
	struct rai_user *owner;
	unsigned int nr;
};

/* Names in every queue (a gauge). */
static atomic_t rai_resident_names = ATOMIC_INIT(0);

static u64 rai_resident_outstanding(void)
{
	return atomic_read(&rai_resident_names);
}

static struct rai_stats_gauge rai_resident_queue_gauge = {
	.name = "resolver_outstanding", .read = rai_resident_outstanding,
};

void rai_resident_queue_init(struct rai_resident_queue *q)
{
	spin_lock_init(&q->lock);
	hash_init(q->users);
	hash_init(q->by_id);
	hash_init(q->by_name);
	INIT_LIST_HEAD(&q->turns);
	INIT_LIST_HEAD(&q->returned);
	INIT_LIST_HEAD(&q->taken);
	INIT_LIST_HEAD(&q->asked);
}

static u32 rai_resident_hash(const char *name, u32 len)
{
	return jhash(name, len, 0);
}

static struct rai_resident_name *
rai_resident_by_name(struct rai_resident_queue *q, const char *name, u32 len)
{
	struct rai_resident_name *n;

	lockdep_assert_held(&q->lock);
	hash_for_each_possible(q->by_name, n, name_node,
			       rai_resident_hash(name, len))
		if (n->len == len && !memcmp(n->name, name, len))
			return n;
	return NULL;
}

static struct rai_resident_name *
rai_resident_by_id(struct rai_resident_queue *q, u64 id)
{
	struct rai_resident_name *n;

	lockdep_assert_held(&q->lock);
	hash_for_each_possible(q->by_id, n, id_node, id)
		if (n->id == id)
			return n;
	return NULL;
}

static struct rai_resident_user *
rai_resident_user(struct rai_resident_queue *q, const struct rai_user *owner)
{
	struct rai_resident_user *u;

	lockdep_assert_held(&q->lock);
	hash_for_each_possible(q->users, u, node, hash_ptr(owner, 32))
		if (u->owner == owner)
			return u;
	return NULL;
}

/*
 * @n out of @q, onto @gone (a list of names to hand over), or alone when
 * @gone is NULL; its requests stay on it.  Out of the queue, @n's
 * @id_node is unhashed.
 */
static void rai_resident_unlink(struct rai_resident_queue *q,
				struct rai_resident_name *n,
				struct list_head *gone)
{
	struct rai_resident_user *u = n->user;

	lockdep_assert_held(&q->lock);
	hash_del(&n->id_node);
	hash_del(&n->name_node);
	if (gone)
		list_move_tail(&n->entry, gone);
	else
		list_del_init(&n->entry);
	if (!n->taken)
		WRITE_ONCE(q->nr_waiting, q->nr_waiting - 1);
	list_del_init(&n->age);
	if (list_empty(&u->names))
		list_del_init(&u->turn);
	rai_resident_owner_del_name(n->share);
	rai_user_put(n->share);
	n->share = NULL;
	if (!--u->nr) {
		hash_del(&u->node);
		rai_user_put(u->owner);
		kfree(u);
	}
	q->nr_names--;
	atomic_dec(&rai_resident_names);
}

/*
 * @fresh (room for @len bytes of name) in @q as the newest name of
 * @owner (the tenant), charged to @user (the caller's share), with @spare
 * as the tenant's entry if it has none yet (then set to NULL).  Return:
 * 1; -ENOSPC when @q or the tenant holds as many names as @max or the
 * caller's share allows; -EAGAIN when the tenant has no entry here and
 * @spare is NULL.
 */
static int rai_resident_add(struct rai_resident_queue *q,
			    const struct rai_resident_limits *max,
			    struct rai_resident_name *fresh,
			    struct rai_resident_user **spare,
			    struct rai_user *user, struct rai_user *owner,
			    const char *name, u32 len)
{
	struct rai_resident_user *u;

	lockdep_assert_held(&q->lock);
	if (q->nr_names >= max->names)
		return -ENOSPC;
	u = rai_resident_user(q, owner);
	if (u && u->nr >= max->per_user)
		return -ENOSPC;
	if (!u && !*spare)
		return -EAGAIN;
	if (!rai_resident_owner_add_name(user))
		return -ENOSPC;
	if (!u) {
		u = *spare;
		*spare = NULL;
		u->owner = rai_user_hold(owner);
		u->nr = 0;
		INIT_LIST_HEAD(&u->turn);
		INIT_LIST_HEAD(&u->names);
		hash_add(q->users, &u->node, hash_ptr(owner, 32));
	}
	fresh->share = rai_user_hold(user);
	fresh->id = ++q->next_id;
	fresh->user = u;
	fresh->queue = q;
	fresh->taken = false;
	fresh->deadline = max->wait_until;
	list_add_tail(&fresh->age, &q->asked);
	fresh->len = len;
	memcpy(fresh->name, name, len);
	fresh->name[len] = '\0';
	INIT_LIST_HEAD(&fresh->reqs);
	hash_add(q->by_id, &fresh->id_node, fresh->id);
	hash_add(q->by_name, &fresh->name_node, rai_resident_hash(name, len));
	list_add_tail(&fresh->entry, &u->names);
	if (list_empty(&u->turn))
		list_add_tail(&u->turn, &q->turns);
	u->nr++;
	q->nr_names++;
	WRITE_ONCE(q->nr_waiting, q->nr_waiting + 1);
	atomic_inc(&rai_resident_names);
	return 1;
}

/* @req waits for @n of @q (the DNS queue's reference with it). */
static void rai_resident_attach(struct rai_resident_queue *q,
				struct rai_resident_name *n,
				struct rai_request *req)
{
	lockdep_assert_held(&q->lock);
	list_add_tail(&req->dns.resident_entry, &n->reqs);
	WRITE_ONCE(req->dns.resident_queue, q);
}

/*
 * @attach (if any) waits for @name, which @q holds already.  -ENOENT when
 * @q does not hold it, -ESHUTDOWN when @q is closed.
 */
static int rai_resident_join(struct rai_resident_queue *q, const char *name,
			     u32 len, struct rai_request *attach)
{
	struct rai_resident_name *n;

	lockdep_assert_held(&q->lock);
	if (q->closed)
		return -ESHUTDOWN;
	n = rai_resident_by_name(q, name, len);
	if (!n)
		return -ENOENT;
	if (attach)
		rai_resident_attach(q, n, attach);
	return 0;
}

/**
 * rai_resident_queue_ask - ask @q for a name, on behalf of @user
 * @q: the queue
 * @max: its limits
 * @user: the share of the caller asking (kernel/user.c), referenced by
 *	the caller; the name takes a reference of its own
 * @name: the name
 * @len: its length
 * @attach: a request to wait for the name (with
 *	the DNS queue's reference), or NULL
 *
 * A name @q holds already is joined without allocating; a new one is
 * allocated unlocked (charged to the caller's memory cgroup), with an
 * entry of the user if it had none in @q, and looked for again, as
 * another ask may have added it meanwhile.
 * Process context.  Return: 1 for a new name (wake the resolver), 0 for
 * one already asked, -ESHUTDOWN when @q is closed, -ENOSPC when it, the
 * tenant in it or the caller's share (or one above it) is full, -ENOMEM.
 */
int rai_resident_queue_ask(struct rai_resident_queue *q,
			   const struct rai_resident_limits *max,
			   struct rai_user *user, const char *name, u32 len,
			   struct rai_request *attach)
{
	struct rai_resident_user *spare = NULL;
	struct rai_resident_name *fresh;
	struct rai_user *owner;
	bool need_user;
	int ret;

	owner = rai_user_top(user);
	spin_lock(&q->lock);
	ret = rai_resident_join(q, name, len, attach);
	need_user = !rai_resident_user(q, owner);
	spin_unlock(&q->lock);
	if (ret != -ENOENT)
		goto out_owner;

	ret = -ENOMEM;
	fresh = kmalloc(struct_size(fresh, name, len + 1), RAI_GFP_CALLER);
	if (!fresh)
		goto out_owner;
	do {
		if (need_user && !spare) {
			spare = kmalloc(sizeof(*spare), RAI_GFP_CALLER);
			if (!spare)
				goto out;
		}
		spin_lock(&q->lock);
		ret = rai_resident_join(q, name, len, attach);
		if (ret == -ENOENT)
			ret = rai_resident_add(q, max, fresh, &spare, user,
					       owner, name, len);
		if (ret == 1) {
			if (attach)
				rai_resident_attach(q, fresh, attach);
			fresh = NULL;
		}
		spin_unlock(&q->lock);
		/* The user's last name here left meanwhile: an entry, again. */
		need_user = true;
	} while (ret == -EAGAIN);
out:
	kfree(fresh);
	kfree(spare);
out_owner:
	rai_user_put(owner);
	return ret;
}

/**
 * rai_resident_queue_take - up to @max names of @q, for its resolver
 * @q: the queue
 * @out: filled with their ids and names (the rest of each left as it is)
 * @max: entries of @out
 * @deadline: jiffies when the names taken go to the fallback
 *
 * Return: names taken; the first of them is the oldest of @q's @taken.
 */
u32 rai_resident_queue_take(struct rai_resident_queue *q,
			    struct rdma_addrinfo_resolver_name *out, u32 max,
			    unsigned long deadline)
{
	struct rai_resident_name *n;
	struct rai_resident_user *u;
	u32 i = 0;

	spin_lock(&q->lock);
	while (i < max) {
		if (!list_empty(&q->returned)) {
			n = list_first_entry(&q->returned,
					     struct rai_resident_name, entry);
		} else if (!list_empty(&q->turns)) {
			u = list_first_entry(&q->turns,
					     struct rai_resident_user, turn);
			n = list_first_entry(&u->names,
					     struct rai_resident_name, entry);
			/* The user goes to the end of the turns. */
			if (list_is_singular(&u->names))
				list_del_init(&u->turn);
			else
				list_move_tail(&u->turn, &q->turns);
		} else {
			break;
		}
		list_move_tail(&n->entry, &q->taken);
		list_del_init(&n->age);
		n->taken = true;
		n->deadline = deadline;
		WRITE_ONCE(q->nr_waiting, q->nr_waiting - 1);
		out[i].id = n->id;
		out[i].name_len = n->len;
		memcpy(out[i].name, n->name, n->len + 1);
		i++;
	}
	spin_unlock(&q->lock);
	return i;
}

/*
 * Names of @out that could not be handed out: offered again, first,
 * waiting until @wait_until.
 */
void rai_resident_queue_untake(struct rai_resident_queue *q,
			       const struct rdma_addrinfo_resolver_name *out,
			       u32 nr, unsigned long wait_until)
{
	struct rai_resident_name *n;
	u32 i;

	spin_lock(&q->lock);
	for (i = 0; i < nr; i++) {
		n = rai_resident_by_id(q, out[i].id);
		if (!n || !n->taken)
			continue;	/* answered, or past its deadline */
		n->taken = false;
		n->deadline = wait_until;
		list_move_tail(&n->entry, &q->returned);
		list_add_tail(&n->age, &q->asked);
		WRITE_ONCE(q->nr_waiting, q->nr_waiting + 1);
	}
	spin_unlock(&q->lock);
}

/*
 * The name @id of @q, out of it, for its answer.  Return: the name,
 * with its requests (the caller hands it over: rai_resident_hand_over()),
 * or NULL when @id is no name of @q (answered, past its deadline, never
 * given out, or of no request any more).
 */
static struct rai_resident_name *
rai_resident_queue_claim(struct rai_resident_queue *q, u64 id)
{
	struct rai_resident_name *n;

	spin_lock(&q->lock);
	n = rai_resident_by_id(q, id);
	if (n)
		rai_resident_unlink(q, n, NULL);
	spin_unlock(&q->lock);
	return n;
}

/*
 * The names of @list (@q's @taken, linked by @entry, or its @asked, by
 * @age), oldest first, past their deadline: onto @gone.  *@next becomes
 * the deadline of the first name left, if earlier (0: none yet).
 */
static unsigned int rai_resident_expire_list(struct rai_resident_queue *q,
					     struct list_head *list,
					     bool by_age,
					     struct list_head *gone,
					     unsigned long *next)
{
	struct rai_resident_name *n;
	unsigned int expired = 0;

	lockdep_assert_held(&q->lock);
	while (!list_empty(list)) {
		n = by_age ? list_first_entry(list, struct rai_resident_name,
					      age) :
			     list_first_entry(list, struct rai_resident_name,
					      entry);
		if (time_before(jiffies, n->deadline)) {
			if (!*next || time_before(n->deadline, *next))
				*next = n->deadline;
			break;
		}
		rai_resident_unlink(q, n, gone);
		expired++;
	}
	return expired;
}

/**
 * rai_resident_queue_expire - the names of @q past their deadline
 * @q: the queue
 * @gone: they are moved here, with their requests (to hand over)
 * @next: jiffies of the next deadline, or 0 if @q holds no name
 *
 * Taken names past their answer's deadline, and names not taken past
 * the end of their wait.
 * Return: the names that expired.
 */
unsigned int rai_resident_queue_expire(struct rai_resident_queue *q,
				       struct list_head *gone,
				       unsigned long *next)
{
	unsigned int expired;

	*next = 0;
	spin_lock(&q->lock);
	expired = rai_resident_expire_list(q, &q->taken, false, gone, next);
	expired += rai_resident_expire_list(q, &q->asked, true, gone, next);
	spin_unlock(&q->lock);
	return expired;
}

/**
 * rai_resident_queue_close - every name of @q out, and no new one in
 * @q: the queue of a resolver that is gone
 * @gone: its names are moved here, with their requests (to hand over)
 *
 * Return: the names @q held.
 */
unsigned int rai_resident_queue_close(struct rai_resident_queue *q,
				      struct list_head *gone)
{
	struct rai_resident_name *n;
	struct hlist_node *tmp;
	unsigned int bkt, held = 0;

	spin_lock(&q->lock);
	q->closed = true;
	hash_for_each_safe(q->by_id, bkt, tmp, n, id_node) {
		rai_resident_unlink(q, n, gone);
		held++;
	}
	spin_unlock(&q->lock);
	return held;
}

/* Are names of @q waiting to be taken?  No lock: for wait conditions. */
bool rai_resident_queue_waiting(const struct rai_resident_queue *q)
{
	return READ_ONCE(q->nr_waiting);
}

/**
 * rai_resident_unwait - take @req off the name it waits for, if it does
 * @req: a DNS request being cancelled or timed out
 *
 * The last request of a name not yet taken takes the name out of its
 * queue: no one waits for its answer.  A taken name stays until its
 * answer or its deadline (its answer still fills the cache).
 * Return: true when it waited: the caller drops the DNS queue's reference.
 */
bool rai_resident_unwait(struct rai_request *req)
{
	struct list_head *entry = &req->dns.resident_entry;
	struct rai_resident_name *n = NULL;
	struct rai_resident_queue *q;
	bool waiting;

	/* The queue outlives the grace period after its last name went. */
	rcu_read_lock();
	q = READ_ONCE(req->dns.resident_queue);
	if (!q) {
		rcu_read_unlock();
		return false;
	}
	spin_lock(&q->lock);
	/* Handed over meanwhile: whoever did owns it. */
	waiting = req->dns.resident_queue == q;
	if (waiting) {
		/* Alone on a list: the list is the @reqs of its name. */
		if (entry->next == entry->prev) {
			n = container_of(entry->next, struct rai_resident_name,
					 reqs);
			/* Out of its queue already: being handed over. */
			if (hlist_unhashed(&n->id_node) || n->taken)
				n = NULL;
			else
				rai_resident_unlink(q, n, NULL);
		}
		list_del_init(entry);
		WRITE_ONCE(req->dns.resident_queue, NULL);
	}
	spin_unlock(&q->lock);
	rcu_read_unlock();
	kfree(n);
	return waiting;
}

/*
 * The requests of @n, a name that left its queue (claimed, expired,
 * closed), freed here: @answer delivered to each
 * (rai_dns_answer_deliver()), or, NULL, each to @fallback (which takes a
 * request with the DNS queue's reference).  A request cancelled meanwhile
 * is no longer on @n: its cancel owned it.
 */
static void rai_resident_hand_over(struct rai_resident_name *n,
				   const struct rai_dns_answer *answer,
				   void (*fallback)(struct rai_request *req))
{
	struct rai_resident_queue *q = n->queue;
	struct rai_request *req;

	spin_lock(&q->lock);
	while (!list_empty(&n->reqs)) {
		req = list_first_entry(&n->reqs, struct rai_request,
				       dns.resident_entry);
		list_del_init(&req->dns.resident_entry);
		WRITE_ONCE(req->dns.resident_queue, NULL);
		spin_unlock(&q->lock);
		if (answer) {
			rai_dns_answer_deliver(req, answer);
		} else {
			rai_stat_inc(RAI_STAT_RESOLVER_FALLBACKS);
			fallback(req);
		}
		spin_lock(&q->lock);
	}
	spin_unlock(&q->lock);
	kfree(n);
}

/**
 * rai_resident_queue_answer - the answer to name @id of @q, to its requests
 * @q: the queue
 * @id: the name's id, as its resolver answered it
 * @answer: the answer; -EPROTO: one that broke the protocol (counted and
 *	delivered, not cached)
 * @key: where a good answer is cached (kernel/dns_cache.c)
 *
 * Return: 0; -ENOENT when @id is no name of @q (answered, past its
 * deadline, never given out, or of no request any more).
 */
int rai_resident_queue_answer(struct rai_resident_queue *q, u64 id,
			      const struct rai_dns_answer *answer,
			      const struct rai_dns_cache_key *key)
{
	struct rai_resident_name *n = rai_resident_queue_claim(q, id);

	if (!n)
		return -ENOENT;
	if (answer->status == -EPROTO) {
		rai_stat_inc(RAI_STAT_RESOLVER_MALFORMED);
	} else {
		rai_stat_inc(RAI_STAT_RESOLVER_ANSWERS);
		rai_dns_cache_remember(key, n->name, n->len, answer);
	}
	rai_resident_hand_over(n, answer, NULL);
	return 0;
}

/*
 * Every name of @gone (rai_resident_queue_expire(), _close()) handed over
 * to @fallback, with its requests.
 */
void rai_resident_hand_over_all(struct list_head *gone,
				void (*fallback)(struct rai_request *req))
{
	struct rai_resident_name *n, *tmp;

	list_for_each_entry_safe(n, tmp, gone, entry) {
		list_del(&n->entry);
		rai_resident_hand_over(n, NULL, fallback);
	}
}

void rai_resident_queue_gauges_init(void)
{
	rai_stats_gauge_add(&rai_resident_queue_gauge);
}

void rai_resident_queue_gauges_exit(void)
{
	rai_stats_gauge_del(&rai_resident_queue_gauge);
}
