// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Numeric hosts, parsed in the kernel without any upcall: IPv4, IPv6 with
 * and without %scope, IB GIDs for AF_IB; RAI_NUMERICHOST, RAI_PASSIVE,
 * the family filter, and source selection for literal destinations.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

FIXTURE(num) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
};

FIXTURE_SETUP(num)
{
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(num)
{
	RAI_LOOKUP_TEARDOWN();
}

static bool all_zero(const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--)
		if (*c++)
			return false;
	return true;
}

TEST_F(num, ipv4_literal_one_result_with_port)
{
	struct sockaddr_in sin;

	RAI_LOOKUP(RAI_IP4_B, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET, self->res[0].family);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
	EXPECT_EQ(0, self->res[0].ai_flags);
	ASSERT_EQ(sizeof(sin), self->res[0].dst_len);
	memcpy(&sin, self->res[0].dst_addr, sizeof(sin));
	EXPECT_EQ(AF_INET, sin.sin_family);
	EXPECT_EQ(htonl(0xc0a84d02), sin.sin_addr.s_addr);
	EXPECT_EQ(htons(4791), sin.sin_port);
	EXPECT_TRUE(all_zero(sin.sin_zero, sizeof(sin.sin_zero)));
	EXPECT_TRUE(all_zero(self->res[0].dst_addr + sizeof(sin),
			     RDMA_ADDRINFO_ADDR_SIZE - sizeof(sin)));
	EXPECT_EQ(0, self->res[0].reserved);
	EXPECT_EQ(0, self->res[0].route_len);
	EXPECT_EQ(0, self->res[0].service_record_len);
}

TEST_F(num, ipv4_literal_with_rai_numerichost)
{
	RAI_LOOKUP("192.0.2.99", NULL, AF_INET, RDMA_ADDRINFO_RAI_NUMERICHOST);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.99"));
	EXPECT_EQ(0, rai_addr_port(self->res[0].dst_addr,
				   self->res[0].dst_len));
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
}

TEST_F(num, ipv6_literal_one_result_with_port)
{
	struct sockaddr_in6 sin6;
	struct in6_addr want;

	RAI_LOOKUP(RAI_IP6_B, "18515", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
	ASSERT_EQ(sizeof(sin6), self->res[0].dst_len);
	memcpy(&sin6, self->res[0].dst_addr, sizeof(sin6));
	inet_pton(AF_INET6, RAI_IP6_B, &want);
	EXPECT_EQ(AF_INET6, sin6.sin6_family);
	EXPECT_EQ(0, memcmp(&want, &sin6.sin6_addr, sizeof(want)));
	EXPECT_EQ(htons(18515), sin6.sin6_port);
	EXPECT_EQ(0, sin6.sin6_scope_id);
	EXPECT_EQ(0, sin6.sin6_flowinfo);
}

TEST_F(num, ipv6_literal_scope_by_interface_name)
{
	const char *dev = RAI_NETDEV_A;
	unsigned int ifindex = if_nametoindex(dev);
	struct sockaddr_in6 sin6;
	char node[64];

	ASSERT_NE(0, ifindex) TH_LOG("no interface %s", dev);
	snprintf(node, sizeof(node), "fe80::1%%%s", dev);
	RAI_LOOKUP(node, "1", AF_INET6, RDMA_ADDRINFO_RAI_NUMERICHOST);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	ASSERT_EQ(sizeof(sin6), self->res[0].dst_len);
	memcpy(&sin6, self->res[0].dst_addr, sizeof(sin6));
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "fe80::1"));
	EXPECT_EQ(ifindex, sin6.sin6_scope_id);
}

