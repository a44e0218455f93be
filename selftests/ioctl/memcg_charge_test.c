// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Kernel memory a caller makes the module allocate is charged to its
 * memory cgroup (issue 32, finding 1), so that a container's memory.max
 * holds inside the module too.  A child cgroup (cgroup v2) with one
 * process in it:
 *
 *  - an ordinary user holding 1,000 requests with results: the cgroup's
 *    memory.current grows by about what they pin;
 *  - the same under a memory.max of 1 MiB above what it had: it is
 *    refused (ENOMEM), and no OOM killer runs (not even the cgroup's):
 *    the host still resolves;
 *  - threads whose one-call lookups (answered within RESOLVE, results
 *    of a cached name with many addresses) wait in the copy-out (a page
 *    fault that a userfaultfd holds, as a FUSE mapping can): the results
 *    they hold are charged too, the growth per thread compared with
 *    threads held in a read() of /dev/zero into the same kind of page.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_MOUNT	"/run/rai-test-cgroup2"
#define NOBODY_ID	65534
#define HELD		1000
#define LIMITED_MOST	4000
#define LIMIT_ROOM	(1 << 20)
#define EVENT_WAIT_MS	10000
#define THREADS		128
#define MANY_ADDRS	32
#define MANY_NAME	"memcg-many.rai.example"

/* ---- cgroup v2 --------------------------------------------------------- */

static int mc_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static long long mc_read_ll(const char *dir, const char *file)
{
	char path[256], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoll(buf);
}

/* "oom_kill N" of @dir's memory.events. */
static long long mc_oom_kills(const char *dir)
{
	char path[256], key[32];
	long long v, kills = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fscanf(f, "%31s %lld", key, &v) == 2)
		if (!strcmp(key, "oom_kill"))
			kills = v;
	fclose(f);
	return kills;
}

/* The cgroup v2 root, mounted if the guest has none: 0 or -errno. */
static int mc_root(char *root, size_t size)
{
	if (!access(CG_ROOT "/cgroup.controllers", R_OK)) {
		snprintf(root, size, "%s", CG_ROOT);
		return 0;
	}
	snprintf(root, size, "%s", CG_MOUNT);
	if (!access(CG_MOUNT "/cgroup.controllers", R_OK))
		return 0;
	if (mkdir(CG_MOUNT, 0755) && errno != EEXIST)
		return -errno;
	return mount("none", CG_MOUNT, "cgroup2", 0, NULL) ? -errno : 0;
}

/* ---- the process in the cgroup ----------------------------------------- */

/* A child and the pipes to it: it writes ints, we write a byte to go. */
struct mc_child {
	pid_t pid;
	int go;
	int from;
};

static void mc_tell(int out, long long v)
{
	if (write(out, &v, sizeof(v)) != sizeof(v))
		_exit(90);
}

static void mc_wait_go(int go)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(91);
}

/*
 * Up to @most asynchronous numeric requests, then their events: how
 * many completed with results; *@err the first failure (of RESOLVE, or a
 * request's status).
 */
static int mc_hold_results(int fd, int most, long long *err)
{
	struct rdma_addrinfo_event ev;
	int i, asked, ok = 0;
	__u32 handle;
	int ret;

	*err = 0;
	for (asked = 0; asked < most; asked++) {
		ret = rai_resolve_async(fd, "127.0.0.1", NULL, AF_INET, 0,
					asked, &handle);
		if (ret) {
			*err = ret;
			break;
		}
	}
	for (i = 0; i < asked; i++) {
		ret = rai_wait_event(fd, &ev, EVENT_WAIT_MS);
		if (ret) {
			if (!*err)
				*err = ret;
			break;
		}
		if (!ev.status && ev.num_results)
			ok++;
		else if (!*err)
			*err = ev.status ? ev.status : -ENODATA;
	}
	return ok;
}

/*
 * As an ordinary user, in the cgroup: the device opened, "ready" (0),
 * then on "go" up to @most requests with results held; tells how many
 * and the error that stopped it, then waits to be killed.
 */
