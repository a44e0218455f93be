// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Kernel results (struct rdma_addrinfo_result) to struct rdma_addrinfo. */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/sa.h>

#include "kselftest_harness.h"
#include "convert.h"

static void set_inet(struct rdma_addrinfo_result *r, __u8 *bytes, __u32 *len,
		     const char *addr, unsigned short port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };

	inet_pton(AF_INET, addr, &sin.sin_addr);
	memcpy(bytes, &sin, sizeof(sin));
	*len = sizeof(sin);
	r->family = AF_INET;
}

TEST(inet_result_keeps_addresses_and_types)
{
	struct rdma_addrinfo_result r = { .port_space = RDMA_PS_TCP,
					  .qp_type = IBV_QPT_RC };
	struct rdma_addrinfo *ai = NULL;
	struct sockaddr_in *dst, *src;

	set_inet(&r, r.dst_addr, &r.dst_len, "192.0.2.10", 7471);
	set_inet(&r, r.src_addr, &r.src_len, "192.0.2.1", 0);
	ASSERT_EQ(0, rai_convert_result(&r, &ai));
	EXPECT_EQ(AF_INET, ai->ai_family);
	EXPECT_EQ(RDMA_PS_TCP, ai->ai_port_space);
	EXPECT_EQ(IBV_QPT_RC, ai->ai_qp_type);
	EXPECT_EQ(0, ai->ai_flags);
	ASSERT_EQ(sizeof(*dst), ai->ai_dst_len);
	ASSERT_EQ(sizeof(*src), ai->ai_src_len);
	dst = (struct sockaddr_in *)ai->ai_dst_addr;
	src = (struct sockaddr_in *)ai->ai_src_addr;
	EXPECT_EQ(htonl(0xc000020a), dst->sin_addr.s_addr);
	EXPECT_EQ(htons(7471), dst->sin_port);
	EXPECT_EQ(htonl(0xc0000201), src->sin_addr.s_addr);
	EXPECT_EQ(NULL, ai->ai_route);
	EXPECT_EQ(0, ai->ai_route_len);
	EXPECT_EQ(NULL, ai->ai_next);
	rai_free_list(ai);
}

TEST(inet6_result_is_a_sockaddr_in6)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(1) };
	struct rdma_addrinfo_result r = { .family = AF_INET6,
					  .dst_len = sizeof(sin6) };
	struct rdma_addrinfo *ai = NULL;

	inet_pton(AF_INET6, "2001:db8::10", &sin6.sin6_addr);
	memcpy(r.dst_addr, &sin6, sizeof(sin6));
	ASSERT_EQ(0, rai_convert_result(&r, &ai));
	ASSERT_EQ(AF_INET6, ai->ai_family);
	ASSERT_EQ(sizeof(sin6), ai->ai_dst_len);
	ASSERT_EQ(0, memcmp(ai->ai_dst_addr, &sin6, sizeof(sin6)));
	ASSERT_EQ(NULL, ai->ai_src_addr);
	ASSERT_EQ(0, ai->ai_src_len);
	rai_free_list(ai);
}

TEST(ib_result_is_a_sockaddr_ib_with_service_id)
{
	struct sockaddr_ib sib = { .sib_family = AF_IB,
				   .sib_sid = htobe64(0x1000000000000001ULL),
				   .sib_sid_mask = htobe64(~0ULL) };
	struct rdma_addrinfo_result r = { .family = AF_IB,
					  .port_space = RDMA_PS_IB,
					  .dst_len = sizeof(sib) };
	struct rdma_addrinfo *ai = NULL;

	memcpy(r.dst_addr, &sib, sizeof(sib));
	ASSERT_EQ(0, rai_convert_result(&r, &ai));
	ASSERT_EQ(AF_IB, ai->ai_family);
	ASSERT_EQ(RDMA_PS_IB, ai->ai_port_space);
	ASSERT_EQ(sizeof(sib), ai->ai_dst_len);
	ASSERT_EQ(htobe64(0x1000000000000001ULL),
		  ((struct sockaddr_ib *)ai->ai_dst_addr)->sib_sid);
	rai_free_list(ai);
}

