// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Asynchronous requests and the event channel: one event per request with
 * its context, 1000 requests in flight on one fd, poll() and blocking
 * read() wake-ups, read() and GET_EVENT returning the same events, no
 * event for SYNC requests, DESTROY dropping queued events and cancelling
 * requests in flight without late events.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define NREQ		1000
#define CTX_BASE	0xC0DE000000000000ull

/* The module's own view of failed dns_query() calls (dynamic debug). */
#define DYNDBG "/sys/kernel/debug/dynamic_debug/control"

static void dns_debug_on(void)
{
	rai_sh("echo 'module " RAI_MODULE_NAME " +p' > " DYNDBG " 2>/dev/null");
}

static void show_dns_debug(void)
{
	rai_sh("dmesg | grep -E 'dns_query\\(|no helper for|helper not used' | tail -8 | sed 's/^/# dmesg: /' >&2");
}

FIXTURE(async) {
	int fd;
	bool counter;
	bool short_ttl;
	__u32 handles[NREQ];
	unsigned char seen[NREQ];
};

FIXTURE_SETUP(async)
{
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	dns_debug_on();
}

#define KEY_DNS_CONF "/etc/keyutils/key.dns_resolver.conf"

FIXTURE_TEARDOWN(async)
{
	if (self->short_ttl)
		unlink(KEY_DNS_CONF);
	if (self->counter)
		rai_upcall_counter_remove();
	if (self->fd >= 0)
		close(self->fd);
}

static void async_install_upcall_counter(struct __test_metadata *_metadata,
					 FIXTURE_DATA(async) *self)
{
	int ret = rai_upcall_counter_install();

	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	self->counter = true;
}

/* The per-fd cap must leave room for the 1000 requests of the issue. */
static void need_room(struct __test_metadata *_metadata, int fd, __u32 n)
{
	struct rdma_addrinfo_info info;

	ASSERT_EQ(0, rai_get_info(fd, &info));
	ASSERT_LE(n, info.max_requests_per_fd)
		TH_LOG("max_requests_per_fd %u < %u", info.max_requests_per_fd,
		       n);
}

/*
 * Collect NREQ events; each must carry a context of ours, seen once, with
 * the handle RESOLVE returned for it, RESOLVED with want_results results.
 */
static void collect(struct __test_metadata *_metadata,
		    FIXTURE_DATA(async) *self, __u32 want_results)
{
	struct rdma_addrinfo_event ev;
	unsigned int got = 0, bad = 0;
	__u64 idx;

	memset(self->seen, 0, sizeof(self->seen));
	while (got < NREQ) {
		int ret = rai_wait_event(self->fd, &ev, 20000);

		ASSERT_EQ(0, ret) TH_LOG("after %u events: %s", got,
					 strerror(-ret));
		got++;
		idx = ev.context - CTX_BASE;
		ASSERT_GT(NREQ, idx) TH_LOG("foreign context 0x%llx",
					   (unsigned long long)ev.context);
		EXPECT_EQ(0, self->seen[idx]) TH_LOG("context %llu twice",
						     (unsigned long long)idx);
		self->seen[idx]++;
		EXPECT_EQ(self->handles[idx], ev.handle);
		if (ev.event != RDMA_ADDRINFO_EVENT_RESOLVED || ev.status ||
		    ev.num_results != want_results) {
			if (!bad++)
				TH_LOG("request %llu: event %u status %d results %u",
				       (unsigned long long)idx, ev.event,
				       ev.status, ev.num_results);
		}
	}
	EXPECT_EQ(0, bad) TH_LOG("%u events not RESOLVED with %u results",
				 bad, want_results);
	if (bad)
		show_dns_debug();
	/* Exactly one each: nothing more comes. */
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 300));
}

