// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_getaddrinfo() of this library against the system's librdmacm, in one
 * process: each case calls both with the same arguments and compares the
 * fields, never values written here.  librdmacm returns one result (the
 * first getaddrinfo() answer); the library's first result must carry the
 * same fields.  What the library deliberately adds (more results, a source
 * address where librdmacm has none) is allowed; what librdmacm accepts must
 * be accepted.  The behaviour table is in rdma_getaddrinfo(3), each of its
 * rows numbered with the tests that check it; where the two differ by
 * design, the test checks librdmacm's answer and ours.
 */
#include <dlfcn.h>
#include <netinet/in.h>

#include "kselftest_harness.h"
#include "vm_test.h"

typedef int (*rai_gai_fn)(const char *node, const char *service,
			  const struct rdma_addrinfo *hints,
			  struct rdma_addrinfo **res);
typedef void (*rai_free_fn)(struct rdma_addrinfo *res);

/* librdmacm's own rdma_getaddrinfo(), whatever interposes on it. */
static rai_gai_fn sys_getaddrinfo(rai_free_fn *freefn)
{
	void *h = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);

	if (!h)
		return NULL;
	*freefn = (rai_free_fn)dlvsym(h, "rdma_freeaddrinfo", "RDMACM_1.0");
	return (rai_gai_fn)dlvsym(h, "rdma_getaddrinfo", "RDMACM_1.0");
}

static void describe(const char *who, int ret, const struct rdma_addrinfo *ai)
{
	char src[INET6_ADDRSTRLEN] = "-", dst[INET6_ADDRSTRLEN] = "-";

	if (ret || !ai) {
		printf("#   %-9s ret %d\n", who, ret);
		fflush(stdout);
		return;
	}
	if (ai->ai_src_len)
		rai_ntop(ai->ai_src_addr, src, sizeof(src));
	if (ai->ai_dst_len)
		rai_ntop(ai->ai_dst_addr, dst, sizeof(dst));
	printf("#   %-9s flags %#x family %d qp %d ps %#x src %s/%u dst %s/%u n %d\n",
	       who, ai->ai_flags, ai->ai_family, ai->ai_qp_type,
	       ai->ai_port_space, src, ai->ai_src_len, dst, ai->ai_dst_len,
	       rai_count(ai));
	fflush(stdout);		/* the harness's child ends with _exit() */
}

/* What both libraries answered to one call, errno after it included. */
struct both_answers {
	struct rdma_addrinfo *l, *o;
	int lret, oret, lerr, oerr;
	rai_free_fn sys_free;
};

/*
 * Both libraries on (@node, @service, @hints), each answer described.
 * Return: 0, -1 when librdmacm's own call is not found (then b is empty).
 */
static int call_both(struct __test_metadata *_metadata, const char *node,
		     const char *service, const struct rdma_addrinfo *hints,
		     struct both_answers *b)
{
	rai_gai_fn sys;

	memset(b, 0, sizeof(*b));
	sys = sys_getaddrinfo(&b->sys_free);
	if (!sys || !b->sys_free) {
		EXPECT_TRUE(0 && "librdmacm's rdma_getaddrinfo not found");
		return -1;
	}
	errno = 0;
	b->lret = sys(node, service, hints, &b->l);
	b->lerr = errno;
	errno = 0;
	b->oret = rdma_getaddrinfo(node, service, hints, &b->o);
	b->oerr = errno;
	describe("librdmacm", b->lret, b->l);
	describe("ours", b->oret, b->o);
	return 0;
}

static void free_both(struct both_answers *b)
{
	if (b->l)
		b->sys_free(b->l);
	if (b->o)
		rdma_freeaddrinfo(b->o);
	b->l = b->o = NULL;
}

/*
 * Both libraries on (@node, @service, @hints).  Return: librdmacm's return
 * value; fields compared with EXPECT_*; ours in *@ours.
 */
