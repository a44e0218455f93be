// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's SA backend against the test SA responder
 * (selftests/world/sa: sa-world serves records.example from RAI_IBDEV_B)
 * over Soft-RoCE, straight on the ioctls: lookups by service name and ID,
 * an RMPP table, coalescing and the cache (MADs counted at the responder),
 * time-outs, error and malformed replies, a renamed device and the device
 * removed mid-query (last: it puts the device back).
 *
 * Each test starts with the SA cache empty (a fresh sa_gid write drops it)
 * and a responder that answers normally and has counted no MAD yet.  A
 * burst is N identical asynchronous RESOLVE(RAI_SA) requests on one file,
 * all in flight together, then their N events, tallied by status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define SA_RENAMED	"raitmp0"	/* a name no device has */
#define SA_UNKNOWN_GID	"fd00::99"	/* an sa_gid nobody answers */
#define SA_BULK_RECORDS	12		/* records named "bulk": 11 segments */
#define SA_EVENT_MS	60000		/* longest wait for one event */
#define SA_MAX_CODES	8

/* How the events of a burst ended. */
struct sa_tally {
	unsigned int requests;
	unsigned int events;
	unsigned int ok;
	unsigned int ncodes;
	int code[SA_MAX_CODES];
	unsigned int count[SA_MAX_CODES];
};

/* Events of @t with status @status. */
static unsigned int sa_tally_of(const struct sa_tally *t, int status)
{
	unsigned int i;

	for (i = 0; i < t->ncodes; i++)
		if (t->code[i] == status)
			return t->count[i];
	return 0;
}

/* "requests 1 events 1 ok 0 status[-6]=1", for the log. */
static const char *sa_tally_text(const struct sa_tally *t, char *buf,
				 size_t size)
{
	size_t len;
	unsigned int i;

	len = snprintf(buf, size, "requests %u events %u ok %u", t->requests,
		       t->events, t->ok);
	for (i = 0; i < t->ncodes && len < size; i++)
		len += snprintf(buf + len, size - len, " status[%d]=%u",
				t->code[i], t->count[i]);
	return buf;
}

/* Count one event's status into @t. */
static void sa_tally_add(struct sa_tally *t, int status)
{
	unsigned int i;

	t->events++;
	t->ok += !status;
	for (i = 0; i < t->ncodes && t->code[i] != status; i++)
		;
	if (i == SA_MAX_CODES)
		return;
	if (i == t->ncodes)
		t->code[t->ncodes++] = status;
	t->count[i]++;
}

/* Start @n RESOLVE(RAI_SA) of @service on port 1 of @dev on @fd: 0/-errno. */
static int sa_burst_start(int fd, const char *dev, unsigned int n,
			  bool noroute, const char *service)
{
	struct rdma_addrinfo_resolve req;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		rai_req_init(&req, NULL, service, 0, RDMA_ADDRINFO_RAI_SA |
			     (noroute ? RDMA_ADDRINFO_RAI_NOROUTE : 0), 0, i);
		req.port_num = 1;
		snprintf(req.ibdev_name, sizeof(req.ibdev_name), "%s", dev);
		ret = rai_resolve(fd, &req);
		if (ret)
			return ret;
	}
	return 0;
}

/* Wait for the events of @t->requests requests on @fd and tally them. */
static int sa_burst_collect(int fd, struct sa_tally *t)
{
	struct rdma_addrinfo_event ev;
	int ret;

	while (t->events < t->requests) {
		ret = rai_wait_event(fd, &ev, SA_EVENT_MS);
		if (ret)
			return ret;
		sa_tally_add(t, ev.status);
	}
	return 0;
}

/*
 * A burst of @n requests for @service on @dev, all in flight together:
 * 0 with @t filled in, or -errno of an ioctl (the log says which).
 */
static int sa_burst(const char *dev, unsigned int n, bool noroute,
		    const char *service, struct sa_tally *t)
{
	char text[160];
	int fd, ret;

	memset(t, 0, sizeof(*t));
	t->requests = n;
	fd = rai_dev_open(0);
	if (fd < 0)
		return fd;
	ret = sa_burst_start(fd, dev, n, noroute, service);
	if (!ret)
		ret = sa_burst_collect(fd, t);
	close(fd);
	fprintf(stderr, "# %s on %s: %s%s%s\n", service, dev,
		sa_tally_text(t, text, sizeof(text)), ret ? ", error " : "",
		ret ? strerror(-ret) : "");
	return ret;
}

/* Run "selftests/world/sa/sa-world @args": its exit status. */
static int sa_world_cmd(const char *args)
{
	return rai_sh("%s/selftests/world/sa/sa-world %s >/dev/null",
		      rai_env("RAI_REPO", "."), args);
}

/* The MADs the responder received since its count was last reset, or -1. */
static long sa_world_mads(void)
{
	return rai_sh_number("%s/selftests/world/sa/sa-world count",
			     rai_env("RAI_REPO", "."));
}

