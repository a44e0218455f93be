// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * IPv6 results when the kernel has IPv6 and when it runs with
 * ipv6.disable=1 (make check boots a guest so for this program): numeric
 * IPv4 and IPv6 literals, no node (the loopback addresses), AF_UNSPEC
 * names with AAAA answers and AF_IB GIDs, each asked by an unprivileged
 * user.  With IPv6 on, IPv6 destinations get their sources as usual; with
 * it off, they are still returned but carry src_status -EAFNOSUPPORT and
 * no source, and IPv4 (also IPv4-mapped GIDs) works as before.  Nothing
 * may oops: an unprivileged no-node lookup once did (ip6_pol_route).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "world_env.h"

/* Does the kernel have IPv6 (no ipv6.disable=1)? */
static bool ipv6_on(void)
{
	return access("/proc/sys/net/ipv6", F_OK) == 0;
}

/* The src_status an IPv6 destination gets: @on with IPv6, else this. */
static int v6_status(int on)
{
	return ipv6_on() ? on : -EAFNOSUPPORT;
}

FIXTURE(v6) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
};

/* Every lookup as an ordinary user, as anyone may open the device. */
FIXTURE_SETUP(v6)
{
	ASSERT_EQ(0, setgid(65534));
	ASSERT_EQ(0, setuid(65534));
	self->fd = rai_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(v6)
{
	RAI_LOOKUP_TEARDOWN();
}

/* The result with destination @ip, or NULL. */
static const struct rdma_addrinfo_result *
find_dst(const struct rdma_addrinfo_result *res, __u32 n, const char *ip)
{
	char buf[64];
	__u32 i;

	for (i = 0; i < n; i++) {
		rai_addr_ip(res[i].dst_addr, res[i].dst_len, buf, sizeof(buf));
		if (!strcmp(buf, ip))
			return &res[i];
	}
	return NULL;
}

/* @r has source @src_ip on @dev port 1, or (@src_ip NULL) none, @status. */
static void expect_src(struct __test_metadata *_metadata,
		       const struct rdma_addrinfo_result *r, int status,
		       const char *src_ip, const char *dev)
{
	char ip[64];

	ASSERT_NE(NULL, r);
	EXPECT_EQ(status, r->src_status);
	if (!src_ip) {
		EXPECT_EQ(0, r->src_len);
		EXPECT_EQ(0, r->ibdev_name[0]);
		EXPECT_EQ(0, r->port_num);
		return;
	}
	ASSERT_NE(0, r->src_len);
	rai_addr_ip(r->src_addr, r->src_len, ip, sizeof(ip));
	EXPECT_STREQ(src_ip, ip);
	EXPECT_STREQ(dev, r->ibdev_name);
	EXPECT_EQ(1, r->port_num);
}

/* An IPv6 destination on the veth wire: fd00::1 on rxe0, or no source. */
static void expect_v6_src(struct __test_metadata *_metadata,
			  const struct rdma_addrinfo_result *r)
{
	if (ipv6_on())
		expect_src(_metadata, r, 0, RAI_IP6_A, RAI_IBDEV_A);
	else
		expect_src(_metadata, r, -EAFNOSUPPORT, NULL, NULL);
}

/* The case that oopsed with ipv6.disable=1: rdma_getaddrinfo(NULL, "4791"). */
TEST_F(v6, no_node_gives_both_loopbacks_and_no_ipv6_source)
{
	RAI_LOOKUP(NULL, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(2, self->n);
	/* Loopback routes through lo, which has no RDMA device. */
	expect_src(_metadata, find_dst(self->res, self->n, "127.0.0.1"),
		   -ENODEV, NULL, NULL);
	expect_src(_metadata, find_dst(self->res, self->n, "::1"),
		   v6_status(-ENODEV), NULL, NULL);
}

TEST_F(v6, no_node_inet6_gives_loopback_with_status)
{
	RAI_LOOKUP(NULL, "4791", AF_INET6, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	expect_src(_metadata, find_dst(self->res, self->n, "::1"),
		   v6_status(-ENODEV), NULL, NULL);
}

TEST_F(v6, ipv4_literal_has_its_source)
{
	RAI_LOOKUP(RAI_IP4_B, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	expect_src(_metadata, &self->res[0], 0, RAI_IP4_A, RAI_IBDEV_A);
}

TEST_F(v6, ipv6_literal_is_returned_with_status)
{
	RAI_LOOKUP(RAI_IP6_B, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	EXPECT_EQ(sizeof(struct sockaddr_in6), self->res[0].dst_len);
	expect_v6_src(_metadata, &self->res[0]);
}

/* A scope names an interface; that works without IPv6 too. */
TEST_F(v6, ipv6_literal_with_scope_is_returned)
{
	char node[64];

	snprintf(node, sizeof(node), "fd00::99%%%s",
		 RAI_NETDEV_A);
	RAI_LOOKUP(node, NULL, AF_INET6, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	/* With IPv6: fd00::/64 on veth0, the source is veth0's address. */
	expect_v6_src(_metadata, &self->res[0]);
}

/* peer.rai.test has an A and an AAAA record (the DNS server's zone). */
TEST_F(v6, dual_stack_name_gives_both_families)
{
	RAI_LOOKUP(RAI_ZONE_PEER, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(2, self->n);
	expect_src(_metadata, find_dst(self->res, self->n, RAI_IP4_B),
		   0, RAI_IP4_A, RAI_IBDEV_A);
	expect_v6_src(_metadata, find_dst(self->res, self->n, RAI_IP6_B));
}

/* Four addresses, one of them IPv6 and unroutable even with IPv6. */
TEST_F(v6, multi_address_name_every_ipv6_result_has_a_status)
{
	__u32 i;

	RAI_LOOKUP(RAI_ZONE_MULTI, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(4, self->n);
	for (i = 0; i < self->n; i++) {
		int want = -ENETUNREACH;

		if (self->res[i].family == AF_INET6)
			want = v6_status(-ENETUNREACH);
		EXPECT_EQ(want, self->res[i].src_status);
	}
}

TEST_F(v6, ib_gid_of_ipv6_address)
{
	RAI_LOOKUP(RAI_IP6_B, NULL, AF_IB, RDMA_ADDRINFO_RAI_FAMILY);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_IB, self->res[0].family);
	expect_v6_src(_metadata, &self->res[0]);
}

/* An IPv4-mapped GID routes through IPv4: a source with IPv6 off too. */
TEST_F(v6, ib_gid_ipv4_mapped_has_its_source)
{
	char node[64];

	snprintf(node, sizeof(node), "::ffff:%s", RAI_IP4_B);
	RAI_LOOKUP(node, NULL, AF_IB, RDMA_ADDRINFO_RAI_FAMILY);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_IB, self->res[0].family);
	snprintf(node, sizeof(node), "::ffff:%s", RAI_IP4_A);
	expect_src(_metadata, &self->res[0], 0, node, RAI_IBDEV_A);
}

/* A GID that no route reaches (no IPv6 default route in the guest). */
TEST_F(v6, ib_gid_unroutable)
{
	RAI_LOOKUP("2001:db8::2:c903:0:1", NULL, AF_IB,
		   RDMA_ADDRINFO_RAI_FAMILY);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_IB, self->res[0].family);
	expect_src(_metadata, &self->res[0], v6_status(-ENETUNREACH), NULL,
		   NULL);
}

TEST_F(v6, af_ib_without_node_is_ipv4_loopback)
{
	RAI_LOOKUP(NULL, "4791", AF_IB, RDMA_ADDRINFO_RAI_FAMILY);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_IB, self->res[0].family);
	EXPECT_EQ(-ENODEV, self->res[0].src_status);
}

TEST_HARNESS_MAIN