static int compare_both(struct __test_metadata *_metadata, const char *node,
			const char *service, const struct rdma_addrinfo *hints,
			int *ours)
{
	struct both_answers b;
	struct rdma_addrinfo *l, *o;

	if (call_both(_metadata, node, service, hints, &b))
		return -1;
	l = b.l;
	o = b.o;
	if (b.lret) {
		/* librdmacm's own errors: -1 (EAI_BADFLAGS) with errno */
		if (b.lret == -1 && b.oret == -1)
			EXPECT_EQ(b.lerr, b.oerr);
	} else {
		EXPECT_EQ(0, b.oret);
	}
	if (!b.lret && !b.oret) {
		EXPECT_EQ(l->ai_flags, o->ai_flags);
		EXPECT_EQ(l->ai_family, o->ai_family);
		EXPECT_EQ(l->ai_qp_type, o->ai_qp_type);
		EXPECT_EQ(l->ai_port_space, o->ai_port_space);
		EXPECT_EQ(l->ai_dst_len, o->ai_dst_len);
		if (l->ai_dst_len == o->ai_dst_len && l->ai_dst_len)
			EXPECT_EQ(0, memcmp(l->ai_dst_addr, o->ai_dst_addr,
					    l->ai_dst_len));
		/* a source where librdmacm has none is documented extra */
		if (l->ai_src_len) {
			EXPECT_EQ(l->ai_src_len, o->ai_src_len);
			if (l->ai_src_len == o->ai_src_len)
				EXPECT_EQ(0, memcmp(l->ai_src_addr,
						    o->ai_src_addr,
						    l->ai_src_len));
		}
		EXPECT_EQ(l->ai_connect_len, o->ai_connect_len);
	}
	free_both(&b);
	*ours = b.oret;
	return b.lret;
}

/* compare_both(): librdmacm's return value, whatever ours is. */
static int compare(struct __test_metadata *_metadata, const char *node,
		   const char *service, const struct rdma_addrinfo *hints)
{
	int oret;

	return compare_both(_metadata, node, service, hints, &oret);
}

/*
 * compare_both(), and ours must return what librdmacm returns (errno too
 * for -1): for the cases that fail, and fail alike, in both.
 */
static void same_return(struct __test_metadata *_metadata, const char *node,
			const char *service, const struct rdma_addrinfo *hints)
{
	int lret, oret;

	lret = compare_both(_metadata, node, service, hints, &oret);
	EXPECT_EQ(lret, oret) {
		TH_LOG("%s %s: librdmacm %d (%s), ours %d (%s)",
		       node ? node : "(null)", service ? service : "(null)",
		       lret, gai_strerror(lret), oret,
		       rdma_addrinfo_strerror(oret));
	}
}

static struct sockaddr_in in4(const char *addr, unsigned short port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };

	inet_pton(AF_INET, addr, &sin.sin_addr);
	return sin;
}

#define SA(x)	((struct sockaddr *)&(x))

/* hints-only: the destination is taken as given (rdma_resolve_route). */
TEST(hints_only_unicast_destination)
{
	struct sockaddr_in dst = in4(RAI_IP4_B, 7471);
	struct rdma_addrinfo hints = { .ai_dst_addr = SA(dst),
				       .ai_dst_len = sizeof(dst) };

	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
}

TEST(hints_only_multicast_destination_and_source)
{
	struct sockaddr_in dst = in4("239.1.2.3", 0), src = in4(RAI_IP4_A, 0);
	struct rdma_addrinfo hints = { .ai_dst_addr = SA(dst),
				       .ai_dst_len = sizeof(dst),
				       .ai_src_addr = SA(src),
				       .ai_src_len = sizeof(src),
				       .ai_port_space = RDMA_PS_UDP,
				       .ai_qp_type = IBV_QPT_UD };

	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
}

TEST(hints_only_multicast_source)
{
	struct sockaddr_in src = in4("239.1.2.3", 0);
	struct rdma_addrinfo hints = { .ai_src_addr = SA(src),
				       .ai_src_len = sizeof(src),
				       .ai_port_space = RDMA_PS_UDP };

	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
}

TEST(hints_only_ipv6_multicast_destination)
{
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6 };
	struct rdma_addrinfo hints = { .ai_dst_addr = SA(dst),
				       .ai_dst_len = sizeof(dst),
				       .ai_port_space = RDMA_PS_UDP };

	inet_pton(AF_INET6, "ff0e::1:2", &dst.sin6_addr);
	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
}