static void mc_holder_side(int go, int out, int most)
{
	long long err;
	int fd, got;

	mc_wait_go(go);		/* moved into the cgroup */
	if (setgroups(0, NULL) || setresgid(NOBODY_ID, NOBODY_ID, NOBODY_ID) ||
	    setresuid(NOBODY_ID, NOBODY_ID, NOBODY_ID))
		_exit(92);
	fd = rai_dev_open(0);
	if (fd < 0)
		_exit(93);
	mc_tell(out, 0);
	mc_wait_go(go);
	got = mc_hold_results(fd, most, &err);
	mc_tell(out, got);
	mc_tell(out, err);
	pause();
	_exit(0);
}

/* ---- threads held in a copy-out ------------------------------------------ */

struct mc_thread {
	pthread_t t;
	int fd;		/* the device, or /dev/zero */
	bool resolve;
	char *buf;
	size_t len;
	__u32 room;
	int ret;
};

static void *mc_thread_run(void *arg)
{
	struct mc_thread *th = arg;
	struct rdma_addrinfo_resolve r;

	if (th->resolve) {
		rai_req_init(&r, MANY_NAME, NULL, AF_INET, 0,
			     RDMA_ADDRINFO_RESOLVE_SYNC |
			     RDMA_ADDRINFO_RESOLVE_RESULTS,
			     (uintptr_t)th->buf);
		r.result_count = th->room;
		th->ret = rai_resolve(th->fd, &r);
		if (!th->ret && r.num_results != th->room)
			th->ret = -ENODATA;
	} else {
		th->ret = read(th->fd, th->buf, th->len) == (ssize_t)th->len ?
			  0 : -EIO;
	}
	return NULL;
}

/*
 * In the cgroup: THREADS threads, each copying @room results (@resolve:
 * a one-call lookup of MANY_NAME) or as many bytes of /dev/zero
 * (otherwise) into a page of its own that a userfaultfd holds.  Tells
 * "ready" (0) before, "held" (1) once every thread waits in its fault,
 * then on "go" lets them finish: tells how many failed.
 */
static void mc_copyout_side(int go, int out, bool resolve, __u32 room)
{
	size_t len = room * sizeof(struct rdma_addrinfo_result);
	size_t page = sysconf(_SC_PAGESIZE);
	size_t slot = (len + page - 1) / page * page;
	static struct mc_thread th[THREADS];
	struct uffdio_register reg = {};
	struct uffdio_api api = { .api = UFFD_API };
	struct uffd_msg msg;
	int uffd, fd, i, failed = 0;
	char *area;

	mc_wait_go(go);		/* moved into the cgroup */
	fd = resolve ? rai_dev_open(0) : open("/dev/zero", O_RDONLY);
	if (fd < 0)
		_exit(94);
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		_exit(95);
	area = mmap(NULL, slot * THREADS, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		_exit(96);
	reg.range.start = (uintptr_t)area;
	reg.range.len = slot * THREADS;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		_exit(97);
	mc_tell(out, 0);
	mc_wait_go(go);
	for (i = 0; i < THREADS; i++) {
		th[i] = (struct mc_thread){ .fd = fd, .resolve = resolve,
			.buf = area + i * slot, .len = len, .room = room };
		if (pthread_create(&th[i].t, NULL, mc_thread_run, &th[i]))
			_exit(98);
	}
	/* Each thread stops at the first page of its own: one fault each. */
	for (i = 0; i < THREADS; i++)
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			_exit(99);
	mc_tell(out, 1);
	mc_wait_go(go);
	close(uffd);		/* the faults go on as ordinary ones */
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i].t, NULL);
		failed += th[i].ret != 0;
	}
	mc_tell(out, failed);
	pause();
	_exit(0);
}

/* ---- the fixture ---------------------------------------------------------- */

FIXTURE(memcg) {
	char root[128];
	char cg[192];
	struct mc_child c;
	char hosts[MANY_ADDRS][256];
	int nr_hosts;
};

