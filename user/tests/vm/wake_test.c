// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Wake-ups of channel->fd (librdmacm with rdma_write_cm_event on Linux
 * 6.18+): a program that polls only channel->fd, as it does for every
 * other rdma_cm event, wakes for ADDRINFO events and gets them, never the
 * library's RDMA_CM_EVENT_USER wake-ups; its own USER events still arrive;
 * destroying ids with a wake-up queued neither hangs nor leaves anything.
 *
 * Skips where the library cannot do that (Debian 12's librdmacm 44, or a
 * kernel before 6.18) unless RAI_WAKE_REQUIRED=1 (the 7.3 phase of make
 * check, run in a forky root with rdma-core 65), which makes it a failure.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define APP_ARG		0x1122334455667788ULL
#define APP_STATUS	42

FIXTURE(wake) {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
};

FIXTURE_SETUP(wake)
{
	const char *why;

	if (!rai_wake_expected(&why)) {
		if (getenv("RAI_WAKE_REQUIRED")) {
			ASSERT_TRUE(0) TH_LOG("RAI_WAKE_REQUIRED: %s", why);
		}
		SKIP(return, "%s", why);
	}
	self->ch = rdma_create_event_channel();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->id, NULL, RDMA_PS_TCP));
}

FIXTURE_TEARDOWN(wake)
{
	if (self->id)
		rdma_destroy_id(self->id);
	if (self->ch)
		rdma_destroy_event_channel(self->ch);
}

/* Poll channel->fd alone.  Return: 1 readable, 0 timed out. */
static int channel_fd_readable(struct rdma_event_channel *ch, int timeout_ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLIN);
}

/* Wait on channel->fd alone, then the event; NULL if none came. */
static struct rdma_cm_event *next_event(struct __test_metadata *_metadata,
					struct rdma_event_channel *ch,
					int timeout_ms)
{
	struct rdma_cm_event *ev;

	if (!channel_fd_readable(ch, timeout_ms)) {
		TH_LOG("channel->fd did not become readable in %d ms",
		       timeout_ms);
		return NULL;
	}
	if (rdma_get_cm_event(ch, &ev)) {
		TH_LOG("rdma_get_cm_event: %s", strerror(errno));
		return NULL;
	}
	return ev;
}

static void expect_answer(struct __test_metadata *_metadata,
			    struct rdma_cm_event *ev, struct rdma_cm_id *id,
			    int resolved)
{
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(id, ev->id);
	EXPECT_EQ(resolved ? RDMA_CM_EVENT_ADDRINFO_RESOLVED :
			     RDMA_CM_EVENT_ADDRINFO_ERROR, ev->event);
	if (resolved) {
		EXPECT_EQ(0, ev->status);
	} else {
		EXPECT_NE(0, ev->status);
	}
	EXPECT_EQ(0, rdma_ack_cm_event(ev));
}

TEST_F(wake, channel_fd_alone_wakes_for_a_resolved_name)
{
	struct rdma_addrinfo *res;

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, RAI_ZONE_PEER, "4791",
					   NULL));
	expect_answer(_metadata, next_event(_metadata, self->ch, 20000),
			self->id, 1);
	ASSERT_EQ(0, rdma_query_addrinfo(self->id, &res));
	EXPECT_LE(1, rai_count(res));
	rdma_freeaddrinfo(res);
	/* One wake-up per event: nothing is left to wake a poller. */
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

TEST_F(wake, channel_fd_alone_wakes_for_a_bad_name)
{
	char name[96];

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id,
		  rai_fresh_missing_name(name, sizeof(name)), NULL, NULL));
	expect_answer(_metadata, next_event(_metadata, self->ch, 20000),
			self->id, 0);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

TEST_F(wake, each_id_gets_its_one_event_through_channel_fd)
{
	struct rdma_cm_id *ids[4];
	int seen[4] = { 0 }, i, n;
	struct rdma_cm_event *ev;
	char name[96];

	RAI_RETURN_IF_SKIPPED();
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, rdma_create_id(self->ch, &ids[i], NULL,
					    RDMA_PS_TCP));
		ASSERT_EQ(0, rdma_resolve_addrinfo(ids[i], i % 2 ?
			  rai_fresh_missing_name(name, sizeof(name)) :
			  RAI_ZONE_PEER, NULL, NULL));
	}
	for (n = 0; n < 4; n++) {
		ev = next_event(_metadata, self->ch, 20000);
		ASSERT_NE(NULL, ev);
		for (i = 0; i < 4 && ids[i] != ev->id; i++)
			;
		if (i == 4) {
			ASSERT_LT(i, 4) TH_LOG("an event for an unknown id");
			return;
		}
		seen[i]++;
		EXPECT_EQ(i % 2 ? RDMA_CM_EVENT_ADDRINFO_ERROR :
				  RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev->event);
		EXPECT_EQ(0, rdma_ack_cm_event(ev));
	}
	for (i = 0; i < 4; i++)
		EXPECT_EQ(1, seen[i]);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, rdma_destroy_id(ids[i]));
}