/* Is port 1 of @dev ACTIVE again (rdma link show)? */
static bool sa_port_active(const char *dev)
{
	return !rai_sh("rdma link show %s/1 2>/dev/null | grep -q ACTIVE", dev);
}

FIXTURE(sa) {
	char sa_gid[64];	/* sa_gid to restore ("": none) */
	char timeout_ms[32];	/* sa_timeout_ms and sa_retries to restore */
	char retries[32];
	bool params_changed;
	bool renamed;		/* RAI_IBDEV_A is called SA_RENAMED */
	bool removed;		/* RAI_IBDEV_A is deleted */
	struct sa_tally t;
};

/* A fresh world: responder restarted, SA cache dropped, count 0. */
FIXTURE_SETUP(sa)
{
	sa_world_cmd("stop");
	/* Empty (no SA: -EIO) is a value too. */
	rai_param_get("sa_gid", self->sa_gid, sizeof(self->sa_gid));
	ASSERT_EQ(0, rai_param_set("sa_gid", SA_UNKNOWN_GID));
	ASSERT_EQ(0, sa_world_cmd("start"))
		TH_LOG("sa-world start: no SA responder (is selftests/world/sa built?)");
	ASSERT_EQ(0, sa_world_cmd("mode normal"));
	ASSERT_EQ(0, sa_world_cmd("reset"));
}

/* The world as it was: parameters, the device's name and the device. */
FIXTURE_TEARDOWN(sa)
{
	int i;

	if (self->params_changed) {
		EXPECT_EQ(0, rai_param_set("sa_timeout_ms", self->timeout_ms));
		EXPECT_EQ(0, rai_param_set("sa_retries", self->retries));
	}
	if (self->renamed)
		EXPECT_EQ(0, rai_sh("rdma dev set %s name %s", SA_RENAMED,
				    RAI_IBDEV_A));
	if (self->removed) {
		EXPECT_EQ(0, rai_sh("rdma link add %s type rxe netdev %s",
				    RAI_IBDEV_A, RAI_NETDEV_A));
	}
	sa_world_cmd("stop");
	/*
	 * No SA for the programs after this one, as before it: sa-world
	 * pointed sa_gid at a responder that is gone now.
	 */
	EXPECT_EQ(0, rai_param_set("sa_gid", self->sa_gid[0] ? self->sa_gid :
							  "\n"));
	if (self->removed) {
		for (i = 0; i < 50 && !sa_port_active(RAI_IBDEV_A); i++)
			usleep(100000);	/* the pace of a look, 5 s at most */
	}
}

/* A service name resolves to its record. */
TEST_F_TIMEOUT(sa, service_name_resolves, 120)
{
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-a", &self->t));
	EXPECT_EQ(1, self->t.ok);
}

/* A service ID resolves to its record. */
TEST_F_TIMEOUT(sa, service_id_resolves, 120)
{
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "0x1000000000000002",
			      &self->t));
	EXPECT_EQ(1, self->t.ok);
}

/* A table of 12 records arrives over RMPP (11 segments), all of them. */
TEST_F_TIMEOUT(sa, rmpp_table_of_12_records, 120)
{
	struct rdma_addrinfo_resolve req;
	struct rdma_addrinfo_result *res;
	char buf[128];
	__s32 status;
	__u32 n, i;
	int fd;

	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	rai_req_init(&req, NULL, "bulk", 0, RDMA_ADDRINFO_RAI_SA |
		     RDMA_ADDRINFO_RAI_NOROUTE, 0, 0);
	req.port_num = 1;
	snprintf(req.ibdev_name, sizeof(req.ibdev_name), "%s", RAI_IBDEV_A);
	ASSERT_EQ(0, rai_lookup_req(fd, &req, &res, &n, &status));
	close(fd);
	EXPECT_EQ(0, status);
	EXPECT_EQ(SA_BULK_RECORDS, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(AF_IB, res[i].family);
		EXPECT_EQ(AF_IB, rai_addr_family(res[i].dst_addr,
						 res[i].dst_len));
		EXPECT_EQ(NULL, rai_result_defect(&res[i], buf, sizeof(buf)))
			TH_LOG("result %u: %s", i, buf);
	}
	free(res);
}

/* No record matches: -ENXIO. */
TEST_F_TIMEOUT(sa, no_matching_record_enxio, 120)
{
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "no-such-service",
			      &self->t));
	EXPECT_EQ(1, sa_tally_of(&self->t, -ENXIO));
}

/* 1000 identical queries in flight together: all answered by <= 2 MADs. */
TEST_F_TIMEOUT(sa, burst_of_1000_coalesced, 240)
{
	long mads;

	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1000, false, "svc-a", &self->t));
	mads = sa_world_mads();
	EXPECT_EQ(1000, self->t.ok);
	EXPECT_LE(0, mads);
	EXPECT_GE(2, mads);
}

