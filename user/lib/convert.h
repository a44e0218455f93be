/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_CONVERT_H
#define _RAI_CONVERT_H

#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

int rai_convert_result(const struct rdma_addrinfo_result *r,
		       struct rdma_addrinfo **out);
int rai_convert_results(const struct rdma_addrinfo_result *r, unsigned int n,
			const char *canonname, struct rdma_addrinfo **list);
void rai_free_list(struct rdma_addrinfo *list);
int rai_copy_list(const struct rdma_addrinfo *list, struct rdma_addrinfo **out);
int rai_list_from_hints(const struct rdma_addrinfo *hints,
			struct rdma_addrinfo **res);
int rai_ib_from_ip(struct rdma_addrinfo **list);
void rai_set_qp_type(struct rdma_addrinfo *list, int qp_type);
void rai_set_passive(struct rdma_addrinfo *list, int passive);
int rai_copy_addr(struct sockaddr **dst, socklen_t *dst_len, const void *src,
		  socklen_t len);

#endif /* _RAI_CONVERT_H */
