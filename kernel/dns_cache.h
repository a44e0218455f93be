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

/**
 * struct rai_dns_cache_key - whose answers an entry holds, beside the name
 * @net: the network namespace of the requests
 * @view: 0 for the host's view (the upcall, or a resident resolver in the
 *	host's view), else that of a resident resolver (kernel/dns_resident.c)
 * @helper: answers that list every address (our helper, a resident
 *	resolver) rather than key.dns_resolver's one
 * @source: for rai_dns_cache_store(): the resident resolver that answered
 *	(its entries go with it: rai_dns_cache_forget()), NULL for the
 *	upcall; not part of what a look-up matches
 */
struct rai_dns_cache_key {
	const struct net *net;
	u64 view;
	bool helper;
	const void *source;
};

struct rai_dns_cached *rai_dns_cache_get(const struct rai_dns_cache_key *key,
					 const char *name, u32 len, bool count,
					 struct rai_dns_answer *answer,
					 bool *refresh);
void rai_dns_cache_put(struct rai_dns_cached *entry);
void rai_dns_cache_store(const struct rai_dns_cache_key *key,
			 const char *name, u32 len,
			 const struct rai_dns_answer *answer);
void rai_dns_cache_remember(const struct rai_dns_cache_key *key,
			    const char *name, u32 len,
			    const struct rai_dns_answer *answer);

void rai_dns_cache_forget(const struct net *net, u64 view,
			  const void *source);

void rai_dns_cache_init(void);
void rai_dns_cache_exit(void);

#endif /* _RAI_DNS_CACHE_H */
