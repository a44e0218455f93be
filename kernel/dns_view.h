/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: whether the DNS upcall may answer a request from the
 * host's view (kernel/dns_view.c).
 */
#ifndef _RAI_DNS_VIEW_H
#define _RAI_DNS_VIEW_H

#include <linux/types.h>

struct rai_request;

bool rai_dns_view_ok(const struct rai_request *req);

#endif /* _RAI_DNS_VIEW_H */
