// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: per-user accounting, per user namespace, hierarchical.
 *
 * The device is open to every local user, so what one tenant may hold is
 * bounded apart from the per-file and module-wide caps: requests
 * (max_requests_per_user, kernel/request.c), result bytes
 * (max_result_kib_per_user, kernel/request.c), DNS upcall slots
 * (max_upcalls_per_user, kernel/dns_slots.c) and dns_resolver keys
 * (dns_max_keys_per_user, kernel/dns_keys.c).  The caller is its real uid
 * (as for RLIMIT_NPROC and inotify: a set-uid program is charged to
 * whoever runs it, a file passed to another process charges that
 * process) in its user namespace.
 *
 * Shares, as the kernel's ucounts charge a namespace and its parents:
 *
 *  - Each (user namespace, uid) pair has a share of every per-user cap.
 *  - A user namespace as a whole is charged, one level up, to the share
 *    of its owner: what a user does through namespaces it creates
 *    (rootless containers) counts as its own, and creating namespaces
 *    gains it nothing.
 *  - Except a namespace created by root of its parent (uid 0 there:
 *    what LXD/Incus, Docker with userns-remap and Kubernetes do): root
 *    hands out containers to others, so such a namespace has a share of
 *    its own at its parent, beside root's, not inside it.
 *
 * A charge succeeds only if the caller's share and every share above it,
 * up to the initial namespace, have room.  So a container takes at most
 * one share of its parent however many uids it maps or namespaces it
 * nests, never host root's; host root keeps its own share.
 *
 * Each share is a struct rai_user, linked to the share it is charged to
 * one level up (@parent).  A caller's share is found once per RESOLVE
 * (kernel/request.c keeps the last one per file) and allocated, with the
 * shares above it that do not exist yet, only when new; a charge walks
 * @parent, one level per namespace (none for a caller in the initial
 * namespace), with no lookup.  A share lives while a request, or a share
 * below, holds it.
 *
 * Locking: rai_users_lock (a spinlock, irqsave: rai_user_put() runs in
 * any context) protects the table.  A share's last reference is dropped
 * under it, so a share still in the table may be referenced again.
 * @nr_requests and @result_bytes are atomic; @dns is the DNS wing's,
 * under the locks kernel/dns_state.h names.
 */
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>

#include "charge.h"
#include "user.h"

#define RAI_USERS_HASH_BITS	6

static DEFINE_HASHTABLE(rai_users, RAI_USERS_HASH_BITS);
static DEFINE_SPINLOCK(rai_users_lock);

/* Whether @user is the calling task's own share. */
bool rai_user_is_current(const struct rai_user *user)
{
	return user->ns == current_user_ns() &&
	       uid_eq(user->kuid, current_uid());
}

static u32 rai_user_hash(const struct user_namespace *ns, kuid_t kuid)
{
	return hash_ptr(ns, 32) ^ __kuid_val(kuid);
}

/*
 * The share (@ns, @kuid) in the table, referenced, or NULL.  Under
 * rai_users_lock: a share found there has not dropped its last reference.
 */
static struct rai_user *rai_user_find(const struct user_namespace *ns,
				      kuid_t kuid)
{
	struct rai_user *user;

	lockdep_assert_held(&rai_users_lock);
	hash_for_each_possible(rai_users, user, hnode, rai_user_hash(ns, kuid))
		if (user->ns == ns && uid_eq(user->kuid, kuid)) {
			refcount_inc(&user->ref);
			return user;
		}
	return NULL;
}

static struct rai_user *rai_user_get(struct user_namespace *ns, kuid_t kuid);

/*
 * The share that all of @ns is charged to one level up, referenced: none
 * for the initial namespace (NULL); the namespace's own share if root of
 * its parent created it, else its owner's share there.
 */
static struct rai_user *rai_user_up(struct user_namespace *ns)
{
	if (ns == &init_user_ns)
		return NULL;
	if (uid_eq(ns->owner, make_kuid(ns->parent, 0)))
		return rai_user_get(ns, INVALID_UID);
	return rai_user_get(ns->parent, ns->owner);
}

/*
 * The share (@ns, @kuid), referenced, made with the shares above it if
 * new; @kuid INVALID_UID: @ns's own share as a whole, at its parent.
 * ERR_PTR(-ENOMEM).  Recursive, once per level of a new chain (user
 * namespaces nest 32 deep at most).
 */
static struct rai_user *rai_user_get(struct user_namespace *ns, kuid_t kuid)
{
	struct rai_user *user, *new, *parent;
	unsigned long flags;

	spin_lock_irqsave(&rai_users_lock, flags);
	user = rai_user_find(ns, kuid);
	spin_unlock_irqrestore(&rai_users_lock, flags);
	if (user)
		return user;

