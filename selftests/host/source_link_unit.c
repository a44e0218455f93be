// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of kernel/source_link.c: which GID and which kind of
 * port source selection looks for on the interface a route leaves
 * through.  The IPoIB case cannot be shown in the VM (QEMU has no
 * InfiniBand link layer), so it is checked here against what rdma_cm
 * does: the GID is bytes 4..19 of the IPoIB hardware address
 * (rdma_addr_get_sgid()), only InfiniBand ports qualify, GID type IB
 * (cma_validate_port()); on Ethernet the GID is the IP address
 * (IPv4-mapped for IPv4), RoCE v2 before v1, never an InfiniBand port.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source_link.h"
#include "unit_check.h"

/* An IPoIB hardware address: flags + QPN 0x000048, then the port GID. */
static const u8 ipoib_addr[RAI_IPOIB_ALEN] = {
	0x80, 0x00, 0x00, 0x48,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0xa1, 0xb2, 0xc3,
};

static const u8 ether_addr[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static void gid_of(const char *text, u8 *gid)
{
	if (inet_pton(AF_INET6, text, gid) != 1)
		abort();
}

static void test_ipoib(void)
{
	struct rai_source_key key;
	u8 ip4[4] = { 10, 1, 0, 7 };
	u8 ip6[16], want[16];
	int ret;

	/* The GID comes from the hardware address, not from the IP. */
	ret = rai_source_key(ARPHRD_INFINIBAND, ipoib_addr, sizeof(ipoib_addr),
			     true, ip4, &key);
	CHECK(ret == 0, "IPoIB, IPv4 source: %d", ret);
	CHECK(!memcmp(key.gid, ipoib_addr + 4, 16), "IPoIB GID: hw addr + 4");
	CHECK(key.ib, "IPoIB: an InfiniBand port");
	CHECK(key.n_gid_types == 1 && key.gid_types[0] == RAI_GID_TYPE_IB,
	      "IPoIB: GID type IB only (%u types, first %u)",
	      key.n_gid_types, key.gid_types[0]);

	gid_of("fd00::7", ip6);
	ret = rai_source_key(ARPHRD_INFINIBAND, ipoib_addr, sizeof(ipoib_addr),
			     false, ip6, &key);
	gid_of("fe80::2:c903:a1:b2c3", want);
	CHECK(ret == 0 && !memcmp(key.gid, want, 16) && key.ib,
	      "IPoIB, IPv6 source: the port GID fe80::2:c903:a1:b2c3");

	/* A short hardware address is no IPoIB address: no source. */
	ret = rai_source_key(ARPHRD_INFINIBAND, ipoib_addr, 6, true, ip4, &key);
	CHECK(ret == -ENODEV, "IPoIB with a 6-byte address: %d", ret);
	ret = rai_source_key(ARPHRD_INFINIBAND, ipoib_addr, 19, true, ip4,
			     &key);
	CHECK(ret == -ENODEV, "IPoIB with a 19-byte address: %d", ret);

	/* Only InfiniBand ports qualify. */
	ret = rai_source_key(ARPHRD_INFINIBAND, ipoib_addr, sizeof(ipoib_addr),
			     true, ip4, &key);
	CHECK(rai_source_port_fits(&key, true), "IPoIB on an IB port");
	CHECK(!rai_source_port_fits(&key, false), "IPoIB on a RoCE port");
}

static void test_ethernet(void)
{
	struct rai_source_key key;
	u8 ip4[4] = { 192, 168, 77, 1 };
	u8 ip6[16], want[16];
	int ret;

	ret = rai_source_key(ARPHRD_ETHER, ether_addr, sizeof(ether_addr),
			     true, ip4, &key);
	gid_of("::ffff:192.168.77.1", want);
	CHECK(ret == 0, "Ethernet, IPv4: %d", ret);
	CHECK(!memcmp(key.gid, want, 16), "Ethernet, IPv4: mapped GID");
	CHECK(!key.ib, "Ethernet: a RoCE port");
	CHECK(key.n_gid_types == 2 &&
	      key.gid_types[0] == RAI_GID_TYPE_ROCE_UDP_ENCAP &&
	      key.gid_types[1] == RAI_GID_TYPE_ROCE,
	      "Ethernet: RoCE v2, then v1");
	CHECK(rai_source_port_fits(&key, false), "Ethernet on a RoCE port");
	CHECK(!rai_source_port_fits(&key, true), "Ethernet on an IB port");

	gid_of("fd00::1", ip6);
	ret = rai_source_key(ARPHRD_ETHER, ether_addr, sizeof(ether_addr),
			     false, ip6, &key);
	CHECK(ret == 0 && !memcmp(key.gid, ip6, 16) && !key.ib,
	      "Ethernet, IPv6: the address is the GID");

	/* Not the hardware address, even a 20-byte one. */
	ret = rai_source_key(ARPHRD_ETHER, ipoib_addr, sizeof(ipoib_addr),
			     false, ip6, &key);
	CHECK(ret == 0 && !memcmp(key.gid, ip6, 16),
	      "Ethernet with a long address: still the IP address");

	/* Other interface types (a VLAN, bond or macvlan are Ethernet too). */
	ret = rai_source_key(ARPHRD_NONE, NULL, 0, true, ip4, &key);
	gid_of("::ffff:192.168.77.1", want);
	CHECK(ret == 0 && !memcmp(key.gid, want, 16) && !key.ib,
	      "no hardware address: the IP address, a RoCE port");
}

int main(void)
{
	test_ipoib();
	test_ethernet();
	return UNIT_SUMMARY();
}
