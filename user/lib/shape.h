/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_SHAPE_H
#define _RAI_SHAPE_H

#include <sys/socket.h>
#include <rdma/rdma_addrinfo.h>
#include <linux/types.h>

/*
 * What a request's results take from the caller's arguments, as
 * librdmacm's rdma_getaddrinfo() gives them: the same for rdma_getaddrinfo()
 * and for rdma_query_addrinfo()'s list (no pointers: copied by value).
 */
struct rai_shape {
	int qp_type;		/* the hints' own (XRC types too); 0: none */
	int port_space;		/* the hints' own; 0: none */
	int passive;		/* the hints' RAI_PASSIVE */
	int ib_from_ip;		/* IP results made AF_IB (rai_ib_from_ip()) */
	int sa;			/* RAI_SA: rdma-core 60+'s fields */
	int no_node;		/* no node: glibc's order of families */
	socklen_t src_len;	/* the hints' source, echoed; 0: none */
	__u8 src[sizeof(struct sockaddr_storage)];
};

void rai_shape_from_hints(struct rai_shape *s, const char *node,
			  const struct rdma_addrinfo *hints);
int rai_shape_list(struct rdma_addrinfo **list, const struct rai_shape *s);

#endif /* _RAI_SHAPE_H */