TEST_F(num, ipv6_literal_scope_by_number)
{
	unsigned int ifindex = if_nametoindex(RAI_NETDEV_B);
	struct sockaddr_in6 sin6;
	char node[64];

	ASSERT_NE(0, ifindex);
	snprintf(node, sizeof(node), "fe80::2%%%u", ifindex);
	RAI_LOOKUP(node, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	memcpy(&sin6, self->res[0].dst_addr, sizeof(sin6));
	EXPECT_EQ(AF_INET6, sin6.sin6_family);
	EXPECT_EQ(ifindex, sin6.sin6_scope_id);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
}

TEST_F(num, ipv6_literal_unknown_scope_fails_without_result)
{
	struct rdma_addrinfo_resolve r;
	int ret;

	rai_req_init(&r, "fe80::1%nosuchif0", NULL, AF_INET6,
		     RDMA_ADDRINFO_RAI_NUMERICHOST, RDMA_ADDRINFO_RESOLVE_SYNC,
		     0);
	ret = rai_resolve(self->fd, &r);
	/* Rejected up front, or completed with an error status. */
	if (ret) {
		EXPECT_EQ(-EINVAL, ret);
	} else {
		EXPECT_GT(0, r.status);
		EXPECT_EQ(0, r.num_results);
		EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	}
}

TEST_F(num, ib_gid_literal_for_af_ib)
{
	struct rdma_addrinfo_resolve r;
	struct rai_sockaddr_ib sib;
	struct in6_addr gid;
	const char *lit = "fe80::2:c9ff:fe00:1234";

	rai_req_init(&r, lit, "4791", AF_IB,
		     RDMA_ADDRINFO_RAI_FAMILY | RDMA_ADDRINFO_RAI_NUMERICHOST,
		     0, 0);
	r.port_space = RDMA_ADDRINFO_PS_TCP;
	r.qp_type = RDMA_ADDRINFO_QPT_RC;
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_IB, self->res[0].family);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
	EXPECT_EQ(RDMA_ADDRINFO_PS_TCP, self->res[0].port_space);
	ASSERT_EQ(sizeof(sib), self->res[0].dst_len);
	memcpy(&sib, self->res[0].dst_addr, sizeof(sib));
	EXPECT_EQ(AF_IB, sib.sib_family);
	inet_pton(AF_INET6, lit, &gid);
	EXPECT_EQ(0, memcmp(&gid, sib.sib_addr, sizeof(gid)));
	/* rdma_cm's encoding: port space << 16 | port. */
	EXPECT_EQ(htobe64(((__u64)RDMA_ADDRINFO_PS_TCP << 16) | 4791),
		  sib.sib_sid);
}

TEST_F(num, qp_type_and_port_space_carried_into_result)
{
	struct rdma_addrinfo_resolve r;

	rai_req_init(&r, RAI_IP4_B, "7174", AF_INET,
		     RDMA_ADDRINFO_RAI_NUMERICHOST, 0, 0);
	r.qp_type = RDMA_ADDRINFO_QPT_UD;
	r.port_space = RDMA_ADDRINFO_PS_UDP;
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_QPT_UD, self->res[0].qp_type);
	EXPECT_EQ(RDMA_ADDRINFO_PS_UDP, self->res[0].port_space);
}

/* Defaults of the header: port_space from family/qp_type, qp_type from ps. */
TEST_F(num, default_port_space_and_qp_type)
{
	static const struct {
		__u32 qpt; __u16 ps; __u32 want_qpt; __u16 want_ps;
	} c[] = {
		{ 0, 0, RDMA_ADDRINFO_QPT_RC, RDMA_ADDRINFO_PS_TCP },
		{ RDMA_ADDRINFO_QPT_UD, 0, RDMA_ADDRINFO_QPT_UD,
		  RDMA_ADDRINFO_PS_UDP },
		{ RDMA_ADDRINFO_QPT_RC, 0, RDMA_ADDRINFO_QPT_RC,
		  RDMA_ADDRINFO_PS_TCP },
		{ 0, RDMA_ADDRINFO_PS_UDP, RDMA_ADDRINFO_QPT_UD,
		  RDMA_ADDRINFO_PS_UDP },
		{ 0, RDMA_ADDRINFO_PS_IPOIB, RDMA_ADDRINFO_QPT_UD,
		  RDMA_ADDRINFO_PS_IPOIB },
		{ 0, RDMA_ADDRINFO_PS_TCP, RDMA_ADDRINFO_QPT_RC,
		  RDMA_ADDRINFO_PS_TCP },
		{ 0, RDMA_ADDRINFO_PS_IB, RDMA_ADDRINFO_QPT_RC,
		  RDMA_ADDRINFO_PS_IB },
	};
	struct rdma_addrinfo_resolve r;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rai_req_init(&r, "192.0.2.1", NULL, AF_INET, 0, 0, 0);
		r.qp_type = c[i].qpt;
		r.port_space = c[i].ps;
		free(self->res);
		self->res = NULL;
		RAI_LOOKUP_REQ(&r);
		ASSERT_EQ(0, self->status);
		ASSERT_EQ(1, self->n);
		EXPECT_EQ(c[i].want_qpt, self->res[0].qp_type)
			TH_LOG("case %u", i);
		EXPECT_EQ(c[i].want_ps, self->res[0].port_space)
			TH_LOG("case %u", i);
	}
}

