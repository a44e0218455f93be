/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the DNS backend (the dns_resolver upcall); its ops are
 * in backend.h.
 */
#ifndef _RAI_DNS_H
#define _RAI_DNS_H

int rai_dns_init(void);
void rai_dns_exit(void);

#endif /* _RAI_DNS_H */
