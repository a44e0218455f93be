// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_getaddrinfo(3) in the VM, against the real module: one test per
 * statement of the man page, named after it.
 */
#include <dlfcn.h>
#include <signal.h>

#include "kselftest_harness.h"
#include "vm_test.h"

TEST(library_is_the_one_in_use)
{
	void *lib = dlopen("librdma_addrinfo.so.1", RTLD_NOW | RTLD_NOLOAD);

	/* Linked or preloaded, this library's functions are the ones called. */
	ASSERT_NE(NULL, lib);
	ASSERT_EQ(dlsym(RTLD_DEFAULT, "rdma_getaddrinfo"),
		  dlsym(lib, "rdma_getaddrinfo"));
	ASSERT_EQ(dlsym(RTLD_DEFAULT, "rdma_get_cm_event"),
		  dlsym(lib, "rdma_get_cm_event"));
	dlclose(lib);
}

TEST(returns_0_on_success)
{
	struct rdma_addrinfo *res = NULL;
	char buf[INET6_ADDRSTRLEN];

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", NULL, &res));
	ASSERT_NE(NULL, res);
	ASSERT_NE(0, res->ai_dst_len);
	rai_ntop(res->ai_dst_addr, buf, sizeof(buf));
	EXPECT_TRUE(!strcmp(buf, RAI_IP4_B) || !strcmp(buf, RAI_IP6_B));
	EXPECT_EQ(4791, rai_port(res->ai_dst_addr));
	rdma_freeaddrinfo(res);
}

TEST(res_is_a_linked_list_of_every_result)
{
	struct rdma_addrinfo *res = NULL, *ai;
	int v4 = 0, v6 = 0;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_MULTI, NULL, NULL, &res));
	for (ai = res; ai; ai = ai->ai_next) {
		v4 += ai->ai_family == AF_INET;
		v6 += ai->ai_family == AF_INET6;
	}
	EXPECT_EQ(3, v4);
	EXPECT_EQ(1, v6);
	rdma_freeaddrinfo(res);
}

/* More results than the library's first, stack-sized, buffer holds. */
TEST(res_is_a_linked_list_of_every_result_of_a_name_with_12)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_MANY, NULL, NULL, &res));
	EXPECT_EQ(12, rai_count(res));
	rdma_freeaddrinfo(res);
}

TEST(ai_next_is_null_if_no_more_structures_exist)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_MULTI, NULL, NULL, &res));
	ASSERT_EQ(4, rai_count(res));
	rdma_freeaddrinfo(res);
}

TEST(eai_addrfamily_address_of_another_family)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET6 };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_ADDRFAMILY,
		  rdma_getaddrinfo(RAI_IP4_B, NULL, &hints, &res));
}

TEST(eai_nodata_name_without_address_in_requested_family)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET6 };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_NODATA,
		  rdma_getaddrinfo(RAI_ZONE_V4ONLY, NULL, &hints, &res));
}

/*
 * The test zone's DNS server, frozen (SIGSTOP) for a test, with the module's
 * dns_timeout_ms lowered: the resolver does not answer in time.  (Debian 12's
 * key.dns_resolver reports a dead server like a missing name, see the ABI
 * header, so the module's own timeout is what reports the failure.)
 */
#define DNS_TIMEOUT_PARAM "/sys/module/rdma_addrinfo/parameters/dns_timeout_ms"

FIXTURE(dns_down) {
	pid_t pid;
	char timeout_ms[32];
};