/*
 * Port space 0 with AF_IB follows librdmacm's rule, as with IP: PS_TCP
 * (PS_UDP for UD), and the SID and mask librdmacm's ucma_set_sid() makes
 * of it, so that a peer resolving with librdmacm listens on the same SID.
 */
TEST_F(num, af_ib_gid_port_space_0_is_librdmacm_ps_tcp)
{
	static const struct {
		__u32 qpt; const char *svc; __u16 want_ps; __u16 port;
	} c[] = {
		{ 0, "18515", RDMA_ADDRINFO_PS_TCP, 18515 },
		{ RDMA_ADDRINFO_QPT_RC, "18515", RDMA_ADDRINFO_PS_TCP, 18515 },
		{ RDMA_ADDRINFO_QPT_UD, "18515", RDMA_ADDRINFO_PS_UDP, 18515 },
		{ 0, NULL, RDMA_ADDRINFO_PS_TCP, 0 },
	};
	struct rdma_addrinfo_resolve r;
	struct rai_sockaddr_ib sib;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		rai_req_init(&r, "fe80::2:c9ff:fe00:4321", c[i].svc, AF_IB,
			     RDMA_ADDRINFO_RAI_FAMILY |
			     RDMA_ADDRINFO_RAI_NUMERICHOST, 0, 0);
		r.qp_type = c[i].qpt;
		free(self->res);
		self->res = NULL;
		RAI_LOOKUP_REQ(&r);
		ASSERT_EQ(0, self->status) TH_LOG("case %u", i);
		ASSERT_EQ(1, self->n);
		EXPECT_EQ(c[i].want_ps, self->res[0].port_space)
			TH_LOG("case %u", i);
		ASSERT_EQ(sizeof(sib), self->res[0].dst_len);
		memcpy(&sib, self->res[0].dst_addr, sizeof(sib));
		EXPECT_EQ(htobe64(((__u64)c[i].want_ps << 16) | c[i].port),
			  sib.sib_sid) TH_LOG("case %u", i);
		EXPECT_EQ(htobe64(0xffffffffffff0000ULL |
				  (c[i].port ? 0xffff : 0)),
			  sib.sib_sid_mask) TH_LOG("case %u", i);
	}
}

/* An explicit PS_IB is kept, and makes the SID. */
TEST_F(num, af_ib_gid_explicit_ps_ib_kept)
{
	struct rdma_addrinfo_resolve r;
	struct rai_sockaddr_ib sib;

	rai_req_init(&r, "fe80::2:c9ff:fe00:4321", "18515", AF_IB,
		     RDMA_ADDRINFO_RAI_FAMILY | RDMA_ADDRINFO_RAI_NUMERICHOST,
		     0, 0);
	r.port_space = RDMA_ADDRINFO_PS_IB;
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_PS_IB, self->res[0].port_space);
	memcpy(&sib, self->res[0].dst_addr, sizeof(sib));
	EXPECT_EQ(htobe64(((__u64)RDMA_ADDRINFO_PS_IB << 16) | 18515),
		  sib.sib_sid);
}

TEST_F(num, ipv4_literal_with_family_inet6_eaddrnotavail)
{
	RAI_LOOKUP(RAI_IP4_B, NULL, AF_INET6, 0);
	EXPECT_EQ(-EADDRNOTAVAIL, self->status);
	EXPECT_EQ(0, self->n);
}

TEST_F(num, ipv6_literal_with_family_inet_eaddrnotavail)
{
	RAI_LOOKUP(RAI_IP6_B, NULL, AF_INET, 0);
	EXPECT_EQ(-EADDRNOTAVAIL, self->status);
	EXPECT_EQ(0, self->n);
}

TEST_F(num, passive_without_node_gives_wildcard_source_no_destination)
{
	struct sockaddr_in sin;

	RAI_LOOKUP(NULL, "4791", AF_INET, RDMA_ADDRINFO_RAI_PASSIVE);
	ASSERT_EQ(0, self->status);
	ASSERT_LE(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_RAI_PASSIVE,
		  self->res[0].ai_flags & RDMA_ADDRINFO_RAI_PASSIVE);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_PASSIVE, self->res[0].origin);
	EXPECT_EQ(0, self->res[0].dst_len);
	EXPECT_EQ(AF_INET, self->res[0].family);
	ASSERT_EQ(sizeof(sin), self->res[0].src_len);
	memcpy(&sin, self->res[0].src_addr, sizeof(sin));
	EXPECT_EQ(AF_INET, sin.sin_family);
	EXPECT_EQ(htonl(INADDR_ANY), sin.sin_addr.s_addr);
	EXPECT_EQ(htons(4791), sin.sin_port);
}