TEST(hints_only_af_ib_destination)
{
	struct sockaddr_ib dst = { .sib_family = AF_IB,
				   .sib_pkey = htons(0xffff) };
	struct rdma_addrinfo hints = { .ai_family = AF_IB,
				       .ai_dst_addr = SA(dst),
				       .ai_dst_len = sizeof(dst),
				       .ai_port_space = RDMA_PS_IB };

	inet_pton(AF_INET6, "fe80::1:2:3:4", &dst.sib_addr);
	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
}

/* RAI_PASSIVE with a source: hints alone, then with a service */
TEST(passive_with_given_source)
{
	struct sockaddr_in src = in4(RAI_IP4_A, 7471);
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE,
				       .ai_src_addr = SA(src),
				       .ai_src_len = sizeof(src) };

	ASSERT_EQ(0, compare(_metadata, NULL, NULL, &hints));
	src.sin_port = 0;
	ASSERT_EQ(0, compare(_metadata, NULL, "7471", &hints));
}

TEST(hints_source_echoed_for_a_destination)
{
	struct sockaddr_in src = in4(RAI_IP4_A, 7472);
	struct rdma_addrinfo hints = { .ai_src_addr = SA(src),
				       .ai_src_len = sizeof(src) };

	ASSERT_EQ(0, compare(_metadata, RAI_IP4_B, "7471", &hints));
}

TEST(multicast_group_as_node)
{
	struct sockaddr_in src = in4(RAI_IP4_A, 0);
	struct rdma_addrinfo hints = { .ai_src_addr = SA(src),
				       .ai_src_len = sizeof(src),
				       .ai_port_space = RDMA_PS_UDP };

	ASSERT_EQ(0, compare(_metadata, "239.1.2.3", NULL, &hints));
}

TEST(xrc_qp_types)
{
	struct rdma_addrinfo send = { .ai_qp_type = IBV_QPT_XRC_SEND,
				      .ai_port_space = RDMA_PS_TCP };
	struct rdma_addrinfo recv = { .ai_flags = RAI_PASSIVE,
				      .ai_qp_type = IBV_QPT_XRC_RECV };

	ASSERT_EQ(0, compare(_metadata, RAI_IP4_B, "7471", &send));
	ASSERT_EQ(0, compare(_metadata, NULL, "7471", &recv));
}

TEST(ud_qp_type_without_port_space)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_UD };

	ASSERT_EQ(0, compare(_metadata, RAI_IP4_B, "7471", &hints));
}

/*
 * Services (issue 26 item 3): what glibc's getaddrinfo() makes of the
 * service string, as librdmacm hands it on, and the QP type and port space
 * that the first answer's socket type and protocol give where the hints
 * leave them open.
 */
TEST(service_name_of_udp_only_gives_ud_and_rdma_ps_udp)
{
	struct rdma_addrinfo passive = { .ai_flags = RAI_PASSIVE };
	struct rdma_addrinfo ps_ib = { .ai_port_space = RDMA_PS_IB };
	struct rdma_addrinfo rc = { .ai_qp_type = IBV_QPT_RC };

	if (!getservbyname("tftp", "udp") || getservbyname("tftp", "tcp"))
		SKIP(return, "tftp is not udp-only in the services database");
	same_return(_metadata, RAI_IP4_B, "tftp", NULL);
	same_return(_metadata, NULL, "tftp", &passive);
	same_return(_metadata, RAI_IP4_B, "tftp", &ps_ib);
	same_return(_metadata, RAI_IP4_B, "tftp", &rc);
}

TEST(port_space_alone_gives_the_qp_type)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_UDP };

	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_port_space = RDMA_PS_IPOIB;
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
}

TEST(service_number_above_65535_is_its_16_bit_cast)
{
	same_return(_metadata, RAI_IP4_B, "70000", NULL);
	same_return(_metadata, RAI_IP4_B, "65536", NULL);
	same_return(_metadata, RAI_IP4_B, "0000000080", NULL);
	/* glibc's int: -1, which it looks up as a name */
	same_return(_metadata, RAI_IP4_B, "4294967295", NULL);
}

