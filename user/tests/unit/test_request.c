// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The argument checks of rdma_getaddrinfo(3) and the RESOLVE command. */
#include <arpa/inet.h>
#include <netdb.h>
#include <string.h>

#include "kselftest_harness.h"
#include "request.h"
#include "status.h"

TEST(node_service_and_hints_all_absent_is_eai_noname)
{
	ASSERT_EQ(EAI_NONAME, rai_check_hints(NULL, NULL, NULL));
}

TEST(hints_without_node_service_or_passive_is_eai_noname)
{
	struct rdma_addrinfo hints = { 0 };

	ASSERT_EQ(EAI_NONAME, rai_check_hints(NULL, NULL, &hints));
}

TEST(a_source_alone_is_enough_but_not_for_sa)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_addrinfo hints = {
		.ai_src_addr = (struct sockaddr *)&src,
		.ai_src_len = sizeof(src),
	};

	ASSERT_EQ(0, rai_check_hints(NULL, NULL, &hints));
	hints.ai_flags = RAI_SA;
	ASSERT_EQ(EAI_NONAME, rai_check_hints(NULL, NULL, &hints));
}

TEST(passive_hints_alone_are_enough)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };

	ASSERT_EQ(0, rai_check_hints(NULL, NULL, &hints));
}

TEST(node_or_service_alone_is_enough)
{
	ASSERT_EQ(0, rai_check_hints("host", NULL, NULL));
	ASSERT_EQ(0, rai_check_hints(NULL, "7471", NULL));
}

TEST(rai_sa_with_rai_dns_is_eai_badflags)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA | RAI_DNS };

	ASSERT_EQ(EAI_BADFLAGS, rai_check_hints(NULL, "0x10", &hints));
}

/* librdmacm ignores flags it does not know: so does this (issue 26 item 4). */
TEST(unknown_flag_is_ignored_and_not_asked)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NOROUTE | 0x4000 };
	struct rai_request req;

	ASSERT_EQ(0, rai_check_hints("host", NULL, &hints));
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(RAI_NOROUTE, req.cmd.ai_flags);
}

TEST(rai_sa_with_node_is_rejected)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };

	ASSERT_EQ(EAI_BADFLAGS, rai_check_hints("host", "0x10", &hints));
	ASSERT_EQ(0, rai_check_hints(NULL, "0x10", &hints));
}

TEST(unsupported_family_is_eai_family)
{
	struct rdma_addrinfo hints = { .ai_family = AF_UNIX };

	ASSERT_EQ(EAI_FAMILY, rai_check_hints("host", NULL, &hints));
	hints.ai_family = AF_IB;
	ASSERT_EQ(0, rai_check_hints("host", NULL, &hints));
	hints.ai_family = AF_INET6;
	ASSERT_EQ(0, rai_check_hints("host", NULL, &hints));
}

TEST(unsupported_source_family_is_eai_family)
{
	struct sockaddr sa = { .sa_family = AF_UNIX };
	struct rdma_addrinfo hints = { .ai_src_addr = &sa,
				       .ai_src_len = sizeof(sa) };

	ASSERT_EQ(EAI_FAMILY, rai_check_hints("host", NULL, &hints));
}

/* libfabric passes sizeof(struct sockaddr_storage): librdmacm takes it. */
TEST(source_as_long_as_sockaddr_storage_is_accepted)
{
	struct sockaddr_storage ss = { .ss_family = AF_INET };
	struct rdma_addrinfo hints = { .ai_src_addr = (struct sockaddr *)&ss,
				       .ai_src_len = sizeof(ss) };
	struct rai_request req;

	ASSERT_EQ(0, rai_check_hints("host", NULL, &hints));
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	/* librdmacm, asked for a refused name, gets the caller's length */
	EXPECT_EQ(sizeof(ss), req.caller.src_len);
	/* the kernel gets the family's address (with a literal of it) */
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.2", "7471", &hints));
	EXPECT_EQ(sizeof(struct sockaddr_in), req.cmd.src_len);
}

/*
 * QP type and port space as librdmacm hands them to getaddrinfo(): a
 * socket type and protocol that glibc refuses together (issue 26 item 4).
 */