static int write_param(const char *value)
{
	FILE *f = fopen(DNS_TIMEOUT_PARAM, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(value, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

FIXTURE_SETUP(dns_down)
{
	pid_t pid = rai_dns_server_pid();
	FILE *f;

	if (pid <= 0)
		SKIP(return, "no dnsmasq running");
	f = fopen(DNS_TIMEOUT_PARAM, "r");
	if (!f || !fgets(self->timeout_ms, sizeof(self->timeout_ms), f)) {
		if (f)
			fclose(f);
		SKIP(return, "no dns_timeout_ms parameter");
	}
	fclose(f);
	ASSERT_EQ(0, write_param("3000"));
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	self->pid = pid;
}

FIXTURE_TEARDOWN(dns_down)
{
	if (self->pid)
		kill(self->pid, SIGCONT);
	if (self->timeout_ms[0])
		write_param(self->timeout_ms);
}

TEST_F_TIMEOUT(dns_down, eai_again_name_server_returned_a_temporary_failure,
	       120)
{
	struct rdma_addrinfo *res = NULL;
	char name[96];

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(EAI_AGAIN, rdma_getaddrinfo(rai_fresh_missing_name(name,
					      sizeof(name)), NULL, NULL, &res));
}

TEST(eai_badflags_rai_sa_with_a_node)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	errno = 0;
	ASSERT_EQ(EAI_BADFLAGS,
		  rdma_getaddrinfo(RAI_ZONE_PEER, "0x10", &hints, &res));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

TEST(flags_it_does_not_know_are_ignored)
{
	struct rdma_addrinfo hints = { .ai_flags = 0x4000 };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, NULL, &hints, &res));
	EXPECT_EQ(0, res->ai_flags & 0x4000);
	rdma_freeaddrinfo(res);
}

/*
 * The test world's DNS server has no upstream: it refuses names outside its
 * zone, a permanent failure (the module's helper reports it as such).
 */
TEST(eai_fail_name_server_returned_a_permanent_failure)
{
	struct rdma_addrinfo *res = NULL;
	char name[96];

	snprintf(name, sizeof(name), "refused-%d.rai-outside.example",
		 getpid());
	ASSERT_EQ(EAI_FAIL, rdma_getaddrinfo(name, NULL, NULL, &res));
}

TEST(eai_family_requested_address_family_not_supported)
{
	struct rdma_addrinfo hints = { .ai_family = AF_UNIX };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_FAMILY,
		  rdma_getaddrinfo(RAI_ZONE_PEER, NULL, &hints, &res));
}

TEST(eai_nodata_host_exists_without_network_addresses)
{
	struct rdma_addrinfo *res = NULL;
	int ret = rdma_getaddrinfo(RAI_ZONE_NODATA, NULL, NULL, &res);

	if (ret == EAI_NONAME)
		SKIP(return, RAI_ZONE_NODATA " is not in the zone, or key.dns_resolver <= 1.6.3 reports it as missing");
	ASSERT_EQ(EAI_NODATA, ret);
}

TEST(eai_noname_node_is_not_known)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_NONAME,
		  rdma_getaddrinfo(RAI_ZONE_MISSING, "4791", NULL, &res));
}

TEST(eai_noname_both_node_and_service_are_null)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_NONAME, rdma_getaddrinfo(NULL, NULL, NULL, &res));
}

TEST(eai_service_not_available_for_the_requested_qp_type)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_RC };
	struct rdma_addrinfo *res = NULL;

	/* tftp is a udp-only service */
	ASSERT_EQ(EAI_SERVICE,
		  rdma_getaddrinfo(RAI_ZONE_PEER, "tftp", &hints, &res));
	hints.ai_qp_type = IBV_QPT_UD;
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "tftp", &hints, &res));
	EXPECT_EQ(69, rai_port(res->ai_dst_addr));
	rdma_freeaddrinfo(res);
}

TEST(eai_socktype_qp_type_and_port_space_inconsistent)
{
	struct rdma_addrinfo hints = { .ai_qp_type = IBV_QPT_UD,
				       .ai_port_space = RDMA_PS_TCP };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_SOCKTYPE,
		  rdma_getaddrinfo(RAI_ZONE_PEER, NULL, &hints, &res));
}

TEST(a_service_of_udp_only_gives_ud_and_rdma_ps_udp)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "tftp", NULL, &res));
	EXPECT_EQ(69, rai_port(res->ai_dst_addr));
	EXPECT_EQ(IBV_QPT_UD, res->ai_qp_type);
	EXPECT_EQ(RDMA_PS_UDP, res->ai_port_space);
	rdma_freeaddrinfo(res);
}

TEST(eai_system_other_system_error_check_errno)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;
	int ret;

	/* Soft-RoCE ports have no SA unless the module is given one. */
	errno = 0;
	ret = rdma_getaddrinfo(NULL, "0x1000000000000001", &hints, &res);
	if (!ret) {
		rdma_freeaddrinfo(res);
		SKIP(return, "an SA answered on this port");
	}
	ASSERT_EQ(EAI_SYSTEM, ret);
	ASSERT_NE(0, errno);
}

TEST(either_node_service_or_hints_must_be_provided)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_NONAME, rdma_getaddrinfo(NULL, NULL, NULL, &res));
	ASSERT_EQ(0, rdma_getaddrinfo(NULL, NULL, &hints, &res));
	rdma_freeaddrinfo(res);
	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "4791", NULL, &res));
	rdma_freeaddrinfo(res);
}

TEST(rai_passive_results_for_the_passive_side)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "4791", &hints, &res));
	ASSERT_NE(NULL, res);
	EXPECT_TRUE(res->ai_flags & RAI_PASSIVE);
	EXPECT_EQ(0, res->ai_dst_len);
	ASSERT_NE(0, res->ai_src_len);
	EXPECT_EQ(4791, rai_port(res->ai_src_addr));
	rdma_freeaddrinfo(res);
}

