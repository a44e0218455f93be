// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's cache of DNS answers (kernel/dns_cache.c): a name answered
 * once is answered again inside the RESOLVE ioctl (the event of an
 * asynchronous request is queued when RESOLVE returns), without a
 * dns_query(); positive answers live as long as their key, negative ones
 * dns_cache_negative_ttl seconds, temporary failures not at all; entries
 * are per network namespace and per helper mode, bounded by
 * dns_cache_entries and dns_cache_bytes, listed and flushed through
 * <debugfs>/rdma_addrinfo/dns_cache.
 *
 * Names come from the guest's /etc/hosts (the helper answers them with
 * its positive TTL, 5 s) and from the test zone.
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define PARAM(x)	"/sys/module/" RAI_MODULE_NAME "/parameters/" x
#define CACHE_FILE	"/sys/kernel/debug/" RAI_MODULE_NAME "/dns_cache"
#define HOSTS_ADDR	"192.0.2.221"
#define NR_NAMES	3

FIXTURE(cache) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
	bool dns_stopped;
	char lines[NR_NAMES][256];
	char names[NR_NAMES][128];
	char saved_param[64];
	const char *param;
};

FIXTURE_SETUP(cache)
{
	static unsigned int seq;
	int i;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	if (access(CACHE_FILE, R_OK))
		SKIP(return, "no %s: the module has no DNS cache", CACHE_FILE);
	/* Names nobody asked for yet: each test sees its first answer. */
	for (i = 0; i < NR_NAMES; i++) {
		snprintf(self->names[i], sizeof(self->names[i]),
			 "dc-%d-%u-%d.rai.example", getpid(), ++seq, i);
		ASSERT_EQ(0, rai_hosts_add(self->lines[i],
					   sizeof(self->lines[i]), HOSTS_ADDR,
					   self->names[i]));
	}
}

FIXTURE_TEARDOWN(cache)
{
	int i;

	if (self->param)
		rai_sh("echo %s > %s", self->saved_param, self->param);
	if (self->dns_stopped && rai_dns_server_start())
		TH_LOG("could not restart dnsmasq");
	for (i = 0; i < NR_NAMES; i++)
		rai_hosts_remove(self->lines[i]);
	RAI_LOOKUP_TEARDOWN();
}

/* Set a module parameter, restored by the teardown (one per test). */
static int set_param(FIXTURE_DATA(cache) *self, const char *param,
		     const char *value)
{
	FILE *f = fopen(param, "re");

	if (!f)
		return -errno;
	if (!fgets(self->saved_param, sizeof(self->saved_param), f))
		self->saved_param[0] = '\0';
	fclose(f);
	self->saved_param[strcspn(self->saved_param, "\n")] = '\0';
	self->param = param;
	return rai_sh("echo %s > %s", value, param) ? -EIO : 0;
}

/* The debugfs line of @name: 1 with its ttl and hits, 0 if none, -errno. */
static int cache_entry(const char *name, long long *ttl, unsigned int *hits)
{
	char line[512], ename[256];
	unsigned long long cookie;
	int helper, status, found = 0;
	unsigned int origin, h;
	long long t;
	FILE *f = fopen(CACHE_FILE, "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %llu %d %d %u %lld %u", ename, &cookie,
			   &helper, &status, &origin, &t, &h) == 7 &&
		    !strcmp(ename, name)) {
			found = 1;
			if (ttl)
				*ttl = t;
			if (hits)
				*hits = h;
		}
	fclose(f);
	return found;
}

/* Synchronous lookup of @name: its status, results freed. */
static int lookup_status(int fd, const char *name, __u32 *n)
{
	struct rdma_addrinfo_result *res = NULL;
	__s32 status = -EIO;
	__u32 nr = 0;

	if (rai_lookup_str(fd, name, NULL, AF_UNSPEC, 0, &res, &nr, &status))
		return -EIO;
	free(res);
	if (n)
		*n = nr;
	return status;
}

