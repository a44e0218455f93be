// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Budgets per user namespace (issue 32, finding 2): containers that root
 * creates, as LXD, Docker with userns-remap and Kubernetes do (root
 * unshares a user namespace and maps uid 0 of it to a range of its own),
 * each have a share of their own of the per-user caps, beside host
 * root's.  One such container at its cap leaves host root and a second
 * container their whole share:
 *
 *  - requests (max_requests_per_user): the container gets EDQUOT, host
 *    root and another container still hold requests;
 *  - result bytes (max_result_kib_per_user): the container's requests
 *    complete with ENOBUFS, host root's and another container's with
 *    their results;
 *  - 16 sibling containers, each at its cap: host root still resolves;
 *  - containers filling max_requests together leave host root
 *    max_requests_host_reserve, clamped to a quarter of max_requests so
 *    that containers keep the rest;
 *  - containers filling every upcall slot or every dns_resolver key
 *    they may leave host root max_upcalls_host_reserve slots and
 *    dns_max_keys_host_reserve keys;
 *  - and namespaces still gain nothing: one that an ordinary user makes,
 *    or one nested in a container, takes from its maker's share.
 *
 * Before the fix every such container was charged to host root (the
 * owner of its namespace): the first one at the cap left host root and
 * the others nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

/* Where each container's uid 0 maps, CONTAINER_UIDS apart. */
#define NOBODY_UID		65534
#define CONTAINER_FIRST_KUID	300000
#define CONTAINER_UIDS		65536
#define REQUESTS_CAP		12
#define SIBLINGS		16
#define RESULT_KIB		"4"
#define EVENT_MS		10000

/* What a tenant holds. */
enum tb_hold {
	TB_REQUESTS,	/* numeric requests */
	TB_RESULTS,	/* numeric requests, each with its results */
	TB_NAMES,	/* names whose upcalls are held (TB_HELD_TAG) */
};

/* Names with this tag wait in the request-key wrapper while held. */
#define TB_HELD_TAG		"tbheld"

/* A container: its first process, and the pipes to and from it. */
struct tb_container {
	pid_t pid;
	int go;		/* we write: mapped, start */
	int from;	/* it writes two ints: got, error */
};

/* Async numeric requests on @fd until one fails: how many; *@err why. */
static int tb_hold_requests(int fd, int most, int *err)
{
	__u32 handle;
	int i;

	*err = 0;
	for (i = 0; i < most; i++) {
		*err = rai_resolve_async(fd, "127.0.0.1", NULL, AF_INET, 0, i,
					 &handle);
		if (*err)
			break;
	}
	return i;
}

/*
 * Up to @most numeric requests on @fd, each awaited and kept: how many
 * completed with results before the first one that did not; *@err its
 * status (-ENOBUFS past the result bytes share), or a failure to ask.
 */
static int tb_hold_results(int fd, int most, int *err)
{
	struct rdma_addrinfo_event ev;
	__u32 handle;
	int i;

	*err = 0;
	for (i = 0; i < most; i++) {
		*err = rai_resolve_async(fd, "127.0.0.1", NULL, AF_INET, 0, i,
					 &handle);
		if (!*err)
			*err = rai_wait_event(fd, &ev, EVENT_MS);
		if (!*err && (ev.status || !ev.num_results))
			*err = ev.status ? ev.status : -ENODATA;
		if (*err)
			break;
	}
	return i;
}

/*
 * @most names of TB_HELD_TAG asked for on @fd, never answered while held:
 * how many RESOLVEs were taken; *@err why one was not.
 */
static int tb_hold_names(int fd, int most, int *err)
{
	char name[128];
	int i;

	*err = 0;
	for (i = 0; i < most; i++) {
		*err = rai_resolve_async(fd, rai_unique_name(name, sizeof(name),
							     TB_HELD_TAG),
					 NULL, AF_UNSPEC, 0, i, NULL);
		if (*err)
			break;
	}
	return i;
}

