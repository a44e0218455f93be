/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: building results from IP (or GID) addresses, shared by
 * the numeric and DNS backends.
 */
#ifndef _RAI_RESULT_H
#define _RAI_RESULT_H

#include <linux/types.h>

struct rai_request;
struct rdma_addrinfo_result;
struct sockaddr;

/* Fill one result for an IP destination (or a passive local address). */
void rai_result_fill_ip(struct rai_request *req,
			struct rdma_addrinfo_result *res,
			const struct sockaddr *addr, u32 origin, u32 ttl);

#endif /* _RAI_RESULT_H */
