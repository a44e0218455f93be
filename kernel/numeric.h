/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: IPv4, IPv6 and IB GID literals.
 */
#ifndef _RAI_NUMERIC_H
#define _RAI_NUMERIC_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/types.h>
#include <rdma/ib.h>

struct net;
struct rai_request;

union rai_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_ib ib;
};

int rai_numeric_parse_ip(struct net *net, const char *str, size_t len,
			 union rai_sockaddr *addr);
int rai_numeric_parse_gid(const char *str, size_t len,
			  union rai_sockaddr *addr);
bool rai_numeric_is_literal(const struct rai_request *req);
u32 rai_sockaddr_len(u16 family);

#endif /* _RAI_NUMERIC_H */
