// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: what one tenant holds of the resident resolvers, whatever
 * namespace they serve.
 *
 * A resolver's queue bounds the names of each tenant in it
 * (resolver_max_outstanding_per_user), but a user who can create network
 * namespaces (every user, with unprivileged user namespaces) can register
 * a resolver in each and queue names in all of them.  So every share of
 * kernel/user.c (a uid in a user namespace, charged up through its
 * parents as requests are) is bounded here across all of them:
 * resolver_max_per_user resolvers registered, and
 * resolver_max_names_per_user names queued, waiting or taken, at each
 * level.  A container that root created has its own share beside host
 * root's: filling it leaves host root and other containers theirs.  The
 * memory of both is charged to the caller's memory cgroup as well
 * (RAI_GFP_CALLER): these bounds hold where no cgroup limit does.
 *
 * Each resolver and each queued name holds a reference to the share it
 * is charged to.  The counts are atomic (struct rai_user).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stddef.h>

#include "dns_resident_owner.h"
#include "param.h"
#include "user.h"

static unsigned int rai_resident_max_resolvers = 1024;
static unsigned int rai_resident_max_names = 8192;

RAI_PARAM_RANGE(resolver_max_per_user, 1, 65536);
RAI_PARAM_RANGE(resolver_max_names_per_user, 1, 1048576);

module_param_cb(resolver_max_per_user, &rai_param_ops_resolver_max_per_user,
		&rai_resident_max_resolvers, 0644);
MODULE_PARM_DESC(resolver_max_per_user,
		 "Resident resolvers one user registers at most, over every network namespace, per user namespace and up through its parents; more get EDQUOT (default 1024)");
module_param_cb(resolver_max_names_per_user,
		&rai_param_ops_resolver_max_names_per_user,
		&rai_resident_max_names, 0644);
MODULE_PARM_DESC(resolver_max_names_per_user,
		 "Names of one user queued at resident resolvers at most, over every resolver, per user namespace and up through its parents; more go the way they would without one (default 8192)");

#define RAI_RESOLVERS	offsetof(struct rai_user, resolvers)
#define RAI_NAMES	offsetof(struct rai_user, resolver_names)

/*
 * One more resolver of @user's share: false when it, or a share above it,
 * has resolver_max_per_user.
 */
bool rai_resident_owner_add_resolver(struct rai_user *user)
{
	return rai_user_charge_count(user, RAI_RESOLVERS,
				     READ_ONCE(rai_resident_max_resolvers));
}

void rai_resident_owner_del_resolver(struct rai_user *user)
{
	rai_user_uncharge_count(user, RAI_RESOLVERS);
}

/*
 * One more name of @user's share: false when it, or a share above it,
 * has resolver_max_names_per_user.  Any context (under a queue's lock).
 */
bool rai_resident_owner_add_name(struct rai_user *user)
{
	return rai_user_charge_count(user, RAI_NAMES,
				     READ_ONCE(rai_resident_max_names));
}

void rai_resident_owner_del_name(struct rai_user *user)
{
	rai_user_uncharge_count(user, RAI_NAMES);
}
