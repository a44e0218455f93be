/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: asking the dns_resolver upcall for names: one, a batch,
 * or a refresh in the background (kernel/dns_ask.c).
 */
#ifndef _RAI_DNS_ASK_H
#define _RAI_DNS_ASK_H

#include <linux/types.h>

struct net;
struct rai_dns_answer;
struct rai_dns_batch;
struct rai_request;
struct workqueue_struct;

/* Refreshes running at most, beside the upcall slots. */
#define RAI_DNS_REFRESH_MAX	4

void rai_dns_ask_one(struct rai_request *req, bool helper,
		     struct rai_dns_answer *answer);
int rai_dns_ask_batch(struct net *net, struct rai_request *req,
		      struct rai_dns_batch *batch);
void rai_dns_batch_release(struct rai_dns_batch *batch);
void rai_dns_refresh(struct net *net, const char *name, u32 len);

void rai_dns_ask_init(struct workqueue_struct *wq);
void rai_dns_ask_exit(void);

#endif /* _RAI_DNS_ASK_H */