TEST(ai_dst_len_is_0_if_rai_passive_was_specified)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE };
	struct rdma_addrinfo *res = NULL, *ai;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_A, "4791", &hints, &res));
	for (ai = res; ai; ai = ai->ai_next) {
		EXPECT_EQ(0, ai->ai_dst_len);
		EXPECT_EQ(NULL, ai->ai_dst_addr);
	}
	rdma_freeaddrinfo(res);
}

TEST(rai_numerichost_node_must_be_numeric)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NUMERICHOST };
	struct rdma_addrinfo *res = NULL;
	char buf[INET6_ADDRSTRLEN];

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_B, "4791", &hints, &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_STREQ(RAI_IP4_B, rai_ntop(res->ai_dst_addr, buf, sizeof(buf)));
	rdma_freeaddrinfo(res);
	ASSERT_EQ(EAI_NONAME,
		  rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
}

TEST(rai_noroute_suppresses_route_resolution)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_NOROUTE };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	EXPECT_EQ(0, res->ai_route_len);
	EXPECT_EQ(NULL, res->ai_route);
	/* No route: no source address selected either (librdmacm has none). */
	EXPECT_EQ(0, res->ai_src_len);
	rdma_freeaddrinfo(res);
}

TEST(rai_family_ai_family_is_an_input_hint)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET6 };
	struct rdma_addrinfo *res = NULL, *ai;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_MULTI, NULL, &hints, &res));
	ASSERT_EQ(1, rai_count(res));
	for (ai = res; ai; ai = ai->ai_next)
		EXPECT_EQ(AF_INET6, ai->ai_family);
	rdma_freeaddrinfo(res);
}

TEST(rai_dns_maps_node_names_to_addresses)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_DNS };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	ASSERT_NE(NULL, res);
	rdma_freeaddrinfo(res);
}

TEST(dns_resolution_is_the_default_option)
{
	struct rdma_addrinfo *res = NULL;

	/* a name only /etc/hosts knows: DNS as getaddrinfo() does it */
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_HOSTS_NAME, NULL, NULL, &res));
	ASSERT_NE(NULL, res);
	rdma_freeaddrinfo(res);
}

TEST(rai_dns_is_mutually_exclusive_with_rai_sa)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_DNS | RAI_SA };
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(EAI_BADFLAGS,
		  rdma_getaddrinfo(NULL, "0x1000000000000001", &hints, &res));
}

TEST(ai_family_supported_families_are_inet_inet6_and_ib)
{
	static const int families[] = { AF_INET, AF_INET6 };
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY };
	struct rdma_addrinfo *res = NULL;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		hints.ai_family = families[i];
		ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints,
					      &res));
		EXPECT_EQ(families[i], res->ai_family);
		rdma_freeaddrinfo(res);
	}
	/* AF_IB: a GID literal (SA answers are AF_IB too: rai_sa_test) */
	hints.ai_flags = RAI_FAMILY | RAI_NUMERICHOST;
	hints.ai_family = AF_IB;
	ASSERT_EQ(0, rdma_getaddrinfo("fe80::2:3:4:5", "4791", &hints, &res));
	EXPECT_EQ(AF_IB, res->ai_family);
	EXPECT_EQ(sizeof(struct sockaddr_ib), res->ai_dst_len);
	rdma_freeaddrinfo(res);
}

/*
 * Names give IP results, as with librdmacm; with RAI_NUMERICHOST an IPv4
 * literal gives librdmacm's AF_IB result of it (dropin_test compares).
 */
TEST(af_ib_of_a_name_is_ip_of_a_numeric_ipv4_af_ib)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_IB };
	struct rdma_addrinfo *res = NULL, *ai;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	for (ai = res; ai; ai = ai->ai_next)
		EXPECT_NE(AF_IB, ai->ai_family);
	rdma_freeaddrinfo(res);
	hints.ai_flags |= RAI_NUMERICHOST;
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_B, "4791", &hints, &res));
	for (ai = res; ai; ai = ai->ai_next)
		EXPECT_EQ(AF_IB, ai->ai_family);
	rdma_freeaddrinfo(res);
}

TEST(ai_src_addr_is_the_address_of_the_local_rdma_device)
{
	struct rdma_addrinfo *res = NULL;
	char buf[INET6_ADDRSTRLEN];
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET };

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	ASSERT_EQ(sizeof(struct sockaddr_in), res->ai_src_len);
	EXPECT_STREQ(RAI_IP4_A, rai_ntop(res->ai_src_addr, buf, sizeof(buf)));
	rdma_freeaddrinfo(res);
}