TEST_F_TIMEOUT(async, thousand_numeric_requests_one_event_each, 120)
{
	struct rdma_addrinfo_result *res;
	char node[32], ip[64];
	__u32 i, j, n, dropped;

	need_room(_metadata, self->fd, NREQ);
	for (i = 0; i < NREQ; i++) {
		snprintf(node, sizeof(node), "10.1.%u.%u", i / 250, i % 250 + 1);
		ASSERT_EQ(0, rai_resolve_async(self->fd, node, "4791", AF_INET,
					       RDMA_ADDRINFO_RAI_NUMERICHOST,
					       CTX_BASE + i, &self->handles[i]))
			TH_LOG("request %u", i);
		ASSERT_NE(0, self->handles[i]);
	}
	/* Handles are unique. */
	for (i = 0; i < NREQ; i += 37)
		for (j = 0; j < NREQ; j++)
			if (i != j)
				ASSERT_NE(self->handles[i], self->handles[j]);
	collect(_metadata, self, 1);
	/* Each handle holds the result of its own request. */
	for (i = 0; i < NREQ; i += 97) {
		snprintf(node, sizeof(node), "10.1.%u.%u", i / 250, i % 250 + 1);
		ASSERT_EQ(0, rai_query_all(self->fd, self->handles[i], &res, &n));
		ASSERT_EQ(1, n);
		EXPECT_STREQ(node, rai_addr_ip(res[0].dst_addr, res[0].dst_len,
					       ip, sizeof(ip)));
		free(res);
	}
	for (i = 0; i < NREQ; i++) {
		ASSERT_EQ(0, rai_destroy(self->fd, self->handles[i], &dropped));
		EXPECT_EQ(0, dropped);
	}
}

TEST_F_TIMEOUT(async, thousand_cached_dns_requests_one_event_each, 120)
{
	struct rdma_addrinfo_result *res;
	__s32 status;
	__u32 i, n;

	need_room(_metadata, self->fd, NREQ);
	/* Warm the cache: then no request waits for an upcall of its own. */
	ASSERT_EQ(0, rai_lookup_str(self->fd, RAI_ZONE_MULTI, NULL, AF_INET,
				    0, &res, &n, &status));
	free(res);
	ASSERT_EQ(0, status);
	ASSERT_EQ(3, n);
	for (i = 0; i < NREQ; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd, RAI_ZONE_MULTI, NULL,
					       AF_INET, 0, CTX_BASE + i,
					       &self->handles[i]))
			TH_LOG("request %u", i);
	collect(_metadata, self, 3);
	for (i = 0; i < NREQ; i++)
		ASSERT_EQ(0, rai_destroy(self->fd, self->handles[i], NULL));
}

/*
 * A cached name whose key expires while requests keep coming: every
 * request must still resolve (an expired cache entry means "ask again",
 * not a resolver failure).  key.dns_resolver's TTL is cut to 1 s so that
 * the keys expire several times during the run.
 */
TEST_F_TIMEOUT(async, cached_name_resolves_across_key_expiry, 90)
{
	struct rdma_addrinfo_event ev;
	unsigned int inflight = 0, done = 0, bad = 0, i;
	long long end, f0, s0;
	long c0;
	int ret;

	ASSERT_NE(0, access(KEY_DNS_CONF, F_OK))
		TH_LOG("%s exists already; not touching it", KEY_DNS_CONF);
	self->short_ttl = true;
	ASSERT_EQ(0, rai_sh("mkdir -p /etc/keyutils && echo 'default_ttl = 1' > " KEY_DNS_CONF));
	async_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	f0 = rai_stat("dns_fallbacks");
	s0 = rai_stat("dns_stale_keys");
	end = rai_now_ms() + 6000;
	i = 0;
	while (rai_now_ms() < end || inflight) {
		while (rai_now_ms() < end && inflight < 32) {
			ret = rai_resolve_async(self->fd, RAI_ZONE_MULTI, NULL,
						AF_INET, 0, CTX_BASE + i, NULL);
			if (ret)
				break;
			inflight++;
			i++;
		}
		ret = rai_wait_event(self->fd, &ev, 30000);
		if (ret)
			break;
		inflight--;
		done++;
		if (ev.event != RDMA_ADDRINFO_EVENT_RESOLVED || ev.status ||
		    ev.num_results != 3) {
			if (bad++ < 5)
				TH_LOG("request %llu: event %u status %d results %u",
				       (unsigned long long)(ev.context - CTX_BASE),
				       ev.event, ev.status, ev.num_results);
		}
		rai_destroy(self->fd, ev.handle, NULL);
	}
	unlink(KEY_DNS_CONF);
	self->short_ttl = false;
	ASSERT_EQ(0, ret) TH_LOG("%u requests never completed", inflight);
	TH_LOG("%u requests, %u failed, %ld upcalls, %lld stale keys",
	       done, bad, rai_upcall_count() - c0,
	       rai_stat("dns_stale_keys") - s0);
	EXPECT_EQ(0, bad);
	/*
	 * A key that expired or was invalidated under a reader is asked for
	 * again, never taken for a missing helper (one address each).
	 */
	if (rai_dns_helper_active())
		EXPECT_EQ(f0, rai_stat("dns_fallbacks"));
	if (bad)
		show_dns_debug();
	EXPECT_LT(100, done);
	/* The keys did expire and were fetched again. */
	EXPECT_LE(c0 + 2, rai_upcall_count());
}

