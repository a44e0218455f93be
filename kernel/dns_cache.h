/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the module's cache of DNS answers (kernel/dns_cache.c).
 */
#ifndef _RAI_DNS_CACHE_H
#define _RAI_DNS_CACHE_H

#include <linux/time64.h>
#include <linux/types.h>

struct net;

/**
 * struct rai_dns_answer - one cached answer, as the upcall gave it
 * @status: 0, or the request status of a negative answer (-ENXIO, -ENODATA)
 * @list: the helper's "a,b,c" (NUL-terminated), NULL for a negative answer
 * @origin: RDMA_ADDRINFO_ORIGIN_* of its results
 * @expiry: real time, in seconds, when it stops being served
 */
struct rai_dns_answer {
	int status;
	const char *list;
	u32 origin;
	time64_t expiry;
};

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