/* ---- canonical names, which librdmacm leaves NULL -------------------- */

/*
 * @node gives @nr results, the first with the canonical name @want, the
 * others none (the canonical names are the first result's only).
 */
static void expect_dst_canonname(struct __test_metadata *_metadata,
				 const char *node, int nr, const char *want)
{
	struct rdma_addrinfo *res = NULL, *ai;

	ASSERT_EQ(0, rdma_getaddrinfo(node, NULL, NULL, &res));
	ASSERT_NE(NULL, res);
	EXPECT_EQ(nr, rai_count(res));
	EXPECT_STREQ(want,
		     res->ai_dst_canonname ? res->ai_dst_canonname : "(null)");
	for (ai = res->ai_next; ai; ai = ai->ai_next) {
		EXPECT_EQ(NULL, ai->ai_dst_canonname);
		EXPECT_EQ(NULL, ai->ai_src_canonname);
	}
	rdma_freeaddrinfo(res);
}

TEST(ai_dst_canonname_of_a_cname_is_its_target)
{
	/* peer4: one IPv4 address */
	expect_dst_canonname(_metadata, RAI_ZONE_ALIAS, 1, RAI_ZONE_PEER4);
}

/* More results than the stack buffer: the second buffer has room too. */
TEST(ai_dst_canonname_of_a_name_with_12_results_is_its_own)
{
	expect_dst_canonname(_metadata, RAI_ZONE_MANY, 12, RAI_ZONE_MANY);
}

/* A literal is no name: none, as librdmacm (glibc would give the text). */
TEST(ai_dst_canonname_is_null_for_a_numeric_host)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_B, NULL, NULL, &res));
	EXPECT_EQ(NULL, res->ai_dst_canonname);
	rdma_freeaddrinfo(res);
}

TEST(ai_src_canonname_is_the_local_host_name_where_a_source_was_selected)
{
	struct rdma_addrinfo *res = NULL;
	struct rdma_addrinfo hints = { .ai_flags = RAI_FAMILY,
				       .ai_family = AF_INET };
	char host[256] = "";

	ASSERT_EQ(0, gethostname(host, sizeof(host)));
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	ASSERT_NE(0, res->ai_src_len);
	EXPECT_STREQ(host,
		     res->ai_src_canonname ? res->ai_src_canonname : "(null)");
	EXPECT_STREQ(RAI_ZONE_PEER,
		     res->ai_dst_canonname ? res->ai_dst_canonname : "(null)");
	rdma_freeaddrinfo(res);
}

TEST(ai_src_canonname_is_null_without_a_source)
{
	struct rdma_addrinfo *res = NULL;
	struct rdma_addrinfo hints = { .ai_flags = RAI_NOROUTE };

	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_PEER, "4791", &hints, &res));
	EXPECT_EQ(0, res->ai_src_len);
	EXPECT_EQ(NULL, res->ai_src_canonname);
	rdma_freeaddrinfo(res);
}

TEST(ai_src_len_is_0_if_no_source_address_could_be_discovered)
{
	struct rdma_addrinfo *res = NULL, *ai;

	/* 192.0.2.0/24 (multi.rai.test) is routed nowhere near an RDMA device */
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_ZONE_MULTI, NULL, NULL, &res));
	for (ai = res; ai; ai = ai->ai_next)
		if (!ai->ai_src_len)
			break;
	EXPECT_NE(NULL, ai);
	if (ai)
		EXPECT_EQ(NULL, ai->ai_src_addr);
	rdma_freeaddrinfo(res);
}

TEST(hints_ai_dst_addr_is_resolved_without_node)
{
	struct sockaddr_in dst = { .sin_family = AF_INET,
				   .sin_port = htons(4791) };
	struct rdma_addrinfo hints = { .ai_dst_addr = (struct sockaddr *)&dst,
				       .ai_dst_len = sizeof(dst) };
	struct rdma_addrinfo *res = NULL;
	char buf[INET6_ADDRSTRLEN];

	inet_pton(AF_INET, RAI_IP4_B, &dst.sin_addr);
	ASSERT_EQ(0, rdma_getaddrinfo(NULL, NULL, &hints, &res));
	EXPECT_STREQ(RAI_IP4_B, rai_ntop(res->ai_dst_addr, buf, sizeof(buf)));
	EXPECT_EQ(4791, rai_port(res->ai_dst_addr));
	rdma_freeaddrinfo(res);
}

TEST_HARNESS_MAIN