TEST(passive_result_has_no_destination)
{
	struct rdma_addrinfo_result r = { .ai_flags = RDMA_ADDRINFO_RAI_PASSIVE };
	struct rdma_addrinfo *ai = NULL;

	set_inet(&r, r.src_addr, &r.src_len, "0.0.0.0", 7471);
	ASSERT_EQ(0, rai_convert_result(&r, &ai));
	ASSERT_EQ(RAI_PASSIVE, ai->ai_flags);
	ASSERT_EQ(0, ai->ai_dst_len);
	ASSERT_EQ(NULL, ai->ai_dst_addr);
	ASSERT_EQ(sizeof(struct sockaddr_in), ai->ai_src_len);
	rai_free_list(ai);
}

TEST(route_is_one_ibv_path_data_around_the_path_record)
{
	struct rdma_addrinfo_result r = { .route_len =
					  RDMA_ADDRINFO_PATH_RECORD_SIZE };
	struct rdma_addrinfo *ai = NULL;
	struct ibv_path_data *path;
	unsigned int i;

	set_inet(&r, r.dst_addr, &r.dst_len, "192.0.2.10", 1);
	for (i = 0; i < sizeof(r.route); i++)
		r.route[i] = i + 1;
	ASSERT_EQ(0, rai_convert_result(&r, &ai));
	ASSERT_EQ(sizeof(struct ibv_path_data), ai->ai_route_len);
	path = ai->ai_route;
	EXPECT_EQ(IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY |
		  IBV_PATH_FLAG_BIDIRECTIONAL, path->flags);
	EXPECT_EQ(0, memcmp(&path->path, r.route, sizeof(r.route)));
	rai_free_list(ai);
}

TEST(length_not_matching_family_is_eai_fail_eproto)
{
	struct rdma_addrinfo_result r = { 0 };
	struct rdma_addrinfo *ai = NULL;

	set_inet(&r, r.dst_addr, &r.dst_len, "192.0.2.10", 1);
	r.dst_len = sizeof(struct sockaddr_in6);
	errno = 0;
	ASSERT_EQ(EAI_FAIL, rai_convert_result(&r, &ai));
	ASSERT_EQ(EPROTO, errno);
	ASSERT_EQ(NULL, ai);
}

TEST(bad_route_length_or_family_is_eai_fail)
{
	struct rdma_addrinfo_result r = { 0 };
	struct rdma_addrinfo *ai = NULL;

	set_inet(&r, r.dst_addr, &r.dst_len, "192.0.2.10", 1);
	r.route_len = 10;
	ASSERT_EQ(EAI_FAIL, rai_convert_result(&r, &ai));
	r.route_len = 0;
	r.family = AF_UNIX;
	ASSERT_EQ(EAI_FAIL, rai_convert_result(&r, &ai));
	r.family = AF_INET;
	r.src_len = RDMA_ADDRINFO_ADDR_SIZE + 1;
	ASSERT_EQ(EAI_FAIL, rai_convert_result(&r, &ai));
}

TEST(every_result_is_chained_in_kernel_order)
{
	struct rdma_addrinfo_result r[3];
	struct rdma_addrinfo *list = NULL, *ai;
	const char *addrs[3] = { "192.0.2.10", "192.0.2.11", "192.0.2.12" };
	char buf[INET_ADDRSTRLEN];
	int i = 0;

	memset(r, 0, sizeof(r));
	for (i = 0; i < 3; i++)
		set_inet(&r[i], r[i].dst_addr, &r[i].dst_len, addrs[i], 1);
	ASSERT_EQ(0, rai_convert_results(r, 3, NULL, &list));
	for (ai = list, i = 0; ai; ai = ai->ai_next, i++) {
		ASSERT_LT(i, 3);
		inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_dst_addr)->sin_addr,
			  buf, sizeof(buf));
		EXPECT_STREQ(addrs[i], buf);
	}
	EXPECT_EQ(3, i);
	rai_free_list(list);
}