FIXTURE_SETUP(memcg)
{
	int ret = mc_root(self->root, sizeof(self->root));

	memset(&self->c, 0, sizeof(self->c));
	self->nr_hosts = 0;
	if (ret)
		SKIP(return, "no cgroup v2 (%s)", strerror(-ret));
	mc_write(strcat(strcpy(self->cg, self->root), "/cgroup.subtree_control"),
		 "+memory");
	snprintf(self->cg, sizeof(self->cg), "%s/rai-memcg-%d", self->root,
		 getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755)) TH_LOG("%s: %s", self->cg,
						   strerror(errno));
	ASSERT_LE(0, mc_read_ll(self->cg, "memory.current"))
		TH_LOG("no memory controller in %s", self->cg);
}

FIXTURE_TEARDOWN(memcg)
{
	int i;

	if (self->c.pid > 0) {
		kill(self->c.pid, SIGKILL);
		rai_wait_child(self->c.pid);
		close(self->c.go);
		close(self->c.from);
	}
	for (i = 0; i < self->nr_hosts; i++)
		rai_hosts_remove(self->hosts[i]);
	if (self->cg[0])
		rmdir(self->cg);
}

/* A child running @side, moved into the cgroup before it does anything. */
static int mc_start(FIXTURE_DATA(memcg) *self,
		    void (*side)(int go, int out, void *arg), void *arg)
{
	int to[2], from[2];
	char pid[16], path[256];

	if (pipe(to) || pipe(from))
		return -1;
	self->c.pid = fork();
	if (self->c.pid < 0)
		return -1;
	if (!self->c.pid) {
		close(to[1]);
		close(from[0]);
		side(to[0], from[1], arg);
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	self->c.go = to[1];
	self->c.from = from[0];
	snprintf(pid, sizeof(pid), "%d", self->c.pid);
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->cg);
	if (mc_write(path, pid))
		return -1;
	return write(self->c.go, "g", 1) == 1 ? 0 : -1;
}

static int mc_go(FIXTURE_DATA(memcg) *self)
{
	return write(self->c.go, "g", 1) == 1 ? 0 : -1;
}

/* The next number the child tells; -2^62 when it died. */
static long long mc_hear(FIXTURE_DATA(memcg) *self)
{
	long long v;

	if (read(self->c.from, &v, sizeof(v)) != sizeof(v))
		return -(1LL << 62);
	return v;
}

static void mc_holder(int go, int out, void *arg)
{
	mc_holder_side(go, out, *(int *)arg);
}

TEST_F(memcg, held_requests_with_results_are_charged_to_the_callers_cgroup)
{
	long long before, after, err;
	int most = HELD, got;

	ASSERT_EQ(0, mc_start(self, mc_holder, &most));
	ASSERT_EQ(0, mc_hear(self));
	before = mc_read_ll(self->cg, "memory.current");
	ASSERT_EQ(0, mc_go(self));
	got = mc_hear(self);
	err = mc_hear(self);
	after = mc_read_ll(self->cg, "memory.current");
	TH_LOG("%d requests with results held (then %lld): memory.current %lld -> %lld, +%lld bytes (%lld per request; a result is %zu)",
	       got, err, before, after, after - before,
	       got ? (after - before) / got : 0,
	       sizeof(struct rdma_addrinfo_result));
	ASSERT_EQ(HELD, got);
	/* At least the results themselves; the requests come on top. */
	EXPECT_LE((long long)HELD * (long long)sizeof(struct rdma_addrinfo_result),
		  after - before);
}

