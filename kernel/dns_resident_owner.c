// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: what one user holds of the resident resolvers, whatever
 * namespace they serve.
 *
 * A resolver's queue bounds the names of each user in it
 * (resolver_max_outstanding_per_user), but a user who can create network
 * namespaces (every user, with unprivileged user namespaces) can register
 * a resolver in each and queue names in all of them.  So every user (the
 * key of kernel/user.c: rai_user_current_key(), a uid) is bounded here
 * across all of them: resolver_max_per_user resolvers registered, and
 * resolver_max_names_per_user names queued, waiting or taken.  The memory
 * of both is charged to the caller's memory cgroup as well
 * (RAI_GFP_CALLER): these bounds hold where no cgroup limit does.
 *
 * An owner lives while it is referenced: by each resolver it registered
 * and each queue's entry of it (struct rai_resident_user).
 *
 * Locking: rai_resident_owners_lock protects the table; an owner's last
 * reference is dropped under it, so an owner still in the table may be
 * referenced again.  Its counts are atomic.  The lock nests inside a
 * queue's lock (kernel/dns_resident_queue.c).
 */
#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "charge.h"
#include "dns_resident_owner.h"
#include "param.h"

static unsigned int rai_resident_max_resolvers = 1024;
static unsigned int rai_resident_max_names = 8192;

RAI_PARAM_RANGE(resolver_max_per_user, 1, 65536);
RAI_PARAM_RANGE(resolver_max_names_per_user, 1, 1048576);

module_param_cb(resolver_max_per_user, &rai_param_ops_resolver_max_per_user,
		&rai_resident_max_resolvers, 0644);
MODULE_PARM_DESC(resolver_max_per_user,
		 "Resident resolvers one user registers at most, over every network namespace; more get EDQUOT (default 1024)");
module_param_cb(resolver_max_names_per_user,
		&rai_param_ops_resolver_max_names_per_user,
		&rai_resident_max_names, 0644);
MODULE_PARM_DESC(resolver_max_names_per_user,
		 "Names of one user queued at resident resolvers at most, over every resolver; more go the way they would without one (default 8192)");

/**
 * struct rai_resident_owner - one user's share of the resident resolvers
 * @node: in rai_resident_owners, by @uid
 * @ref: each resolver it registered, each queue's entry of it
 * @uid: the user
 * @resolvers: resolvers it registered
 * @names: its names in every queue, waiting or taken
 */
struct rai_resident_owner {
	struct hlist_node node;
	refcount_t ref;
	kuid_t uid;
	atomic_t resolvers;
	atomic_t names;
};

static DEFINE_HASHTABLE(rai_resident_owners, 6);
static DEFINE_SPINLOCK(rai_resident_owners_lock);

static struct rai_resident_owner *rai_resident_owner_find(kuid_t uid)
{
	struct rai_resident_owner *o;

	lockdep_assert_held(&rai_resident_owners_lock);
	hash_for_each_possible(rai_resident_owners, o, node, __kuid_val(uid))
		if (uid_eq(o->uid, uid)) {
			refcount_inc(&o->ref);
			return o;
		}
	return NULL;
}

/**
 * rai_resident_owner_get - the owner entry of @uid, referenced
 * @uid: the user (rai_user_current_key())
 *
 * Process context; a new entry is charged to the caller's memory cgroup.
 * Return: the entry, or NULL when out of memory.
 */
struct rai_resident_owner *rai_resident_owner_get(kuid_t uid)
{
	struct rai_resident_owner *o, *new;

	spin_lock(&rai_resident_owners_lock);
	o = rai_resident_owner_find(uid);
	spin_unlock(&rai_resident_owners_lock);
	if (o)
		return o;
	new = kzalloc(sizeof(*new), RAI_GFP_CALLER);
	if (!new)
		return NULL;
	new->uid = uid;
	refcount_set(&new->ref, 1);
	spin_lock(&rai_resident_owners_lock);
	o = rai_resident_owner_find(uid);
	if (!o) {
		hash_add(rai_resident_owners, &new->node, __kuid_val(uid));
		o = new;
		new = NULL;
	}
	spin_unlock(&rai_resident_owners_lock);
	kfree(new);
	return o;
}

/* Any context but hard irq; under a queue's lock too. */
void rai_resident_owner_put(struct rai_resident_owner *o)
{
	if (!o)
		return;
	spin_lock(&rai_resident_owners_lock);
	if (refcount_dec_and_test(&o->ref))
		hash_del(&o->node);
	else
		o = NULL;
	spin_unlock(&rai_resident_owners_lock);
	kfree(o);
}

/* One more of @count, unless it holds @max already. */
static bool rai_resident_owner_charge(atomic_t *count, unsigned int max)
{
	if (atomic_inc_return(count) <= (int)max)
		return true;
	atomic_dec(count);
	return false;
}

/* One more resolver of @o: false when it has resolver_max_per_user. */
bool rai_resident_owner_add_resolver(struct rai_resident_owner *o)
{
	return rai_resident_owner_charge(&o->resolvers,
					 READ_ONCE(rai_resident_max_resolvers));
}

void rai_resident_owner_del_resolver(struct rai_resident_owner *o)
{
	atomic_dec(&o->resolvers);
}

/* One more name of @o: false when it has resolver_max_names_per_user. */
bool rai_resident_owner_add_name(struct rai_resident_owner *o)
{
	return rai_resident_owner_charge(&o->names,
					 READ_ONCE(rai_resident_max_names));
}

void rai_resident_owner_del_name(struct rai_resident_owner *o)
{
	atomic_dec(&o->names);
}
