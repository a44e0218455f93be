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

#include "dns_state.h"

/**
 * struct rai_user - what one user holds of the module
 * @hnode: in the table of users (rai_users_lock)
 * @uid: the user (rai_user_current_key())
 * @ref: every request of the user holds one
 * @nr_requests: requests of the user that exist (max_requests_per_user)
 * @result_bytes: bytes of results its requests hold (kernel/request.c,
 *	max_result_kib_per_user)
 * @dns: the DNS wing's (upcall slots, keys: kernel/dns_state.h)
 */
struct rai_user {
	struct hlist_node hnode;
	kuid_t uid;
	refcount_t ref;
	atomic_t nr_requests;
	atomic_long_t result_bytes;
	struct rai_dns_user dns;
};

kuid_t rai_user_current_key(void);
struct rai_user *rai_user_get_current(void);
void rai_user_put(struct rai_user *user);

#endif /* _RAI_USER_H */