static int tb_hold(int fd, int most, enum tb_hold what, int *err)
{
	if (what == TB_NAMES)
		return tb_hold_names(fd, most, err);
	return what == TB_RESULTS ? tb_hold_results(fd, most, err) :
				    tb_hold_requests(fd, most, err);
}

static void tb_tell(int out, int a, int b)
{
	int v[2] = { a, b };

	if (write(out, v, sizeof(v)) != sizeof(v))
		_exit(9);
}

/*
 * In a new user namespace of the caller's own, its uid mapped to uid 0
 * of it (what an unprivileged user may do alone): requests held on a
 * new fd until one fails.  Exit code: how many, or 100 + a failed step.
 */
static int tb_nested_hold(int most)
{
	char map[32];
	int fd, err, got;

	snprintf(map, sizeof(map), "0 %u 1\n", getuid());
	if (unshare(CLONE_NEWUSER))
		return 101;
	/* A uid change made us undumpable: /proc/self/ would be root's. */
	if (prctl(PR_SET_DUMPABLE, 1))
		return 107;
	fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, map, strlen(map)) != (ssize_t)strlen(map))
		return 102;
	close(fd);
	fd = rai_dev_open(0);
	if (fd < 0)
		return 103;
	got = tb_hold_requests(fd, most, &err);
	return !got || err == -EDQUOT ? got : 104;
}

/*
 * Hold @first requests, then in a namespace made by us (and so charged
 * to our share) as many as it can: exit code that count, or 100 + a
 * failed step.
 */
static int tb_then_nested(int first)
{
	int fd, err;
	pid_t pid;

	fd = rai_dev_open(0);
	if (fd < 0)
		return 105;
	if (tb_hold_requests(fd, first, &err) != first)
		return 106;
	pid = fork();
	if (!pid)
		_exit(tb_nested_hold(REQUESTS_CAP + 1));
	return rai_wait_child(pid);
}

/*
 * The container's side: a user namespace of its own, made by root (us);
 * once the parent has mapped it, uid 0 of it (what the container runtime
 * runs the container as), then @most requests held (@results: each with
 * its results).  Reports what it got, then waits to be killed.
 */
static void tb_container_side(int go, int out, int most, enum tb_hold what)
{
	int fd, got, err;
	char c;

	if (unshare(CLONE_NEWUSER))
		_exit(2);
	tb_tell(out, -1, 0);
	if (read(go, &c, 1) != 1)
		_exit(3);
	if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
		_exit(4);
	if (most < 0) {		/* -@most held, then nested */
		tb_tell(out, tb_then_nested(-most), 0);
		pause();
		_exit(0);
	}
	fd = rai_dev_open(0);
	if (fd < 0)
		_exit(5);
	got = tb_hold(fd, most, what, &err);
	tb_tell(out, got, err);
	pause();
	_exit(0);
}

static int tb_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/*
 * Container @i: root makes it, maps its uid 0 to a range of its own,
 * then it holds @most requests.  0, or -1 when it could not be made.
 */
static int tb_container_start(struct tb_container *c, int i, int most,
			      enum tb_hold what)
{
	int to[2], from[2], v[2];
	char path[64], map[64];

	if (pipe(to) || pipe(from))
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		close(to[1]);
		close(from[0]);
		tb_container_side(to[0], from[1], most, what);
	}
	close(to[0]);
	close(from[1]);
	c->go = to[1];
	c->from = from[0];
	if (read(c->from, v, sizeof(v)) != sizeof(v) || v[0] != -1)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", c->pid);
	snprintf(map, sizeof(map), "0 %d %d\n",
		 CONTAINER_FIRST_KUID + i * CONTAINER_UIDS, CONTAINER_UIDS);
	if (tb_write_file(path, map))
		return -1;
	/* Its gids too: a namespace is made only by a mapped uid and gid. */
	snprintf(path, sizeof(path), "/proc/%d/gid_map", c->pid);
	if (tb_write_file(path, map))
		return -1;
	return write(c->go, "g", 1) == 1 ? 0 : -1;
}