/*
 * The first upcall of a boot: request-key and the helper come over 9p for
 * the first time (a debug-kernel run beside other VMs once took longer
 * than the harness's default 30 s here).
 */
TEST_F_TIMEOUT(cache, second_lookup_is_a_hit_without_dns_query, 120)
{
	long long q0, h0;
	unsigned int hits = 0;

	RAI_LOOKUP(self->names[0], NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	q0 = rai_stat("dns_queries");
	h0 = rai_stat("dns_cache_hits");
	ASSERT_LE(0, q0);
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(q0, rai_stat("dns_queries"))
		TH_LOG("the second lookup asked dns_query() again");
	EXPECT_EQ(h0 + 1, rai_stat("dns_cache_hits"));
	ASSERT_EQ(1, cache_entry(self->names[0], NULL, &hits));
	EXPECT_EQ(1, hits);
}

/* Served in the ioctl: the event is there when RESOLVE returns. */
TEST_F(cache, async_hit_has_its_event_queued_when_resolve_returns)
{
	struct rdma_addrinfo_event ev;
	__u32 h;

	RAI_LOOKUP(self->names[0], "4791", AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_FALSE(rai_readable(self->fd));
	ASSERT_EQ(0, rai_resolve_async(self->fd, self->names[0], "4791",
				       AF_UNSPEC, 0, 0xdc01, &h));
	EXPECT_TRUE(rai_readable(self->fd))
		TH_LOG("a cached name's event was not queued by RESOLVE");
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 20000));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0xdc01, ev.context);
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(1, ev.num_results);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

/* The cached answer carries what is left of its TTL, then it is gone. */
TEST_F_TIMEOUT(cache, positive_answer_expires_with_its_key, 60)
{
	struct rdma_addrinfo_result *res = NULL;
	long long ttl = -1, q0;
	__s32 status;
	__u32 n = 0;

	RAI_LOOKUP(self->names[0], NULL, AF_UNSPEC, 0);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	ASSERT_LT(0, self->res[0].ttl);
	ASSERT_EQ(1, cache_entry(self->names[0], &ttl, NULL));
	EXPECT_GE((long long)self->res[0].ttl, ttl);
	sleep(1);	/* the TTL counts down: time itself */
	ASSERT_EQ(0, rai_lookup_str(self->fd, self->names[0], NULL, AF_UNSPEC,
				    0, &res, &n, &status));
	ASSERT_EQ(0, status);
	ASSERT_EQ(1, n);
	EXPECT_GT(self->res[0].ttl, res[0].ttl)
		TH_LOG("a hit 1 s later has ttl %u, the answer had %u",
		       res[0].ttl, self->res[0].ttl);
	free(res);
	sleep(self->res[0].ttl + 1);	/* past the TTL: time itself */
	EXPECT_EQ(0, cache_entry(self->names[0], NULL, NULL))
		TH_LOG("listed after its ttl");
	q0 = rai_stat("dns_queries");
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(q0 + 1, rai_stat("dns_queries"))
		TH_LOG("an expired answer was served");
}

TEST_F_TIMEOUT(cache, negative_answer_lives_negative_ttl, 60)
{
	char name[128];
	long long q0, h0;
	int server;

	ASSERT_EQ(0, set_param(self, PARAM("dns_cache_negative_ttl"), "2"));
	rai_unique_name(name, sizeof(name), "dcnx");
	server = rai_dns_server_answer(name, ns_t_a);
	ASSERT_EQ(HOST_NOT_FOUND, server);
	rai_unique_name(name, sizeof(name), "dcnx");
	EXPECT_EQ(-ENXIO, lookup_status(self->fd, name, NULL));
	q0 = rai_stat("dns_queries");
	h0 = rai_stat("dns_cache_hits");
	EXPECT_EQ(-ENXIO, lookup_status(self->fd, name, NULL));
	EXPECT_EQ(q0, rai_stat("dns_queries"));
	EXPECT_EQ(h0 + 1, rai_stat("dns_cache_hits"));
	sleep(3);	/* past the negative TTL of 2 s: time itself */
	EXPECT_EQ(-ENXIO, lookup_status(self->fd, name, NULL));
	EXPECT_EQ(q0 + 1, rai_stat("dns_queries"))
		TH_LOG("the negative answer outlived dns_cache_negative_ttl");
}

