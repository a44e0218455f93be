// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The one-call synchronous RESOLVE (RDMA_ADDRINFO_RESOLVE_RESULTS): the
 * results come back in the array at resolve.context, at most
 * resolve.result_count of them, num_results says how many there were, and
 * no request is left behind, whatever the outcome.  A literal, or a name
 * with a cached answer, is answered in the ioctl itself: it takes no room
 * among the file's requests, and counts as a request all the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"
#include "world_env.h"

#define SENTINEL	0xa5

FIXTURE(one) {
	int fd;
	struct rdma_addrinfo_result res[8];
};

FIXTURE_SETUP(one)
{
	struct rdma_addrinfo_info info;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	if (!(info.resolve_flags_supported & RDMA_ADDRINFO_RESOLVE_RESULTS))
		SKIP(return, "the module has no RESOLVE_RESULTS");
	memset(self->res, SENTINEL, sizeof(self->res));
}

FIXTURE_TEARDOWN(one)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* RESOLVE of @node with RESOLVE_SYNC | RESOLVE_RESULTS into @res. */
static int one_call(int fd, struct rdma_addrinfo_resolve *r, const char *node,
		    const char *service, unsigned int family, __u32 ai_flags,
		    struct rdma_addrinfo_result *res, __u32 count)
{
	rai_req_init(r, node, service, family, ai_flags,
		     RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS,
		     0);
	r->context = (uintptr_t)res;
	r->result_count = count;
	r->handle = 0xdead;
	return rai_resolve(fd, r);
}

/* No request left on the file: the call destroyed its own. */
static __u32 requests_held(int fd)
{
	struct rdma_addrinfo_info info;

	if (rai_get_info(fd, &info))
		return ~0u;
	return info.requests;
}

static bool untouched(const struct rdma_addrinfo_result *res)
{
	const unsigned char *p = (const void *)res;
	size_t i;

	for (i = 0; i < sizeof(*res); i++)
		if (p[i] != SENTINEL)
			return false;
	return true;
}

TEST_F(one, get_info_lists_the_flag)
{
	struct rdma_addrinfo_info info;

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_TRUE(info.resolve_flags_supported &
		    RDMA_ADDRINFO_RESOLVE_RESULTS);
	EXPECT_LT(0, info.max_results);
}

TEST_F(one, numeric_results_come_back_and_no_request_is_left)
{
	struct rdma_addrinfo_resolve r;
	const char *ip = RAI_IP4_B;

	ASSERT_EQ(0, one_call(self->fd, &r, ip, "4791", AF_INET, 0, self->res,
			      8));
	EXPECT_EQ(0, r.status);
	ASSERT_EQ(1, r.num_results);
	EXPECT_EQ(0, r.handle);
	EXPECT_EQ(1, rai_count_dst(self->res, 1, ip));
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_NUMERIC, self->res[0].origin);
	EXPECT_EQ(4791, rai_addr_port(self->res[0].dst_addr,
				      self->res[0].dst_len));
	EXPECT_EQ(0, self->res[0].src_status);
	EXPECT_TRUE(untouched(&self->res[1]));
	EXPECT_EQ(0, requests_held(self->fd));
	EXPECT_FALSE(rai_readable(self->fd)) TH_LOG("an event was queued");
}

/* More results than room: what fits, and the total in num_results. */
TEST_F(one, more_results_than_room_copies_what_fits)
{
	struct rdma_addrinfo_resolve r;

	/* No node, no RAI_PASSIVE, AF_UNSPEC: both loopback addresses. */
	ASSERT_EQ(0, one_call(self->fd, &r, NULL, "4791", AF_UNSPEC, 0,
			      self->res, 1));
	EXPECT_EQ(0, r.status);
	ASSERT_EQ(2, r.num_results);
	EXPECT_FALSE(untouched(&self->res[0]));
	EXPECT_TRUE(untouched(&self->res[1])) TH_LOG("wrote past result_count");
	EXPECT_EQ(0, requests_held(self->fd));
}

TEST_F(one, result_count_zero_reports_status_and_total_only)
{
	struct rdma_addrinfo_resolve r;

	ASSERT_EQ(0, one_call(self->fd, &r, RAI_IP4_B, NULL, AF_INET, 0,
			      self->res, 0));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(1, r.num_results);
	EXPECT_TRUE(untouched(&self->res[0]));
	EXPECT_EQ(0, requests_held(self->fd));
}

/* A failed resolution: its status, nothing copied, nothing left. */
TEST_F(one, failure_status_with_no_results_and_no_request)
{
	struct rdma_addrinfo_resolve r;

	ASSERT_EQ(0, one_call(self->fd, &r, "not-a-literal", NULL, AF_UNSPEC,
			      RDMA_ADDRINFO_RAI_NUMERICHOST, self->res, 8));
	EXPECT_EQ(-ENXIO, r.status);
	EXPECT_EQ(0, r.num_results);
	EXPECT_TRUE(untouched(&self->res[0]));
	EXPECT_EQ(0, requests_held(self->fd));
}

/* The array straddles into a page that cannot be written. */
TEST_F(one, array_running_into_a_read_only_page_efault_no_request)
{
	struct rdma_addrinfo_resolve r;
	char *page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rdma_addrinfo_result *res;

	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(0, mprotect(page + 4096, 4096, PROT_READ));
	res = (void *)(page + 4096 - sizeof(*res) / 2);
	EXPECT_EQ(-EFAULT, one_call(self->fd, &r, NULL, "4791", AF_UNSPEC, 0,
				    res, 2));
	EXPECT_EQ(0, requests_held(self->fd));
	EXPECT_EQ(0, rai_fd_works(self->fd));
	munmap(page, 2 * 4096);
}

