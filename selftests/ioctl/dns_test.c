// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * DNS resolution through the dns_resolver upcall against the VM's dnsmasq
 * (selftests/world/zone.hosts) and /etc/hosts: every address returned, the
 * family filter, the failure statuses of the ABI header, the key cache,
 * and source selection for resolved destinations.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

FIXTURE(dns) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
	bool dns_stopped;
	char hosts_line[256];
};

FIXTURE_SETUP(dns)
{
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(dns)
{
	if (self->dns_stopped) {
		int ret = rai_dns_server_start();

		if (ret)
			TH_LOG("could not restart dnsmasq: %s", strerror(-ret));
	}
	rai_hosts_remove(self->hosts_line);
	rai_upcall_counter_remove();
	RAI_LOOKUP_TEARDOWN();
}

static const char *herr(int e)
{
	return e ? hstrerror(e) : "answer";
}

/*
 * -ENODATA and -EAGAIN, except that the ABI header allows -ENXIO for both
 * when the system's key.dns_resolver cannot tell them apart (keyutils
 * <= 1.6.3, Debian 12).
 */
static void expect_distinct_status(struct __test_metadata *_metadata,
				   int want, int seen)
{
	char version[128];

	if (seen == -ENXIO && rai_dns_helper_ambiguous(version, sizeof(version))) {
		TH_LOG("got -ENXIO for %d: allowed with '%s'", want, version);
		return;
	}
	EXPECT_EQ(want, seen);
}

TEST_F(dns, multi_all_four_addresses_returned)
{
	static const char *const want[] = {
		"192.0.2.10", "192.0.2.11", "192.0.2.12", "2001:db8::10",
	};
	unsigned int i;

	RAI_LOOKUP(RAI_ZONE_MULTI, "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(4, self->n);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *w = want[i] ? want[i] : "?";

		EXPECT_EQ(1, rai_count_dst(self->res, self->n, w))
			TH_LOG("%s not returned exactly once", w);
	}
	for (i = 0; i < self->n; i++) {
		EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[i].origin);
		EXPECT_EQ(self->res[i].family,
			  rai_addr_family(self->res[i].dst_addr,
					  self->res[i].dst_len));
		EXPECT_EQ(4791, rai_addr_port(self->res[i].dst_addr,
					      self->res[i].dst_len));
		EXPECT_LT(0, self->res[i].ttl) TH_LOG("DNS answer without ttl");
		EXPECT_EQ(0, self->res[i].reserved);
	}
}

TEST_F(dns, family_inet_returns_the_three_ipv4)
{
	unsigned int i;

	RAI_LOOKUP(RAI_ZONE_MULTI, NULL, AF_INET, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(3, self->n);
	for (i = 0; i < self->n; i++)
		EXPECT_EQ(AF_INET, self->res[i].family);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.10"));
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.11"));
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.12"));
}

TEST_F(dns, family_inet6_returns_the_one_ipv6)
{
	RAI_LOOKUP(RAI_ZONE_MULTI, NULL, AF_INET6, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "2001:db8::10"));
}

TEST_F(dns, v6only_name_with_family_inet_eaddrnotavail)
{
	RAI_LOOKUP(RAI_ZONE_V6ONLY, NULL, AF_INET, 0);
	EXPECT_EQ(-EADDRNOTAVAIL, self->status)
		TH_LOG("DNS server says for A: %s, AAAA: %s",
		       herr(rai_dns_server_answer(RAI_ZONE_V6ONLY, ns_t_a)),
		       herr(rai_dns_server_answer(RAI_ZONE_V6ONLY, ns_t_aaaa)));
	EXPECT_EQ(0, self->n);
}

TEST_F(dns, v4only_name_with_family_inet6_eaddrnotavail)
{
	RAI_LOOKUP(RAI_ZONE_V4ONLY, NULL, AF_INET6, 0);
	EXPECT_EQ(-EADDRNOTAVAIL, self->status)
		TH_LOG("DNS server says for A: %s, AAAA: %s",
		       herr(rai_dns_server_answer(RAI_ZONE_V4ONLY, ns_t_a)),
		       herr(rai_dns_server_answer(RAI_ZONE_V4ONLY, ns_t_aaaa)));
	EXPECT_EQ(0, self->n);
}