TEST_F(cache, negative_ttl_zero_caches_no_failure)
{
	char name[128];
	long long q0;

	ASSERT_EQ(0, set_param(self, PARAM("dns_cache_negative_ttl"), "0"));
	rai_unique_name(name, sizeof(name), "dcnx0");
	EXPECT_EQ(-ENXIO, lookup_status(self->fd, name, NULL));
	EXPECT_EQ(0, cache_entry(name, NULL, NULL));
	q0 = rai_stat("dns_queries");
	EXPECT_EQ(-ENXIO, lookup_status(self->fd, name, NULL));
	EXPECT_EQ(q0 + 1, rai_stat("dns_queries"));
}

TEST_F_TIMEOUT(cache, temporary_failure_is_not_cached, 90)
{
	char name[128];
	long long h0;
	int ret, tries;

	ret = rai_dns_server_stop();
	ASSERT_EQ(0, ret) TH_LOG("stopping dnsmasq: %s", strerror(-ret));
	self->dns_stopped = true;
	/*
	 * glibc may take a refused connection for "no such name" (it did
	 * now and then in the VM): a few names, for one temporary failure.
	 */
	for (tries = 0; tries < 3; tries++) {
		rai_unique_name(name, sizeof(name), "dcdead");
		ret = lookup_status(self->fd, name, NULL);
		if (ret != -ENXIO)
			break;
	}
	ASSERT_NE(0, ret);
	if (ret == -ENXIO)
		SKIP(return, "the resolver said NXDOMAIN with its server stopped (%s)",
		     rai_dns_helper_ambiguous(NULL, 0) ?
		     "key.dns_resolver reports every failure so" : "3 times");
	EXPECT_EQ(0, cache_entry(name, NULL, NULL))
		TH_LOG("status %d kept in the cache", ret);
	h0 = rai_stat("dns_cache_hits");
	lookup_status(self->fd, name, NULL);
	EXPECT_EQ(h0, rai_stat("dns_cache_hits"));
}

TEST_F(cache, flush_one_name_then_all)
{
	long long q0;

	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(0, lookup_status(self->fd, self->names[1], NULL));
	ASSERT_EQ(1, cache_entry(self->names[0], NULL, NULL));
	ASSERT_EQ(1, cache_entry(self->names[1], NULL, NULL));

	ASSERT_EQ(0, rai_sh("echo %s > " CACHE_FILE, self->names[0]));
	EXPECT_EQ(0, cache_entry(self->names[0], NULL, NULL));
	EXPECT_EQ(1, cache_entry(self->names[1], NULL, NULL));
	q0 = rai_stat("dns_queries");
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(q0 + 1, rai_stat("dns_queries"));

	ASSERT_EQ(0, rai_sh("echo > " CACHE_FILE));
	EXPECT_EQ(0, cache_entry(self->names[0], NULL, NULL));
	EXPECT_EQ(0, cache_entry(self->names[1], NULL, NULL));
	EXPECT_EQ(0, rai_stat("dns_cache_entries"));
	EXPECT_EQ(0, rai_stat("dns_cache_bytes"));
}

