/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: how memory allocated on a caller's behalf is asked for.
 *
 * Charged to the caller's memory cgroup (or, in a worker, to the cgroup
 * its request made active: rai_request_charge_begin()), so that a
 * container's memory.max holds inside the module too.  Over that limit
 * the allocation fails after reclaim (__GFP_RETRY_MAYFAIL): the caller
 * gets ENOMEM (a request completes with it), rather than the cgroup's OOM
 * killer choosing a process of the container to kill for a lookup.
 * Allocations owned by no caller (module and device set-up, caches
 * shared by all) use GFP_KERNEL.
 */
#ifndef _RAI_CHARGE_H
#define _RAI_CHARGE_H

#include <linux/slab.h>

#define RAI_GFP_CALLER	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)

#endif /* _RAI_CHARGE_H */
