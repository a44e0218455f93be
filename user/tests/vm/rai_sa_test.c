// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * RAI_SA through the library, against the module's SA client and the test
 * SA responder (selftests/world/sa: sa-world, records.example) over
 * Soft-RoCE: the man-page statements about IB SA resolution.
 */
#include <endian.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <infiniband/sa.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define SID_A		0x1000000000000001ULL	/* name svc-a */
#define SID_B		0x1000000000000002ULL	/* name svc-b */
#define SID_P		0x1000000000000003ULL	/* name svc-p, P_Key 0x8001 */
#define BULK_RECORDS	12			/* name bulk */

static char sa_world[PATH_MAX + 32];

static const char *sa_world_path(void)
{
	return rai_repo_path(sa_world, sizeof(sa_world),
			     "selftests/world/sa/sa-world");
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
		SKIP(return, "no SA responder (build selftests/world/sa)");
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

	inet_pton(AF_INET6, RAI_IP6_A, &a.sin6_addr);
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
	EXPECT_STREQ(RAI_IP6_B, rai_ntop(res->ai_dst_addr, buf, sizeof(buf)));
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
	EXPECT_STREQ(RAI_IP6_B, inet_ntop(AF_INET6, &path->path.dgid, buf,
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

/*
 * A dual-rail host: the port asked first finds no record, the next one
 * has it (rdma-core 60+'s ucma_getaddrinfo_sa() goes on to the next port;
 * the library stopped at the first port with an SA: EAI_NONAME).
 */
TEST_F(sa, rai_sa_asks_the_next_port_when_one_has_no_record)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, sa_world_run("mode normal empty_first=1"));
	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "svc-a", &hints, &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_EQ(SID_A, sid_of(res));
	rdma_freeaddrinfo(res);
}

/*
 * No port's SA has the record: EAI_NONAME, not the last port's "no SA",
 * with rdma-core 60+'s errno (its -1 with ENOENT; rdma_getaddrinfo(3)).
 */
TEST_F(sa, rai_sa_no_record_on_any_port_is_eai_noname)
{
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA };
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, sa_world_run("mode normal empty_first=100"));
	errno = 0;
	ASSERT_EQ(EAI_NONAME, rdma_getaddrinfo(NULL, "svc-a", &hints, &res));
	EXPECT_EQ(ENOENT, errno);
}

/*
 * The fields of rdma-core 60+'s RAI_SA results (ucma_convert_service_recs()
 * and resolve_sa_on_gid()): ai_flags RAI_SA, QP type 0, RDMA_PS_IB; the
 * destination the record's GID, P_Key and service ID; the source the
 * port's GID with RDMA_PS_IB's service ID and the record's P_Key.
 */
static void expect_sa_fields_of_60(struct __test_metadata *_metadata,
				   const struct rdma_addrinfo *ai,
				   unsigned long long sid, unsigned short pkey)
{
	const struct sockaddr_ib *dst = (const void *)ai->ai_dst_addr;
	const struct sockaddr_ib *src = (const void *)ai->ai_src_addr;

	EXPECT_EQ(RAI_SA, ai->ai_flags);
	EXPECT_EQ(AF_IB, ai->ai_family);
	EXPECT_EQ(0, ai->ai_qp_type);
	EXPECT_EQ(RDMA_PS_IB, ai->ai_port_space);
	ASSERT_EQ(sizeof(*dst), ai->ai_dst_len);
	EXPECT_EQ(sid, be64toh(dst->sib_sid));
	EXPECT_EQ(~0ULL, be64toh(dst->sib_sid_mask));
	EXPECT_EQ(pkey, ntohs(dst->sib_pkey));
	ASSERT_EQ(sizeof(*src), ai->ai_src_len);
	EXPECT_EQ(AF_IB, src->sib_family);
	EXPECT_EQ((unsigned long long)RDMA_PS_IB << 16, be64toh(src->sib_sid));
	EXPECT_EQ(RDMA_IB_IP_PS_MASK, be64toh(src->sib_sid_mask));
	EXPECT_EQ(pkey, ntohs(src->sib_pkey));
}

/* svc-p's one result with @hints, of rdma-core 60+'s fields. */
static void svc_p_as_60(struct __test_metadata *_metadata,
			const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo *res = NULL;

	ASSERT_EQ(0, rdma_getaddrinfo(NULL, "svc-p", hints, &res));
	EXPECT_EQ(1, rai_count(res));
	expect_sa_fields_of_60(_metadata, res, SID_P, 0x8001);
	rdma_freeaddrinfo(res);
}

/*
 * rdma-core 60+ reads only the flags of RAI_SA's hints: a family, a
 * source, a QP type and port space that disagree change nothing (the
 * library said EAI_QPTYPE or EAI_FAMILY).  One case for both statements:
 * each case starts the SA responder again.
 */
