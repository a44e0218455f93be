/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: what a DNS name resolved to, parsed once where it enters
 * the module (kernel/dns_answer.c).
 */
#ifndef _RAI_DNS_ANSWER_H
#define _RAI_DNS_ANSWER_H

#include <linux/time64.h>
#include <linux/types.h>

struct net;
struct rai_request;
union rai_sockaddr;

/**
 * struct rai_dns_answer - a name's answer, from the upcall or the cache
 * @status: 0, or the request status of a negative answer (-ENXIO,
 *	-ENODATA, -EAGAIN, ...)
 * @origin: RDMA_ADDRINFO_ORIGIN_* of its results
 * @expiry: real time, in seconds, when it stops being served (0: now)
 * @nr: entries of @addrs; at least 1 when @status is 0
 * @addrs: the addresses (AF_INET or AF_INET6, port 0) in the resolver's
 *	order, NULL for a negative answer.  Whoever filled the answer owns
 *	them: rai_dns_answer_parse()'s caller frees them with
 *	rai_dns_answer_release(); those of rai_dns_cache_get() live in the
 *	cache entry until it is put.
 * @canon: the name's canonical name (NUL-terminated, checked by
 *	rai_dns_name_valid()), or NULL; owned as @addrs are
 */
struct rai_dns_answer {
	int status;
	u32 origin;
	time64_t expiry;
	u32 nr;
	union rai_sockaddr *addrs;
	char *canon;
};

bool rai_dns_name_valid(const char *name, u32 len);

void rai_dns_answer_parse(struct rai_dns_answer *answer, struct net *net,
			  const char *list, bool strict);
void rai_dns_answer_release(struct rai_dns_answer *answer);
void rai_dns_answer_complete(struct rai_request *req,
			     const struct rai_dns_answer *answer);
void rai_dns_answer_deliver(struct rai_request *req,
			    const struct rai_dns_answer *answer);

#endif /* _RAI_DNS_ANSWER_H */
