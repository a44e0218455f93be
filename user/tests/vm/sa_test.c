// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * RAI_SA through the library, against the module's SA client and the test
 * SA responder (selftests/sa: sa-world, records.example) over Soft-RoCE:
 * the man-page statements about IB SA resolution.
 */
#include <endian.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <infiniband/sa.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define SID_A		0x1000000000000001ULL	/* name svc-a */
#define SID_B		0x1000000000000002ULL	/* name svc-b */
#define BULK_RECORDS	12			/* name bulk */

static char sa_world[PATH_MAX + 32];

static const char *sa_world_path(void)
{
	return rai_repo_path(sa_world, sizeof(sa_world),
			     "selftests/sa/sa-world");
}

static int sa_world_run(const char *args)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>&1", sa_world, args);
	return system(cmd);
}

/* Whether the loaded module has its SA backend (GET_INFO features). */
static int module_has_sa(void)
{
	struct rdma_addrinfo_info info = { 0 };
	int fd = open("/dev/" RDMA_ADDRINFO_DEVNAME, O_RDWR);
	int ret;

	if (fd < 0)
		return 0;
	ret = !ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, &info) &&
	      (info.features & RDMA_ADDRINFO_FEATURE_SA);
	close(fd);
	return ret;
}

FIXTURE(sa) {
	int started;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
};

FIXTURE_SETUP(sa)
{
	if (!module_has_sa())
		SKIP(return, "the module has no SA backend (GET_INFO features)");
	if (!sa_world_path() || sa_world_run("start"))
		SKIP(return, "no SA responder (build selftests/sa)");
	self->started = 1;
	self->ch = rdma_create_event_channel();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(0, rdma_create_id(self->ch, &self->id, NULL, RDMA_PS_IB));
}

FIXTURE_TEARDOWN(sa)
{
	if (self->id)
		rdma_destroy_id(self->id);
	if (self->ch)
		rdma_destroy_event_channel(self->ch);
	if (self->started)
		sa_world_run("stop");
}

static unsigned long long sid_of(const struct rdma_addrinfo *ai)
{
	return be64toh(((const struct sockaddr_ib *)ai->ai_dst_addr)->sib_sid);
}

/* Bind the fixture's id to rxe0 (fd00::1), as an SA request needs. */
static int bind_to_port(struct rdma_cm_id *id)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6 };

	inet_pton(AF_INET6, rai_env("RAI_IP6_A", "fd00::1"), &a.sin6_addr);
	return rdma_bind_addr(id, (struct sockaddr *)&a);
}

TEST_F(sa, rai_sa_maps_a_service_id_to_ib_addresses)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;
	char buf[INET6_ADDRSTRLEN];

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "0x1000000000000001", &hints,
				      &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_EQ(AF_IB, res->ai_family);
	EXPECT_EQ(RDMA_PS_IB, res->ai_port_space);
	ASSERT_EQ(sizeof(struct sockaddr_ib), res->ai_dst_len);
	EXPECT_EQ(SID_A, sid_of(res));
	EXPECT_STREQ("fd00::2", rai_ntop(res->ai_dst_addr, buf, sizeof(buf)));
	rdma_freeaddrinfo(res);
}

TEST_F(sa, rai_sa_maps_a_service_name_to_ib_addresses)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "svc-b", &hints, &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_EQ(SID_B, sid_of(res));
	rdma_freeaddrinfo(res);
}

TEST_F(sa, rai_sa_returns_every_record)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA | RAI_NOROUTE };
	struct rdma_addrinfo *res = NULL, *ai;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "bulk", &hints, &res));
	EXPECT_EQ(BULK_RECORDS, rai_count(res));
	for (ai = res; ai; ai = ai->ai_next)
		EXPECT_EQ(AF_IB, ai->ai_family);
	rdma_freeaddrinfo(res);
}

TEST_F(sa, ai_route_references_an_array_of_ibv_path_data)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;
	struct ibv_path_data *path;
	char buf[INET6_ADDRSTRLEN];

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "svc-a", &hints, &res));
	if (!res->ai_route_len) {
		rdma_freeaddrinfo(res);
		SKIP(return, "the module resolved no route");
	}
	ASSERT_EQ(0, res->ai_route_len % sizeof(struct ibv_path_data));
	path = res->ai_route;
	EXPECT_TRUE(path->flags & IBV_PATH_FLAG_PRIMARY);
	EXPECT_STREQ("fd00::2", inet_ntop(AF_INET6, &path->path.dgid, buf,
					  sizeof(buf)));
	rdma_freeaddrinfo(res);
}

TEST_F(sa, rai_noroute_suppresses_route_resolution)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA | RAI_NOROUTE };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "svc-a", &hints, &res));
	EXPECT_EQ(0, res->ai_route_len);
	EXPECT_EQ(NULL, res->ai_route);
	rdma_freeaddrinfo(res);
}

TEST_F(sa, unknown_service_is_eai_noname)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(EAI_NONAME, rdma_getaddrinfo(NULL, "no-such-service",
					       &hints, &res));
}

TEST_F(sa, sa_error_status_is_eai_fail)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, sa_world_run("mode status status=0x0100"));
	ASSERT_EQ(EAI_FAIL, rdma_getaddrinfo(NULL, "svc-a", &hints, &res));
}

TEST_F(sa, resolve_addrinfo_rai_sa_on_an_id_bound_to_the_port)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;
	struct rdma_cm_event *ev;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, bind_to_port(self->id));
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, NULL, "svc-a", &hints));
	ASSERT_EQ(0, rai_wait_event(self->ch, &ev, 30000));
	EXPECT_EQ(self->id, ev->id);
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev->event);
	EXPECT_EQ(0, ev->status);
	rdma_ack_cm_event(ev);
	ASSERT_EQ(0, rdma_query_addrinfo(self->id, &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_EQ(AF_IB, res->ai_family);
	EXPECT_EQ(SID_A, sid_of(res));
	rdma_freeaddrinfo(res);
}

TEST_F(sa, resolve_addrinfo_rai_sa_unknown_service_is_addrinfo_error)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_cm_event *ev;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, bind_to_port(self->id));
	ASSERT_EQ(0, rdma_resolve_addrinfo(self->id, NULL, "no-such-service",
					   &hints));
	ASSERT_EQ(0, rai_wait_event(self->ch, &ev, 30000));
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_ERROR, ev->event);
	EXPECT_EQ(-ENXIO, ev->status);
	rdma_ack_cm_event(ev);
}

TEST_HARNESS_MAIN