TEST(ud_with_rdma_ps_tcp_is_eai_socktype)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_UD,
				       .ai_port_space = RDMA_PS_TCP };
	struct rai_request req;

	ASSERT_EQ(EAI_SOCKTYPE, rai_build_request(&req, "host", "7471",
						  &hints));
	ASSERT_EQ(EAI_SOCKTYPE, rai_build_request(&req, "host", NULL, &hints));
}

TEST(rc_with_rdma_ps_udp_or_ipoib_is_eai_socktype)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_RC,
				       .ai_port_space = RDMA_PS_UDP };
	struct rai_request req;

	ASSERT_EQ(EAI_SOCKTYPE, rai_build_request(&req, "host", "7471",
						  &hints));
	hints.ai_port_space = RDMA_PS_IPOIB;
	ASSERT_EQ(EAI_SOCKTYPE, rai_build_request(&req, "host", "7471",
						  &hints));
}

TEST(consistent_qp_type_and_port_space_are_asked_as_given)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_UD,
				       .ai_port_space = RDMA_PS_UDP };
	static const int ps[] = { RDMA_PS_UDP, RDMA_PS_IB, RDMA_PS_IPOIB };
	struct rai_request req;
	unsigned int i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		hints.ai_port_space = ps[i];
		ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
		ASSERT_EQ(IBV_QPT_UD, req.cmd.qp_type);
		ASSERT_EQ(ps[i], req.cmd.port_space);
	}
	hints.ai_qp_type = IBV_QPT_RC;
	hints.ai_port_space = RDMA_PS_IB;
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	ASSERT_EQ(RDMA_PS_IB, req.cmd.port_space);
}

/*
 * RAW_PACKET and types or spaces nobody knows: librdmacm asks glibc for
 * any socket type (or protocol) and gives them back in its result; the
 * kernel is asked for the QP type of glibc's first answer (RC for a TCP
 * service, UD for a UDP one) and its port space's default.
 */
TEST(raw_packet_is_asked_as_the_first_answers_qp_type)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_RAW_PACKET };
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	ASSERT_EQ(0, req.cmd.port_space);
	ASSERT_EQ(IBV_QPT_RAW_PACKET, req.shape.qp_type);
	hints.ai_port_space = RDMA_PS_UDP;
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(IBV_QPT_UD, req.cmd.qp_type);
	ASSERT_EQ(RDMA_PS_UDP, req.cmd.port_space);
}

TEST(unknown_qp_type_or_port_space_is_not_asked)
{
	struct rdma_addrinfo hints = { .ai_qp_type = 99 };
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	ASSERT_EQ(0, req.cmd.port_space);
	hints.ai_qp_type = 0;
	hints.ai_port_space = 0x1234;
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	ASSERT_EQ(0, req.cmd.port_space);
}

/* A service of one protocol decides the QP type (issue 26 item 3). */
TEST(udp_only_service_is_asked_as_ud)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_IB };
	struct rai_request req;

	if (!getservbyname("tftp", "udp") || getservbyname("tftp", "tcp"))
		SKIP(return, "tftp is not udp-only in the services database");
	ASSERT_EQ(0, rai_build_request(&req, "host", "tftp", NULL));
	ASSERT_STREQ("69", (const char *)(uintptr_t)req.cmd.service);
	ASSERT_EQ(IBV_QPT_UD, req.cmd.qp_type);
	ASSERT_EQ(0, req.cmd.port_space);
	ASSERT_EQ(0, rai_build_request(&req, "host", "tftp", &hints));
	ASSERT_EQ(IBV_QPT_UD, req.cmd.qp_type);
	ASSERT_EQ(RDMA_PS_IB, req.cmd.port_space);
}

/*
 * A name, not a literal: its request says so, for the error of a name
 * without an address of the family asked (issue 26 item 4).
 */
