/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: each share's count of the resident resolvers, over every
 * namespace (kernel/dns_resident_owner.c).
 */
#ifndef _RAI_DNS_RESIDENT_OWNER_H
#define _RAI_DNS_RESIDENT_OWNER_H

#include <linux/types.h>

struct rai_user;

bool rai_resident_owner_add_resolver(struct rai_user *user);
void rai_resident_owner_del_resolver(struct rai_user *user);
bool rai_resident_owner_add_name(struct rai_user *user);
void rai_resident_owner_del_name(struct rai_user *user);

#endif /* _RAI_DNS_RESIDENT_OWNER_H */