TEST_F(async, failed_request_error_event_and_no_results)
{
	struct rdma_addrinfo_query q;
	__u32 h;

	/* An IPv4 literal asked as IPv6: no address of that family. */
	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.1", NULL, AF_INET6,
				       0, 77, &h));
	RAI_EXPECT_ERROR_EVENT(self->fd, h, 77, -EADDRNOTAVAIL, 10000);
	memset(&q, 0, sizeof(q));
	q.handle = h;
	q.result_size = sizeof(struct rdma_addrinfo_result);
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(0, q.total);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

/* Release the upcall hold once @tid sleeps in its wait (thread). */
struct release_later {
	pid_t tid;		/* the thread that waits */
	long long at;		/* rai_now_ms() before the release */
	int late;		/* -ETIMEDOUT: it never slept */
};

static void *release_later(void *arg)
{
	struct release_later *r = arg;

	r->late = rai_task_wait_asleep(&r->tid, 30000);
	r->at = rai_now_ms();
	rai_upcall_hold(false);
	return NULL;
}

TEST_F_TIMEOUT(async, async_resolve_returns_while_upcall_hangs, 90)
{
	struct rdma_addrinfo_event ev;
	long long t0, dt;
	char name[128];
	long c0;
	__u32 h;

	async_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	t0 = rai_now_ms();
	ASSERT_EQ(0, rai_resolve_async(self->fd,
				       rai_unique_name(name, sizeof(name), "held"),
				       NULL, AF_UNSPEC, 0, 5, &h));
	dt = rai_now_ms() - t0;
	EXPECT_GT(2000, dt) TH_LOG("asynchronous RESOLVE blocked %lld ms", dt);
	/* The upcall started and is held: no event yet. */
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	EXPECT_FALSE(rai_readable(self->fd));
	rai_upcall_hold(false);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 30000));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

TEST_F_TIMEOUT(async, poll_wakes_when_request_completes, 90)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct release_later rl = { .tid = gettid() };
	struct rdma_addrinfo_event ev;
	pthread_t thr;
	long long woken;
	char name[128];
	long c0;
	__u32 h;
	int ret;

	async_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	ASSERT_EQ(0, rai_resolve_async(self->fd,
				       rai_unique_name(name, sizeof(name), "poll"),
				       NULL, AF_UNSPEC, 0, 6, &h));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	ASSERT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, pthread_create(&thr, NULL, release_later, &rl));
	ret = poll(&p, 1, 60000);
	woken = rai_now_ms();
	pthread_join(thr, NULL);
	EXPECT_EQ(0, rl.late) TH_LOG("poll never slept");
	ASSERT_EQ(1, ret) TH_LOG("poll did not wake in 60 s");
	EXPECT_TRUE(p.revents & POLLIN);
	EXPECT_LE(rl.at, woken) TH_LOG("poll returned before the completion");
	ASSERT_EQ(0, rai_dev_get_event(self->fd, &ev));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(6, ev.context);
	/* Drained: poll no longer reports input. */
	p.revents = 0;
	EXPECT_EQ(0, poll(&p, 1, 0));
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
}

TEST_F_TIMEOUT(async, blocking_read_wakes_when_request_completes, 90)
{
	struct release_later rl = { .tid = gettid() };
	struct rdma_addrinfo_event ev;
	pthread_t thr;
	char name[128];
	long c0;
	__u32 h;
	int bfd;
	ssize_t len;

	bfd = rai_dev_open(0);	/* blocking */
	ASSERT_LE(0, bfd);
	async_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	ASSERT_EQ(0, rai_resolve_async(bfd,
				       rai_unique_name(name, sizeof(name), "read"),
				       NULL, AF_UNSPEC, 0, 7, &h));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	ASSERT_EQ(0, pthread_create(&thr, NULL, release_later, &rl));
	len = read(bfd, &ev, sizeof(ev));
	pthread_join(thr, NULL);
	EXPECT_EQ(0, rl.late) TH_LOG("read never slept");
	ASSERT_EQ((ssize_t)sizeof(ev), len);
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(7, ev.context);
	EXPECT_EQ(0, rai_destroy(bfd, h, NULL));
	close(bfd);
}