TEST(a_name_is_told_from_a_literal)
{
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", NULL));
	ASSERT_TRUE(req.ctx & RAI_CTX_NAME);
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.1", "7471", NULL));
	ASSERT_FALSE(req.ctx & RAI_CTX_NAME);
	ASSERT_EQ(0, rai_build_request(&req, "fe80::1%1", "7471", NULL));
	ASSERT_FALSE(req.ctx & RAI_CTX_NAME);
	ASSERT_EQ(0, rai_build_request(&req, NULL, "7471", NULL));
	ASSERT_FALSE(req.ctx & RAI_CTX_NAME);
}

/*
 * What glibc takes for a numeric address, told without it where the
 * library is sure (strict forms, a character no numeric form has), and
 * by glibc otherwise: the same answers either way.
 */
TEST(literals_glibc_takes_are_literals_and_names_are_names)
{
	static const struct {
		const char *node;
		int name;
	} c[] = {
		{ "192.0.2.1", 0 }, { "2001:db8::1", 0 }, { "::ffff:1.2.3.4", 0 },
		{ "127.1", 0 }, { "0x7f.1", 0 }, { "10", 0 }, { "fe80::1%lo", 0 },
		{ "peer.rai.test", 1 }, { "beef.cafe", 1 }, { "abc", 1 },
		{ "1.2.3.4.5", 1 }, { "1.2.3.4 ", 1 }, { "x", 1 }, { "g::1", 1 },
		{ "fe80::1%nosuchif", 1 },
	};
	struct rai_request req;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ASSERT_EQ(0, rai_build_request(&req, c[i].node, "7471", NULL));
		EXPECT_EQ(c[i].name, !!(req.ctx & RAI_CTX_NAME))
			TH_LOG("%s", c[i].node);
	}
}

TEST(request_carries_node_bytes_and_length)
{
	struct rai_request req;
	const char *node = "node.example";

	ASSERT_EQ(0, rai_build_request(&req, node, NULL, NULL));
	ASSERT_EQ((uintptr_t)node, req.cmd.node);
	ASSERT_EQ(strlen(node), req.cmd.node_len);
	ASSERT_EQ(0, req.cmd.service);
	ASSERT_EQ(0, req.cmd.service_len);
	ASSERT_EQ(0, req.cmd.ai_flags);
	ASSERT_EQ(0, req.cmd.result_count);
}

TEST(node_longer_than_255_bytes_is_eai_noname)
{
	struct rai_request req;
	char node[RDMA_ADDRINFO_NAME_MAX + 2];
	size_t i;

	/* labels of 60 bytes: a name glibc can ask DNS for */
	for (i = 0; i < sizeof(node) - 1; i++)
		node[i] = i % 61 == 60 ? '.' : 'a';
	node[sizeof(node) - 1] = '\0';
	ASSERT_EQ(EAI_NONAME, rai_build_request(&req, node, NULL, NULL));
	node[RDMA_ADDRINFO_NAME_MAX] = '\0';
	ASSERT_EQ(0, rai_build_request(&req, node, NULL, NULL));
}

TEST(request_carries_mapped_service)
{
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", NULL));
	ASSERT_STREQ("7471", (const char *)(uintptr_t)req.cmd.service);
	ASSERT_EQ(4, req.cmd.service_len);
}

TEST(request_carries_hints)
{
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(0xc0000201) };
	struct rdma_addrinfo hints = {
		.ai_flags = RAI_NOROUTE | RAI_FAMILY,
		.ai_family = AF_INET,
		.ai_qp_type = IBV_QPT_RC,
		.ai_port_space = RDMA_PS_TCP,
		.ai_src_addr = (struct sockaddr *)&src,
		.ai_src_len = sizeof(src),
	};
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", NULL, &hints));
	ASSERT_EQ(RAI_NOROUTE | RAI_FAMILY, req.cmd.ai_flags);
	ASSERT_EQ(AF_INET, req.cmd.family);
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	ASSERT_EQ(RDMA_PS_TCP, req.cmd.port_space);
	ASSERT_EQ(sizeof(src), req.cmd.src_len);
	ASSERT_EQ(0, memcmp(req.cmd.src_addr, &src, sizeof(src)));
	ASSERT_EQ(RAI_CTX_QP_PS, req.ctx & RAI_CTX_QP_PS);
}

