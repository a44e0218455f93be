// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the source GID a route's interface stands for (see
 * source_link.h).
 */
#include <linux/errno.h>
#include <linux/if_arp.h>
#include <linux/string.h>
#include <linux/types.h>

#include "source_link.h"

/**
 * rai_source_key - the GID to look for on the route's interface
 * @dev_type: the interface's type (net_device.type, ARPHRD_*)
 * @dev_addr: its hardware address
 * @addr_len: length of @dev_addr
 * @v4: @src_ip is an IPv4 address (4 bytes), else IPv6 (16 bytes)
 * @src_ip: the source address the route chose
 * @key: filled on success
 *
 * IPoIB (ARPHRD_INFINIBAND): the port's GID is part of the interface's
 * hardware address, whatever the IP address is (rdma_addr_get_sgid()).
 * Any other interface: a RoCE GID is the IP address itself (IPv4-mapped
 * for IPv4), RoCE v2 tried before v1.
 *
 * Return: 0, or -ENODEV for an IPoIB interface without a complete
 * hardware address.
 */
int rai_source_key(u16 dev_type, const u8 *dev_addr, unsigned int addr_len,
		   bool v4, const u8 *src_ip, struct rai_source_key *key)
{
	memset(key, 0, sizeof(*key));
	if (dev_type == ARPHRD_INFINIBAND) {
		if (addr_len < RAI_IPOIB_ALEN)
			return -ENODEV;
		memcpy(key->gid, dev_addr + RAI_IPOIB_GID_OFFSET, RAI_GID_LEN);
		key->ib = true;
		key->gid_types[0] = RAI_GID_TYPE_IB;
		key->n_gid_types = 1;
		return 0;
	}
	if (v4) {
		key->gid[10] = 0xff;
		key->gid[11] = 0xff;
		memcpy(&key->gid[12], src_ip, 4);
	} else {
		memcpy(key->gid, src_ip, RAI_GID_LEN);
	}
	key->gid_types[0] = RAI_GID_TYPE_ROCE_UDP_ENCAP;
	key->gid_types[1] = RAI_GID_TYPE_ROCE;
	key->n_gid_types = 2;
	return 0;
}

/*
 * Whether a port can be the source for @key: an IPoIB interface needs an
 * InfiniBand port, any other interface a port that is not InfiniBand
 * (cma_validate_port()).
 */
bool rai_source_port_fits(const struct rai_source_key *key, bool port_ib)
{
	return key->ib == port_ib;
}
