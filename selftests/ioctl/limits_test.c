// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Limits: the per-file cap on requests (EMFILE, room again after DESTROY),
 * and, with the module reloaded with small parameters, the module-wide cap
 * (ENFILE), max_results and the bound on concurrent upcalls; GET_INFO
 * reports the parameters.  The module is loaded back with the runner's
 * parameters afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

/* Above this the per-fd cap test would take too long under TCG. */
#define CAP_TEST_MAX	70000

FIXTURE(limits) {
	int fd;
	int fd2;
};

FIXTURE_SETUP(limits)
{
	self->fd2 = -1;
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(limits)
{
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->fd >= 0)
		close(self->fd);
}

/* A cheap request: a numeric literal, synchronous (no event). */
static int cheap(int fd, __u32 i, __u32 *handle)
{
	struct rdma_addrinfo_resolve r;
	char node[32];
	int ret;

	snprintf(node, sizeof(node), "10.%u.%u.%u", (i >> 16) & 0xff,
		 (i >> 8) & 0xff, i & 0xff);
	ret = rai_resolve_sync_str(fd, node, NULL, AF_INET,
				   RDMA_ADDRINFO_RAI_NUMERICHOST, &r);
	if (!ret && handle)
		*handle = r.handle;
	return ret;
}

TEST_F_TIMEOUT(limits, per_fd_cap_emfile_then_room_after_destroy, 120)
{
	struct rdma_addrinfo_info info;
	__u32 *handles, i, cap;
	int ret;

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	cap = info.max_requests_per_fd;
	ASSERT_NE(0, cap);
	if (cap > CAP_TEST_MAX)
		SKIP(return, "max_requests_per_fd %u too large to fill here",
		     cap);
	handles = calloc(cap, sizeof(*handles));
	ASSERT_NE(NULL, handles);
	for (i = 0; i < cap; i++) {
		ret = cheap(self->fd, i, &handles[i]);
		ASSERT_EQ(0, ret) TH_LOG("request %u of %u: %s", i, cap,
					 strerror(-ret));
	}
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(cap, info.requests);
	/* One past the cap: EMFILE, sync or async alike, repeatedly. */
	EXPECT_EQ(-EMFILE, cheap(self->fd, cap, NULL));
	EXPECT_EQ(-EMFILE, rai_resolve_async(self->fd, "192.0.2.1", NULL,
					     AF_INET, 0, 1, NULL));
	EXPECT_EQ(-EMFILE, cheap(self->fd, cap + 1, NULL));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(cap, info.requests);
	/* Another file is not affected by this file's cap. */
	if (info.max_requests_total > cap) {
		self->fd2 = rai_dev_open(O_NONBLOCK);
		ASSERT_LE(0, self->fd2);
		EXPECT_EQ(0, rai_fd_works(self->fd2));
	}
	/* Room again after DESTROY, exactly as much as was freed. */
	ASSERT_EQ(0, rai_destroy(self->fd, handles[0], NULL));
	ASSERT_EQ(0, rai_destroy(self->fd, handles[1], NULL));
	EXPECT_EQ(0, cheap(self->fd, 0, &handles[0]));
	EXPECT_EQ(0, cheap(self->fd, 1, &handles[1]));
	EXPECT_EQ(-EMFILE, cheap(self->fd, 2, NULL));
	free(handles);
	/* close() frees them all at once. */
	close(self->fd);
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

/* ---- with the module reloaded with small parameters -------------------- */

#define SMALL_PARAMS "max_requests_per_fd=8 max_requests=12 max_results=2 max_upcalls=1"

FIXTURE(small) {
	int fd;
	int fd2;
	bool counter;
	bool reloaded;
};

/* The 6.1 harness runs the test even when its setup SKIPs. */
#define NEED_SMALL() do { if (!self->reloaded) return; } while (0)

static int reload(const char *params)
{
	long long end = rai_now_ms() + 10000;
	int ret;

	while ((ret = rai_module_unload()) == -EAGAIN || ret == -EBUSY) {
		if (rai_now_ms() > end)
			return ret;
		usleep(50000);	/* the pace of the tries */
	}
	if (ret && ret != -ENOENT)
		return ret;
	return rai_module_load(params);
}

FIXTURE_SETUP(small)
{
	int ret;

	self->fd = self->fd2 = -1;
	if (!rai_module_loaded())
		SKIP(return, "module not loaded by the runner");
	ret = reload(SMALL_PARAMS);
	self->reloaded = true;
	ASSERT_EQ(0, ret) TH_LOG("insmod rdma_addrinfo.ko %s: %s",
				 SMALL_PARAMS, strerror(-ret));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(small)
{
	int ret;

	if (self->counter)
		rai_upcall_counter_remove();
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->fd >= 0)
		close(self->fd);
	if (!self->reloaded)
		return;
	ret = reload(NULL);
	if (ret)
		TH_LOG("reloading with the runner's parameters: %s",
		       strerror(-ret));
}

TEST_F(small, get_info_reports_module_parameters)
{
	struct rdma_addrinfo_info info;

	NEED_SMALL();

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(8, info.max_requests_per_fd);
	EXPECT_EQ(12, info.max_requests_total);
	EXPECT_EQ(2, info.max_results);
	EXPECT_EQ(1, info.max_upcalls);
}

TEST_F(small, module_wide_cap_enfile_then_room_after_destroy)
{
	__u32 ha[8], hb[4], i;

	NEED_SMALL();

	self->fd2 = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd2);
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, cheap(self->fd, i, &ha[i]));
	EXPECT_EQ(-EMFILE, cheap(self->fd, 8, NULL));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, cheap(self->fd2, i, &hb[i]));
	/* 12 in all: the other file is below its own cap but gets ENFILE. */
	EXPECT_EQ(-ENFILE, cheap(self->fd2, 4, NULL));
	/* Freed on one file, usable by the other. */
	ASSERT_EQ(0, rai_destroy(self->fd, ha[0], NULL));
	EXPECT_EQ(0, cheap(self->fd2, 4, NULL));
	EXPECT_EQ(-ENFILE, cheap(self->fd2, 5, NULL));
	/* Closing a file gives all its share back. */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, cheap(self->fd2, 6, NULL));
	EXPECT_EQ(0, cheap(self->fd2, 7, NULL));
	EXPECT_EQ(0, cheap(self->fd2, 8, NULL));
	EXPECT_EQ(-EMFILE, cheap(self->fd2, 9, NULL));
}

