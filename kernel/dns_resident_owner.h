/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: one user's share of the resident resolvers, over every
 * namespace (kernel/dns_resident_owner.c).
 */
#ifndef _RAI_DNS_RESIDENT_OWNER_H
#define _RAI_DNS_RESIDENT_OWNER_H

#include <linux/types.h>
#include <linux/uidgid.h>

struct rai_resident_owner;

struct rai_resident_owner *rai_resident_owner_get(kuid_t uid);
void rai_resident_owner_put(struct rai_resident_owner *o);
bool rai_resident_owner_add_resolver(struct rai_resident_owner *o);
void rai_resident_owner_del_resolver(struct rai_resident_owner *o);
bool rai_resident_owner_add_name(struct rai_resident_owner *o);
void rai_resident_owner_del_name(struct rai_resident_owner *o);

#endif /* _RAI_DNS_RESIDENT_OWNER_H */
