// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Multicast over Soft-RoCE with the group resolved through the library, as
 * a real client does it: rdma_getaddrinfo() (variant getaddrinfo), or
 * rdma_resolve_addrinfo() on the id and rdma_query_addrinfo() after its
 * event (variant resolve_addrinfo), names the group (as destination or as
 * source, by node or by hints alone), rdma_resolve_addr() binds the id to
 * rxe0 with the fields of the result, and rdma_join_multicast() on the
 * result's group address must bring RDMA_CM_EVENT_MULTICAST_JOIN.
 */
#include "kselftest_harness.h"
#include "vm_test.h"

#define GROUP	"239.1.2.3"

FIXTURE(mcast) {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct rdma_addrinfo *res;
	struct sockaddr_in src, group;
};

FIXTURE_VARIANT(mcast) {
	int on_the_id;	/* rdma_resolve_addrinfo(), not rdma_getaddrinfo() */
};

FIXTURE_VARIANT_ADD(mcast, getaddrinfo) {
	.on_the_id = 0,
};

FIXTURE_VARIANT_ADD(mcast, resolve_addrinfo) {
	.on_the_id = 1,
};

FIXTURE_SETUP(mcast)
{
	self->ch = rdma_create_event_channel();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->id, NULL, RDMA_PS_UDP));
	self->src.sin_family = AF_INET;
	inet_pton(AF_INET, RAI_IP4_A, &self->src.sin_addr);
	self->group.sin_family = AF_INET;
	inet_pton(AF_INET, GROUP, &self->group.sin_addr);
}

FIXTURE_TEARDOWN(mcast)
{
	if (self->res)
		rdma_freeaddrinfo(self->res);
	rdma_destroy_id(self->id);
	rdma_destroy_event_channel(self->ch);
}

static int expect_event(struct rdma_event_channel *ch,
			enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev;
	int got, status;

	if (rai_wait_cm_event(ch, &ev, 10000))
		return -1;
	got = ev->event;
	status = ev->status;
	rdma_ack_cm_event(ev);
	if (got != (int)type)
		printf("# event %s (%d), status %d, wanted %s\n",
		       rdma_event_str(got), got, status, rdma_event_str(type));
	return got == (int)type ? 0 : -1;
}

/*
 * The group, by @node or by @hints alone, into self->res: through
 * rdma_getaddrinfo(), or through rdma_resolve_addrinfo() on the id itself
 * (unbound yet) and rdma_query_addrinfo() after its event.
 */
static void resolve_group(struct __test_metadata *_metadata,
			  FIXTURE_DATA(mcast) *self, int on_the_id,
			  const char *node, const struct rdma_addrinfo *hints)
{
	if (!on_the_id) {
		ASSERT_EQ(0, rdma_getaddrinfo(node, NULL, hints, &self->res));
		return;
	}
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, node, NULL, hints)) {
		TH_LOG("rdma_resolve_addrinfo: %s", strerror(errno));
	}
	ASSERT_EQ(0, expect_event(self->ch, RDMA_CM_EVENT_ADDRINFO_RESOLVED));
	ASSERT_EQ(0, rdma_query_addrinfo(self->id, &self->res)) {
		TH_LOG("rdma_query_addrinfo: %s", strerror(errno));
	}
	ASSERT_NE(NULL, self->res);
}

/*
 * Bind @id to rxe0 through @local, resolve @group, join it and leave it.
 */
static void join(struct __test_metadata *_metadata,
		 FIXTURE_DATA(mcast) *self, struct sockaddr *local,
		 struct sockaddr *group)
{
	char buf[INET6_ADDRSTRLEN];

	ASSERT_NE(NULL, group);
	ASSERT_EQ(AF_INET, group->sa_family);
	ASSERT_STREQ(GROUP, rai_ntop(group, buf, sizeof(buf)));
	ASSERT_EQ(0, rdma_resolve_addr(self->id, local, group, 2000));
	ASSERT_EQ(0, expect_event(self->ch, RDMA_CM_EVENT_ADDR_RESOLVED));
	ASSERT_NE(NULL, self->id->verbs);
	ASSERT_STREQ(RAI_IBDEV_A, ibv_get_device_name(self->id->verbs->device));
	ASSERT_EQ(0, rdma_join_multicast(self->id, group, NULL));
	ASSERT_EQ(0, expect_event(self->ch, RDMA_CM_EVENT_MULTICAST_JOIN));
	ASSERT_EQ(0, rdma_leave_multicast(self->id, group));
}

TEST_F(mcast, group_as_hints_destination_with_source)
{
	struct rdma_addrinfo hints = {
		.ai_port_space = RDMA_PS_UDP, .ai_qp_type = IBV_QPT_UD,
		.ai_src_addr = (struct sockaddr *)&self->src,
		.ai_src_len = sizeof(self->src),
		.ai_dst_addr = (struct sockaddr *)&self->group,
		.ai_dst_len = sizeof(self->group),
	};

	resolve_group(_metadata, self, variant->on_the_id, NULL, &hints);
	ASSERT_EQ(sizeof(self->src), self->res->ai_src_len);
	join(_metadata, self, self->res->ai_src_addr, self->res->ai_dst_addr);
}

TEST_F(mcast, group_as_node_with_hints_source)
{
	struct rdma_addrinfo hints = {
		.ai_port_space = RDMA_PS_UDP, .ai_qp_type = IBV_QPT_UD,
		.ai_src_addr = (struct sockaddr *)&self->src,
		.ai_src_len = sizeof(self->src),
	};

	resolve_group(_metadata, self, variant->on_the_id, GROUP, &hints);
	ASSERT_EQ(sizeof(self->src), self->res->ai_src_len);
	join(_metadata, self, self->res->ai_src_addr, self->res->ai_dst_addr);
}

TEST_F(mcast, group_as_passive_source)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE,
				       .ai_port_space = RDMA_PS_UDP };

	resolve_group(_metadata, self, variant->on_the_id, GROUP, &hints);
	join(_metadata, self, (struct sockaddr *)&self->src,
	     self->res->ai_src_addr);
}

TEST_F(mcast, group_as_hints_source)
{
	struct rdma_addrinfo hints = {
		.ai_port_space = RDMA_PS_UDP,
		.ai_src_addr = (struct sockaddr *)&self->group,
		.ai_src_len = sizeof(self->group),
	};

	resolve_group(_metadata, self, variant->on_the_id, NULL, &hints);
	join(_metadata, self, (struct sockaddr *)&self->src,
	     self->res->ai_src_addr);
}

TEST_HARNESS_MAIN