TEST(destination_hint_becomes_numeric_node_and_port)
{
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6,
				    .sin6_port = htons(7471),
				    .sin6_scope_id = 3 };
	struct rdma_addrinfo hints = { .ai_dst_addr = (struct sockaddr *)&dst,
				       .ai_dst_len = sizeof(dst) };
	struct rai_request req;

	inet_pton(AF_INET6, "fe80::1", &dst.sin6_addr);
	ASSERT_EQ(0, rai_build_request(&req, NULL, NULL, &hints));
	ASSERT_EQ(strlen("fe80::1%3"), req.cmd.node_len);
	ASSERT_EQ(0, memcmp("fe80::1%3", (const char *)(uintptr_t)req.cmd.node,
			    req.cmd.node_len));
	ASSERT_STREQ("7471", (const char *)(uintptr_t)req.cmd.service);
	ASSERT_TRUE(req.cmd.ai_flags & RAI_NUMERICHOST);
}

TEST(xrc_qp_types_are_asked_as_rc)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_XRC_SEND,
				       .ai_port_space = RDMA_PS_TCP };
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", NULL, &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	hints.ai_qp_type = IBV_QPT_XRC_RECV;
	ASSERT_EQ(0, rai_build_request(&req, "host", NULL, &hints));
	ASSERT_EQ(IBV_QPT_RC, req.cmd.qp_type);
	hints.ai_port_space = RDMA_PS_UDP;
	ASSERT_EQ(EAI_SOCKTYPE, rai_build_request(&req, "host", NULL, &hints));
}

TEST(af_ib_is_asked_only_for_gid_literals)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_IB };
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	ASSERT_EQ(AF_UNSPEC, req.cmd.family);
	hints.ai_flags |= RAI_NUMERICHOST;
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.1", "7471", &hints));
	ASSERT_EQ(AF_UNSPEC, req.cmd.family);
	ASSERT_EQ(0, rai_build_request(&req, "fe80::1", "7471", &hints));
	ASSERT_EQ(AF_IB, req.cmd.family);
	/* RAI_SA: its flags alone, as rdma-core 60+ (its results AF_IB) */
	hints.ai_flags = RAI_SA;
	ASSERT_EQ(0, rai_build_request(&req, NULL, "0x10", &hints));
	ASSERT_EQ(AF_UNSPEC, req.cmd.family);
}

/*
 * rdma-core 60+ reads nothing of RAI_SA's hints but the flags (issue 33
 * item 2): family, source, QP type and port space, even inconsistent or
 * unknown, neither refuse nor go to the kernel.
 */
TEST(rai_sa_hints_are_its_flags_alone)
{
	struct sockaddr_in src = { .sin_family = 12345 };
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA, .ai_family = 12345,
				       .ai_qp_type = IBV_QPT_UD,
				       .ai_port_space = RDMA_PS_TCP,
				       .ai_src_addr = (struct sockaddr *)&src,
				       .ai_src_len = sizeof(src) };
	struct rai_request req;

	ASSERT_EQ(0, rai_check_hints(NULL, "svc", &hints));
	ASSERT_EQ(0, rai_build_request(&req, NULL, "svc", &hints));
	EXPECT_EQ(AF_UNSPEC, req.cmd.family);
	EXPECT_EQ(0, req.cmd.qp_type);
	EXPECT_EQ(0, req.cmd.port_space);
	EXPECT_EQ(0, req.cmd.src_len);
	EXPECT_EQ(1, req.shape.sa);
}

/*
 * Names glibc's resolver cannot put in a query (issue 33, "a..b"): an
 * empty label or one above 63 bytes is librdmacm's to look up, as glibc
 * does; with RAI_NUMERICHOST it is no literal (EAI_NONAME, the kernel's).
 */
