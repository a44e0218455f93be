/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: per-user accounting, per user namespace and up through
 * its parents.  Every request is charged to its caller's tenant (user
 * namespace, real uid) and to every level above it; see kernel/user.c.
 */
#ifndef _RAI_USER_H
#define _RAI_USER_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/refcount.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "dns_state.h"

/**
 * struct rai_user - what one tenant holds of the module, at one level
 * @hnode: in the table of tenants (rai_users_lock)
 * @ns: the user namespace, referenced: the caller's for a uid's share,
 *	the namespace itself for a namespace's share as a whole
 * @kuid: the uid whose share this is, INVALID_UID for a namespace's
 * @parent: the share this one is charged to as well, one level up,
 *	referenced; NULL at the top (kernel/user.c)
 * @ref: every request of the tenant and every share below holds one
 * @nr_requests: requests charged here (max_requests_per_user)
 * @result_bytes: bytes of results charged here (kernel/request.c,
 *	max_result_kib_per_user)
 * @resolvers: resident resolvers registered here
 *	(resolver_max_per_user, kernel/dns_resident_owner.c)
 * @resolver_names: names queued at resident resolvers charged here
 *	(resolver_max_names_per_user, kernel/dns_resident_owner.c)
 * @dns: the DNS wing's (upcall slots, keys: kernel/dns_state.h)
 */
struct rai_user {
	struct hlist_node hnode;
	struct user_namespace *ns;
	kuid_t kuid;
	struct rai_user *parent;
	refcount_t ref;
	atomic_t nr_requests;
	atomic_long_t result_bytes;
	atomic_t resolvers;
	atomic_t resolver_names;
	struct rai_dns_user dns;
};

/*
 * Whether @user's requests come from the host: a caller of the initial
 * user namespace (any uid), not a container however created.
 */
static inline bool rai_user_in_host(const struct rai_user *user)
{
	return user->ns == &init_user_ns;
}

/*
 * Of a module-wide cap @max, the part only the host's callers may use:
 * the parameter @reserve, but at most a quarter of @max, so that
 * containers always keep three quarters (max_requests_host_reserve,
 * max_upcalls_host_reserve, dns_max_keys_host_reserve).
 */
static inline unsigned int rai_host_reserve(unsigned int reserve,
					    unsigned int max)
{
	return min(reserve, max / 4);
}

bool rai_user_is_current(const struct rai_user *user);
struct rai_user *rai_user_get_current(void);
struct rai_user *rai_user_hold(struct rai_user *user);
struct rai_user *rai_user_top(struct rai_user *user);
void rai_user_put(struct rai_user *user);

bool rai_user_charge_count(struct rai_user *user, size_t offset,
			   unsigned int max);
void rai_user_uncharge_count(struct rai_user *user, size_t offset);

bool rai_user_charge_request(struct rai_user *user, unsigned int max);
void rai_user_uncharge_request(struct rai_user *user);
bool rai_user_charge_bytes(struct rai_user *user, long bytes, long max);
void rai_user_uncharge_bytes(struct rai_user *user, long bytes);

#endif /* _RAI_USER_H */