TEST_F(sa, rai_sa_results_have_the_fields_of_librdmacm_60_whatever_the_hints)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct rdma_addrinfo hints = { .ai_flags = RAI_SA | RAI_NOROUTE };

	RAI_RETURN_IF_SKIPPED();

	svc_p_as_60(_metadata, &hints);
	hints.ai_family = AF_INET;
	hints.ai_qp_type = IBV_QPT_UD;
	hints.ai_port_space = RDMA_PS_TCP;
	hints.ai_src_addr = (struct sockaddr *)&src;
	hints.ai_src_len = sizeof(src);
	svc_p_as_60(_metadata, &hints);
	hints.ai_family = 12345;
	src.sin_family = 12345;
	svc_p_as_60(_metadata, &hints);
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
	ASSERT_EQ(0, rai_wait_cm_event(self->ch, &ev, 30000));
	EXPECT_EQ(self->id, ev->id);
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev->event);
	EXPECT_EQ(0, ev->status);
	rdma_ack_cm_event(ev);
	ASSERT_EQ(0, rdma_query_addrinfo(self->id, &res));
	ASSERT_EQ(1, rai_count(res));
	EXPECT_EQ(AF_IB, res->ai_family);
	EXPECT_EQ(SID_A, sid_of(res));
	/* rdma-core 60+'s fields, as rdma_getaddrinfo() gives them */
	EXPECT_EQ(RAI_SA, res->ai_flags);
	EXPECT_EQ(0, res->ai_qp_type);
	EXPECT_EQ(RDMA_PS_IB, res->ai_port_space);
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
	ASSERT_EQ(0, rai_wait_cm_event(self->ch, &ev, 30000));
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_ERROR, ev->event);
	/* rdma-core 60+'s (its kernel's cma_query_ib_service_handler()) */
	EXPECT_EQ(-ENOENT, ev->status);
	EXPECT_EQ(EAI_NONAME, rdma_addrinfo_status_eai(ev->status));
	rdma_ack_cm_event(ev);
}

/*
 * SA results are the requester's memory, as DNS results are: with K
 * requests for the 12 "bulk" records held, the requester's memory cgroup
 * has grown by at least their results.  The results are built in the MAD
 * handler's worker, not in the requester's ioctl; requests alone (slab
 * objects of a few hundred bytes) stay well below that figure.
 */
#define CG_ROOT		"/sys/fs/cgroup"
#define SA_CG_REQUESTS	400

static long long cg_read(const char *cg, const char *file)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* In the child, in the cgroup: hold the requests, report the growth. */
static void sa_cg_child(const char *cg, int wfd)
{
	long long rep[3] = { -1, -1, 0 };
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_event ev;
	struct pollfd p;
	char path[256];
	int fd, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "we");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		_exit(3);
	fd = open("/dev/" RDMA_ADDRINFO_DEVNAME, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		_exit(4);
	rep[0] = cg_read(cg, "memory.current");
	for (i = 0; i < SA_CG_REQUESTS; i++) {
		memset(&r, 0, sizeof(r));
		r.service = (uintptr_t)"bulk";
		r.service_len = 4;
		r.ai_flags = RDMA_ADDRINFO_RAI_SA | RDMA_ADDRINFO_RAI_NOROUTE;
		r.port_num = 1;
		r.context = i;
		snprintf(r.ibdev_name, sizeof(r.ibdev_name), "%s", RAI_IBDEV_A);
		if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &r))
			_exit(5);
	}
	for (i = 0; i < SA_CG_REQUESTS; i++) {
		p.fd = fd;
		p.events = POLLIN;
		if (poll(&p, 1, 20000) != 1 ||
		    ioctl(fd, RDMA_ADDRINFO_IOC_GET_EVENT, &ev))
			break;
		rep[2] += ev.status == 0 && ev.num_results == BULK_RECORDS;
	}
	rep[1] = cg_read(cg, "memory.current");
	if (write(wfd, rep, sizeof(rep)) != sizeof(rep))
		_exit(6);
	_exit(0);
}

TEST_F(sa, results_are_charged_to_the_requesters_memory_cgroup)
{
	long long rep[3], want;
	bool mounted = false;
	int p[2], status;
	char cg[128];
	pid_t pid;

	RAI_RETURN_IF_SKIPPED();

	if (access(CG_ROOT "/cgroup.controllers", F_OK)) {
		ASSERT_EQ(0, mount("none", CG_ROOT, "cgroup2", 0, NULL))
			TH_LOG("mount cgroup2: %s", strerror(errno));
		mounted = true;
	}
	ASSERT_EQ(0, system("echo +memory > " CG_ROOT "/cgroup.subtree_control"));
	snprintf(cg, sizeof(cg), CG_ROOT "/rai-sa-%d", getpid());
	ASSERT_EQ(0, mkdir(cg, 0755));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		sa_cg_child(cg, p[1]);
	}
	close(p[1]);
	memset(rep, 0, sizeof(rep));
	EXPECT_EQ((ssize_t)sizeof(rep), read(p[0], rep, sizeof(rep)));
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("child status 0x%x", status);
	rmdir(cg);
	if (mounted)
		umount(CG_ROOT);

	EXPECT_EQ(SA_CG_REQUESTS, rep[2]);
	ASSERT_LE(0, rep[0]);
	want = (long long)SA_CG_REQUESTS * BULK_RECORDS *
	       sizeof(struct rdma_addrinfo_result);
	EXPECT_LE(want, rep[1] - rep[0])
		TH_LOG("memory.current grew by %lld bytes for %lld bytes of results",
		       rep[1] - rep[0], want);
	TH_LOG("memory.current: %lld -> %lld (results: %lld bytes)", rep[0],
	       rep[1], want);
}

TEST_HARNESS_MAIN