/*
 * A namespace that nobody makes alone (unshare -Ur), charged to nobody's
 * share: it holds @most of @what.  0, or -1 when it could not be made.
 */
static int tb_nobody_start(struct tb_container *c, int most,
			   enum tb_hold what)
{
	char map[32];
	int from[2], fd, got, err;

	if (pipe(from))
		return -1;
	c->go = -1;
	c->pid = rai_fork_as(NOBODY_UID);
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		close(from[0]);
		snprintf(map, sizeof(map), "0 %u 1\n", NOBODY_UID);
		if (unshare(CLONE_NEWUSER) || prctl(PR_SET_DUMPABLE, 1))
			_exit(2);
		fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, map, strlen(map)) != (ssize_t)strlen(map))
			_exit(3);
		close(fd);
		fd = rai_dev_open(0);
		if (fd < 0)
			_exit(5);
		got = tb_hold(fd, most, what, &err);
		tb_tell(from[1], got, err);
		pause();
		_exit(0);
	}
	close(from[1]);
	c->from = from[0];
	return 0;
}

/* What container @c got: the count, *@err what stopped it. */
static int tb_container_result(struct tb_container *c, int *err)
{
	int v[2];

	if (read(c->from, v, sizeof(v)) != sizeof(v))
		return -1;
	*err = v[1];
	return v[0];
}

static void tb_container_stop(struct tb_container *c)
{
	if (c->pid <= 0)
		return;
	kill(c->pid, SIGKILL);
	rai_wait_child(c->pid);
	if (c->go >= 0)
		close(c->go);
	close(c->from);
	c->pid = 0;
}

#define TB_SAVED	6

FIXTURE(tenant) {
	char old_requests[32];
	char old_kib[32];
	struct tb_container c[SIBLINGS];
	int fd;
	bool upcalls;
	long long live;	/* requests the module held before the case */
	/* Parameters set by a case, restored by the teardown. */
	const char *saved_name[TB_SAVED];
	char saved[TB_SAVED][32];
};