TEST_F(async, read_and_get_event_return_the_same_events)
{
	struct rdma_addrinfo_event evs[8], ev;
	char node[32];
	ssize_t len;
	int i, idx;

	for (i = 0; i < 4; i++) {
		snprintf(node, sizeof(node), "192.0.2.%d", 100 + i);
		ASSERT_EQ(0, rai_resolve_async(self->fd, node, NULL, AF_INET,
					       RDMA_ADDRINFO_RAI_NUMERICHOST,
					       CTX_BASE + i, &self->handles[i]));
	}
	/* Let the four complete: then their events are all queued. */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, rai_wait_done(self->fd, self->handles[i], 5000));
	/* read(): a buffer of 2.5 events receives 2 whole ones. */
	len = read(self->fd, evs, 2 * sizeof(ev) + sizeof(ev) / 2);
	ASSERT_EQ((ssize_t)(2 * sizeof(ev)), len);
	ASSERT_EQ(0, rai_dev_get_event(self->fd, &evs[2]));
	ASSERT_EQ(0, rai_dev_get_event(self->fd, &evs[3]));
	memset(self->seen, 0, sizeof(self->seen));
	for (i = 0; i < 4; i++) {
		idx = evs[i].context - CTX_BASE;
		ASSERT_LE(0, idx);
		ASSERT_GT(4, idx);
		EXPECT_EQ(0, self->seen[idx]);
		self->seen[idx] = 1;
		EXPECT_EQ(self->handles[idx], evs[i].handle);
		EXPECT_EQ(RDMA_ADDRINFO_EVENT_RESOLVED, evs[i].event);
		EXPECT_EQ(0, evs[i].status);
		EXPECT_EQ(1, evs[i].num_results);
	}
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(self->fd, &ev));
	/* A big buffer: as many as are queued. */
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, rai_destroy(self->fd, self->handles[i], NULL));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.200", NULL,
					       AF_INET, 0, CTX_BASE + i,
					       &self->handles[i]));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, rai_wait_done(self->fd, self->handles[i], 5000));
	len = read(self->fd, evs, sizeof(evs));
	EXPECT_EQ((ssize_t)(2 * sizeof(ev)), len);
}

TEST_F(async, sync_resolve_queues_no_event)
{
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_event ev;

	ASSERT_EQ(0, rai_resolve_sync_str(self->fd, "192.0.2.5", NULL, AF_INET,
					  0, &r));
	ASSERT_EQ(0, r.status);
	EXPECT_EQ(1, r.num_results);
	/* None comes within 200 ms: time is the test. */
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 200));
	EXPECT_FALSE(rai_readable(self->fd));
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(self->fd, &ev));
	EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
}

TEST_F(async, destroy_drops_queued_event)
{
	struct rdma_addrinfo_event ev;
	long long end;
	__u32 h, dropped = 99;

	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.6", NULL, AF_INET,
				       0, 8, &h));
	end = rai_now_ms() + 5000;
	while (!rai_readable(self->fd) && rai_now_ms() < end)
		usleep(1000);	/* the pace of a look with a deadline */
	ASSERT_TRUE(rai_readable(self->fd));
	ASSERT_EQ(0, rai_destroy(self->fd, h, &dropped));
	EXPECT_EQ(1, dropped);
	EXPECT_FALSE(rai_readable(self->fd));
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(self->fd, &ev));
}

TEST_F_TIMEOUT(async, destroy_in_flight_cancels_without_late_event, 90)
{
	struct rdma_addrinfo_event ev;
	char name[128];
	__u32 dropped;
	long c0;
	int i;

	async_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd,
					       rai_unique_name(name, sizeof(name),
							       "cancel"),
					       NULL, AF_UNSPEC, 0, CTX_BASE + i,
					       &self->handles[i]));
	/* At least one is in its upcall, the others in flight or queued. */
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	for (i = 0; i < 8; i++) {
		dropped = 99;
		ASSERT_EQ(0, rai_destroy(self->fd, self->handles[i], &dropped));
		EXPECT_EQ(0, dropped);
	}
	rai_upcall_hold(false);
	/* The upcalls finish; no event may surface for the handles. */
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 4000))
		TH_LOG("late event: handle %u context 0x%llx", ev.handle,
		       (unsigned long long)ev.context);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(-ENOENT, rai_destroy(self->fd, self->handles[i], NULL));
}

TEST_HARNESS_MAIN