	parent = rai_user_up(uid_valid(kuid) ? ns : ns->parent);
	if (IS_ERR(parent))
		return parent;
	/* Charged to the caller who makes it, as the requests it counts. */
	new = kzalloc(sizeof(*new), RAI_GFP_CALLER);
	if (!new) {
		if (parent)
			rai_user_put(parent);
		return ERR_PTR(-ENOMEM);
	}
	new->ns = get_user_ns(ns);
	new->kuid = kuid;
	new->parent = parent;
	refcount_set(&new->ref, 1);
	atomic_set(&new->nr_requests, 0);
	atomic_long_set(&new->result_bytes, 0);
	atomic_set(&new->resolvers, 0);
	atomic_set(&new->resolver_names, 0);
	rai_dns_user_init(&new->dns);

	spin_lock_irqsave(&rai_users_lock, flags);
	user = rai_user_find(ns, kuid);
	if (!user) {
		hash_add(rai_users, &new->hnode, rai_user_hash(ns, kuid));
		user = new;
		new = NULL;
	}
	spin_unlock_irqrestore(&rai_users_lock, flags);
	if (new) {
		put_user_ns(new->ns);
		if (parent)
			rai_user_put(parent);
		kfree(new);
	}
	return user;
}

/* The share of the calling task, referenced; NULL when out of memory. */
struct rai_user *rai_user_get_current(void)
{
	struct rai_user *user;

	user = rai_user_get(current_user_ns(), current_uid());
	return IS_ERR(user) ? NULL : user;
}

/* Another reference to @user, which the caller holds one of. */
struct rai_user *rai_user_hold(struct rai_user *user)
{
	refcount_inc(&user->ref);
	return user;
}

/*
 * The top of @user's chain (a share in the initial namespace: a uid of
 * the host, or a namespace root created), referenced: the tenant that
 * @user is part of, as the host sees it.  @user holds its chain.
 */
struct rai_user *rai_user_top(struct rai_user *user)
{
	while (user->parent)
		user = user->parent;
	return rai_user_hold(user);
}

/* Any context (put_user_ns() too: it frees the namespace in a work). */
void rai_user_put(struct rai_user *user)
{
	struct rai_user *parent;
	unsigned long flags;
	bool last;

	while (user) {
		spin_lock_irqsave(&rai_users_lock, flags);
		last = refcount_dec_and_test(&user->ref);
		if (last)
			hash_del(&user->hnode);
		spin_unlock_irqrestore(&rai_users_lock, flags);
		if (!last)
			return;
		WARN_ON_ONCE(!rai_dns_user_idle(&user->dns) ||
			     atomic_read(&user->nr_requests) ||
			     atomic_read(&user->resolvers) ||
			     atomic_read(&user->resolver_names) ||
			     atomic_long_read(&user->result_bytes));
		parent = user->parent;
		put_user_ns(user->ns);
		kfree(user);
		user = parent;
	}
}

static atomic_t *rai_user_count(struct rai_user *user, size_t offset)
{
	return (atomic_t *)((char *)user + offset);
}

/**
 * rai_user_charge_count - one more of a count, at @user and every level
 * above
 * @user: the caller's share
 * @offset: the count's, in struct rai_user (an atomic_t)
 * @max: what each level may hold
 *
 * Any context.  Return: false, charging nothing, when any level already
 * holds @max.
 */
bool rai_user_charge_count(struct rai_user *user, size_t offset,
			   unsigned int max)
{
	struct rai_user *u, *v;

	for (u = user; u; u = u->parent) {
		if (atomic_inc_return(rai_user_count(u, offset)) > (int)max)
			goto undo;
	}
	return true;
undo:
	for (v = user; v != u; v = v->parent)
		atomic_dec(rai_user_count(v, offset));
	atomic_dec(rai_user_count(u, offset));
	return false;
}

void rai_user_uncharge_count(struct rai_user *user, size_t offset)
{
	struct rai_user *u;

	for (u = user; u; u = u->parent)
		atomic_dec(rai_user_count(u, offset));
}

/*
 * One request charged to @user and every level above: false, charging
 * nothing, when any of them already holds @max.
 */
bool rai_user_charge_request(struct rai_user *user, unsigned int max)
{
	return rai_user_charge_count(user,
				     offsetof(struct rai_user, nr_requests),
				     max);
}

void rai_user_uncharge_request(struct rai_user *user)
{
	rai_user_uncharge_count(user, offsetof(struct rai_user, nr_requests));
}

/*
 * @bytes of results charged to @user and every level above: false,
 * charging nothing, when any of them would go past @max.
 */
bool rai_user_charge_bytes(struct rai_user *user, long bytes, long max)
{
	struct rai_user *u, *v;

	for (u = user; u; u = u->parent) {
		if (atomic_long_add_return(bytes, &u->result_bytes) > max)
			goto undo;
	}
	return true;
undo:
	for (v = user; v != u; v = v->parent)
		atomic_long_sub(bytes, &v->result_bytes);
	atomic_long_sub(bytes, &u->result_bytes);
	return false;
}

void rai_user_uncharge_bytes(struct rai_user *user, long bytes)
{
	struct rai_user *u;

	for (u = user; u; u = u->parent)
		atomic_long_sub(bytes, &u->result_bytes);
}
