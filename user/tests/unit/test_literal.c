// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * IPv4 literals as glibc's getaddrinfo() reads them (issue 33 item 1):
 * the parser against fixed answers and against this machine's glibc, and
 * the node that RESOLVE hands the module.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "literal.h"
#include "request.h"
#include "status.h"

/* Each node and glibc's address for it ("" when glibc refuses it). */
static const struct {
	const char *node, *addr;
} cases[] = {
	{ "192.168.001.010", "192.168.1.8" },	/* octal parts */
	{ "192.168.1.09", "" },			/* 09 is no octal number */
	{ "127.1", "127.0.0.1" },
	{ "127.0.1", "127.0.0.1" },
	{ "1.2.65535", "1.2.255.255" },
	{ "1.2.65536", "" },
	{ "1.16777215", "1.255.255.255" },
	{ "1.16777216", "" },
	{ "0x7f000001", "127.0.0.1" },
	{ "0X7F.1", "127.0.0.1" },
	{ "2130706433", "127.0.0.1" },
	{ "4294967295", "255.255.255.255" },
	{ "4294967296", "" },
	{ "0xffffffff", "255.255.255.255" },
	{ "0x100000000", "" },
	{ "0377.0377.0377.0377", "255.255.255.255" },
	{ "0400.1.1.1", "" },
	{ "256.1.1.1", "" },
	{ "1.2.3.0x4", "1.2.3.4" },
	{ "1.2.3.04", "1.2.3.4" },
	{ "0", "0.0.0.0" },
	{ "00000000000000000000001", "0.0.0.1" },
	{ "0x0000000000000000000001", "0.0.0.1" },
	{ "99999999999999999999999", "" },
	{ "0x", "" },
	{ "0x.1", "" },
	{ "08", "" },
	{ "0xg", "" },
	{ "1.2.3.4.5", "" },
	{ "1.", "" },
	{ "1..2", "" },
	{ ".1", "" },
	{ "", "" },
	{ "+1", "" },
	{ "-1", "" },
	{ "1e1", "" },
	/* Nothing may trail, not even blanks (glibc >= 2.31's inet_aton_exact) */
	{ "127.0.0.1 ", "" },
	{ "127.0.0.1\t", "" },
	{ "127.0.0.1\n", "" },
	{ "127.1 junk", "" },
	{ " 127.0.0.1", "" },
	{ "127.0.0.1x", "" },
	{ "127.0.0.1.", "" },
	{ "1.2.3.4%eth0", "" },
	{ "1.2.3.4/24", "" },
	{ "::1", "" },
};

static int glibc_ipv4(const char *node, char *buf, size_t len)
{
	struct addrinfo h = { .ai_flags = AI_NUMERICHOST,
			      .ai_family = AF_INET,
			      .ai_socktype = SOCK_STREAM }, *res;

	if (getaddrinfo(node, NULL, &h, &res))
		return 0;
	inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr,
		  buf, len);
	freeaddrinfo(res);
	return 1;
}

TEST(ipv4_literals_read_as_glibc_reads_them)
{
	char got[INET_ADDRSTRLEN];
	struct in_addr a;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got[0] = '\0';
		if (rai_ipv4_literal(cases[i].node, &a))
			inet_ntop(AF_INET, &a, got, sizeof(got));
		EXPECT_STREQ(cases[i].addr, got) {
			TH_LOG("'%s'", cases[i].node);
		}
	}
}

/* The same answers as this machine's getaddrinfo(AF_INET, AI_NUMERICHOST). */
TEST(ipv4_literals_as_this_glibc)
{
	char want[INET_ADDRSTRLEN], got[INET_ADDRSTRLEN];
	struct in_addr a;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		want[0] = got[0] = '\0';
		glibc_ipv4(cases[i].node, want, sizeof(want));
		if (rai_ipv4_literal(cases[i].node, &a))
			inet_ntop(AF_INET, &a, got, sizeof(got));
		EXPECT_STREQ(want, got) {
			TH_LOG("'%s'", cases[i].node);
		}
	}
}