TEST_F(num, passive_without_node_ipv6_gives_in6addr_any)
{
	struct sockaddr_in6 sin6;

	RAI_LOOKUP(NULL, "4791", AF_INET6, RDMA_ADDRINFO_RAI_PASSIVE);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_PASSIVE, self->res[0].origin);
	EXPECT_EQ(0, self->res[0].dst_len);
	ASSERT_EQ(sizeof(sin6), self->res[0].src_len);
	memcpy(&sin6, self->res[0].src_addr, sizeof(sin6));
	EXPECT_EQ(0, memcmp(&in6addr_any, &sin6.sin6_addr, sizeof(in6addr_any)));
	EXPECT_EQ(htons(4791), sin6.sin6_port);
}

TEST_F(num, passive_without_node_any_family_gives_both_wildcards)
{
	unsigned int fams = 0;
	__u32 i;

	RAI_LOOKUP(NULL, "4791", AF_UNSPEC, RDMA_ADDRINFO_RAI_PASSIVE);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(2, self->n);
	for (i = 0; i < self->n; i++) {
		EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_PASSIVE, self->res[i].origin);
		EXPECT_EQ(0, self->res[i].dst_len);
		EXPECT_EQ(self->res[i].family,
			  rai_addr_family(self->res[i].src_addr,
					  self->res[i].src_len));
		EXPECT_EQ(4791, rai_addr_port(self->res[i].src_addr,
					      self->res[i].src_len));
		fams |= 1u << (self->res[i].family == AF_INET6);
	}
	EXPECT_EQ(3, fams) TH_LOG("not one IPv4 and one IPv6 wildcard");
}

TEST_F(num, no_node_without_passive_gives_loopback)
{
	RAI_LOOKUP(NULL, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(2, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "127.0.0.1"));
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "::1"));
	EXPECT_EQ(0, self->res[0].ai_flags & RDMA_ADDRINFO_RAI_PASSIVE);
	EXPECT_EQ(4791, rai_addr_port(self->res[0].dst_addr,
				      self->res[0].dst_len));
}

TEST_F(num, passive_with_numeric_node_binds_that_address)
{
	struct sockaddr_in sin;

	RAI_LOOKUP(RAI_IP4_A, "4791", AF_INET,
		   RDMA_ADDRINFO_RAI_PASSIVE | RDMA_ADDRINFO_RAI_NUMERICHOST);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_RAI_PASSIVE,
		  self->res[0].ai_flags & RDMA_ADDRINFO_RAI_PASSIVE);
	EXPECT_EQ(0, self->res[0].dst_len);
	ASSERT_EQ(sizeof(sin), self->res[0].src_len);
	memcpy(&sin, self->res[0].src_addr, sizeof(sin));
	EXPECT_EQ(htonl(0xc0a84d01), sin.sin_addr.s_addr);
	EXPECT_EQ(htons(4791), sin.sin_port);
}

/* ---- source selection for literal destinations ------------------------ */

static void check_src(struct __test_metadata *_metadata,
		      const struct rdma_addrinfo_result *res,
		      const char *want_ip, const char *want_dev)
{
	char ip[64];

	EXPECT_EQ(0, res->src_status);
	ASSERT_NE(0, res->src_len);
	rai_addr_ip(res->src_addr, res->src_len, ip, sizeof(ip));
	EXPECT_STREQ(want_ip, ip);
	EXPECT_STREQ(want_dev, res->ibdev_name);
	EXPECT_EQ(1, res->port_num);
}

