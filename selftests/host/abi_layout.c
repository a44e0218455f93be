// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Compiled with -m32 and -m64: every ABI structure must have the same size
 * and field offsets on both, be a multiple of 8 bytes and have no implicit
 * padding.
 */
#include <stddef.h>
#include <rdma/rdma_addrinfo_abi.h>

#define ABI_SIZE(type, size) \
	_Static_assert(sizeof(struct type) == (size), #type " size"); \
	_Static_assert(sizeof(struct type) % 8 == 0, #type " not 8-aligned")
#define ABI_OFF(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), \
		       #type "." #field " offset")

ABI_SIZE(rdma_addrinfo_info, 72);
ABI_OFF(rdma_addrinfo_info, result_size, 52);
ABI_OFF(rdma_addrinfo_info, max_requests_per_user, 56);
ABI_OFF(rdma_addrinfo_info, max_upcalls_per_user, 60);
ABI_OFF(rdma_addrinfo_info, max_requests_host_reserve,
	RDMA_ADDRINFO_INFO_SIZE_V1);

ABI_SIZE(rdma_addrinfo_resolve, 184);
ABI_OFF(rdma_addrinfo_resolve, service, 8);
ABI_OFF(rdma_addrinfo_resolve, context, 16);
ABI_OFF(rdma_addrinfo_resolve, node_len, 24);
ABI_OFF(rdma_addrinfo_resolve, family, 40);
ABI_OFF(rdma_addrinfo_resolve, qp_type, 44);
ABI_OFF(rdma_addrinfo_resolve, src_addr, 56);
ABI_OFF(rdma_addrinfo_resolve, ibdev_name, 104);
ABI_OFF(rdma_addrinfo_resolve, handle, 168);
ABI_OFF(rdma_addrinfo_resolve, result_count, 180);

ABI_SIZE(rdma_addrinfo_event, 24);
ABI_OFF(rdma_addrinfo_event, handle, 8);
ABI_OFF(rdma_addrinfo_event, num_results, 20);

ABI_SIZE(rdma_addrinfo_result, 448);
ABI_OFF(rdma_addrinfo_result, src_addr, 24);
ABI_OFF(rdma_addrinfo_result, dst_addr, 72);
ABI_OFF(rdma_addrinfo_result, ibdev_name, 120);
ABI_OFF(rdma_addrinfo_result, port_num, 184);
ABI_OFF(rdma_addrinfo_result, route, 208);
ABI_OFF(rdma_addrinfo_result, service_record, 272);

ABI_SIZE(rdma_addrinfo_query, 32);
ABI_OFF(rdma_addrinfo_query, handle, 8);
ABI_OFF(rdma_addrinfo_query, flags, 28);
ABI_SIZE(rdma_addrinfo_canonname, 264);
ABI_OFF(rdma_addrinfo_canonname, name, 8);

ABI_SIZE(rdma_addrinfo_destroy, 16);

ABI_SIZE(rdma_addrinfo_resolver_register, 16);
ABI_OFF(rdma_addrinfo_resolver_register, deadline_ms, 12);
ABI_SIZE(rdma_addrinfo_resolver_name, 272);
ABI_OFF(rdma_addrinfo_resolver_name, name, 16);
ABI_SIZE(rdma_addrinfo_resolver_take, 24);
ABI_OFF(rdma_addrinfo_resolver_take, taken, 16);
ABI_SIZE(rdma_addrinfo_resolver_answer, 1024);
ABI_OFF(rdma_addrinfo_resolver_answer, addrs, 16);
ABI_SIZE(rdma_addrinfo_resolver_answers, 32);
ABI_OFF(rdma_addrinfo_resolver_answers, malformed, 24);
