/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the budget of dns_resolver keys the module leaves behind
 * (kernel/dns_keys.c).
 */
#ifndef _RAI_DNS_KEYS_H
#define _RAI_DNS_KEYS_H

#include <linux/time64.h>
#include <linux/types.h>

struct net;
struct rai_dns_key;
struct rai_user;

struct rai_dns_key *rai_dns_key_charge(const struct net *net,
				       struct rai_user *user, const char *name,
				       u32 len, unsigned int nr,
				       bool *invalidate);
void rai_dns_key_settle(struct rai_dns_key *key, int ret, time64_t expiry,
			bool invalidated);
void rai_dns_keys_init(void);
void rai_dns_keys_exit(void);

#endif /* _RAI_DNS_KEYS_H */
