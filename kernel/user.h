/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: per-user accounting.  Every request is charged to the
 * user (real uid) of the task that made it, or for a task in a user
 * namespace to the namespace's owner; see kernel/user.c.
 */
#ifndef _RAI_USER_H
#define _RAI_USER_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/uidgid.h>

/**
 * struct rai_user - what one user holds of the module
 * @hnode: in the table of users (rai_users_lock)
 * @uid: the user (rai_user_current_key())
 * @ref: every request of the user holds one
 * @nr_requests: requests of the user that exist (max_requests_per_user)
 * @result_bytes: bytes of results its requests hold (kernel/request.c,
 *	max_result_kib_per_user)
 * @nr_upcalls: DNS upcall slots the user holds (kernel/dns.c, slot lock)
 * @nr_keys: dns_resolver keys charged to the user (kernel/dns_keys.c, key lock)
 * @dns_waiting: the user's DNS requests waiting for a slot, oldest first
 *	(kernel/dns.c, slot lock)
 * @dns_turn: link in the round-robin list of users waiting for a slot
 *	(kernel/dns.c, slot lock)
 * @dns_dispatched: jiffies when the user's last upcall got its slot
 *	(kernel/dns.c, slot lock; read only while @nr_upcalls is not 0)
 */
struct rai_user {
	struct hlist_node hnode;
	kuid_t uid;
	refcount_t ref;
	atomic_t nr_requests;
	atomic_long_t result_bytes;
	unsigned int nr_upcalls;
	unsigned int nr_keys;
	struct list_head dns_waiting;
	struct list_head dns_turn;
	unsigned long dns_dispatched;
};

kuid_t rai_user_current_key(void);
struct rai_user *rai_user_get_current(void);
void rai_user_put(struct rai_user *user);

#endif /* _RAI_USER_H */
