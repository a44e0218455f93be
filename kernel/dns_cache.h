/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the module's cache of DNS answers (kernel/dns_cache.c).
 */
#ifndef _RAI_DNS_CACHE_H
#define _RAI_DNS_CACHE_H

#include <linux/time64.h>
#include <linux/types.h>

#include "dns_answer.h"

struct net;

struct rai_dns_cached;

struct rai_dns_cached *rai_dns_cache_get(const struct net *net, bool helper,
					 const char *name, u32 len, bool count,
					 struct rai_dns_answer *answer,
					 bool *refresh);
void rai_dns_cache_put(struct rai_dns_cached *entry);
void rai_dns_cache_store(const struct net *net, bool helper, const char *name,
			 u32 len, const struct rai_dns_answer *answer);
int rai_dns_negative_ttl(void);

void rai_dns_cache_init(void);
void rai_dns_cache_exit(void);

#endif /* _RAI_DNS_CACHE_H */
