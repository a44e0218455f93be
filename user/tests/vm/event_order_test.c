// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The order of a channel's events (issue 26 item 6): librdmacm hands them
 * out first in, first out, and rdma_get_cm_event() must too with ADDRINFO
 * events among them.  An event is "queued" once a program polling the
 * descriptors of rdma_addrinfo_channel_fd(3) sees it: the ADDRINFO event on
 * the module fd (with the wake-ups of librdmacm 60+ on 6.18+ the library's
 * thread takes it from there at once and queues its wake-up on channel->fd:
 * the module's count of completed requests, its fd empty again and every
 * other thread asleep say that is done), the rdma_cm event (ADDR_RESOLVED
 * of the peer) on channel->fd.  Each order both ways, and the control: two
 * rdma_cm events, librdmacm's own order.
 */
#include "kselftest_harness.h"
#include "vm_test.h"

/* Long enough for an ADDR_RESOLVED or a literal's ADDRINFO event. */
#define ORDER_MS	10000

FIXTURE(order) {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *a;		/* its requests: rdma_resolve_addrinfo() */
	struct rdma_cm_id *b, *c;	/* theirs: rdma_resolve_addr() */
	int module_fd;
	int wake;			/* wake.c's watcher takes the events */
	long long completed;		/* the module's count before a request */
};

FIXTURE_SETUP(order)
{
	const char *why;

	self->ch = rdma_create_event_channel();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->a, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->b, NULL, RDMA_PS_TCP));
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->c, NULL, RDMA_PS_TCP));
	self->module_fd = rdma_addrinfo_channel_fd(self->ch);
	ASSERT_LE(0, self->module_fd);
	self->wake = rai_wake_expected(&why);
}

FIXTURE_TEARDOWN(order)
{
	rdma_destroy_id(self->a);
	rdma_destroy_id(self->b);
	rdma_destroy_id(self->c);
	rdma_destroy_event_channel(self->ch);
}

/* An rdma_cm event for @id: ADDR_RESOLVED of the peer. */
static int order_start_addr(struct rdma_cm_id *id)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	inet_pton(AF_INET, RAI_IP4_B, &sin.sin_addr);
	return rdma_resolve_addr(id, NULL, (struct sockaddr *)&sin, 2000);
}

static int order_readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1;
}

/* The module's count of completed requests (debugfs), or -1. */
static long long order_completed(void)
{
	FILE *f = fopen("/sys/kernel/debug/rdma_addrinfo/stats", "re");
	long long v, found = -1;
	char key[64];

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, "completed"))
			found = v;
	fclose(f);
	return found;
}

/* rdma_resolve_addrinfo() of a literal for @self->a. */
static int order_start_addrinfo(FIXTURE_DATA(order) *self)
{
	self->completed = order_completed();
	return rdma_resolve_addrinfo(self->a, RAI_IP4_B, NULL, NULL);
}

/* Until @self->a's ADDRINFO event is queued. */
static void order_wait_addrinfo(struct __test_metadata *_metadata,
				FIXTURE_DATA(order) *self)
{
	int i;

	if (!self->wake) {
		ASSERT_TRUE(order_readable(self->module_fd, ORDER_MS))
			TH_LOG("no ADDRINFO event on the module fd");
		return;
	}
	/* The watcher's wake-up: the request done, its event read ahead. */
	ASSERT_LE(0, self->completed) TH_LOG("no debugfs statistics");
	for (i = 0; order_completed() <= self->completed ||
		    order_readable(self->module_fd, 0); i++) {
		ASSERT_GT(ORDER_MS / 10, i)
			TH_LOG("the ADDRINFO event was not read ahead");
		usleep(10000);	/* the pace of the looks, not a wait */
	}
	ASSERT_EQ(0, rai_other_threads_wait_asleep(ORDER_MS))
		TH_LOG("the library's watcher never went back to sleep");
}

