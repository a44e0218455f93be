/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: building results, for every backend (kernel/result.c).
 */
#ifndef _RAI_RESULT_H
#define _RAI_RESULT_H

#include <linux/types.h>

struct rai_request;
struct rdma_addrinfo_result;
struct sockaddr;
union rai_sockaddr;

/* Fill one result for an IP destination (or a passive local address). */
void rai_result_fill_ip(struct rai_request *req,
			struct rdma_addrinfo_result *res,
			const struct sockaddr *addr, u32 origin, u32 ttl);

/* Complete a request with a result per address it takes (or a failure). */
void rai_results_complete_addrs(struct rai_request *req,
				const union rai_sockaddr *addrs, u32 n,
				u32 origin, u32 ttl, const char *canon);

/* Fill one AF_IB result from an SA ServiceRecord. */
void rai_result_fill_service_record(struct rai_request *req,
				    struct rdma_addrinfo_result *res,
				    const u8 *rec, const u8 *src_gid);

#endif /* _RAI_RESULT_H */