/*
 * The canonical names are the first entry's: the module's for the
 * destination, the host's name where the result has a source; none
 * for a passive one, none without the module's name.
 */
TEST(canonical_names_go_on_the_first_entry_only)
{
	struct rdma_addrinfo_result r[2];
	struct rdma_addrinfo *list = NULL;
	char host[256] = "";

	ASSERT_EQ(0, gethostname(host, sizeof(host)));
	memset(r, 0, sizeof(r));
	set_inet(&r[0], r[0].dst_addr, &r[0].dst_len, "192.0.2.10", 1);
	set_inet(&r[0], r[0].src_addr, &r[0].src_len, "192.0.2.1", 0);
	set_inet(&r[1], r[1].dst_addr, &r[1].dst_len, "192.0.2.11", 1);
	set_inet(&r[1], r[1].src_addr, &r[1].src_len, "192.0.2.1", 0);
	ASSERT_EQ(0, rai_convert_results(r, 2, "real.test", &list));
	EXPECT_STREQ("real.test", list->ai_dst_canonname);
	EXPECT_STREQ(host, list->ai_src_canonname ? list->ai_src_canonname :
			   "(null)");
	EXPECT_EQ(NULL, list->ai_next->ai_dst_canonname);
	EXPECT_EQ(NULL, list->ai_next->ai_src_canonname);
	rai_free_list(list);

	/* No source: no source's name; no name from the module: none. */
	r[0].src_len = 0;
	ASSERT_EQ(0, rai_convert_results(r, 1, NULL, &list));
	EXPECT_EQ(NULL, list->ai_dst_canonname);
	EXPECT_EQ(NULL, list->ai_src_canonname);
	rai_free_list(list);

	/* Passive: its source is the caller's own address, not selected. */
	memset(r, 0, sizeof(r));
	r[0].ai_flags = RAI_PASSIVE;
	set_inet(&r[0], r[0].src_addr, &r[0].src_len, "192.0.2.1", 0);
	ASSERT_EQ(0, rai_convert_results(r, 1, NULL, &list));
	EXPECT_EQ(NULL, list->ai_src_canonname);
	rai_free_list(list);
}

TEST(a_bad_result_fails_the_whole_chain)
{
	struct rdma_addrinfo_result r[2];
	struct rdma_addrinfo *list = (void *)1;

	memset(r, 0, sizeof(r));
	set_inet(&r[0], r[0].dst_addr, &r[0].dst_len, "192.0.2.10", 1);
	set_inet(&r[1], r[1].dst_addr, &r[1].dst_len, "192.0.2.11", 1);
	r[1].dst_len = 3;
	ASSERT_EQ(EAI_FAIL, rai_convert_results(r, 2, "a.test", &list));
	ASSERT_EQ((void *)1, list);
}

TEST(no_results_is_an_empty_chain)
{
	struct rdma_addrinfo *list = (void *)1;

	ASSERT_EQ(0, rai_convert_results(NULL, 0, "a.test", &list));
	ASSERT_EQ(NULL, list);
}