TEST(service_number_with_leading_spaces_or_sign)
{
	same_return(_metadata, RAI_IP4_B, " 80", NULL);
	same_return(_metadata, RAI_IP4_B, "\t 80", NULL);
	same_return(_metadata, RAI_IP4_B, "+80", NULL);
	same_return(_metadata, RAI_IP4_B, "80 ", NULL);
}

TEST(empty_service_is_port_zero)
{
	struct rdma_addrinfo passive = { .ai_flags = RAI_PASSIVE };

	same_return(_metadata, RAI_IP4_B, "", NULL);
	same_return(_metadata, NULL, "", &passive);
}

/* Flags and QP types (issue 26 item 4). */
TEST(unknown_ai_flags_bit_is_ignored)
{
	struct sockaddr_in dst = in4(RAI_IP4_B, 7471);
	struct rdma_addrinfo hints = { .ai_flags = 0x4000 };
	struct rdma_addrinfo only = { .ai_flags = 0x4000,
				      .ai_dst_addr = SA(dst),
				      .ai_dst_len = sizeof(dst) };

	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_flags = RAI_PASSIVE | 0x4000;
	same_return(_metadata, NULL, "7471", &hints);
	same_return(_metadata, NULL, NULL, &only);
}

TEST(raw_packet_qp_type_is_accepted)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_RAW_PACKET };

	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_port_space = RDMA_PS_UDP;
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_flags = RAI_PASSIVE;
	same_return(_metadata, NULL, "7471", &hints);
}

TEST(unknown_qp_type_and_port_space_are_given_back)
{
	struct rdma_addrinfo hints = { .ai_qp_type = 99 };

	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_qp_type = 0;
	hints.ai_port_space = 0x1234;
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
}

TEST(ud_with_rdma_ps_tcp_is_eai_socktype)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_UD,
				       .ai_port_space = RDMA_PS_TCP };

	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	same_return(_metadata, RAI_IP4_B, NULL, &hints);
	hints.ai_qp_type = IBV_QPT_RC;
	hints.ai_port_space = RDMA_PS_UDP;
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_port_space = RDMA_PS_IPOIB;
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
}

/*
 * Does glibc in this process see @name at all?  Not in the 7.3 phase's
 * forky root, whose resolver files point nowhere (the module answers from
 * the host's view there, dns_host_view): librdmacm's EAI_AGAIN is then
 * about the root, not about the family.
 */
static int compat_zone_visible(struct __test_metadata *_metadata,
			       const char *name)
{
	struct addrinfo *res;
	int ret = getaddrinfo(name, NULL, NULL, &res);

	if (ret) {
		TH_LOG("%s: %s in this root's view; its cases not compared",
		       name, gai_strerror(ret));
		return 0;
	}
	freeaddrinfo(res);
	return 1;
}

TEST(name_with_addresses_only_in_the_other_family)
{
	struct rdma_addrinfo hints = { .ai_family = AF_INET6 };
	int v4only = compat_zone_visible(_metadata, RAI_ZONE_V4ONLY);
	int v6only = compat_zone_visible(_metadata, RAI_ZONE_V6ONLY);

	if (v4only)
		same_return(_metadata, RAI_ZONE_V4ONLY, "7471", &hints);
	same_return(_metadata, RAI_IP4_B, "7471", &hints);
	hints.ai_flags = RAI_FAMILY;
	if (v4only)
		same_return(_metadata, RAI_ZONE_V4ONLY, "7471", &hints);
	hints.ai_family = AF_INET;
	if (v6only)
		same_return(_metadata, RAI_ZONE_V6ONLY, "7471", &hints);
	same_return(_metadata, RAI_IP6_B, "7471", &hints);
}

/*
 * A name of /etc/hosts with no address of the family asked: glibc goes on
 * to DNS and returns its answer for the name (in the test world, whose
 * DNS server has no upstream, EAI_AGAIN; elsewhere mostly EAI_NONAME).
 * The kernel's resolver does not ask DNS again: EAI_NODATA, as for a DNS
 * name (rdma_getaddrinfo(3)).
 */
