/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: several DNS names in one upcall (kernel/dns_batch.c).
 */
#ifndef _RAI_DNS_BATCH_H
#define _RAI_DNS_BATCH_H

#include <linux/time64.h>
#include <linux/types.h>

#include <rdma/rdma_addrinfo_upcall.h>

#include "dns_answer.h"

/* Names one upcall may carry (the upcall protocol's). */
#define RAI_DNS_BATCH_MAX	RDMA_ADDRINFO_UPCALL_BATCH_NAMES_MAX

struct rai_request;

/**
 * struct rai_dns_batch_name - one distinct name of a batch
 * @name: the name (a request's node, NUL-terminated)
 * @len: its length
 * @list: the helper's addresses for it, "a,b,c" (rai_dns_batch_parse():
 *	points into the payload), NULL for a failure
 * @answer: what the helper said of it: status and expiry from
 *	rai_dns_batch_parse(), the addresses parsed from @list afterwards
 *	(kernel/dns_ask.c, which releases them)
 */
struct rai_dns_batch_name {
	const char *name;
	u32 len;
	const char *list;
	struct rai_dns_answer answer;
};

/**
 * struct rai_dns_batch - the requests that one upcall answers
 * @reqs: the requests, the slot holder first; each holds the slot queue's
 *	reference until it is completed
 * @name_of: index in @names of each request's name
 * @nr_reqs: entries of @reqs
 * @names: the distinct names
 * @nr_names: entries of @names
 */
struct rai_dns_batch {
	struct rai_request *reqs[RAI_DNS_BATCH_MAX];
	u8 name_of[RAI_DNS_BATCH_MAX];
	unsigned int nr_reqs;
	struct rai_dns_batch_name names[RAI_DNS_BATCH_MAX];
	unsigned int nr_names;
};

bool rai_dns_batch_name_ok(const char *name, u32 len);
bool rai_dns_batch_add(struct rai_dns_batch *batch, struct rai_request *req,
		       const char *name, u32 len);
char *rai_dns_batch_callout(const struct rai_dns_batch *batch);
int rai_dns_batch_parse(struct rai_dns_batch *batch, char *payload,
			time64_t now);

#endif /* _RAI_DNS_BATCH_H */