/* A result of @sa (passive: its source), as the kernel's IP results. */
static struct rdma_addrinfo *ip_result(const char *ip, unsigned short port,
				       int passive, struct rdma_addrinfo *next)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(port) };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	struct rdma_addrinfo *ai = calloc(1, sizeof(*ai));
	struct sockaddr_in src = sin;
	int v6 = !!strchr(ip, ':');

	if (v6)
		inet_pton(AF_INET6, ip, &sin6.sin6_addr);
	else
		inet_pton(AF_INET, ip, &sin.sin_addr);
	ai->ai_family = v6 ? AF_INET6 : AF_INET;
	ai->ai_flags = passive ? RAI_PASSIVE : 0;
	ai->ai_port_space = RDMA_PS_TCP;
	ai->ai_next = next;
	if (passive) {
		rai_copy_addr(&ai->ai_src_addr, &ai->ai_src_len,
			      v6 ? (void *)&sin6 : (void *)&sin,
			      v6 ? sizeof(sin6) : sizeof(sin));
		return ai;
	}
	rai_copy_addr(&ai->ai_dst_addr, &ai->ai_dst_len,
		      v6 ? (void *)&sin6 : (void *)&sin,
		      v6 ? sizeof(sin6) : sizeof(sin));
	/* the kernel's source of an active result */
	rai_copy_addr(&ai->ai_src_addr, &ai->ai_src_len, &src, sizeof(src));
	ai->ai_src_canonname = strdup("host");
	return ai;
}

/*
 * librdmacm's ucma_convert_in6() of glibc's answer (issue 33 item 5): an
 * IPv6 address is the GID; an IPv4 one is read as a sockaddr_in6, its
 * address the flow label and the GID 0 (librdmacm's second half is heap).
 * The SID is the port space's and port's; 0.0.0.0 and :: are one wildcard.
 */
TEST(ip_results_made_ib_as_librdmacm_makes_them)
{
	struct rdma_addrinfo *list = ip_result("0.0.0.0", 7471, 1,
					       ip_result("::", 7471, 1, NULL));
	struct sockaddr_ib *sib;
	struct in6_addr want;

	ASSERT_EQ(0, rai_ib_from_ip(&list));
	ASSERT_NE(NULL, list);
	EXPECT_EQ(NULL, list->ai_next);
	EXPECT_EQ(AF_IB, list->ai_family);
	ASSERT_EQ(sizeof(*sib), list->ai_src_len);
	sib = (struct sockaddr_ib *)list->ai_src_addr;
	EXPECT_EQ(AF_IB, sib->sib_family);
	EXPECT_EQ(htons(0xffff), sib->sib_pkey);
	EXPECT_EQ(0, sib->sib_flowinfo);
	memset(&want, 0, sizeof(want));
	EXPECT_EQ(0, memcmp(&want, &sib->sib_addr, sizeof(want)));
	EXPECT_EQ(htobe64((uint64_t)RDMA_PS_TCP << 16 | 7471), sib->sib_sid);
	EXPECT_EQ(htobe64(RDMA_IB_IP_PS_MASK | RDMA_IB_IP_PORT_MASK),
		  sib->sib_sid_mask);
	rai_free_list(list);

	list = ip_result("fd00::2", 0, 0, ip_result("192.0.2.1", 0, 0, NULL));
	ASSERT_EQ(0, rai_ib_from_ip(&list));
	ASSERT_NE(NULL, list->ai_next);
	EXPECT_EQ(NULL, list->ai_src_addr);
	EXPECT_EQ(0, list->ai_src_len);
	EXPECT_EQ(NULL, list->ai_src_canonname);
	sib = (struct sockaddr_ib *)list->ai_dst_addr;
	inet_pton(AF_INET6, "fd00::2", &want);
	EXPECT_EQ(0, memcmp(&want, &sib->sib_addr, sizeof(want)));
	EXPECT_EQ(htobe64((uint64_t)RDMA_PS_TCP << 16), sib->sib_sid);
	EXPECT_EQ(htobe64(RDMA_IB_IP_PS_MASK), sib->sib_sid_mask);
	sib = (struct sockaddr_ib *)list->ai_next->ai_dst_addr;
	EXPECT_EQ(htonl(0xc0000201), sib->sib_flowinfo);
	memset(&want, 0, sizeof(want));
	EXPECT_EQ(0, memcmp(&want, &sib->sib_addr, sizeof(want)));
	EXPECT_EQ(AF_IB, list->ai_next->ai_family);
	rai_free_list(list);
}

TEST(free_of_null_list_is_harmless)
{
	rai_free_list(NULL);
}

TEST_HARNESS_MAIN
