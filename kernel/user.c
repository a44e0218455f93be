// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: per-user accounting.
 *
 * The device is open to every local user, so what one user may hold is
 * bounded apart from the per-file and module-wide caps: requests
 * (max_requests_per_user, kernel/request.c), DNS upcall slots
 * (max_upcalls_per_user, kernel/dns_slots.c) and dns_resolver keys
 * (dns_max_keys_per_user, kernel/dns_keys.c).  A user is the real uid of
 * the task that makes the request, as for the kernel's own per-user
 * limits (RLIMIT_NPROC, inotify): a set-uid program is charged to whoever
 * runs it, and a file passed to another process charges that process's
 * user.
 *
 * A task in a user namespace other than the initial one is charged to
 * the user who owns the outermost namespace below the initial one: a
 * container (or a subordinate uid range) is one user's share however
 * many uids it maps, and creating namespaces gains a user nothing.  At
 * the top of the hierarchy this is how the kernel's ucounts charge a
 * namespace (inotify, mqueue limits): to its owner.
 *
 * struct rai_user lives while a request of the user does; the table is
 * small (users with requests) and looked up once per RESOLVE.
 *
 * Locking: rai_users_lock (a spinlock, irqsave: rai_user_put() runs in
 * any context) protects the table.  A user's last reference is dropped
 * under it, so a user still in the table may be referenced again.  A
 * user's @nr_requests and @result_bytes are atomic; its @dns is the DNS
 * wing's, under the locks kernel/dns_state.h names.
 */
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>

#include "user.h"

#define RAI_USERS_HASH_BITS	6

static DEFINE_HASHTABLE(rai_users, RAI_USERS_HASH_BITS);
static DEFINE_SPINLOCK(rai_users_lock);

/*
 * Who the calling task's requests are charged to: its real uid in the
 * initial user namespace, else the owner of the outermost user namespace
 * it is in below the initial one.
 */
kuid_t rai_user_current_key(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t uid = current_uid();

	while (ns != &init_user_ns) {
		uid = ns->owner;
		ns = ns->parent;
	}
	return uid;
}

/*
 * The user @uid in the table, referenced, or NULL.  Under rai_users_lock:
 * a user found there has not dropped its last reference.
 */
static struct rai_user *rai_user_find(kuid_t uid)
{
	struct rai_user *user;

	lockdep_assert_held(&rai_users_lock);
	hash_for_each_possible(rai_users, user, hnode, __kuid_val(uid))
		if (uid_eq(user->uid, uid)) {
			refcount_inc(&user->ref);
			return user;
		}
	return NULL;
}

/* The user of the calling task, referenced; NULL when out of memory. */
struct rai_user *rai_user_get_current(void)
{
	kuid_t uid = rai_user_current_key();
	struct rai_user *user, *new;
	unsigned long flags;

	spin_lock_irqsave(&rai_users_lock, flags);
	user = rai_user_find(uid);
	spin_unlock_irqrestore(&rai_users_lock, flags);
	if (user)
		return user;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return NULL;
	new->uid = uid;
	refcount_set(&new->ref, 1);
	atomic_set(&new->nr_requests, 0);
	atomic_long_set(&new->result_bytes, 0);
	rai_dns_user_init(&new->dns);

	spin_lock_irqsave(&rai_users_lock, flags);
	user = rai_user_find(uid);
	if (!user) {
		hash_add(rai_users, &new->hnode, __kuid_val(uid));
		user = new;
		new = NULL;
	}
	spin_unlock_irqrestore(&rai_users_lock, flags);
	kfree(new);
	return user;
}

/* Any context. */
void rai_user_put(struct rai_user *user)
{
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&rai_users_lock, flags);
	last = refcount_dec_and_test(&user->ref);
	if (last)
		hash_del(&user->hnode);
	spin_unlock_irqrestore(&rai_users_lock, flags);
	if (!last)
		return;
	WARN_ON_ONCE(!rai_dns_user_idle(&user->dns) ||
		     atomic_long_read(&user->result_bytes));
	kfree(user);
}