FIXTURE_SETUP(tenant)
{
	char cap[16];

	memset(self->c, 0, sizeof(self->c));
	ASSERT_EQ(0, rai_param_get("max_requests_per_user",
				   self->old_requests,
				   sizeof(self->old_requests)));
	ASSERT_EQ(0, rai_param_get("max_result_kib_per_user", self->old_kib,
				   sizeof(self->old_kib)));
	snprintf(cap, sizeof(cap), "%d", REQUESTS_CAP);
	ASSERT_EQ(0, rai_param_set("max_requests_per_user", cap));
	self->fd = rai_dev_open(0);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(tenant)
{
	int i;

	for (i = 0; i < SIBLINGS; i++)
		tb_container_stop(&self->c[i]);
	if (self->fd >= 0)
		close(self->fd);
	if (self->upcalls) {
		long long end = rai_now_ms() + RAI_UPCALL_START_MS;

		rai_upcall_release_names();
		/*
		 * The tenants' requests, destroyed, are freed (and uncharged
		 * from their shares) only when their upcalls end: the next
		 * case starts with none of them.
		 */
		while (rai_debugfs_counter("stats", "requests_live") >
		       self->live && rai_now_ms() < end)
			usleep(20000);	/* the pace of a look with a deadline */
		rai_upcall_counter_remove();
	}
	for (i = TB_SAVED - 1; i >= 0; i--)
		if (self->saved_name[i])
			rai_param_set(self->saved_name[i], self->saved[i]);
	rai_param_set("max_requests_per_user", self->old_requests);
	rai_param_set("max_result_kib_per_user", self->old_kib);
}

/* Set parameter @name to @value, the old value restored at teardown. */
static int tb_param(FIXTURE_DATA(tenant) *self, const char *name,
		    const char *value)
{
	int i, ret;

	for (i = 0; i < TB_SAVED && self->saved_name[i]; i++)
		;
	if (i == TB_SAVED)
		return -ENOSPC;
	ret = rai_param_get(name, self->saved[i], sizeof(self->saved[i]));
	if (ret)
		return ret;
	self->saved_name[i] = name;
	return rai_param_set(name, value);
}

/* The upcall counter (rai_world.c), removed at teardown: 0 or -errno. */
static int tb_upcalls_install(FIXTURE_DATA(tenant) *self)
{
	int ret = rai_upcall_counter_install();

	self->live = rai_debugfs_counter("stats", "requests_live");
	self->upcalls = !ret;
	return ret;
}

/*
 * @containers root-created containers and one namespace of nobody's,
 * each asking for @names names that are never answered (held upcalls,
 * one name each: no batches).  0 when all asked.
 */
static int tb_tenants_hold_names(FIXTURE_DATA(tenant) *self, int containers,
				 int names)
{
	int i, got, err, ret = 0;

	if (rai_upcall_hold_names(TB_HELD_TAG) ||
	    tb_param(self, "dns_batch_names", "1") ||
	    tb_param(self, "dns_batch_wait_ms", "0") ||
	    tb_param(self, "dns_timeout_ms", "0"))
		return -1;
	for (i = 0; i < containers; i++)
		if (tb_container_start(&self->c[i], i, names, TB_NAMES))
			return -1;
	if (tb_nobody_start(&self->c[containers], names, TB_NAMES))
		return -1;
	for (i = 0; i <= containers; i++) {
		got = tb_container_result(&self->c[i], &err);
		if (got != names)
			ret = -1;
	}
	return ret;
}

/* Host root's lookup of a name of its own (/etc/hosts): its status. */
static int tb_host_root_resolves(int fd, int *status)
{
	struct rdma_addrinfo_event ev;
	char name[96], line[160];
	int ret;

	snprintf(name, sizeof(name), "tb-host-%d.rai.example", getpid());
	ret = rai_hosts_add(line, sizeof(line), "192.0.2.79", name);
	if (ret)
		return -EIO;
	ret = rai_resolve_async(fd, name, NULL, AF_INET, 0, 1, NULL);
	if (!ret)
		ret = rai_wait_event(fd, &ev, RAI_UPCALL_START_MS);
	rai_hosts_remove(line);
	*status = ret ? 0 : ev.status;
	return ret;
}

TEST_F(tenant, rootful_container_at_its_request_cap_leaves_host_root_its_share)
{
	int got, err;

	ASSERT_EQ(0, getuid()) TH_LOG("runs as root: it plays the runtime");
	ASSERT_EQ(0, tb_container_start(&self->c[0], 0, REQUESTS_CAP + 4,
					TB_REQUESTS));
	got = tb_container_result(&self->c[0], &err);
	TH_LOG("container 1: %d requests held, then %d", got, err);
	EXPECT_EQ(REQUESTS_CAP, got);
	EXPECT_EQ(-EDQUOT, err);

	/* Host root: a share of its own (the fixture's fd, ours). */
	got = tb_hold_requests(self->fd, REQUESTS_CAP, &err);
	TH_LOG("host root: %d requests held, then %d", got, err);
	EXPECT_EQ(REQUESTS_CAP, got);
	EXPECT_EQ(0, err);
	/* ... and no more than that. */
	EXPECT_EQ(0, tb_hold_requests(self->fd, 1, &err));
	EXPECT_EQ(-EDQUOT, err);

	/* A second container, made by root too: its own share. */
	ASSERT_EQ(0, tb_container_start(&self->c[1], 1, REQUESTS_CAP + 4,
					TB_REQUESTS));
	got = tb_container_result(&self->c[1], &err);
	TH_LOG("container 2: %d requests held, then %d", got, err);
	EXPECT_EQ(REQUESTS_CAP, got);
	EXPECT_EQ(-EDQUOT, err);
}

TEST_F(tenant, rootful_container_at_its_result_bytes_leaves_host_root_its_share)
{
	int per = 4096 / sizeof(struct rdma_addrinfo_result);
	int got, err;
	char cap[16];

	/* Requests enough for the results share to be what stops them. */
	snprintf(cap, sizeof(cap), "%d", 4 * per + 8);
	ASSERT_EQ(0, rai_param_set("max_requests_per_user", cap));
	ASSERT_EQ(0, rai_param_set("max_result_kib_per_user", RESULT_KIB));
	ASSERT_EQ(0, tb_container_start(&self->c[0], 0, per + 4, TB_RESULTS));
	got = tb_container_result(&self->c[0], &err);
	TH_LOG("container 1: %d requests with results, then %d", got, err);
	EXPECT_EQ(per, got);
	EXPECT_EQ(-ENOBUFS, err);

	got = tb_hold_results(self->fd, per, &err);
	TH_LOG("host root: %d requests with results, then %d", got, err);
	EXPECT_EQ(per, got);
	EXPECT_EQ(0, err);

	ASSERT_EQ(0, tb_container_start(&self->c[1], 1, per + 4, TB_RESULTS));
	got = tb_container_result(&self->c[1], &err);
	TH_LOG("container 2: %d requests with results, then %d", got, err);
	EXPECT_EQ(per, got);
	EXPECT_EQ(-ENOBUFS, err);
}

TEST_F(tenant, sixteen_rootful_containers_at_their_caps_host_root_resolves)
{
	int i, got, err, full = 0;

	for (i = 0; i < SIBLINGS; i++)
		ASSERT_EQ(0, tb_container_start(&self->c[i], i,
						REQUESTS_CAP + 1, TB_REQUESTS));
	for (i = 0; i < SIBLINGS; i++) {
		got = tb_container_result(&self->c[i], &err);
		if (got == REQUESTS_CAP && err == -EDQUOT)
			full++;
		else
			TH_LOG("container %d: %d requests held, then %d",
			       i + 1, got, err);
	}
	TH_LOG("%d of %d containers hold their whole share (%d requests)",
	       full, SIBLINGS, REQUESTS_CAP);
	EXPECT_EQ(SIBLINGS, full);

	got = tb_hold_results(self->fd, REQUESTS_CAP, &err);
	TH_LOG("host root: %d requests with results, then %d", got, err);
	EXPECT_EQ(REQUESTS_CAP, got);
	EXPECT_EQ(0, err);
}

/*
 * The module-wide cap is nobody's share, but its last
 * max_requests_host_reserve requests are the host's: six root-created
 * containers filling their shares at once (max_requests 48, four shares
 * of 12; reserve 12) hold 36 between them, the rest get ENFILE, and host
 * root still holds its 12.  Before, the containers took all 48 and host
 * root got ENFILE.
 */
#define TB_FULL_CONTAINERS	6

TEST_F(tenant, rootful_containers_filling_max_requests_leave_host_root_its_reserve)
{
	char old_max[32], old_reserve[32] = "", cap[16];
	int i, got, err = 0, held = 0, enfile = 0, reserve;

	ASSERT_EQ(0, rai_param_get("max_requests", old_max, sizeof(old_max)));
	snprintf(cap, sizeof(cap), "%d", 4 * REQUESTS_CAP);
	ASSERT_EQ(0, rai_param_set("max_requests", cap));
	reserve = !rai_param_get("max_requests_host_reserve", old_reserve,
				 sizeof(old_reserve));
	snprintf(cap, sizeof(cap), "%d", REQUESTS_CAP);
	if (reserve)
		EXPECT_EQ(0, rai_param_set("max_requests_host_reserve", cap));
	for (i = 0; i < TB_FULL_CONTAINERS; i++)
		EXPECT_EQ(0, tb_container_start(&self->c[i], i,
						REQUESTS_CAP + 1, TB_REQUESTS));
	for (i = 0; i < TB_FULL_CONTAINERS; i++) {
		got = tb_container_result(&self->c[i], &err);
		held += got > 0 ? got : 0;
		enfile += err == -ENFILE;
	}
	got = tb_hold_requests(self->fd, REQUESTS_CAP, &err);
	for (i = 0; i < TB_FULL_CONTAINERS; i++)
		tb_container_stop(&self->c[i]);
	rai_param_set("max_requests", old_max);
	if (reserve)
		rai_param_set("max_requests_host_reserve", old_reserve);
	TH_LOG("%d containers: %d requests held, %d stopped by ENFILE; host root then: %d held, then %d",
	       TB_FULL_CONTAINERS, held, enfile, got, err);
	EXPECT_TRUE(reserve) TH_LOG("no max_requests_host_reserve");
	EXPECT_EQ(3 * REQUESTS_CAP, held);
	EXPECT_LE(1, enfile);
	EXPECT_EQ(REQUESTS_CAP, got);
	EXPECT_EQ(0, err);
}

/*
 * The reserve is clamped to a quarter of max_requests: with max_requests
 * at 12 (limits_test's small set) and the default reserve of 16384, two
 * containers filling their shares hold 9 between them and host root its
 * 3 (and no more), which GET_INFO reports.  Before, the raw reserve took
 * all 12: the containers got ENFILE on their first request.
 */
#define TB_SMALL_MAX		12

TEST_F(tenant, reserve_above_max_requests_is_clamped_to_a_quarter)
{
	char old_max[32], old_reserve[32] = "", cap[16];
	int i, got, err = 0, held = 0, enfile = 0, reserve;
	struct rdma_addrinfo_info info;

	ASSERT_EQ(0, rai_param_get("max_requests", old_max, sizeof(old_max)));
	snprintf(cap, sizeof(cap), "%d", TB_SMALL_MAX);
	ASSERT_EQ(0, rai_param_set("max_requests", cap));
	reserve = !rai_param_get("max_requests_host_reserve", old_reserve,
				 sizeof(old_reserve));
	if (reserve)
		EXPECT_EQ(0, rai_param_set("max_requests_host_reserve",
					   "16384"));
	memset(&info, 0xa5, sizeof(info));
	EXPECT_EQ(0, rai_get_info(self->fd, &info));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, tb_container_start(&self->c[i], i,
						REQUESTS_CAP + 1, TB_REQUESTS));
	for (i = 0; i < 2; i++) {
		got = tb_container_result(&self->c[i], &err);
		held += got > 0 ? got : 0;
		enfile += err == -ENFILE;
	}
	got = tb_hold_requests(self->fd, TB_SMALL_MAX, &err);
	for (i = 0; i < 2; i++)
		tb_container_stop(&self->c[i]);
	rai_param_set("max_requests", old_max);
	if (reserve)
		rai_param_set("max_requests_host_reserve", old_reserve);
	TH_LOG("max_requests %d, reserve 16384: GET_INFO reserve %u; containers held %d (%d stopped by ENFILE); host root then %d, then %d",
	       TB_SMALL_MAX, info.max_requests_host_reserve, held, enfile,
	       got, err);
	EXPECT_TRUE(reserve) TH_LOG("no max_requests_host_reserve");
	EXPECT_EQ(TB_SMALL_MAX, info.max_requests_total);
	EXPECT_EQ(TB_SMALL_MAX / 4, info.max_requests_host_reserve);
	EXPECT_EQ(TB_SMALL_MAX - TB_SMALL_MAX / 4, held);
	EXPECT_EQ(2, enfile);
	EXPECT_EQ(TB_SMALL_MAX / 4, got);
	EXPECT_EQ(-ENFILE, err);
}

