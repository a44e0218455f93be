/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: source selection, the local address and RDMA port the
 * kernel would use to reach a destination.
 */
#ifndef _RAI_SOURCE_H
#define _RAI_SOURCE_H

#include <rdma/ib_verbs.h>

#include "addr.h"

struct rai_request;

/**
 * struct rai_source - outcome of rai_source_select()
 * @src: the source IP address (port 0); set when @status is 0 or -ENODEV
 * @gid: the source GID of @ibdev_name/@port_num
 * @ibdev_name: the RDMA device, NUL-terminated, or empty
 * @port_num: its port
 * @status: 0, -ENETUNREACH (no route), -EAFNOSUPPORT (an IPv6 route
 *	while the kernel runs without IPv6) or -ENODEV (no RDMA device on
 *	the route's interface, or not the one the request is bound to)
 */
struct rai_source {
	union rai_sockaddr src;
	union ib_gid gid;
	char ibdev_name[IB_DEVICE_NAME_MAX];
	u32 port_num;
	int status;
};

void rai_source_select(struct rai_request *req, const struct sockaddr *dst,
		       struct rai_source *out);
int rai_source_init(void);
void rai_source_exit(void);

#endif /* _RAI_SOURCE_H */