TEST_F(dns, etc_hosts_name_resolves)
{
	const char *name = RAI_HOSTS_NAME;
	const char *addr = RAI_HOSTS_ADDR;

	RAI_LOOKUP(name, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, addr));
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[0].origin);
}

/* ---- canonical names (the helper's "canon=", RESOLVE_CANONNAME) ------- */

/* @name has the canonical name @want, as the one-call RESOLVE reports it. */
static void expect_canonname(struct __test_metadata *_metadata,
			     const char *name, const char *want)
{
	struct rdma_addrinfo_result res[16];
	char canon[300] = "";
	__u32 n = 0, len = 0;
	__s32 status = 1;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rai_lookup_canonname(fd, name, AF_UNSPEC, res, 16,
					  &status, &n, canon, sizeof(canon),
					  &len));
	close(fd);
	ASSERT_EQ(0, status);
	EXPECT_LT(0, n);
	EXPECT_EQ(strlen(want), len);
	EXPECT_STREQ(want, canon) TH_LOG("the canonical name of %s", name);
}

TEST_F(dns, cname_canonical_name_is_its_target)
{
	char canon[300] = "";
	__u32 h;

	expect_canonname(_metadata, RAI_ZONE_ALIAS, RAI_ZONE_PEER4);
	/* Asked again, asynchronously: from the cache, through QUERY. */
	ASSERT_EQ(0, rai_resolve_async(self->fd, RAI_ZONE_ALIAS, NULL,
				       AF_UNSPEC, 0, 1, &h));
	ASSERT_EQ(0, rai_wait_done(self->fd, h, 20000));
	EXPECT_EQ((int)strlen(RAI_ZONE_PEER4),
		  rai_query_canonname(self->fd, h, canon, sizeof(canon)));
	EXPECT_STREQ(RAI_ZONE_PEER4, canon);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

TEST_F(dns, name_without_cname_is_its_own_canonical_name)
{
	expect_canonname(_metadata, RAI_ZONE_MULTI, RAI_ZONE_MULTI);
}

/* /etc/hosts: the first name of the line, asked for by another of it. */
TEST_F(dns, etc_hosts_alias_canonical_name_is_the_line_s_first)
{
	char first[128], alias[128], names[260];

	rai_unique_name(first, sizeof(first), "canonfirst");
	rai_unique_name(alias, sizeof(alias), "canonalias");
	snprintf(names, sizeof(names), "%s %s", first, alias);
	ASSERT_EQ(0, rai_hosts_add(self->hosts_line, sizeof(self->hosts_line),
				   "192.0.2.55", names));
	expect_canonname(_metadata, alias, first);
}

TEST_F(dns, nxdomain_enxio)
{
	char name[128];
	int server;

	rai_unique_name(name, sizeof(name), "nx");
	/* The premise: the server itself says NXDOMAIN for this name. */
	server = rai_dns_server_answer(name, ns_t_a);
	ASSERT_EQ(HOST_NOT_FOUND, server)
		TH_LOG("world: the DNS server answers '%s' for %s, not NXDOMAIN (dnsmasq needs --local=/%s/)",
		       herr(server), name, RAI_DNS_ZONE);
	rai_unique_name(name, sizeof(name), "nx");
	RAI_LOOKUP(name, NULL, AF_UNSPEC, 0);
	EXPECT_EQ(-ENXIO, self->status);
	EXPECT_EQ(0, self->n);
}

TEST_F(dns, nxdomain_async_error_event_enxio)
{
	char name[128];
	__u32 h;
	int server;

	rai_unique_name(name, sizeof(name), "nxa");
	server = rai_dns_server_answer(name, ns_t_a);
	ASSERT_EQ(HOST_NOT_FOUND, server)
		TH_LOG("world: the DNS server answers '%s' for %s, not NXDOMAIN",
		       herr(server), name);
	rai_unique_name(name, sizeof(name), "nxa");
	ASSERT_EQ(0, rai_resolve_async(self->fd, name, NULL, AF_UNSPEC, 0,
				       0xe770, &h));
	RAI_EXPECT_ERROR_EVENT(self->fd, h, 0xe770, -ENXIO, 20000);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

/*
 * A name that exists but has no address at all: -ENODATA.  Needs a name
 * with only a non-address record in the test zone (RAI_NOADDR_NAME,
 * default noaddr.rai.test, e.g. dnsmasq --txt-record=noaddr.rai.test,x).
 */
TEST_F(dns, name_without_addresses_enodata)
{
	const char *name = rai_env("RAI_NOADDR_NAME", RAI_ZONE_NOADDR);
	int a = rai_dns_server_answer(name, ns_t_a);
	int aaaa = rai_dns_server_answer(name, ns_t_aaaa);

	if (a == HOST_NOT_FOUND && aaaa == HOST_NOT_FOUND)
		SKIP(return, "world: no %s in the test zone (dnsmasq --txt-record=%s,x)",
		     name, name);
	ASSERT_TRUE(a == NO_DATA && aaaa == NO_DATA)
		TH_LOG("world: the DNS server answers A '%s', AAAA '%s' for %s; NODATA for both is needed",
		       herr(a), herr(aaaa), name);
	RAI_LOOKUP(name, NULL, AF_UNSPEC, 0);
	expect_distinct_status(_metadata, -ENODATA, self->status);
	EXPECT_EQ(0, self->n);
}

TEST_F_TIMEOUT(dns, dns_server_stopped_eagain, 60)
{
	char name[128];
	int ret;

	ret = rai_dns_server_stop();
	ASSERT_EQ(0, ret) TH_LOG("stopping dnsmasq: %s", strerror(-ret));
	self->dns_stopped = true;
	/* Unreachable server: temporary failure (-EAGAIN), not NXDOMAIN. */
	RAI_LOOKUP(rai_unique_name(name, sizeof(name), "dead"), NULL,
		   AF_UNSPEC, 0);
	expect_distinct_status(_metadata, -EAGAIN, self->status);
	EXPECT_EQ(0, self->n);
	ASSERT_EQ(0, rai_dns_server_start());
	self->dns_stopped = false;
}

#define DNS_TIMEOUT_PARAM "/sys/module/" RAI_MODULE_NAME "/parameters/dns_timeout_ms"

/*
 * A resolver that never answers: -ETIMEDOUT.  The upcall is held in the
 * counting wrapper; the module's own deadline (module parameter
 * dns_timeout_ms, shortened here) must end the request.
 */
TEST_F_TIMEOUT(dns, resolver_not_answering_etimedout, 60)
{
	char name[128], saved[32] = "";
	long long t0, dt;
	FILE *f;
	int ret;

	f = fopen(DNS_TIMEOUT_PARAM, "re");
	if (!f)
		SKIP(return, "the module has no dns_timeout_ms parameter");
	if (!fgets(saved, sizeof(saved), f))
		saved[0] = '\0';
	fclose(f);
	saved[strcspn(saved, "\n")] = '\0';
	ASSERT_NE(0, saved[0]);
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	ASSERT_EQ(0, rai_sh("echo 1500 > " DNS_TIMEOUT_PARAM));
	ASSERT_EQ(0, rai_upcall_hold(true));
	t0 = rai_now_ms();
	ret = rai_lookup_str(self->fd, rai_unique_name(name, sizeof(name), "slow"),
			     NULL, AF_UNSPEC, 0, &self->res, &self->n,
			     &self->status);
	dt = rai_now_ms() - t0;
	rai_upcall_hold(false);
	rai_sh("echo %s > " DNS_TIMEOUT_PARAM, saved);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(-ETIMEDOUT, self->status);
	EXPECT_EQ(0, self->n);
	EXPECT_LE(1400, dt) TH_LOG("ended after %lld ms", dt);
	EXPECT_GT(15000, dt) TH_LOG("ended after %lld ms", dt);
}

TEST_F(dns, cached_name_second_lookup_makes_no_upcall)
{
	struct rdma_addrinfo_result *res2;
	__s32 status2;
	long c0, c1;
	char name[128];
	__u32 n2;
	int ret;

	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	/* A name of our own in /etc/hosts: nobody has looked it up yet. */
	snprintf(name, sizeof(name), "cache-%d.rai.example", getpid());
	ASSERT_EQ(0, rai_hosts_add(self->hosts_line, sizeof(self->hosts_line),
				   "192.0.2.201", name));
	c0 = rai_upcall_count();
	ASSERT_LE(0, c0);
	RAI_LOOKUP(name, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	c1 = rai_upcall_count();
	EXPECT_EQ(c0 + 1, c1) TH_LOG("first lookup: %ld upcalls", c1 - c0);
	ASSERT_EQ(0, rai_lookup_str(self->fd, name, NULL, AF_UNSPEC, 0,
				    &res2, &n2, &status2));
	EXPECT_EQ(0, status2);
	EXPECT_EQ(1, n2);
	if (n2 == 1)
		EXPECT_EQ(1, rai_count_dst(res2, n2, "192.0.2.201"));
	free(res2);
	EXPECT_EQ(c1, rai_upcall_count())
		TH_LOG("the cached name went up to user space again");
}

TEST_F(dns, source_of_peer_name_ipv4_is_veth0_on_rxe0)
{
	char ip[64];

	RAI_LOOKUP(RAI_ZONE_PEER, "4791", AF_INET, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, 1, RAI_IP4_B));
	EXPECT_EQ(0, self->res[0].src_status);
	ASSERT_NE(0, self->res[0].src_len);
	rai_addr_ip(self->res[0].src_addr, self->res[0].src_len, ip,
		    sizeof(ip));
	EXPECT_STREQ(RAI_IP4_A, ip);
	EXPECT_STREQ(RAI_IBDEV_A, self->res[0].ibdev_name);
	EXPECT_EQ(1, self->res[0].port_num);
}

TEST_F(dns, source_of_every_peer_address_any_family)
{
	const char *want_src;
	char ip[64];
	__u32 i;

	RAI_LOOKUP(RAI_ZONE_PEER, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(2, self->n);
	for (i = 0; i < self->n; i++) {
		want_src = self->res[i].family == AF_INET ?
			   RAI_IP4_A : RAI_IP6_A;
		EXPECT_EQ(0, self->res[i].src_status);
		rai_addr_ip(self->res[i].src_addr, self->res[i].src_len, ip,
			    sizeof(ip));
		EXPECT_STREQ(want_src, ip);
		EXPECT_STREQ(RAI_IBDEV_A, self->res[i].ibdev_name);
	}
}

TEST_F(dns, unroutable_answers_have_no_source_enetunreach)
{
	__u32 i;

	RAI_LOOKUP(RAI_ZONE_MULTI, NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(4, self->n);
	for (i = 0; i < self->n; i++) {
		EXPECT_EQ(0, self->res[i].src_len);
		EXPECT_EQ(-ENETUNREACH, self->res[i].src_status);
		EXPECT_EQ(0, self->res[i].ibdev_name[0]);
		EXPECT_NE(0, self->res[i].dst_len);
	}
}

TEST_F(dns, bound_ipv6_source_keeps_only_ipv6_answers)
{
	struct sockaddr_in6 src = { .sin6_family = AF_INET6 };
	struct rdma_addrinfo_resolve r;

	inet_pton(AF_INET6, RAI_IP6_A, &src.sin6_addr);
	rai_req_init(&r, RAI_ZONE_MULTI, NULL, AF_UNSPEC, 0, 0, 0);
	memcpy(r.src_addr, &src, sizeof(src));
	r.src_len = sizeof(src);
	ASSERT_EQ(0, rai_lookup_req(self->fd, &r, &self->res, &self->n,
				    &self->status));
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(AF_INET6, self->res[0].family);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "2001:db8::10"));
}

TEST_HARNESS_MAIN
