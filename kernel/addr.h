/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the socket addresses the module handles (IPv4, IPv6,
 * AF_IB) and their helpers.
 */
#ifndef _RAI_ADDR_H
#define _RAI_ADDR_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/ib.h>

union rai_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_ib ib;
};

/* The length of a sockaddr of @family, 0 for a family we do not handle. */
static inline u32 rai_sockaddr_len(u16 family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	}
	return 0;
}

#endif /* _RAI_ADDR_H */