TEST_F(num, source_of_peer_ipv4_is_veth0_address_on_rxe0)
{
	RAI_LOOKUP(RAI_IP4_B, NULL, AF_INET, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	check_src(_metadata, &self->res[0], RAI_IP4_A, RAI_IBDEV_A);
}

TEST_F(num, source_of_peer_ipv6_is_veth0_address_on_rxe0)
{
	RAI_LOOKUP(RAI_IP6_B, NULL, AF_INET6, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	check_src(_metadata, &self->res[0], RAI_IP6_A, RAI_IBDEV_A);
}

TEST_F(num, source_of_other_end_is_veth1_address_on_rxe1)
{
	RAI_LOOKUP(RAI_IP4_A, NULL, AF_INET, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	check_src(_metadata, &self->res[0], RAI_IP4_B, RAI_IBDEV_B);
}

/* RAI_NOROUTE: no routing information, so no source either. */
TEST_F(num, rai_noroute_gives_no_source_eopnotsupp)
{
	RAI_LOOKUP(RAI_IP4_B, NULL, AF_INET,
		   RDMA_ADDRINFO_RAI_NOROUTE);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(0, self->res[0].src_len);
	EXPECT_EQ(-EOPNOTSUPP, self->res[0].src_status);
	EXPECT_EQ(0, self->res[0].ibdev_name[0]);
	EXPECT_EQ(0, self->res[0].port_num);
	EXPECT_EQ(sizeof(struct sockaddr_in), self->res[0].dst_len);
}

TEST_F(num, no_route_gives_no_source_enetunreach)
{
	RAI_LOOKUP("192.0.2.10", NULL, AF_INET, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(0, self->res[0].src_len);
	EXPECT_EQ(-ENETUNREACH, self->res[0].src_status);
	EXPECT_EQ(0, self->res[0].ibdev_name[0]);
	EXPECT_EQ(0, self->res[0].port_num);
	EXPECT_EQ(sizeof(struct sockaddr_in), self->res[0].dst_len);
}

TEST_F(num, route_via_non_rdma_interface_gives_no_source_enodev)
{
	int ret;

	rai_sh("ip link del raitest0 2>/dev/null");
	ret = rai_sh("ip link add raitest0 type dummy && "
		     "ip addr add 10.77.0.1/24 dev raitest0 && "
		     "ip link set raitest0 up");
	ASSERT_EQ(0, ret) TH_LOG("cannot create a dummy interface");
	ret = rai_lookup_str(self->fd, "10.77.0.2", NULL, AF_INET, 0,
			     &self->res, &self->n, &self->status);
	rai_sh("ip link del raitest0");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(0, self->res[0].src_len);
	EXPECT_EQ(-ENODEV, self->res[0].src_status);
	EXPECT_EQ(0, self->res[0].ibdev_name[0]);
}

/* ---- a bound source address (hints.ai_src_addr / the id's binding) ---- */

TEST_F(num, bound_source_address_is_kept_in_result)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_addrinfo_resolve r;
	char ip[64];

	inet_pton(AF_INET, RAI_IP4_A, &src.sin_addr);
	rai_req_init(&r, RAI_IP4_B, NULL, AF_UNSPEC,
		     0, 0, 0);
	memcpy(r.src_addr, &src, sizeof(src));
	r.src_len = sizeof(src);
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	ASSERT_NE(0, self->res[0].src_len);
	EXPECT_STREQ(RAI_IP4_A,
		     rai_addr_ip(self->res[0].src_addr, self->res[0].src_len,
				 ip, sizeof(ip)));
	EXPECT_STREQ(RAI_IBDEV_A, self->res[0].ibdev_name);
}

TEST_F(num, bound_device_not_on_the_route_gives_no_source_enodev)
{
	struct rdma_addrinfo_resolve r;

	/* The route to B goes through veth0 (rxe0); the caller is on rxe1. */
	rai_req_init(&r, RAI_IP4_B, NULL, AF_INET,
		     0, 0, 0);
	strcpy(r.ibdev_name, RAI_IBDEV_B);
	r.port_num = 1;
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(0, self->res[0].src_len);
	EXPECT_EQ(-ENODEV, self->res[0].src_status);
}

TEST_F(num, bound_device_on_the_route_keeps_the_source)
{
	struct rdma_addrinfo_resolve r;

	rai_req_init(&r, RAI_IP4_B, NULL, AF_INET,
		     0, 0, 0);
	strcpy(r.ibdev_name, RAI_IBDEV_A);
	r.port_num = 1;
	RAI_LOOKUP_REQ(&r);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(0, self->res[0].src_status);
	EXPECT_NE(0, self->res[0].src_len);
	EXPECT_STREQ(RAI_IBDEV_A, self->res[0].ibdev_name);
}

TEST_F(num, bound_ipv6_source_rejects_ipv4_literal_eaddrnotavail)
{
	struct sockaddr_in6 src = { .sin6_family = AF_INET6 };
	struct rdma_addrinfo_resolve r;

	inet_pton(AF_INET6, RAI_IP6_A, &src.sin6_addr);
	rai_req_init(&r, RAI_IP4_B, NULL, AF_UNSPEC, 0, 0, 0);
	memcpy(r.src_addr, &src, sizeof(src));
	r.src_len = sizeof(src);
	RAI_LOOKUP_REQ(&r);
	EXPECT_EQ(-EADDRNOTAVAIL, self->status);
	EXPECT_EQ(0, self->n);
}

/* ---- RAI_NUMERICHOST and upcalls -------------------------------------- */

FIXTURE(upcall) {
	int fd;
};

FIXTURE_SETUP(upcall)
{
	int ret;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(upcall)
{
	rai_upcall_counter_remove();
	if (self->fd >= 0)
		close(self->fd);
}

/* A lookup of a name nobody asked for before is counted (control). */
static void expect_counter_counts(struct __test_metadata *_metadata, int fd)
{
	struct rdma_addrinfo_result *res;
	long before = rai_upcall_count();
	char name[128];
	__s32 status;
	__u32 n;

	ASSERT_LE(0, before);
	ASSERT_EQ(0, rai_lookup_str(fd, rai_unique_name(name, sizeof(name), "ctl"),
				    NULL, AF_UNSPEC, 0, &res, &n, &status));
	free(res);
	EXPECT_LE(before + 1, rai_upcall_count())
		TH_LOG("control: the lookup of %s made no counted upcall", name);
}

TEST_F(upcall, numeric_literals_make_no_upcall)
{
	static const struct { const char *node; unsigned int fam; __u32 fl; }
	lit[] = {
		{ "192.0.2.77", AF_UNSPEC, 0 },
		{ "192.0.2.78", AF_INET, RDMA_ADDRINFO_RAI_NUMERICHOST },
		{ "2001:db8::77", AF_UNSPEC, 0 },
		{ "2001:db8::78", AF_INET6, RDMA_ADDRINFO_RAI_NUMERICHOST },
		{ "fe80::77%1", AF_INET6, 0 },
		{ "fe80::2:c9ff:fe00:77", AF_IB,
		  RDMA_ADDRINFO_RAI_FAMILY | RDMA_ADDRINFO_RAI_NUMERICHOST },
	};
	struct rdma_addrinfo_result *res;
	long before = rai_upcall_count();
	unsigned int i;
	__s32 status;
	__u32 n;

	ASSERT_LE(0, before);
	for (i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
		ASSERT_EQ(0, rai_lookup_str(self->fd, lit[i].node, NULL,
					    lit[i].fam, lit[i].fl, &res, &n,
					    &status));
		EXPECT_EQ(0, status) TH_LOG("%s: status %d", lit[i].node,
					    status);
		EXPECT_EQ(1, n) TH_LOG("%s: %u results", lit[i].node, n);
		free(res);
	}
	EXPECT_EQ(before, rai_upcall_count());
	expect_counter_counts(_metadata, self->fd);
}

TEST_F(upcall, numerichost_with_a_name_fails_without_upcall)
{
	struct rdma_addrinfo_resolve r;
	long before = rai_upcall_count();
	long long q0 = rai_stat("dns_queries");
	char name[128];
	int ret;

	ASSERT_LE(0, before);
	ASSERT_LE(0, q0);
	rai_req_init(&r, rai_unique_name(name, sizeof(name), "numhost"), NULL,
		     AF_UNSPEC, RDMA_ADDRINFO_RAI_NUMERICHOST,
		     RDMA_ADDRINFO_RESOLVE_SYNC, 0);
	ret = rai_resolve(self->fd, &r);
	/* Accepted, and completed with -ENXIO (the ABI header). */
	ASSERT_EQ(0, ret);
	EXPECT_EQ(-ENXIO, r.status);
	EXPECT_EQ(0, r.num_results);
	EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	/*
	 * It completed inside RESOLVE, in the numeric backend: the module
	 * asked dns_query() nothing, so no upcall is on its way.
	 */
	EXPECT_EQ(q0, rai_stat("dns_queries"));
	EXPECT_EQ(before, rai_upcall_count());
	expect_counter_counts(_metadata, self->fd);
}

TEST_HARNESS_MAIN
