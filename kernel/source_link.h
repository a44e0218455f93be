/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: what source selection looks for on the interface a route
 * leaves through, as rdma_cm's address translation decides it
 * (rdma_addr_get_sgid(), cma_validate_port()).  Pure functions on bytes:
 * no locks, no kernel objects, so that they are unit-tested in user space
 * (selftests/host/source_link_unit.c); QEMU offers no InfiniBand link
 * layer to test the IPoIB case in the VM.
 */
#ifndef _RAI_SOURCE_LINK_H
#define _RAI_SOURCE_LINK_H

#include <linux/types.h>

#define RAI_GID_LEN		16
/* An IPoIB hardware address: 4 bytes of flags and QPN, then the GID. */
#define RAI_IPOIB_ALEN		20
#define RAI_IPOIB_GID_OFFSET	4

/*
 * GID types a port's GID table entry may have, in the order they are
 * tried (the values of enum ib_gid_type).
 */
enum rai_gid_type {
	RAI_GID_TYPE_IB = 0,
	RAI_GID_TYPE_ROCE = 1,
	RAI_GID_TYPE_ROCE_UDP_ENCAP = 2,
};

/**
 * struct rai_source_key - the GID that identifies the source port
 * @gid: the GID to find in a port's GID table
 * @ib: an InfiniBand port (IPoIB interface): the GID is that of the
 *	interface's hardware address, any GID table entry of type IB
 *	matches, with no netdev; otherwise a RoCE port whose GID entry is
 *	bound to the interface itself
 * @gid_types: the GID types to try, in order
 * @n_gid_types: how many of @gid_types are used
 */
struct rai_source_key {
	u8 gid[RAI_GID_LEN];
	bool ib;
	u8 gid_types[2];
	u8 n_gid_types;
};

int rai_source_key(u16 dev_type, const u8 *dev_addr, unsigned int addr_len,
		   bool v4, const u8 *src_ip, struct rai_source_key *key);
bool rai_source_port_fits(const struct rai_source_key *key, bool port_ib);

#endif /* _RAI_SOURCE_LINK_H */