TEST(hosts_name_without_address_of_the_family_is_eai_nodata)
{
	struct rdma_addrinfo hints = { .ai_family = AF_INET6 };
	int oret;

	compare_both(_metadata, RAI_HOSTS_NAME, "7471", &hints, &oret);
	EXPECT_EQ(EAI_NODATA, oret);
}

/*
 * The rows of rdma_getaddrinfo(3)'s table where the two differ by design:
 * each case checks librdmacm's answer and ours.
 */

/* A name of several addresses: librdmacm's one result is our first. */
TEST(every_answer_of_a_name_librdmacm_s_first)
{
	struct both_answers b;

	if (!compat_zone_visible(_metadata, RAI_ZONE_MULTI))
		SKIP(return, "%s not visible to glibc here", RAI_ZONE_MULTI);
	ASSERT_EQ(0, call_both(_metadata, RAI_ZONE_MULTI, "7471", NULL, &b));
	EXPECT_EQ(0, b.lret);
	EXPECT_EQ(0, b.oret);
	if (!b.lret && !b.oret) {
		EXPECT_EQ(1, rai_count(b.l));
		EXPECT_EQ(4, rai_count(b.o));	/* 3 x IPv4 + 1 x IPv6 */
	}
	free_both(&b);
	ASSERT_EQ(0, compare(_metadata, RAI_ZONE_MULTI, "7471", NULL));
}

/* No source in the hints: librdmacm has none, ours the kernel's choice. */
TEST(source_none_given_is_the_kernel_s_choice)
{
	struct both_answers b;
	char buf[INET6_ADDRSTRLEN];

	ASSERT_EQ(0, call_both(_metadata, RAI_IP4_B, "7471", NULL, &b));
	ASSERT_EQ(0, b.lret);
	ASSERT_EQ(0, b.oret);
	EXPECT_EQ(0, b.l->ai_src_len);
	EXPECT_EQ(NULL, b.l->ai_src_addr);
	EXPECT_EQ(sizeof(struct sockaddr_in), b.o->ai_src_len);
	if (b.o->ai_src_len)
		EXPECT_STREQ(RAI_IP4_A, rai_ntop(b.o->ai_src_addr, buf,
						 sizeof(buf)));
	free_both(&b);
}

/*
 * Canonical names: librdmacm fills neither; here the first result has the
 * destination's (a CNAME's target) and, with a source, the local host's.
 */
TEST(canonical_names_librdmacm_leaves_null)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET };
	struct both_answers b;
	char host[256] = "";

	if (!compat_zone_visible(_metadata, RAI_ZONE_ALIAS))
		SKIP(return, "%s not visible to glibc here", RAI_ZONE_ALIAS);
	ASSERT_EQ(0, gethostname(host, sizeof(host)));
	ASSERT_EQ(0, call_both(_metadata, RAI_ZONE_ALIAS, "7471", &hints, &b));
	ASSERT_EQ(0, b.lret);
	ASSERT_EQ(0, b.oret);
	EXPECT_EQ(NULL, b.l->ai_dst_canonname);
	EXPECT_EQ(NULL, b.l->ai_src_canonname);
	EXPECT_STREQ(RAI_ZONE_PEER4, b.o->ai_dst_canonname ?
		     b.o->ai_dst_canonname : "(null)");
	EXPECT_STREQ(host, b.o->ai_src_canonname ?
		     b.o->ai_src_canonname : "(null)");
	free_both(&b);
}

/*
 * ai_route of an IP result: librdmacm's comes from ibacm, which the test
 * world does not run, ours from nowhere (only RAI_SA results have one,
 * rai_sa_test): neither has one.
 */
TEST(ip_result_has_no_route_without_ibacm)
{
	struct both_answers b;

	ASSERT_EQ(0, call_both(_metadata, RAI_IP4_B, "7471", NULL, &b));
	ASSERT_EQ(0, b.lret);
	ASSERT_EQ(0, b.oret);
	EXPECT_EQ(0, b.l->ai_route_len);
	EXPECT_EQ(NULL, b.l->ai_route);
	EXPECT_EQ(0, b.o->ai_route_len);
	EXPECT_EQ(NULL, b.o->ai_route);
	free_both(&b);
}

