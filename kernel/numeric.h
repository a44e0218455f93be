/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: IPv4, IPv6 and IB GID literals.
 */
#ifndef _RAI_NUMERIC_H
#define _RAI_NUMERIC_H

#include <linux/types.h>

#include "addr.h"

struct net;

int rai_numeric_parse_ip(struct net *net, const char *str, size_t len,
			 union rai_sockaddr *addr);
int rai_numeric_parse_gid(const char *str, size_t len,
			  union rai_sockaddr *addr);
int rai_numeric_parse_node(struct net *net, const char *node, size_t len,
			   u16 family, u32 ai_flags, union rai_sockaddr *addr);

#endif /* _RAI_NUMERIC_H */