/*
 * max_upcalls_host_reserve: four root-created containers and a namespace
 * of nobody's, each at max_upcalls_per_user (4) held upcalls, want 20
 * of the 16 slots; they get 12, and host root's name gets the 13th at
 * once.  Before, they took all 16 and host root's name waited for one of
 * their never-ending upcalls (RAI_UPCALL_START_MS, then failed).
 */
#define TB_SLOT_TENANTS		4

TEST_F_TIMEOUT(tenant, containers_filling_upcall_slots_leave_host_root_its_reserve, 120)
{
	int status = 0, ret;
	char slots[32];
	long c0, held;

	ASSERT_EQ(0, rai_param_get("max_upcalls", slots, sizeof(slots)));
	ASSERT_EQ(16, atoi(slots)) TH_LOG("the figures assume 16 slots");
	ASSERT_EQ(0, tb_upcalls_install(self));
	ASSERT_EQ(0, tb_param(self, "max_upcalls_per_user", "4"));
	EXPECT_EQ(0, tb_param(self, "max_upcalls_host_reserve", "4"));
	c0 = rai_upcall_count();
	ASSERT_LE(0, c0);
	ASSERT_EQ(0, tb_tenants_hold_names(self, TB_SLOT_TENANTS, 4));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 12, RAI_UPCALL_START_MS))
		TH_LOG("tenants' upcalls did not start: %ld",
		       rai_upcall_count() - c0);
	ret = tb_host_root_resolves(self->fd, &status);
	held = rai_upcall_count() - c0;
	TH_LOG("%d containers + nobody's namespace, 4 held names each: %ld upcalls with host root's; host root: %d, status %d",
	       TB_SLOT_TENANTS, held, ret, status);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, status);
	/* Theirs stayed at 12: host root's was the 13th. */
	EXPECT_EQ(13, held);
}