/* dns_cache_entries: the least recently used answer goes first. */
TEST_F(cache, entries_bound_evicts_the_least_recently_used)
{
	long long e0;
	int i;

	ASSERT_EQ(0, rai_sh("echo > " CACHE_FILE));
	ASSERT_EQ(0, set_param(self, PARAM("dns_cache_entries"), "2"));
	e0 = rai_stat("dns_cache_evicted");
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(0, lookup_status(self->fd, self->names[1], NULL));
	/* names[0] used again: names[1] is now the oldest use. */
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(0, lookup_status(self->fd, self->names[2], NULL));
	EXPECT_EQ(2, rai_stat("dns_cache_entries"));
	EXPECT_EQ(e0 + 1, rai_stat("dns_cache_evicted"));
	EXPECT_EQ(1, cache_entry(self->names[0], NULL, NULL));
	EXPECT_EQ(0, cache_entry(self->names[1], NULL, NULL));
	EXPECT_EQ(1, cache_entry(self->names[2], NULL, NULL));
	/* Lowered: trimmed at once. */
	ASSERT_EQ(0, rai_sh("echo 0 > " PARAM("dns_cache_entries")));
	EXPECT_EQ(0, rai_stat("dns_cache_entries"));
	for (i = 0; i < NR_NAMES; i++)
		EXPECT_EQ(0, cache_entry(self->names[i], NULL, NULL));
	/* 0: nothing kept. */
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(0, cache_entry(self->names[0], NULL, NULL));
}

TEST_F(cache, bytes_bound_is_never_exceeded)
{
	long long bytes;
	int i;

	ASSERT_EQ(0, rai_sh("echo > " CACHE_FILE));
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	bytes = rai_stat("dns_cache_bytes");
	ASSERT_LT(0, bytes);
	/* Room for one entry of this size, not two. */
	ASSERT_EQ(0, set_param(self, PARAM("dns_cache_bytes"), "0"));
	ASSERT_EQ(0, rai_sh("echo %lld > " PARAM("dns_cache_bytes"),
			    bytes + bytes / 2));
	for (i = 0; i < NR_NAMES; i++)
		EXPECT_EQ(0, lookup_status(self->fd, self->names[i], NULL));
	EXPECT_GE(bytes + bytes / 2, rai_stat("dns_cache_bytes"));
	EXPECT_EQ(1, rai_stat("dns_cache_entries"));
	EXPECT_EQ(1, cache_entry(self->names[NR_NAMES - 1], NULL, NULL));
}

/* key.dns_resolver's one-address answer is not served for the helper's. */
TEST_F(cache, helper_and_plain_answers_are_kept_apart)
{
	__u32 n = 0;

	EXPECT_EQ(0, lookup_status(self->fd, RAI_ZONE_MULTI, &n));
	EXPECT_EQ(4, n);
	ASSERT_EQ(0, set_param(self, PARAM("dns_helper"), "N"));
	EXPECT_EQ(0, lookup_status(self->fd, RAI_ZONE_MULTI, &n));
	EXPECT_EQ(1, n) TH_LOG("the helper's cached answer was served");
	ASSERT_EQ(0, rai_sh("echo Y > " PARAM("dns_helper")));
	EXPECT_EQ(0, lookup_status(self->fd, RAI_ZONE_MULTI, &n));
	EXPECT_EQ(4, n);
}

/* Another network namespace never gets this one's cached answer. */
TEST_F(cache, another_network_namespace_misses)
{
	long long h0, m0;
	int status = -1, p[2];
	pid_t pid;

	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	EXPECT_EQ(0, lookup_status(self->fd, self->names[0], NULL));
	/* dns_host_view: the other namespace may ask the host at all. */
	ASSERT_EQ(0, set_param(self, PARAM("dns_host_view"), "Y"));
	h0 = rai_stat("dns_cache_hits");
	m0 = rai_stat("dns_cache_misses");
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd, st = -EIO;

		if (!unshare(CLONE_NEWNET)) {
			fd = rai_dev_open(0);
			st = fd < 0 ? fd : lookup_status(fd, self->names[0],
							 NULL);
		}
		if (write(p[1], &st, sizeof(st)) != sizeof(st))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	EXPECT_EQ(sizeof(status), read(p[0], &status, sizeof(status)));
	close(p[0]);
	waitpid(pid, NULL, 0);
	EXPECT_EQ(0, status);
	EXPECT_EQ(h0, rai_stat("dns_cache_hits"))
		TH_LOG("another namespace was answered from this one's cache");
	EXPECT_EQ(m0 + 1, rai_stat("dns_cache_misses"));
}

TEST_HARNESS_MAIN