/* Whether @sa is a loopback address. */
static int compat_is_loopback(const struct sockaddr *sa)
{
	const struct sockaddr_in *sin = (const void *)sa;
	const struct sockaddr_in6 *sin6 = (const void *)sa;

	if (sa->sa_family == AF_INET)
		return ntohl(sin->sin_addr.s_addr) >> 24 == 127;
	return sa->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
}

/*
 * A service and a destination in the hints, no node: librdmacm asks glibc
 * for the service alone (loopback), ours resolves the hints' destination
 * with the service's port.
 */
TEST(service_with_a_hints_destination_and_no_node)
{
	struct sockaddr_in dst = in4(RAI_IP4_B, 7000);
	struct rdma_addrinfo hints = { .ai_dst_addr = SA(dst),
				       .ai_dst_len = sizeof(dst) };
	struct both_answers b;
	char buf[INET6_ADDRSTRLEN];

	ASSERT_EQ(0, call_both(_metadata, NULL, "7471", &hints, &b));
	ASSERT_EQ(0, b.lret);
	ASSERT_EQ(0, b.oret);
	ASSERT_NE(0, b.l->ai_dst_len);
	EXPECT_TRUE(compat_is_loopback(b.l->ai_dst_addr));
	ASSERT_EQ(sizeof(dst), b.o->ai_dst_len);
	EXPECT_STREQ(RAI_IP4_B, rai_ntop(b.o->ai_dst_addr, buf, sizeof(buf)));
	EXPECT_EQ(7471, rai_port(b.o->ai_dst_addr));
	free_both(&b);
}

/* All arguments NULL: librdmacm -1 (errno EINVAL), ours glibc's EAI_NONAME. */
TEST(all_arguments_null)
{
	struct both_answers b;

	ASSERT_EQ(0, call_both(_metadata, NULL, NULL, NULL, &b));
	free_both(&b);
	EXPECT_EQ(-1, b.lret);
	EXPECT_EQ(EINVAL, b.lerr);
	EXPECT_EQ(EAI_NONAME, b.oret);
}

TEST(passive_literal_source)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };

	ASSERT_EQ(0, compare(_metadata, RAI_IP4_A, "7471", &hints));
}

TEST(wildcard_first_result)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };

	ASSERT_EQ(0, compare(_metadata, NULL, "7471", &hints));
}

TEST(loopback_first_result)
{
	ASSERT_EQ(0, compare(_metadata, NULL, "7471", NULL));
}

TEST(af_ib_family_without_rai_family)
{
	struct rdma_addrinfo hints = { .ai_family = AF_IB };

	ASSERT_EQ(0, compare(_metadata, RAI_IP4_B, "7471", &hints));
}

TEST(af_ib_numeric_gid)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY |
						   RAI_NUMERICHOST,
				       .ai_family = AF_IB,
				       .ai_port_space = RDMA_PS_IB };

	ASSERT_EQ(0, compare(_metadata, "fe80::2:3:4:5", "7471", &hints));
}

/*
 * The man page's "AF_IB, GID literal, port space 0": librdmacm's port
 * space of the service's protocol, so the same service ID as a peer that
 * resolves with librdmacm; with UD, and without a service (no port in
 * the SID's mask).
 */
TEST(af_ib_numeric_gid_port_space_0)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY |
						   RAI_NUMERICHOST,
				       .ai_family = AF_IB };

	ASSERT_EQ(0, compare(_metadata, "fe80::2:3:4:5", "7471", &hints));
	hints.ai_qp_type = IBV_QPT_UD;
	ASSERT_EQ(0, compare(_metadata, "fe80::2:3:4:5", "7471", &hints));
	hints.ai_qp_type = 0;
	ASSERT_EQ(0, compare(_metadata, "fe80::2:3:4:5", NULL, &hints));
}

/* The order of families glibc's getaddrinfo() gives, first answers first. */
static int glibc_families(int passive, int *fam, int max)
{
	struct addrinfo h = { .ai_flags = passive ? AI_PASSIVE : 0,
			      .ai_socktype = SOCK_STREAM }, *r, *a;
	int n = 0;

	if (getaddrinfo(NULL, "7471", &h, &r))
		return -1;
	for (a = r; a && n < max; a = a->ai_next)
		fam[n++] = a->ai_family;
	freeaddrinfo(r);
	return n;
}