TEST_F(memcg, memory_max_stops_a_caller_not_the_host)
{
	long long before, err, kills;
	int most = LIMITED_MOST, got, fd;
	char max[32], path[256];
	struct rdma_addrinfo_result *res;
	__s32 status;
	__u32 n;

	ASSERT_EQ(0, mc_start(self, mc_holder, &most));
	ASSERT_EQ(0, mc_hear(self));
	before = mc_read_ll(self->cg, "memory.current");
	snprintf(max, sizeof(max), "%lld", before + LIMIT_ROOM);
	snprintf(path, sizeof(path), "%s/memory.max", self->cg);
	ASSERT_EQ(0, mc_write(path, max));
	ASSERT_EQ(0, mc_go(self));
	got = mc_hear(self);
	err = got < 0 ? 0 : mc_hear(self);
	kills = mc_oom_kills(self->cg);
	TH_LOG("memory.max %s (1 MiB above %lld): %s after %d requests with results (%lld); oom_kill in the cgroup: %lld; memory.current %lld",
	       max, before, got < 0 ? "killed" : "stopped", got < 0 ? -1 : got,
	       err, kills, mc_read_ll(self->cg, "memory.current"));
	/* Refused, not killed: no OOM killer runs for a lookup. */
	EXPECT_LE(0, got);
	EXPECT_GT(LIMITED_MOST, got);
	EXPECT_TRUE(err == -ENOMEM || err == -ENOBUFS);
	EXPECT_EQ(0, kills);
	/* The host, outside the cgroup, still resolves. */
	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, rai_lookup_str(fd, "127.0.0.1", NULL, AF_INET, 0, &res,
				    &n, &status));
	EXPECT_EQ(0, status);
	free(res);
	close(fd);
}

struct mc_copyout_arg {
	bool resolve;
	__u32 room;
};

static void mc_copyout(int go, int out, void *arg)
{
	struct mc_copyout_arg *a = arg;

	mc_copyout_side(go, out, a->resolve, a->room);
}

/* Growth of memory.current with THREADS threads held in their copy-out. */
static long long mc_held_growth(FIXTURE_DATA(memcg) *self, bool resolve,
				__u32 room, int *failed)
{
	struct mc_copyout_arg arg = { .resolve = resolve, .room = room };
	long long before, held;

	*failed = -1;
	if (mc_start(self, mc_copyout, &arg) || mc_hear(self) != 0)
		return -1;
	before = mc_read_ll(self->cg, "memory.current");
	if (mc_go(self) || mc_hear(self) != 1)
		return -1;
	held = mc_read_ll(self->cg, "memory.current");
	if (mc_go(self))
		return -1;
	*failed = mc_hear(self);
	kill(self->c.pid, SIGKILL);
	rai_wait_child(self->c.pid);
	close(self->c.go);
	close(self->c.from);
	self->c.pid = 0;
	return held - before;
}

TEST_F_TIMEOUT(memcg, results_held_in_a_copy_out_are_charged, 300)
{
	struct rdma_addrinfo_result *res;
	long long base, resolving, extra;
	int i, fd, failed;
	__s32 status;
	char ip[32];
	__u32 n;

	/* A name with many addresses, in the cache: answered in RESOLVE. */
	for (i = 0; i < MANY_ADDRS; i++) {
		snprintf(ip, sizeof(ip), "192.0.2.%d", 100 + i);
		ASSERT_EQ(0, rai_hosts_add(self->hosts[i], sizeof(self->hosts[i]),
					   ip, MANY_NAME));
		self->nr_hosts++;
	}
	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rai_lookup_str(fd, MANY_NAME, NULL, AF_INET, 0, &res, &n,
				    &status));
	free(res);
	close(fd);
	ASSERT_EQ(0, status);
	TH_LOG("%s: %u results of %zu bytes", MANY_NAME, n,
	       sizeof(struct rdma_addrinfo_result));
	ASSERT_LE(8, n);

	base = mc_held_growth(self, false, n, &failed);
	ASSERT_LE(0, base);
	EXPECT_EQ(0, failed);
	resolving = mc_held_growth(self, true, n, &failed);
	ASSERT_LE(0, resolving);
	EXPECT_EQ(0, failed);
	extra = resolving - base;
	TH_LOG("%d threads held in a copy-out: +%lld bytes reading /dev/zero, +%lld resolving: %lld more per thread (its results: %zu bytes)",
	       THREADS, base, resolving, extra / THREADS,
	       n * sizeof(struct rdma_addrinfo_result));
	/* At least half of what the results take (the rest is noise). */
	EXPECT_LE((long long)THREADS * n *
		  (long long)sizeof(struct rdma_addrinfo_result) / 2, extra);
}

TEST_HARNESS_MAIN