TEST_F(small, max_results_bounds_the_answer)
{
	struct rdma_addrinfo_result *res;
	__s32 status;
	__u32 n;

	NEED_SMALL();

	/* multi.rai.test has 4 addresses; 2 are kept. */
	ASSERT_EQ(0, rai_lookup_str(self->fd, RAI_ZONE_MULTI, NULL, AF_UNSPEC,
				    0, &res, &n, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(2, n);
	free(res);
}

TEST_F_TIMEOUT(small, concurrent_upcalls_bounded_by_max_upcalls, 90)
{
	struct rdma_addrinfo_event ev;
	char name[128];
	long long t0;
	long c0;
	int i, ret;

	NEED_SMALL();

	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	self->counter = true;
	c0 = rai_upcall_count();
	t0 = rai_stat("dns_throttled");
	ASSERT_LE(0, t0);
	ASSERT_EQ(0, rai_upcall_hold(true));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd,
					       rai_unique_name(name, sizeof(name),
							       "bound"),
					       NULL, AF_UNSPEC, 0, i, NULL));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	/* max_upcalls=1: while the first is held, the others wait for it. */
	EXPECT_LE(t0 + 2, rai_stat_wait("dns_throttled", t0 + 2, 10000));
	/* And no second one starts meanwhile: an absence, over 1.5 s. */
	usleep(1500000);
	EXPECT_EQ(c0 + 1, rai_upcall_count());
	rai_upcall_hold(false);
	/* ... and all three complete once it is released. */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 20000))
			TH_LOG("only %d of 3 completed", i);
	/*
	 * Where batches are on, names that waited share one upcall: the
	 * first one's too if all three waited before it started.
	 */
	if (rai_dns_helper_active() &&
	    !rai_param_get("dns_batch_names", name, sizeof(name)) &&
	    atoi(name) > 1) {
		EXPECT_GE(c0 + 2, rai_upcall_count());
	} else {
		EXPECT_EQ(c0 + 3, rai_upcall_count());
	}
}

/*
 * The record that charges a name's keys to the key budget lives while its
 * upcall runs, however long that takes.  It used to be given 60 s until
 * the answer: an upcall held longer saw its record reaped by the next
 * name's charge and then wrote to it when it ended (a use after free; the
 * keys it left were missing from the budget).
 */
TEST_F_TIMEOUT(small, name_record_outlives_a_slow_upcall, 300)
{
	struct rdma_addrinfo_event ev;
	char name[128], helper[8];
	int per_name;
	long c0;

	NEED_SMALL();
	/* Key records are no ABI matter: 62 s once, not again for compat. */
	if (sizeof(long) == 4)
		SKIP(return, "the x86_64 program covers it");

	/* Room for a second upcall beside the held one, and no deadline. */
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, reload("max_upcalls=4 dns_timeout_ms=0"));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, rai_upcall_counter_install());
	self->counter = true;
	ASSERT_EQ(0, rai_param_get("dns_helper", helper, sizeof(helper)));
	/* The rai: key, and the plain one should the helper be missing. */
	per_name = helper[0] == 'Y' ? 2 : 1;
	ASSERT_EQ(0, rai_stat("dns_keys"));

	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold_names("slowrec"));
	ASSERT_EQ(0, rai_resolve_async(self->fd,
				       rai_unique_name(name, sizeof(name),
						       "slowrec"),
				       NULL, AF_UNSPEC, 0, 1, NULL));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	EXPECT_EQ(per_name, rai_stat("dns_keys"));

	/* Past the 60 s a record had; another name's charge reaps. */
	sleep(62);	/* a record's 60 s: time itself */
	ASSERT_EQ(0, rai_resolve_async(self->fd,
				       rai_unique_name(name, sizeof(name),
						       "after"),
				       NULL, AF_UNSPEC, 0, 2, NULL));
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 60000));
	EXPECT_EQ(2, ev.context);
	EXPECT_EQ(2 * per_name, rai_stat("dns_keys"));

	rai_upcall_release_names();
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 60000));
	EXPECT_EQ(1, ev.context);
	EXPECT_EQ(2 * per_name, rai_stat("dns_keys"));
}

TEST_HARNESS_MAIN