/* A DNS name the same way (the first answer, then the cached one). */
TEST_F(one, dns_name_in_one_call)
{
	struct rdma_addrinfo_resolve r;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, one_call(self->fd, &r, RAI_ZONE_MULTI, NULL,
				      AF_UNSPEC, 0, self->res, 8));
		EXPECT_EQ(0, r.status);
		EXPECT_EQ(4, r.num_results);
		EXPECT_EQ(1, rai_count_dst(self->res, 4, "2001:db8::10"));
		EXPECT_TRUE(untouched(&self->res[4]));
		EXPECT_EQ(0, requests_held(self->fd));
	}
}

/*
 * A literal and a cached answer need no room on a file at its cap of
 * requests (they wait for nothing); a name not yet known, or a RESOLVE
 * without RESULTS, still needs a request: EMFILE.
 */
TEST_F(one, answered_in_the_ioctl_needs_no_room_on_a_full_file)
{
	struct rdma_addrinfo_resolve r;
	char old[32], name[128];
	__u32 handle = 0;

	/* The answer for the DNS name is in the cache before the file fills. */
	ASSERT_EQ(0, one_call(self->fd, &r, RAI_ZONE_MULTI, NULL, AF_UNSPEC,
			      0, self->res, 8));
	ASSERT_EQ(0, r.status);
	ASSERT_EQ(0, rai_param_get("max_requests_per_fd", old, sizeof(old)));
	ASSERT_EQ(0, rai_param_set("max_requests_per_fd", "1"));
	EXPECT_EQ(0, rai_resolve_async(self->fd, RAI_WORLD_IP4_B, NULL, AF_INET,
				       0, 1, &handle));
	EXPECT_EQ(1, requests_held(self->fd));

	EXPECT_EQ(0, one_call(self->fd, &r, RAI_WORLD_IP4_B, "4791", AF_INET,
			      0, self->res, 8));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(1, r.num_results);
	EXPECT_EQ(0, r.handle);
	EXPECT_EQ(4791, rai_addr_port(self->res[0].dst_addr,
				      self->res[0].dst_len));
	EXPECT_EQ(0, one_call(self->fd, &r, RAI_ZONE_MULTI, NULL, AF_UNSPEC, 0,
			      self->res, 8));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(4, r.num_results);
	EXPECT_EQ(1, rai_count_dst(self->res, 4, "2001:db8::10"));
	EXPECT_EQ(1, requests_held(self->fd));

	rai_unique_name(name, sizeof(name), "full");
	EXPECT_EQ(-EMFILE, one_call(self->fd, &r, name, NULL, AF_UNSPEC, 0,
				    self->res, 8));
	EXPECT_EQ(-EMFILE, rai_resolve_sync_str(self->fd, RAI_WORLD_IP4_B, NULL,
						AF_INET, 0, &r));
	EXPECT_EQ(1, requests_held(self->fd));

	EXPECT_EQ(0, rai_param_set("max_requests_per_fd", old));
	if (handle)
		EXPECT_EQ(0, rai_destroy(self->fd, handle, NULL));
	EXPECT_EQ(0, requests_held(self->fd));
}

/*
 * Answered in the ioctl or not, a RESOLVE is one request in the counters,
 * and one look at the DNS cache: a miss is counted once, by the request
 * that then waits for the resolver; the answer it leaves is then a hit,
 * a negative one too.
 */
TEST_F(one, answered_in_the_ioctl_counts_once)
{
	long long req0, done0, num0, hit0, miss0;
	struct rdma_addrinfo_resolve r;
	char name[128];

	req0 = rai_stat("requests");
	done0 = rai_stat("completed");
	num0 = rai_stat("numeric");
	ASSERT_LE(0, req0);
	ASSERT_EQ(0, one_call(self->fd, &r, RAI_WORLD_IP4_B, NULL, AF_INET, 0,
			      self->res, 8));
	EXPECT_EQ(1, r.num_results);
	EXPECT_EQ(req0 + 1, rai_stat("requests"));
	EXPECT_EQ(done0 + 1, rai_stat("completed"));
	EXPECT_EQ(num0 + 1, rai_stat("numeric"));

	rai_unique_name(name, sizeof(name), "once");
	hit0 = rai_stat("dns_cache_hits");
	miss0 = rai_stat("dns_cache_misses");
	ASSERT_EQ(0, one_call(self->fd, &r, name, NULL, AF_UNSPEC, 0,
			      self->res, 8));
	EXPECT_EQ(-ENXIO, r.status);
	EXPECT_EQ(hit0, rai_stat("dns_cache_hits"));
	EXPECT_EQ(miss0 + 1, rai_stat("dns_cache_misses"));
	memset(self->res, SENTINEL, sizeof(self->res));
	ASSERT_EQ(0, one_call(self->fd, &r, name, NULL, AF_UNSPEC, 0,
			      self->res, 8));
	EXPECT_EQ(-ENXIO, r.status);
	EXPECT_EQ(0, r.num_results);
	EXPECT_TRUE(untouched(&self->res[0]));
	EXPECT_EQ(hit0 + 1, rai_stat("dns_cache_hits"));
	EXPECT_EQ(miss0 + 1, rai_stat("dns_cache_misses"));
	EXPECT_EQ(0, requests_held(self->fd));
}

TEST_HARNESS_MAIN