TEST_F(wake, applications_own_user_events_still_arrive)
{
	int got_user = 0, got_addrinfo = 0, n;
	unsigned long long arg;
	struct rdma_cm_event *ev;

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, RAI_ZONE_PEER, NULL,
					   NULL));
	ASSERT_EQ(0, rai_write_cm_event()(self->id, RAI_TEST_CM_EVENT_USER,
					  APP_STATUS, APP_ARG));
	for (n = 0; n < 2; n++) {
		ev = next_event(_metadata, self->ch, 20000);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(self->id, ev->id);
		if (ev->event == RAI_TEST_CM_EVENT_USER) {
			memcpy(&arg, &ev->param, sizeof(arg));
			EXPECT_EQ(APP_ARG, arg);
			EXPECT_EQ(APP_STATUS, ev->status);
			got_user++;
		} else {
			EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev->event);
			got_addrinfo++;
		}
		EXPECT_EQ(0, rdma_ack_cm_event(ev));
	}
	EXPECT_EQ(1, got_user);
	EXPECT_EQ(1, got_addrinfo);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

/* rdma_destroy_id() waits for the id's acknowledged events: not ours. */
TEST_F_TIMEOUT(wake, destroying_id_and_channel_with_a_wake_up_queued_is_clean,
	       60)
{
	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, RAI_ZONE_PEER, NULL,
					   NULL));
	ASSERT_EQ(1, channel_fd_readable(self->ch, 20000));
	EXPECT_EQ(0, rdma_destroy_id(self->id));
	self->id = NULL;
	/* The queued wake-up went with the id. */
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
	rdma_destroy_event_channel(self->ch);
	self->ch = NULL;
}

TEST_F_TIMEOUT(wake, other_ids_events_survive_a_destroyed_ids_wake_up, 60)
{
	struct rdma_cm_id *other;
	char name[96];

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_create_id(self->ch, &other, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_resolve_addrinfo(other, RAI_ZONE_PEER, NULL, NULL));
	ASSERT_EQ(1, channel_fd_readable(self->ch, 20000));
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id,
		  rai_fresh_missing_name(name, sizeof(name)), NULL, NULL));
	EXPECT_EQ(0, rdma_destroy_id(other));
	expect_answer(_metadata, next_event(_metadata, self->ch, 20000),
			self->id, 0);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

TEST_F(wake, nonblocking_channel_fd_alone_then_eagain)
{
	struct rdma_cm_event *ev;

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, fcntl(self->ch->fd, F_SETFL,
			   fcntl(self->ch->fd, F_GETFL) | O_NONBLOCK));
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, RAI_ZONE_PEER, NULL,
					   NULL));
	expect_answer(_metadata, next_event(_metadata, self->ch, 20000),
			self->id, 1);
	errno = 0;
	EXPECT_EQ(-1, rdma_get_cm_event(self->ch, &ev));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(wake, blocking_get_cm_event_without_poll_returns_it)
{
	struct rdma_cm_event *ev;
	char name[96];

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id,
		  rai_fresh_missing_name(name, sizeof(name)), NULL, NULL));
	ASSERT_EQ(0, rdma_get_cm_event(self->ch, &ev));
	expect_answer(_metadata, ev, self->id, 0);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

struct blocked_get {
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	int ret;
	pid_t tid;
};

static void *get_one_event(void *arg)
{
	struct blocked_get *g = arg;

	__atomic_store_n(&g->tid, gettid(), __ATOMIC_RELEASE);
	g->ret = rdma_get_cm_event(g->ch, &g->ev);
	return NULL;
}

/* It waits in librdmacm's own rdma_get_cm_event(): the wake-up reaches it. */
TEST_F_TIMEOUT(wake, thread_blocked_before_the_channels_first_request_gets_it,
	       60)
{
	struct blocked_get g = { .ch = self->ch, .ret = -1 };
	pthread_t thread;

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, pthread_create(&thread, NULL, get_one_event, &g));
	ASSERT_EQ(0, rai_thread_wait_asleep(&g.tid, RAI_ASLEEP_MS))
		TH_LOG("the thread never blocked in rdma_get_cm_event()");
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, RAI_ZONE_PEER, NULL,
					   NULL));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, g.ret);
	expect_answer(_metadata, g.ev, self->id, 1);
}

/*
 * The child's own request, polled on its channel->fd alone: 0 if it came.
 * A name that takes a full upcall, so that it is still in flight when the
 * parent's event arrives.
 */
static int child_resolves_on_its_own_channel(void)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	char name[96];
	int ok;

	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addrinfo(id, rai_fresh_missing_name(name, sizeof(name)),
				  NULL, NULL))
		return 1;
	ok = channel_fd_readable(ch, 20000) && !rdma_get_cm_event(ch, &ev) &&
	     ev->id == id && ev->event == RDMA_CM_EVENT_ADDRINFO_ERROR;
	if (ok)
		rdma_ack_cm_event(ev);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return !ok;
}

/*
 * fork() with the watcher running: no deadlock in the child, which gets
 * its own events, and the parent's event stays the parent's.
 */
TEST_F_TIMEOUT(wake, fork_with_a_request_in_flight, 90)
{
	char name[96];
	int status;
	pid_t pid;

	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id,
		  rai_fresh_missing_name(name, sizeof(name)), NULL, NULL));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(child_resolves_on_its_own_channel());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	expect_answer(_metadata, next_event(_metadata, self->ch, 20000),
			self->id, 0);
	EXPECT_EQ(0, channel_fd_readable(self->ch, 500));
}

TEST_HARNESS_MAIN