/*
 * Until the rdma_cm event just started is queued, channel->fd holding
 * nothing else.  With wake.c's wake-ups it holds the ADDRINFO event's
 * wake-up too, queued first: rdma_cm's own queue then keeps the order.
 */
static void order_wait_addr(struct __test_metadata *_metadata,
			    FIXTURE_DATA(order) *self)
{
	ASSERT_TRUE(order_readable(self->ch->fd, ORDER_MS))
		TH_LOG("no rdma_cm event on channel->fd");
}

/* The next event is @type for @id; acked. */
static void order_expect(struct __test_metadata *_metadata,
			 FIXTURE_DATA(order) *self, struct rdma_cm_id *id,
			 enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev;

	ASSERT_EQ(0, rai_wait_cm_event(self->ch, &ev, ORDER_MS))
		TH_LOG("no %s: %s", rdma_event_str(type), strerror(errno));
	EXPECT_EQ(type, ev->event)
		TH_LOG("%s where %s was first",
		       rdma_event_str(ev->event), rdma_event_str(type));
	EXPECT_EQ(id, ev->id);
	EXPECT_EQ(0, ev->status);
	EXPECT_EQ(0, rdma_ack_cm_event(ev));
}

TEST_F_TIMEOUT(order, addrinfo_event_queued_first_comes_first, 60)
{
	ASSERT_EQ(0, order_start_addrinfo(self));
	order_wait_addrinfo(_metadata, self);
	ASSERT_EQ(0, order_start_addr(self->b));
	order_wait_addr(_metadata, self);
	order_expect(_metadata, self, self->a, RDMA_CM_EVENT_ADDRINFO_RESOLVED);
	order_expect(_metadata, self, self->b, RDMA_CM_EVENT_ADDR_RESOLVED);
}

TEST_F_TIMEOUT(order, rdma_cm_event_queued_first_comes_first, 60)
{
	ASSERT_EQ(0, order_start_addr(self->b));
	ASSERT_TRUE(order_readable(self->ch->fd, ORDER_MS));
	ASSERT_EQ(0, order_start_addrinfo(self));
	order_wait_addrinfo(_metadata, self);
	order_expect(_metadata, self, self->b, RDMA_CM_EVENT_ADDR_RESOLVED);
	order_expect(_metadata, self, self->a, RDMA_CM_EVENT_ADDRINFO_RESOLVED);
}

/*
 * An rdma_cm event older than the ADDRINFO event is taken; one younger
 * than it, queued afterwards, comes after it.
 */
TEST_F_TIMEOUT(order, addrinfo_event_between_two_rdma_cm_events, 60)
{
	ASSERT_EQ(0, order_start_addr(self->b));
	ASSERT_TRUE(order_readable(self->ch->fd, ORDER_MS));
	ASSERT_EQ(0, order_start_addrinfo(self));
	order_wait_addrinfo(_metadata, self);
	order_expect(_metadata, self, self->b, RDMA_CM_EVENT_ADDR_RESOLVED);
	ASSERT_EQ(0, order_start_addr(self->c));
	order_wait_addr(_metadata, self);
	order_expect(_metadata, self, self->a, RDMA_CM_EVENT_ADDRINFO_RESOLVED);
	order_expect(_metadata, self, self->c, RDMA_CM_EVENT_ADDR_RESOLVED);
}

/* The control: librdmacm's own events, in the order they were queued. */
TEST_F_TIMEOUT(order, two_rdma_cm_events_as_librdmacm_queues_them, 60)
{
	ASSERT_EQ(0, order_start_addr(self->b));
	ASSERT_TRUE(order_readable(self->ch->fd, ORDER_MS));
	/* c's event, queued now or later, can only come after b's. */
	ASSERT_EQ(0, order_start_addr(self->c));
	order_expect(_metadata, self, self->b, RDMA_CM_EVENT_ADDR_RESOLVED);
	order_expect(_metadata, self, self->c, RDMA_CM_EVENT_ADDR_RESOLVED);
}

TEST_HARNESS_MAIN
