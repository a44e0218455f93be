/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the dns_resolver upcall (kernel/dns_upcall.c).
 */
#ifndef _RAI_DNS_UPCALL_H
#define _RAI_DNS_UPCALL_H

#include <linux/time64.h>
#include <linux/types.h>

struct net;
struct rai_dns_answer;

bool rai_dns_helper_enabled(void);
int rai_dns_status(int ret);
bool rai_dns_helper_answered(int ret);
int rai_dns_upcall_name(struct net *net, const char *name, u32 len,
			bool helper, bool invalidate,
			struct rai_dns_answer *answer, time64_t *key_expiry);
int rai_dns_upcall_batch(struct net *net, const char *desc, u32 len,
			 const char *callout, char **payload);

#endif /* _RAI_DNS_UPCALL_H */