/*
 * dns_max_keys_host_reserve: two root-created containers and nobody's
 * namespace ask for 6 held names each while dns_max_keys leaves 16 keys
 * (reserve 4): theirs stop at 12 keys (EAGAIN after), and host root's
 * name still gets its keys.  Before, they took all 16 and host root's
 * name failed with EAGAIN.
 */
TEST_F_TIMEOUT(tenant, containers_filling_dns_keys_leave_host_root_its_reserve, 120)
{
	long long full0, full = 0, end;
	int status = 0, ret;
	long c0, started = 0;
	char value[32];

	snprintf(value, sizeof(value), "%lld",
		 rai_debugfs_counter("stats", "dns_keys") + 16);
	ASSERT_EQ(0, tb_param(self, "dns_max_keys", value));
	ASSERT_EQ(0, tb_param(self, "dns_max_keys_per_user", "12"));
	EXPECT_EQ(0, tb_param(self, "dns_max_keys_host_reserve", "4"));
	full0 = rai_debugfs_counter("stats", "dns_keys_full");
	ASSERT_EQ(0, tb_upcalls_install(self));
	c0 = rai_upcall_count();
	ASSERT_LE(0, c0);
	ASSERT_EQ(0, tb_tenants_hold_names(self, 2, 6));
	/* Each of the 18 names is in an upcall or refused for its keys. */
	end = rai_now_ms() + RAI_UPCALL_START_MS;
	while (rai_now_ms() < end) {
		started = rai_upcall_count() - c0;
		full = rai_debugfs_counter("stats", "dns_keys_full") - full0;
		if (started + full >= 18)
			break;
		usleep(20000);	/* the pace of a look with a deadline */
	}
	ret = tb_host_root_resolves(self->fd, &status);
	TH_LOG("2 containers + nobody's namespace, 6 held names each: %ld upcalls, %lld refused for keys; host root: %d, status %d",
	       started, full, ret, status);
	EXPECT_EQ(18, started + full);
	EXPECT_LT(0, full);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, status);
}

/*
 * Creating namespaces gains nothing: an unprivileged user's namespace is
 * charged to that user's share, and a namespace nested in a container
 * (made by its root) to the container's share.
 */
TEST_F(tenant, nested_namespaces_take_from_their_makers_share)
{
	int half = REQUESTS_CAP / 2, got, err;
	pid_t pid;

	pid = rai_fork_as(NOBODY_UID);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(tb_then_nested(half));
	got = rai_wait_child(pid);
	TH_LOG("an ordinary user holding %d: its namespace got %d more",
	       half, got);
	EXPECT_EQ(REQUESTS_CAP - half, got);

	ASSERT_EQ(0, tb_container_start(&self->c[0], 0, -half, TB_REQUESTS));
	got = tb_container_result(&self->c[0], &err);
	TH_LOG("a container's root holding %d: a namespace nested in it got %d more",
	       half, got);
	EXPECT_EQ(REQUESTS_CAP - half, got);
}

TEST_HARNESS_MAIN