static void expect_glibc_order(struct __test_metadata *_metadata, int passive)
{
	struct rdma_addrinfo hints = { .ai_flags = passive ? RAI_PASSIVE : 0 };
	struct rdma_addrinfo *res = NULL, *ai;
	int fam[8], n, i = 0;

	n = glibc_families(passive, fam, 8);
	ASSERT_LT(0, n);
	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "7471", &hints, &res));
	for (ai = res; ai && i < n; ai = ai->ai_next, i++) {
		printf("#   %d: glibc %d ours %d\n", i, fam[i], ai->ai_family);
		fflush(stdout);
		EXPECT_EQ(fam[i], ai->ai_family);
	}
	rdma_freeaddrinfo(res);
}

TEST(wildcard_order_is_glibc_order)
{
	expect_glibc_order(_metadata, 1);
}

TEST(loopback_order_is_glibc_order)
{
	expect_glibc_order(_metadata, 0);
}

TEST(eai_badflags_sets_errno)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA | RAI_DNS };
	struct rdma_addrinfo *res = NULL;

	errno = 0;
	ASSERT_EQ(EAI_BADFLAGS, rdma_getaddrinfo(NULL, "1", &hints, &res));
	EXPECT_NE(0, errno);
}

/* librdmacm 60+ (rdma_resolve_addrinfo at RDMACM_1.4) knows RAI_SA. */
static int sys_knows_rai_sa(void)
{
	void *h = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);

	return h && dlvsym(h, "rdma_resolve_addrinfo", "RDMACM_1.4");
}

/*
 * RAI_SA with a node or with RAI_DNS: librdmacm 60+ fails with -1 and
 * EOPNOTSUPP; librdmacm 44 knows neither flag and ignores them.  Ours
 * fails as 60+ does, with either (rdma_getaddrinfo(3)).
 */
static void rai_sa_refused(struct __test_metadata *_metadata,
			   const char *node, int flags)
{
	struct rdma_addrinfo hints = { .ai_flags = flags };
	struct both_answers b;

	ASSERT_EQ(0, call_both(_metadata, node, "7471", &hints, &b));
	free_both(&b);
	if (sys_knows_rai_sa()) {
		EXPECT_EQ(-1, b.lret);
		EXPECT_EQ(EOPNOTSUPP, b.lerr);
	} else {
		EXPECT_EQ(0, b.lret);
	}
	EXPECT_EQ(EAI_BADFLAGS, b.oret);
	EXPECT_EQ(EOPNOTSUPP, b.oerr);
}

TEST(rai_sa_with_a_node)
{
	rai_sa_refused(_metadata, RAI_IP4_B, RAI_SA);
}

TEST(rai_sa_with_rai_dns)
{
	rai_sa_refused(_metadata, NULL, RAI_SA | RAI_DNS);
}

TEST(event_str_names_addrinfo_events_and_librdmacm_the_others)
{
	typedef const char *(*str_fn)(enum rdma_cm_event_type);
	void *h = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);
	str_fn sys;
	int ev;

	ASSERT_NE(NULL, h);
	sys = (str_fn)dlvsym(h, "rdma_event_str", "RDMACM_1.0");
	ASSERT_NE(NULL, sys);
	EXPECT_STREQ("RDMA_CM_EVENT_ADDRINFO_RESOLVED",
		     rdma_event_str(RDMA_CM_EVENT_ADDRINFO_RESOLVED));
	EXPECT_STREQ("RDMA_CM_EVENT_ADDRINFO_ERROR",
		     rdma_event_str(RDMA_CM_EVENT_ADDRINFO_ERROR));
	for (ev = 0; ev < 32; ev++)
		if (ev != RDMA_CM_EVENT_ADDRINFO_RESOLVED &&
		    ev != RDMA_CM_EVENT_ADDRINFO_ERROR)
			EXPECT_STREQ(sys(ev), rdma_event_str(ev));
}

TEST_HARNESS_MAIN