/* Once answered, 100 repeats come from the cache: 0 MADs. */
TEST_F_TIMEOUT(sa, cached_repeat_sends_no_mad, 120)
{
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, false, "svc-a", &self->t));
	ASSERT_EQ(1, self->t.ok);
	ASSERT_EQ(0, sa_world_cmd("reset"));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 100, false, "svc-a", &self->t));
	EXPECT_EQ(100, self->t.ok);
	EXPECT_EQ(0, sa_world_mads());
}

/* A silent SA: -ETIMEDOUT after the first MAD and sa_retries (2) more. */
TEST_F_TIMEOUT(sa, silent_sa_times_out_after_retries, 120)
{
	ASSERT_EQ(0, rai_param_get("sa_timeout_ms", self->timeout_ms,
				   sizeof(self->timeout_ms)));
	ASSERT_EQ(0, rai_param_get("sa_retries", self->retries,
				   sizeof(self->retries)));
	self->params_changed = true;
	ASSERT_EQ(0, rai_param_set("sa_timeout_ms", "300"));
	ASSERT_EQ(0, rai_param_set("sa_retries", "2"));
	ASSERT_EQ(0, sa_world_cmd("mode silent"));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-b", &self->t));
	EXPECT_EQ(1, sa_tally_of(&self->t, -ETIMEDOUT));
	EXPECT_EQ(3, sa_world_mads());
}

/* An error status in the SA's reply: -EREMOTEIO. */
TEST_F_TIMEOUT(sa, sa_error_status_eremoteio, 120)
{
	ASSERT_EQ(0, sa_world_cmd("mode status status=0x0100"));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-b", &self->t));
	EXPECT_EQ(1, sa_tally_of(&self->t, -EREMOTEIO));
}

/* A reply cut short: -EPROTO. */
TEST_F_TIMEOUT(sa, truncated_reply_eproto, 120)
{
	ASSERT_EQ(0, sa_world_cmd("mode truncate"));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-b", &self->t));
	EXPECT_EQ(1, sa_tally_of(&self->t, -EPROTO));
}

/* A reply of the wrong attribute: -EPROTO. */
TEST_F_TIMEOUT(sa, wrong_attribute_reply_eproto, 120)
{
	ASSERT_EQ(0, sa_world_cmd("mode badattr"));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-b", &self->t));
	EXPECT_EQ(1, sa_tally_of(&self->t, -EPROTO));
}

/*
 * A renamed device is found under its new name only (the RDMA core
 * compares the names, under its own lock): the old one is -ENODEV.
 */
TEST_F_TIMEOUT(sa, renamed_device_new_name_only, 120)
{
	struct sa_tally old;

	ASSERT_EQ(0, rai_sh("rdma dev set %s name %s", RAI_IBDEV_A,
			    SA_RENAMED));
	self->renamed = true;
	ASSERT_EQ(0, sa_burst(SA_RENAMED, 1, true, "svc-a", &self->t));
	ASSERT_EQ(0, sa_burst(RAI_IBDEV_A, 1, true, "svc-a", &old));
	EXPECT_EQ(1, self->t.ok);
	EXPECT_EQ(1, sa_tally_of(&old, -ENODEV));
}

/*
 * Last: the device goes away with 20 queries waiting for a slow SA (4 s):
 * every one ends with -ENODEV.  The teardown adds the device again.
 */
TEST_F_TIMEOUT(sa, device_removed_mid_query_enodev, 120)
{
	long long q0 = rai_debugfs_counter("sa", "queries");
	long long m0 = rai_debugfs_counter("sa", "mads_sent");
	char text[160];
	int fd, ret;

	ASSERT_LE(0, q0) TH_LOG("no debugfs counters of the SA client");
	ASSERT_EQ(0, sa_world_cmd("mode slow delay_ms=4000"));
	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	self->t.requests = 20;
	ASSERT_EQ(0, sa_burst_start(fd, RAI_IBDEV_A, 20, true, "svc-b"));
	/* All 20 on the port, the MAD out to the slow SA: mid-query. */
	ASSERT_LE(q0 + 20,
		  rai_debugfs_counter_wait("sa", "queries", q0 + 20, 10000));
	ASSERT_LT(m0, rai_debugfs_counter_wait("sa", "mads_sent", m0 + 1,
					       10000));
	ASSERT_EQ(0, rai_sh("rdma link delete %s", RAI_IBDEV_A));
	self->removed = true;
	ret = sa_burst_collect(fd, &self->t);
	close(fd);
	TH_LOG("%s", sa_tally_text(&self->t, text, sizeof(text)));
	ASSERT_EQ(0, ret);
	EXPECT_EQ(20, sa_tally_of(&self->t, -ENODEV));
}

TEST_HARNESS_MAIN