TEST(module_literals_are_four_decimal_parts)
{
	EXPECT_TRUE(rai_ipv4_module_literal("192.168.1.09"));
	EXPECT_TRUE(rai_ipv4_module_literal("192.168.001.010"));
	EXPECT_TRUE(rai_ipv4_module_literal("0.0.0.0"));
	EXPECT_FALSE(rai_ipv4_module_literal("127.1"));
	EXPECT_FALSE(rai_ipv4_module_literal("1.2.3.256"));
	EXPECT_FALSE(rai_ipv4_module_literal("1.2.3.4.5"));
	EXPECT_FALSE(rai_ipv4_module_literal("1.2.3.4."));
	EXPECT_FALSE(rai_ipv4_module_literal("1.2..4"));
	EXPECT_FALSE(rai_ipv4_module_literal("0x1.2.3.4"));
	EXPECT_FALSE(rai_ipv4_module_literal("1.2.3.4 "));
}

/* The node a RESOLVE hands the module, NUL-terminated in @buf. */
static const char *sent_node(const struct rai_request *req, char *buf,
			     size_t len)
{
	size_t n = req->cmd.node_len < len - 1 ? req->cmd.node_len : len - 1;

	memcpy(buf, (const void *)(uintptr_t)req->cmd.node, n);
	buf[n] = '\0';
	return buf;
}

TEST(the_module_gets_glibcs_address_in_dotted_decimal)
{
	static const char *const nodes[][2] = {
		{ "192.168.001.010", "192.168.1.8" },
		{ "127.1", "127.0.0.1" },
		{ "0x7f000001", "127.0.0.1" },
		{ "2130706433", "127.0.0.1" },
		{ "0x7f.1", "127.0.0.1" },
		{ "192.0.2.1", "192.0.2.1" },
	};
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };
	struct rai_request req;
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		hints.ai_flags = RAI_NUMERICHOST;
		ASSERT_EQ(0, rai_build_request(&req, nodes[i][0], "7471",
					       &hints));
		EXPECT_STREQ(nodes[i][1], sent_node(&req, buf, sizeof(buf)));
		/* a literal without the flag too, never a name */
		hints.ai_flags = 0;
		ASSERT_EQ(0, rai_build_request(&req, nodes[i][0], "7471",
					       &hints));
		EXPECT_STREQ(nodes[i][1], sent_node(&req, buf, sizeof(buf)));
		EXPECT_EQ(0, req.ctx & RAI_CTX_NAME) {
			TH_LOG("%s taken for a name", nodes[i][0]);
		}
	}
}

/* glibc takes 192.168.1.09 for a name; the module would read 192.168.1.9. */
TEST(a_dotted_quad_glibc_refuses_never_reaches_the_module)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };
	struct rai_request req;

	EXPECT_EQ(EAI_NONAME, rai_build_request(&req, "192.168.1.09", "7471",
						&hints));
	EXPECT_EQ(EAI_NONAME, rai_build_request(&req, "010.0.0.08", NULL,
						&hints));
	hints.ai_flags = 0;
	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, "192.168.1.09",
						    "7471", &hints));
	EXPECT_EQ(RAI_GLIBC_NAME, rai_build_request(&req, "192.168.1.09",
						    "7471", NULL));
}

/* What glibc does not read as a literal stays as it was. */
TEST(names_and_ipv6_literals_are_sent_as_given)
{
	struct rai_request req;
	char buf[64];

	ASSERT_EQ(0, rai_build_request(&req, "host.example", "7471", NULL));
	EXPECT_STREQ("host.example", sent_node(&req, buf, sizeof(buf)));
	ASSERT_EQ(0, rai_build_request(&req, "127.0.0.1 ", "7471", NULL));
	EXPECT_STREQ("127.0.0.1 ", sent_node(&req, buf, sizeof(buf)));
	ASSERT_EQ(0, rai_build_request(&req, "fd00::001", "7471", NULL));
	EXPECT_STREQ("fd00::001", sent_node(&req, buf, sizeof(buf)));
}

/* The dotted form the module gets is inet_ntop()'s, byte for byte. */
TEST(dotted_decimal_is_inet_ntop_s)
{
	char mine[RAI_IPV4_DOTTED_LEN], glibc[INET_ADDRSTRLEN];
	struct in_addr a;
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < 20000; i++) {
		/* Every byte width: 0, 9, 10, 99, 100, 255 and between. */
		a.s_addr = i < 4 ? (uint32_t[]){ 0, ~0u, 0x0a09630au,
						 0x64ff0063u }[i] : v;
		v = v * 2654435761u + 12345;
		rai_ipv4_dotted(&a, mine);
		ASSERT_NE(NULL, inet_ntop(AF_INET, &a, glibc, sizeof(glibc)));
		ASSERT_STREQ(glibc, mine);
	}
}

TEST_HARNESS_MAIN