TEST(name_with_an_empty_or_long_label_is_glibc_s)
{
	struct rdma_addrinfo numeric = { .ai_flags = RAI_NUMERICHOST };
	char name[80];
	struct rai_request req;

	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, "a..b", "1", NULL));
	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, ".a", "1", NULL));
	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, "a.b..", "1", NULL));
	memset(name, 'x', 64);
	strcpy(name + 64, ".example");
	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, name, "1", NULL));
	strcpy(name + 63, ".example");		/* 63 bytes: a label */
	EXPECT_EQ(0, rai_build_request(&req, name, "1", NULL));
	EXPECT_EQ(0, rai_build_request(&req, "a.b.", "1", NULL));
	EXPECT_EQ(0, rai_build_request(&req, ".", "1", NULL));
	EXPECT_EQ(0, rai_build_request(&req, "a..b", "1", &numeric));
}

/*
 * With ai_family AF_UNSPEC the hints' source restricts nothing, as in
 * librdmacm (issue 33 item 3): the kernel, which would take the results'
 * family from it, gets it only with a literal of its family, an explicit
 * family or RAI_SA.
 */
TEST(source_goes_to_the_kernel_only_where_it_restricts_nothing)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_ib sib = { .sib_family = AF_IB };
	struct rdma_addrinfo hints = { .ai_src_addr = (struct sockaddr *)&sin,
				       .ai_src_len = sizeof(sin) };
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, "fd00::2", "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, NULL, "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.2", "7471", &hints));
	EXPECT_EQ(sizeof(sin), req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, "0xc0000202", "7471", &hints));
	EXPECT_EQ(sizeof(sin), req.cmd.src_len);
	hints.ai_family = AF_INET6;
	ASSERT_EQ(0, rai_build_request(&req, "fd00::2", "7471", &hints));
	EXPECT_EQ(sizeof(sin), req.cmd.src_len);
	hints.ai_family = AF_UNSPEC;
	hints.ai_src_addr = (struct sockaddr *)&sin6;
	hints.ai_src_len = sizeof(sin6);
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.2", "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, "fd00::2", "7471", &hints));
	EXPECT_EQ(sizeof(sin6), req.cmd.src_len);
	hints.ai_src_addr = (struct sockaddr *)&sib;
	hints.ai_src_len = sizeof(sib);
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.2", "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	ASSERT_EQ(0, rai_build_request(&req, "host", "7471", &hints));
	EXPECT_EQ(0, req.cmd.src_len);
	EXPECT_EQ(AF_UNSPEC, req.cmd.family);
}

/*
 * AF_IB, RAI_FAMILY and RAI_NUMERICHOST without a node or with an IPv4
 * literal: IP results to be made AF_IB as librdmacm makes them (issue 33
 * item 5); a GID literal is the kernel's AF_IB already.
 */
TEST(af_ib_numeric_of_ip_is_made_ib_here)
{
	struct rdma_addrinfo hints = {
		.ai_flags = RAI_FAMILY | RAI_NUMERICHOST | RAI_PASSIVE,
		.ai_family = AF_IB,
	};
	struct rai_request req;

	ASSERT_EQ(0, rai_build_request(&req, NULL, "7471", &hints));
	EXPECT_EQ(AF_UNSPEC, req.cmd.family);
	EXPECT_EQ(1, req.shape.ib_from_ip);
	ASSERT_EQ(0, rai_build_request(&req, "192.0.2.1", "7471", &hints));
	EXPECT_EQ(1, req.shape.ib_from_ip);
	ASSERT_EQ(0, rai_build_request(&req, "fe80::1", "7471", &hints));
	EXPECT_EQ(AF_IB, req.cmd.family);
	EXPECT_EQ(0, req.shape.ib_from_ip);
	hints.ai_flags &= ~RAI_NUMERICHOST;
	ASSERT_EQ(0, rai_build_request(&req, NULL, "7471", &hints));
	EXPECT_EQ(0, req.shape.ib_from_ip);
	hints.ai_flags = RAI_NUMERICHOST | RAI_FAMILY;
	hints.ai_family = AF_INET;
	ASSERT_EQ(0, rai_build_request(&req, NULL, "7471", &hints));
	EXPECT_EQ(0, req.shape.ib_from_ip);
}

TEST(unknown_service_name_fails_the_request)
{
	struct rai_request req;

	ASSERT_EQ(EAI_SERVICE,
		  rai_build_request(&req, "host", "no-such-service", NULL));
}

TEST_HARNESS_MAIN
