// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25; "Resident resolver" in the ABI header):
 * the test plays the resolver itself.  It opens the device, registers with
 * RESOLVER_REGISTER, and other files (or other processes, users and
 * namespaces) make DNS requests that it takes with RESOLVER_TAKE and
 * answers with RESOLVER_ANSWER.  Covered: every validation error of the
 * three ioctls, who may register (CAP_NET_ADMIN of the opener, that of
 * the caller too in resolver_tenant_test, one per namespace and view, a
 * container's root for its own namespace), taking
 * (blocking, poll, round-robin between users, one name for many requests,
 * nothing lost on EFAULT), answering (results, the cache, errors, garbage
 * as -EPROTO, stale ids), the fallback to the upcall when the resolver
 * closes or misses its deadline (each request completes once), requests
 * destroyed or closed under the resolver, and containers with and without
 * a resolver of their own.
 *
 * Names are new to the module's cache: rai_unique_name() for the names
 * the test answers itself (they exist nowhere), fresh /etc/hosts lines for
 * the names the upcall must answer when the resolver is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define NOBODY		65534
#define USER_A		5101
#define USER_B		5102
/* The unprivileged creator of a container's namespaces. */
#define NS_OWNER	5103
/* Where the uids of a container with several users map to. */
#define NS_FIRST_KUID	210000
#define NS_UIDS		3
/* An answer through the resolver path: no process is started. */
#define ANSWER_MS	10000
/* An answer through the upcall: request-key and a helper are started. */
#define UPCALL_MS	(RAI_UPCALL_START_MS + 10000)
#define HOSTS_ADDR	"192.0.2.241"
#define GOOD_ADDR	"192.0.2.77"
#define GOOD_ADDR6	"2001:db8::77"
#define POD_ADDR	"192.0.2.88"
#define NR_HOSTS	5
#define RACE_MS		6000
#define RACE_CALLERS	2

typedef struct rdma_addrinfo_resolver_name rvt_name_t;
typedef struct rdma_addrinfo_resolver_answer rvt_answer_t;

/* ---- the resolver's side ---------------------------------------------- */

static int rvt_register(int fd, struct rdma_addrinfo_resolver_register *reg)
{
	memset(reg, 0, sizeof(*reg));
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, reg);
}

/* A new O_NONBLOCK file registered as the resolver: fd or -errno. */
static int rvt_open_registered(struct rdma_addrinfo_resolver_register *reg)
{
	struct rdma_addrinfo_resolver_register dummy;
	int fd = rai_dev_open(O_NONBLOCK), ret;

	if (fd < 0)
		return fd;
	ret = rvt_register(fd, reg ? reg : &dummy);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* RESOLVER_TAKE of up to @count names: how many were taken, or -errno. */
static int rvt_take(int fd, rvt_name_t *names, __u32 count)
{
	struct rdma_addrinfo_resolver_take t = {
		.names = (uintptr_t)names,
		.count = count,
		.name_size = sizeof(*names),
	};
	int ret = rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &t);

	return ret ? ret : (int)t.taken;
}

/*
 * Take names from the O_NONBLOCK resolver @fd until @want are in @names
 * or timeout_ms passed: how many were taken, or -errno of a TAKE that
 * failed otherwise than EAGAIN.
 */
static int rvt_take_n(int fd, rvt_name_t *names, int want, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int got = 0, ret;

	while (got < want) {
		ret = rvt_take(fd, names + got, want - got);
		if (ret > 0) {
			got += ret;
			continue;
		}
		if (ret != -EAGAIN)
			return ret;
		if (rai_now_ms() >= end)
			break;
		poll(&p, 1, 50);
	}
	return got;
}

/* The id of @name among @n taken names, 0 if it is not there. */
static __u64 rvt_id_of(const rvt_name_t *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i].name, name))
			return names[i].id;
	return 0;
}

static void rvt_answer_set(rvt_answer_t *a, __u64 id, int error, __u32 ttl,
			   const char *addrs)
{
	memset(a, 0, sizeof(*a));
	a->id = id;
	a->error = error;
	a->ttl = ttl;
	if (addrs)
		snprintf(a->addrs, sizeof(a->addrs), "%s", addrs);
}

/* RESOLVER_ANSWER of @count answers; *out gets the counters. */
static int rvt_answer(int fd, rvt_answer_t *a, __u32 count,
		      struct rdma_addrinfo_resolver_answers *out)
{
	memset(out, 0, sizeof(*out));
	out->answers = (uintptr_t)a;
	out->count = count;
	out->answer_size = sizeof(*a);
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, out);
}

static int rvt_answer_one(int fd, __u64 id, int error, const char *addrs,
			  struct rdma_addrinfo_resolver_answers *out)
{
	rvt_answer_t a;

	rvt_answer_set(&a, id, error, 60, addrs);
	return rvt_answer(fd, &a, 1, out);
}

/* ---- the callers' side ------------------------------------------------ */

static int rvt_ask(int fd, const char *name, __u64 ctx, __u32 *handle)
{
	return rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, ctx, handle);
}

/*
 * The results of @handle on @fd hold @ip exactly once, all of origin DNS:
 * 0, else a negative errno or 1 (wrong results, logged).
 */
static int rvt_results_hold(int fd, __u32 handle, const char *ip)
{
	struct rdma_addrinfo_result *res = NULL;
	__u32 n = 0, i;
	int ret = rai_query_all(fd, handle, &res, &n);

	if (ret)
		return ret;
	ret = rai_count_dst(res, n, ip) == 1 ? 0 : 1;
	for (i = 0; i < n; i++)
		if (res[i].origin != RDMA_ADDRINFO_ORIGIN_DNS)
			ret = 1;
	if (ret)
		rai_dump_results(res, n);
	free(res);
	return ret;
}

/* No event arrives on @fd within @ms. */
static bool rvt_quiet(int fd, int ms)
{
	struct rdma_addrinfo_event ev;

	return rai_wait_event(fd, &ev, ms) == -ETIMEDOUT;
}

/* Wait up to @ms for the gauge @name to come back to @value: its value. */
static long long rvt_gauge_settles(const char *name, long long value, int ms)
{
	long long v, end = rai_now_ms() + ms;

	while ((v = rai_stat(name)) != value && rai_now_ms() < end)
		usleep(20000);	/* the pace of the looks, not a wait */
	return v;
}

/* ---- containers ------------------------------------------------------- */

/*
 * Run @fn in a child that, as the unprivileged NS_OWNER, made its own user
 * and network namespace; the parent maps @uids uids of it (uid 0 to
 * NS_OWNER when 1, else to NS_FIRST_KUID on), and the child becomes the
 * namespace's root.  The child's exit code: @fn's result, or 100 + a
 * step of the set-up that failed.
 */
static int rvt_in_container(int (*fn)(void *), void *arg, int uids)
{
	int up[2], go[2], ret;
	char c = 0, path[64];
	pid_t pid;

	if (pipe(up) || pipe(go))
		return -1;
	pid = rai_fork_as(NS_OWNER);
	if (pid < 0)
		return -1;
	if (!pid) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
			perror("# unshare");
			_exit(101);
		}
		if (write(up[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(102);
		if (c != 'g' || setresuid(0, 0, 0)) {
			perror("# setresuid in the namespace");
			_exit(103);
		}
		_exit(fn(arg));
	}
	ret = -1;
	if (read(up[0], &c, 1) == 1) {
		snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
		c = rai_sh("echo '0 %d %d' > %s",
			   uids == 1 ? NS_OWNER : NS_FIRST_KUID, uids,
			   path) ? 'x' : 'g';
		if (write(go[1], &c, 1) == 1)
			ret = rai_wait_child(pid);
	}
	if (ret < 0) {
		kill(pid, SIGKILL);
		rai_wait_child(pid);
	}
	close(up[0]);
	close(up[1]);
	close(go[0]);
	close(go[1]);
	return ret;
}

/* ---- the fixture: the test is the registered resolver ---------------- */

FIXTURE(resolver) {
	int rfd;	/* the resolver, O_NONBLOCK, registered */
	int fd;		/* a caller, O_NONBLOCK */
	struct rdma_addrinfo_resolver_register reg;
	char lines[NR_HOSTS][256];
	char hosts[NR_HOSTS][128];
	int nr_hosts;
	const char *param;	/* a module parameter the test changed */
	char saved[32];		/* its value before */
	char saved_deadline[32];	/* resolver_deadline_ms before, or "" */
};

FIXTURE_SETUP(resolver)
{
	self->rfd = -1;
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	self->rfd = rvt_open_registered(&self->reg);
	ASSERT_LE(0, self->rfd)
		TH_LOG("RESOLVER_REGISTER: %s (resolvers registered: %lld)",
		       strerror(-self->rfd), rai_stat("resolvers"));
}

FIXTURE_TEARDOWN(resolver)
{
	int i;

	if (self->rfd >= 0)
		close(self->rfd);
	if (self->param)
		rai_param_set(self->param, self->saved);
	if (self->saved_deadline[0])
		rai_param_set("resolver_deadline_ms", self->saved_deadline);
	if (self->fd >= 0)
		close(self->fd);
	for (i = 0; i < self->nr_hosts; i++)
		rai_hosts_remove(self->lines[i]);
}

/* @n names of /etc/hosts (HOSTS_ADDR) no one asked for, removed after. */
static int rvt_hosts_names(FIXTURE_DATA(resolver) *self, int n)
{
	int ret;

	for (; self->nr_hosts < n; self->nr_hosts++) {
		rai_unique_name(self->hosts[self->nr_hosts],
				sizeof(self->hosts[0]), "rvh");
		ret = rai_hosts_add(self->lines[self->nr_hosts],
				    sizeof(self->lines[0]), HOSTS_ADDR,
				    self->hosts[self->nr_hosts]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Set the module parameter @name to @value (restored by the teardown; one
 * per test) and register the fixture's resolver again, so that its
 * registration reports the new value: 0 or -errno.
 */
static int rvt_param_and_register(FIXTURE_DATA(resolver) *self,
				  const char *name, const char *value)
{
	int ret = rai_param_get(name, self->saved, sizeof(self->saved));

	if (ret)
		return ret;
	self->param = name;
	ret = rai_param_set(name, value);
	if (ret)
		return ret;
	close(self->rfd);
	self->rfd = rvt_open_registered(&self->reg);
	return self->rfd < 0 ? self->rfd : 0;
}

/*
 * A deadline no test outlives (restored by the teardown): for tests that
 * hold a name taken while the upcall answers another, which takes longer
 * than the default 5 s on the debug kernel (seen: the held name went to
 * the upcall, and its answer counted stale).  Set before the fixture's
 * resolver takes the name: a name's deadline is fixed when it is taken.
 */
static int rvt_long_deadline(FIXTURE_DATA(resolver) *self)
{
	int ret = rai_param_get("resolver_deadline_ms", self->saved_deadline,
				sizeof(self->saved_deadline));

	if (ret) {
		self->saved_deadline[0] = '\0';
		return ret;
	}
	return rai_param_set("resolver_deadline_ms", "600000");
}

/* ---- GET_INFO and REGISTER -------------------------------------------- */

TEST(info_features_has_resolver)
{
	struct rdma_addrinfo_info info;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rai_get_info(fd, &info));
	EXPECT_NE(0, info.features & RDMA_ADDRINFO_FEATURE_RESOLVER)
		TH_LOG("features 0x%x", info.features);
	/* Its answers may carry canonical names ("canon=NAME"). */
	EXPECT_NE(0, info.features & RDMA_ADDRINFO_FEATURE_CANONNAME)
		TH_LOG("features 0x%x", info.features);
	close(fd);
}

/*
 * On a new file, REGISTER with @flags and @reserved as given: its result;
 * *then: a plain REGISTER on the same file right after it.
 */
static int rvt_register_fields(__u32 flags, __u32 reserved, int *then)
{
	struct rdma_addrinfo_resolver_register reg = {
		.flags = flags, .reserved = reserved,
	};
	int fd = rai_dev_open(0), ret;

	if (fd < 0)
		return fd;
	ret = rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg);
	*then = rvt_register(fd, &reg);
	close(fd);
	return ret;
}

/* Refused, not registered: the same file registers right after. */
TEST(register_flags_nonzero_einval)
{
	int then = 1;

	EXPECT_EQ(-EINVAL, rvt_register_fields(1, 0, &then));
	EXPECT_EQ(0, then);
	EXPECT_EQ(-EINVAL, rvt_register_fields(0x80000000, 0, &then));
	EXPECT_EQ(0, then);
}

TEST(register_reserved_nonzero_einval)
{
	int then = 1;

	EXPECT_EQ(-EINVAL, rvt_register_fields(0, 1, &then));
	EXPECT_EQ(0, then);
}

TEST(register_twice_on_one_file_ebusy)
{
	struct rdma_addrinfo_resolver_register reg;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rvt_register(fd, &reg));
	EXPECT_EQ(-EBUSY, rvt_register(fd, &reg));
	close(fd);
}

TEST(register_second_file_of_the_namespace_ebusy)
{
	struct rdma_addrinfo_resolver_register reg;
	long long r0 = rai_stat("resolver_registered");
	int a = rai_dev_open(0), b = rai_dev_open(0);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, rvt_register(a, &reg));
	EXPECT_EQ(-EBUSY, rvt_register(b, &reg));
	EXPECT_EQ(r0 + 1, rai_stat("resolver_registered"));
	EXPECT_EQ(1, rai_stat("resolvers"));
	close(a);
	close(b);
}

TEST(register_reports_max_outstanding_and_deadline)
{
	struct rdma_addrinfo_resolver_register reg;
	char v[32];
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	memset(&reg, 0xff, sizeof(reg));
	reg.flags = 0;
	reg.reserved = 0;
	ASSERT_EQ(0, rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER,
				   &reg));
	EXPECT_LT(0, reg.max_outstanding);
	EXPECT_NE(0xffffffff, reg.max_outstanding);
	EXPECT_LT(0, reg.deadline_ms);
	EXPECT_NE(0xffffffff, reg.deadline_ms);
	EXPECT_EQ(0, reg.flags);
	EXPECT_EQ(0, reg.reserved);
	if (!rai_param_get("resolver_max_outstanding", v, sizeof(v)))
		EXPECT_EQ(strtoul(v, NULL, 0), reg.max_outstanding);
	if (!rai_param_get("resolver_deadline_ms", v, sizeof(v)))
		EXPECT_EQ(strtoul(v, NULL, 0), reg.deadline_ms);
	close(fd);
}

/* The argument on a read-only page: EFAULT, and no registration left. */
TEST(register_struct_read_only_efault)
{
	struct rdma_addrinfo_resolver_register *reg, ok;
	int fd = rai_dev_open(0), b;

	ASSERT_LE(0, fd);
	reg = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, reg);
	ASSERT_EQ(0, mprotect(reg, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER,
					 reg));
	b = rai_dev_open(0);
	ASSERT_LE(0, b);
	EXPECT_EQ(0, rvt_register(b, &ok))
		TH_LOG("the failed REGISTER left its file registered");
	close(b);
	close(fd);
	munmap(reg, 4096);
}

TEST(register_by_an_opener_without_cap_net_admin_eperm)
{
	struct rdma_addrinfo_resolver_register reg;
	long long r0 = rai_stat("resolver_registered");
	pid_t pid = rai_fork_as(NOBODY);
	int fd, ret;

	ASSERT_LE(0, pid);
	if (!pid) {
		fd = rai_dev_open(0);
		if (fd < 0)
			_exit(2);
		ret = rvt_register(fd, &reg);
		if (ret != -EPERM)
			fprintf(stderr, "# REGISTER as nobody: %d\n", ret);
		_exit(ret == -EPERM ? 0 : 3);
	}
	EXPECT_EQ(0, rai_wait_child(pid));
	EXPECT_EQ(r0, rai_stat("resolver_registered"));
}

/* The fixture's file is the resolver; once it is closed, another may be. */
TEST_F(resolver, register_again_after_the_first_closes)
{
	struct rdma_addrinfo_resolver_register reg;
	long long u0 = rai_stat("resolver_unregistered");
	int b = rai_dev_open(0);

	ASSERT_LE(0, b);
	ASSERT_EQ(-EBUSY, rvt_register(b, &reg));
	close(self->rfd);
	self->rfd = -1;
	EXPECT_EQ(u0 + 1, rai_stat("resolver_unregistered"));
	EXPECT_EQ(0, rai_stat("resolvers"));
	EXPECT_EQ(0, rvt_register(b, &reg));
	EXPECT_EQ(1, rai_stat("resolvers"));
	close(b);
	EXPECT_EQ(0, rai_stat("resolvers"));
}

/* ---- TAKE -------------------------------------------------------------- */

TEST(take_on_a_file_not_registered_einval)
{
	rvt_name_t names[2];
	int fd = rai_dev_open(O_NONBLOCK);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, rvt_take(fd, names, 2));
	close(fd);
}

TEST_F(resolver, take_name_size_wrong_einval)
{
	rvt_name_t names[2];
	struct rdma_addrinfo_resolver_take t = {
		.names = (uintptr_t)names, .count = 2,
	};
	static const __u32 sizes[] = { 0, sizeof(names[0]) - 8,
				       sizeof(names[0]) + 8 };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		t.name_size = sizes[i];
		EXPECT_EQ(-EINVAL, rai_dev_ioctl(self->rfd,
			  RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &t))
			TH_LOG("name_size %u", sizes[i]);
	}
	/* The control: the right size, nothing waiting. */
	t.name_size = sizeof(names[0]);
	EXPECT_EQ(-EAGAIN, rai_dev_ioctl(self->rfd,
		  RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &t));
}

TEST_F(resolver, take_count_zero_einval)
{
	rvt_name_t names[1];

	EXPECT_EQ(-EINVAL, rvt_take(self->rfd, names, 0));
}

TEST_F(resolver, take_reserved_nonzero_einval)
{
	rvt_name_t names[1];
	struct rdma_addrinfo_resolver_take t = {
		.names = (uintptr_t)names, .count = 1,
		.name_size = sizeof(names[0]), .reserved = 1,
	};

	EXPECT_EQ(-EINVAL, rai_dev_ioctl(self->rfd,
		  RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &t));
}

TEST_F(resolver, take_nonblocking_with_nothing_waiting_eagain)
{
	rvt_name_t names[4];

	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names, 4));
}

struct rvt_blocking_take {
	int fd;
	rvt_name_t names[4];
	atomic_int ret;		/* INT_MIN while the TAKE waits */
	pid_t tid;
};

static void *rvt_blocking_take_thread(void *arg)
{
	struct rvt_blocking_take *b = arg;

	__atomic_store_n(&b->tid, gettid(), __ATOMIC_RELEASE);
	atomic_store(&b->ret, rvt_take(b->fd, b->names, 4));
	return NULL;
}

TEST_F(resolver, blocking_take_woken_by_a_resolve)
{
	struct rvt_blocking_take b = { .fd = self->rfd };
	char name[128];
	pthread_t th;
	__u32 h;
	int i;

	ASSERT_EQ(0, fcntl(self->rfd, F_SETFL, 0));
	atomic_store(&b.ret, -1000000);
	ASSERT_EQ(0, pthread_create(&th, NULL, rvt_blocking_take_thread, &b));
	EXPECT_EQ(0, rai_task_wait_asleep(&b.tid, ANSWER_MS))
		TH_LOG("the TAKE never slept");
	EXPECT_EQ(-1000000, atomic_load(&b.ret))
		TH_LOG("TAKE returned with nothing to take");
	rai_unique_name(name, sizeof(name), "rvblk");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	for (i = 0; i < 500 && atomic_load(&b.ret) == -1000000; i++)
		usleep(20000);	/* the pace of a look with a deadline */
	ASSERT_NE(-1000000, atomic_load(&b.ret))
		TH_LOG("the blocking TAKE was not woken");
	pthread_join(th, NULL);
	ASSERT_EQ(1, atomic_load(&b.ret));
	EXPECT_STREQ(name, b.names[0].name);
	EXPECT_EQ(strlen(name), b.names[0].name_len);
	EXPECT_EQ(0, b.names[0].reserved);
	EXPECT_NE(0, b.names[0].id);
}

TEST_F(resolver, poll_reports_epollin_only_while_names_wait)
{
	struct pollfd p = { .fd = self->rfd, .events = POLLIN };
	rvt_name_t names[4];
	char name[128];
	__u32 h;

	EXPECT_EQ(0, poll(&p, 1, 0));
	rai_unique_name(name, sizeof(name), "rvpoll");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	ASSERT_EQ(1, poll(&p, 1, ANSWER_MS));
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(1, rvt_take(self->rfd, names, 4));
	p.revents = 0;
	EXPECT_EQ(0, poll(&p, 1, 0)) TH_LOG("revents 0x%x", p.revents);
}

/* A fault while the names go out loses none: the next TAKE has them. */
TEST_F(resolver, take_into_read_only_names_efault_name_offered_again)
{
	rvt_name_t *ro, names[4];
	char name[128];
	__u32 h;

	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	rai_unique_name(name, sizeof(name), "rvro");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	{
		struct pollfd p = { .fd = self->rfd, .events = POLLIN };

		ASSERT_EQ(1, poll(&p, 1, ANSWER_MS));
	}
	EXPECT_EQ(-EFAULT, rvt_take(self->rfd, ro, 2));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	EXPECT_STREQ(name, names[0].name);
	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names, 4));
	munmap(ro, 4096);
}

TEST_F(resolver, one_name_of_three_requests_taken_once)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	rvt_name_t names[8];
	char name[128];
	__u32 h[3];
	int i, seen = 0;

	rai_unique_name(name, sizeof(name), "rvthree");
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, rvt_ask(self->fd, name, 10 + i, &h[i]));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	/* Each RESOLVE queued or joined its name before it returned. */
	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names + 1, 7))
		TH_LOG("the name was offered twice");
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR, &out));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
		EXPECT_EQ(0, ev.status);
		EXPECT_EQ(1, ev.num_results);
		ASSERT_LE(10, ev.context);
		ASSERT_GT(13, ev.context);
		EXPECT_EQ(h[ev.context - 10], ev.handle);
		seen |= 1 << (ev.context - 10);
	}
	EXPECT_EQ(7, seen);
	EXPECT_TRUE(rvt_quiet(self->fd, 300));
}

/*
 * A child as @uid: asks the @n names at @names (128 bytes each) on a new
 * file, says so on @up, waits on @go, exits 0 (or the step that failed).
 * The parent gets its pid.
 */
static pid_t rvt_ask_as(uid_t uid, char (*names)[128], int n, int up,
			int go)
{
	pid_t pid = rai_fork_as(uid);
	int fd, i;
	char c = 1;
	__u32 h;

	if (pid)
		return pid;
	fd = rai_dev_open(O_NONBLOCK);
	if (fd < 0)
		_exit(2);
	for (i = 0; i < n; i++)
		if (rvt_ask(fd, names[i], i, &h))
			_exit(3);
	if (write(up, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(4);
	_exit(0);
}

/* Users A then B ask three names each: TAKE of two gets one of each. */
TEST_F(resolver, names_of_two_users_taken_round_robin)
{
	long long queued = rai_stat("resolver_outstanding");
	char a[3][128], b[3][128], c = 0;
	rvt_name_t names[2];
	int up[2], go[2], i, r;
	pid_t pa, pb;

	for (i = 0; i < 3; i++) {
		rai_unique_name(a[i], sizeof(a[i]), "rvrra");
		rai_unique_name(b[i], sizeof(b[i]), "rvrrb");
	}
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(go));
	pa = rvt_ask_as(USER_A, a, 3, up[1], go[0]);
	ASSERT_LT(0, pa);
	ASSERT_EQ(1, read(up[0], &c, 1));
	/* A's names queued first: each RESOLVE queued its name. */
	ASSERT_LE(queued + 3, rai_stat_wait("resolver_outstanding",
					    queued + 3, ANSWER_MS));
	pb = rvt_ask_as(USER_B, b, 3, up[1], go[0]);
	ASSERT_LT(0, pb);
	ASSERT_EQ(1, read(up[0], &c, 1));
	ASSERT_LE(queued + 6, rai_stat_wait("resolver_outstanding",
					    queued + 6, ANSWER_MS));
	for (r = 0; r < 3; r++) {
		ASSERT_EQ(2, rvt_take(self->rfd, names, 2)) TH_LOG("round %d", r);
		EXPECT_TRUE(!strcmp(names[0].name, a[r]) ||
			    !strcmp(names[1].name, a[r]))
			TH_LOG("round %d: %s, %s; A's is %s", r, names[0].name,
			       names[1].name, a[r]);
		EXPECT_TRUE(!strcmp(names[0].name, b[r]) ||
			    !strcmp(names[1].name, b[r]))
			TH_LOG("round %d: %s, %s; B's is %s", r, names[0].name,
			       names[1].name, b[r]);
	}
	ASSERT_EQ(2, write(go[1], "gg", 2));
	EXPECT_EQ(0, rai_wait_child(pa));
	EXPECT_EQ(0, rai_wait_child(pb));
}

/* ---- ANSWER ------------------------------------------------------------ */

TEST(answer_on_a_file_not_registered_einval)
{
	struct rdma_addrinfo_resolver_answers out;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, rvt_answer_one(fd, 1, 0, GOOD_ADDR, &out));
	close(fd);
}

TEST_F(resolver, answer_size_wrong_einval)
{
	struct rdma_addrinfo_resolver_answers out;
	rvt_answer_t a[2];
	static const __u32 sizes[] = { 0, sizeof(a[0]) - 8, sizeof(a[0]) + 8 };
	unsigned int i;

	rvt_answer_set(&a[0], 0x7fff0001, 0, 60, GOOD_ADDR);
	rvt_answer_set(&a[1], 0x7fff0002, 0, 60, GOOD_ADDR);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&out, 0, sizeof(out));
		out.answers = (uintptr_t)a;
		out.count = 1;
		out.answer_size = sizes[i];
		EXPECT_EQ(-EINVAL, rai_dev_ioctl(self->rfd,
			  RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, &out))
			TH_LOG("answer_size %u", sizes[i]);
	}
	/* The control: the right size, an unknown id is stale. */
	EXPECT_EQ(0, rvt_answer(self->rfd, a, 1, &out));
}

TEST_F(resolver, answer_reserved_nonzero_einval)
{
	struct rdma_addrinfo_resolver_answers out;
	rvt_answer_t a;

	rvt_answer_set(&a, 0x7fff0003, 0, 60, GOOD_ADDR);
	memset(&out, 0, sizeof(out));
	out.answers = (uintptr_t)&a;
	out.count = 1;
	out.answer_size = sizeof(a);
	out.reserved = 1;
	EXPECT_EQ(-EINVAL, rai_dev_ioctl(self->rfd,
		  RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, &out));
}

TEST_F(resolver, answer_to_an_unknown_id_is_stale)
{
	struct rdma_addrinfo_resolver_answers out;
	long long s0 = rai_stat("resolver_stale");

	ASSERT_EQ(0, rvt_answer_one(self->rfd, 0x7ffffff0ULL, 0, GOOD_ADDR,
				    &out));
	EXPECT_EQ(1, out.done);
	EXPECT_EQ(1, out.stale);
	EXPECT_EQ(0, out.malformed);
	EXPECT_EQ(0, out.reserved);
	EXPECT_EQ(s0 + 1, rai_stat("resolver_stale"));
}

TEST_F(resolver, good_answer_completes_with_its_addresses_then_cached)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_result *res = NULL;
	struct rdma_addrinfo_event ev;
	long long n0 = rai_stat("resolver_names");
	long long a0 = rai_stat("resolver_answers");
	rvt_name_t names[4];
	__u32 h, n = 0, i;
	__s32 status = 1;
	char name[128];

	rai_unique_name(name, sizeof(name), "rvgood");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 0x600d, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	EXPECT_STREQ(name, names[0].name);
	EXPECT_FALSE(rai_readable(self->fd)) TH_LOG("an event before the answer");
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0,
				    GOOD_ADDR "," GOOD_ADDR6, &out));
	EXPECT_EQ(1, out.done);
	EXPECT_EQ(0, out.stale);
	EXPECT_EQ(0, out.malformed);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0x600d, ev.context);
	EXPECT_EQ(RDMA_ADDRINFO_EVENT_RESOLVED, ev.event);
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(2, ev.num_results);
	ASSERT_EQ(0, rai_query_all(self->fd, h, &res, &n));
	ASSERT_EQ(2, n);
	EXPECT_EQ(1, rai_count_dst(res, n, GOOD_ADDR));
	EXPECT_EQ(1, rai_count_dst(res, n, GOOD_ADDR6));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, res[i].origin);
		EXPECT_LT(0, res[i].ttl);
		EXPECT_GE(60, res[i].ttl);
	}
	free(res);
	res = NULL;
	EXPECT_EQ(n0 + 1, rai_stat("resolver_names"));
	EXPECT_EQ(a0 + 1, rai_stat("resolver_answers"));

	/* Asked again: the cache answers, the resolver is not asked. */
	ASSERT_EQ(0, rai_lookup_str(self->fd, name, NULL, AF_UNSPEC, 0, &res,
				    &n, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(2, n);
	free(res);
	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names, 4));
	EXPECT_EQ(n0 + 1, rai_stat("resolver_names"));
}

/*
 * A canonical name among the addresses ("canon=NAME") is the request's:
 * QUERY_CANONNAME reports it, and the cache keeps it with the addresses
 * (RESOLVE_RESULTS|CANONNAME of the name again, answered in the ioctl).
 */
TEST_F(resolver, canonical_name_reaches_query_and_the_cache)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_result res[4];
	struct rdma_addrinfo_event ev;
	char name[128], canon[300];
	rvt_name_t names[4];
	__u32 h, n = 0, len = 0;
	__s32 status = 1;

	rai_unique_name(name, sizeof(name), "rvcanon");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 0xca, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0,
				    GOOD_ADDR "," RDMA_ADDRINFO_RESOLVER_CANON
				    "real-host.rai.test," GOOD_ADDR6, &out));
	EXPECT_EQ(1, out.done);
	EXPECT_EQ(0, out.malformed);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(2, ev.num_results);
	EXPECT_EQ((int)strlen("real-host.rai.test"),
		  rai_query_canonname(self->fd, h, canon, sizeof(canon)));
	EXPECT_STREQ("real-host.rai.test", canon);

	memset(canon, 0, sizeof(canon));
	ASSERT_EQ(0, rai_lookup_canonname(self->fd, name, AF_UNSPEC, res, 4,
					  &status, &n, canon, sizeof(canon),
					  &len));
	EXPECT_EQ(0, status);
	EXPECT_EQ(2, n);
	EXPECT_EQ(strlen("real-host.rai.test"), len);
	EXPECT_STREQ("real-host.rai.test", canon);
	/* From the cache: the resolver was not asked again. */
	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names, 4));
}

/* An answer without one: the request has no canonical name (len 0). */
TEST_F(resolver, answer_without_canonical_name_has_none)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	char name[128], canon[300] = "x";
	rvt_name_t names[4];
	__u32 h;

	rai_unique_name(name, sizeof(name), "rvnocanon");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 0xcb, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR,
				    &out));
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(0, rai_query_canonname(self->fd, h, canon, sizeof(canon)));
	EXPECT_STREQ("", canon);
}

struct rvt_sync_lookup {
	const char *name;
	int ret;
	__s32 status;
	__u32 n;
	struct rdma_addrinfo_result *res;
};

static void *rvt_sync_lookup_thread(void *arg)
{
	struct rvt_sync_lookup *s = arg;
	int fd = rai_dev_open(0);

	s->ret = fd < 0 ? fd : rai_lookup_str(fd, s->name, NULL, AF_INET, 0,
					      &s->res, &s->n, &s->status);
	if (fd >= 0)
		close(fd);
	return NULL;
}

TEST_F(resolver, sync_resolve_answered_by_the_resolver)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rvt_sync_lookup s = { .status = 1 };
	rvt_name_t names[4];
	char name[128];
	pthread_t th;

	rai_unique_name(name, sizeof(name), "rvsync");
	s.name = name;
	ASSERT_EQ(0, pthread_create(&th, NULL, rvt_sync_lookup_thread, &s));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	EXPECT_STREQ(name, names[0].name);
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0,
				    GOOD_ADDR "," GOOD_ADDR6, &out));
	pthread_join(th, NULL);
	ASSERT_EQ(0, s.ret);
	EXPECT_EQ(0, s.status);
	ASSERT_EQ(1, s.n);
	EXPECT_EQ(1, rai_count_dst(s.res, s.n, GOOD_ADDR));
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, s.res[0].origin);
	free(s.res);
}

/* Each failure the resolver may report is the request's status. */
TEST_F(resolver, answer_errors_become_the_statuses)
{
	static const int errs[] = { ENXIO, ENODATA, EAGAIN, EREMOTEIO };
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	rvt_answer_t a[4];
	rvt_name_t names[4];
	char name[4][128];
	__u32 h[4];
	int i, j;

	for (i = 0; i < 4; i++) {
		rai_unique_name(name[i], sizeof(name[i]), "rverr");
		ASSERT_EQ(0, rvt_ask(self->fd, name[i], i, &h[i]));
	}
	ASSERT_EQ(4, rvt_take_n(self->rfd, names, 4, ANSWER_MS));
	for (i = 0; i < 4; i++)
		rvt_answer_set(&a[i], rvt_id_of(names, 4, name[i]), errs[i], 60,
			       NULL);
	ASSERT_EQ(0, rvt_answer(self->rfd, a, 4, &out));
	EXPECT_EQ(4, out.done);
	EXPECT_EQ(0, out.stale);
	EXPECT_EQ(0, out.malformed);
	for (j = 0; j < 4; j++) {
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
		ASSERT_GT(4, ev.context);
		EXPECT_EQ(h[ev.context], ev.handle);
		EXPECT_EQ(RDMA_ADDRINFO_EVENT_ERROR, ev.event);
		EXPECT_EQ(-errs[ev.context], ev.status)
			TH_LOG("answer error %d", errs[ev.context]);
		EXPECT_EQ(0, ev.num_results);
	}
}

/*
 * One kind of garbage (@addrs NULL: 1008 bytes without a NUL) for one
 * name, a good answer for another, in the same call: -EPROTO for the
 * first, the second unharmed.
 */
static void rvt_garbage_case(struct __test_metadata *_metadata,
			     FIXTURE_DATA(resolver) *self, int error,
			     const char *addrs)

{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	long long m0 = rai_stat("resolver_malformed");
	rvt_answer_t a[2];
	rvt_name_t names[2];
	char bad[128], good[128];
	__u32 hb, hg;
	int i;

	rai_unique_name(bad, sizeof(bad), "rvbad");
	rai_unique_name(good, sizeof(good), "rvgood");
	ASSERT_EQ(0, rvt_ask(self->fd, bad, 1, &hb));
	ASSERT_EQ(0, rvt_ask(self->fd, good, 2, &hg));
	ASSERT_EQ(2, rvt_take_n(self->rfd, names, 2, ANSWER_MS));
	rvt_answer_set(&a[0], rvt_id_of(names, 2, bad), error, 60, addrs);
	if (!addrs)
		memset(a[0].addrs, '1', sizeof(a[0].addrs));
	rvt_answer_set(&a[1], rvt_id_of(names, 2, good), 0, 60, GOOD_ADDR);
	ASSERT_EQ(0, rvt_answer(self->rfd, a, 2, &out));
	EXPECT_EQ(2, out.done);
	EXPECT_EQ(1, out.malformed);
	EXPECT_EQ(0, out.stale);
	EXPECT_EQ(m0 + 1, rai_stat("resolver_malformed"));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
		if (ev.handle == hb) {
			EXPECT_EQ(-EPROTO, ev.status);
			EXPECT_EQ(0, ev.num_results);
		} else {
			ASSERT_EQ(hg, ev.handle);
			EXPECT_EQ(0, ev.status);
			EXPECT_EQ(0, rvt_results_hold(self->fd, hg, GOOD_ADDR));
		}
	}
	EXPECT_TRUE(rvt_quiet(self->fd, 300));
}

TEST_F(resolver, garbage_error_not_in_the_list_eproto)
{
	rvt_garbage_case(_metadata, self, 12345, GOOD_ADDR);
}

TEST_F(resolver, garbage_addrs_without_nul_eproto)
{
	rvt_garbage_case(_metadata, self, 0, NULL);
}

TEST_F(resolver, garbage_addrs_with_junk_eproto)
{
	rvt_garbage_case(_metadata, self, 0, "1.2.3.4,junk");
}

TEST_F(resolver, garbage_addrs_empty_with_error_0_eproto)
{
	rvt_garbage_case(_metadata, self, 0, "");
}

/* A canonical name must be a name a caller could ask for. */
TEST_F(resolver, garbage_canonical_name_with_a_colon_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 GOOD_ADDR "," RDMA_ADDRINFO_RESOLVER_CANON "afsdb:x");
}

TEST_F(resolver, garbage_canonical_name_with_a_space_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 GOOD_ADDR "," RDMA_ADDRINFO_RESOLVER_CANON "a b");
}

TEST_F(resolver, garbage_canonical_name_with_a_control_byte_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 GOOD_ADDR "," RDMA_ADDRINFO_RESOLVER_CANON "a\x1b[2Jb");
}

TEST_F(resolver, garbage_canonical_name_empty_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 GOOD_ADDR "," RDMA_ADDRINFO_RESOLVER_CANON);
}

TEST_F(resolver, garbage_canonical_name_twice_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 RDMA_ADDRINFO_RESOLVER_CANON "a.test," GOOD_ADDR ","
			 RDMA_ADDRINFO_RESOLVER_CANON "b.test");
}

TEST_F(resolver, garbage_canonical_name_without_an_address_eproto)
{
	rvt_garbage_case(_metadata, self, 0,
			 RDMA_ADDRINFO_RESOLVER_CANON "a.test");
}

/* RDMA_ADDRINFO_NAME_MAX + 1 bytes: one too many. */
TEST_F(resolver, garbage_canonical_name_too_long_eproto)
{
	char addrs[512];
	int n;

	n = snprintf(addrs, sizeof(addrs), "%s,%s", GOOD_ADDR,
		     RDMA_ADDRINFO_RESOLVER_CANON);
	memset(addrs + n, 'a', RDMA_ADDRINFO_NAME_MAX + 1);
	addrs[n + RDMA_ADDRINFO_NAME_MAX + 1] = '\0';
	rvt_garbage_case(_metadata, self, 0, addrs);
}

/* RDMA_ADDRINFO_NAME_MAX bytes: the longest that passes. */
TEST_F(resolver, canonical_name_of_name_max_bytes_passes)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	char name[128], addrs[512], canon[300], want[300];
	rvt_name_t names[4];
	__u32 h;
	int n;

	memset(want, 'a', RDMA_ADDRINFO_NAME_MAX);
	want[RDMA_ADDRINFO_NAME_MAX] = '\0';
	n = snprintf(addrs, sizeof(addrs), "%s,%s%s", GOOD_ADDR,
		     RDMA_ADDRINFO_RESOLVER_CANON, want);
	ASSERT_GT((int)sizeof(addrs), n);
	rai_unique_name(name, sizeof(name), "rvlongcanon");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 0xcc, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, addrs, &out));
	EXPECT_EQ(0, out.malformed);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(RDMA_ADDRINFO_NAME_MAX,
		  rai_query_canonname(self->fd, h, canon, sizeof(canon)));
	EXPECT_STREQ(want, canon);
}

/*
 * The answers array runs into an unmapped page: EFAULT, @done counts the
 * answer read before it, and that one completes its request.
 */
TEST_F(resolver, answers_array_unreadable_efault_done_counts)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	rvt_name_t names[2];
	char name[2][128];
	rvt_answer_t *a;
	char *page;
	__u32 h[2];
	int i;

	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(0, mprotect(page + 4096, 4096, PROT_NONE));
	a = (rvt_answer_t *)(page + 4096 - sizeof(*a));
	for (i = 0; i < 2; i++) {
		rai_unique_name(name[i], sizeof(name[i]), "rvfault");
		ASSERT_EQ(0, rvt_ask(self->fd, name[i], i, &h[i]));
	}
	ASSERT_EQ(2, rvt_take_n(self->rfd, names, 2, ANSWER_MS));
	rvt_answer_set(a, rvt_id_of(names, 2, name[0]), 0, 60, GOOD_ADDR);
	EXPECT_EQ(-EFAULT, rvt_answer(self->rfd, a, 2, &out));
	EXPECT_EQ(1, out.done);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(h[0], ev.handle);
	EXPECT_EQ(0, ev.status);
	/* The second name is still the resolver's to answer. */
	ASSERT_EQ(0, rvt_answer_one(self->rfd, rvt_id_of(names, 2, name[1]),
				    ENXIO, NULL, &out));
	EXPECT_EQ(0, out.stale);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(h[1], ev.handle);
	EXPECT_EQ(-ENXIO, ev.status);
	munmap(page, 8192);
}

/* The argument struct on a read-only page: EFAULT; one event still. */
TEST_F(resolver, answers_struct_read_only_efault)
{
	struct rdma_addrinfo_resolver_answers *ro, out;
	struct rdma_addrinfo_event ev;
	rvt_name_t names[1];
	rvt_answer_t a;
	char name[128];
	__u32 h;
	int ret;

	rai_unique_name(name, sizeof(name), "rvrost");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	rvt_answer_set(&a, names[0].id, 0, 60, GOOD_ADDR);
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ro->answers = (uintptr_t)&a;
	ro->count = 1;
	ro->answer_size = sizeof(a);
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(-EFAULT, rai_dev_ioctl(self->rfd,
		  RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, ro));
	/* Whether it was taken in or not, the request completes once. */
	ret = rai_wait_event(self->fd, &ev, 1000);
	if (ret == -ETIMEDOUT) {
		TH_LOG("the answer was not taken in; answering again");
		ASSERT_EQ(0, rvt_answer(self->rfd, &a, 1, &out));
		ret = rai_wait_event(self->fd, &ev, ANSWER_MS);
	}
	ASSERT_EQ(0, ret);
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, ev.status);
	EXPECT_TRUE(rvt_quiet(self->fd, 300));
	munmap(ro, 4096);
}

/* ---- the fallback ------------------------------------------------------ */

/*
 * Wait for @n events on @fd, one per handle of @h: 0, else the number of
 * the first check that failed (logged).
 */
static int rvt_each_once_through_upcall(struct __test_metadata *_metadata,
					int fd, const __u32 *h, int n)
{
	struct rdma_addrinfo_event ev;
	int i, k, seen[NR_HOSTS] = { 0 };

	for (i = 0; i < n; i++) {
		if (rai_wait_event(fd, &ev, UPCALL_MS)) {
			TH_LOG("%d of %d events", i, n);
			return 1;
		}
		for (k = 0; k < n && h[k] != ev.handle; k++)
			;
		if (k == n || seen[k]++) {
			TH_LOG("event of handle %u (again?)", ev.handle);
			return 2;
		}
		if (ev.status || rvt_results_hold(fd, ev.handle, HOSTS_ADDR)) {
			TH_LOG("handle %u: status %d", ev.handle, ev.status);
			return 3;
		}
	}
	if (!rvt_quiet(fd, 2000)) {
		TH_LOG("an event more");
		return 4;
	}
	return 0;
}

/*
 * Four asynchronous requests (two taken, two not yet) and a synchronous
 * one when the resolver closes its file: all five answered by the upcall.
 */
TEST_F_TIMEOUT(resolver, resolver_closes_every_request_completes_once, 150)
{
	struct rvt_sync_lookup s = { .status = 1 };
	long long f0 = rai_stat("resolver_fallbacks");
	long long u0 = rai_stat("resolver_unregistered"), q;
	rvt_name_t names[4];
	__u32 h[NR_HOSTS - 1];
	pthread_t th;
	int i;

	ASSERT_EQ(0, rvt_hosts_names(self, NR_HOSTS));
	for (i = 0; i < NR_HOSTS - 1; i++)
		ASSERT_EQ(0, rvt_ask(self->fd, self->hosts[i], i, &h[i]));
	ASSERT_EQ(2, rvt_take_n(self->rfd, names, 2, ANSWER_MS));
	s.name = self->hosts[NR_HOSTS - 1];
	q = rai_stat("resolver_outstanding");
	ASSERT_EQ(0, pthread_create(&th, NULL, rvt_sync_lookup_thread, &s));
	/* The synchronous lookup's name queued too, waiting to be taken. */
	ASSERT_LE(q + 1, rai_stat_wait("resolver_outstanding", q + 1,
				       ANSWER_MS));
	EXPECT_FALSE(rai_readable(self->fd));
	close(self->rfd);
	self->rfd = -1;
	EXPECT_EQ(u0 + 1, rai_stat("resolver_unregistered"));
	EXPECT_EQ(0, rvt_each_once_through_upcall(_metadata, self->fd, h,
						  NR_HOSTS - 1));
	pthread_join(th, NULL);
	ASSERT_EQ(0, s.ret);
	EXPECT_EQ(0, s.status);
	EXPECT_EQ(1, rai_count_dst(s.res, s.n, HOSTS_ADDR));
	free(s.res);
	EXPECT_EQ(f0 + NR_HOSTS, rai_stat("resolver_fallbacks"));
	EXPECT_EQ(0, rai_stat("resolver_outstanding"));
}

/* The deadline: the upcall answers, the late answer is stale. */
TEST_F_TIMEOUT(resolver, deadline_missed_upcall_answers_late_answer_stale,
	       150)
{
	struct rdma_addrinfo_resolver_answers out;
	long long d0 = rai_stat("resolver_deadlines");
	long long f0 = rai_stat("resolver_fallbacks");
	long long s0 = rai_stat("resolver_stale");
	rvt_name_t names[1];
	__u32 h;

	ASSERT_EQ(0, rvt_param_and_register(self, "resolver_deadline_ms", "500"));
	EXPECT_EQ(500, self->reg.deadline_ms);
	ASSERT_EQ(0, rvt_hosts_names(self, 1));
	ASSERT_EQ(0, rvt_ask(self->fd, self->hosts[0], 7, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	EXPECT_EQ(0, rvt_each_once_through_upcall(_metadata, self->fd, &h, 1));
	EXPECT_EQ(d0 + 1, rai_stat("resolver_deadlines"));
	EXPECT_EQ(f0 + 1, rai_stat("resolver_fallbacks"));
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR, &out));
	EXPECT_EQ(1, out.stale);
	EXPECT_EQ(s0 + 1, rai_stat("resolver_stale"));
	EXPECT_TRUE(rvt_quiet(self->fd, 500));
}

/*
 * resolver_max_outstanding 1: while the resolver holds one name, the next
 * new name goes to the upcall and is never offered to it.
 */
TEST_F_TIMEOUT(resolver, past_max_outstanding_new_names_go_to_the_upcall,
	       150)
{
	struct rdma_addrinfo_resolver_answers out;
	struct rdma_addrinfo_event ev;
	long long f0 = rai_stat("resolver_fallbacks");
	rvt_name_t names[4];
	char name[128];
	__u32 h, hh;

	ASSERT_EQ(0, rvt_long_deadline(self));
	ASSERT_EQ(0, rvt_param_and_register(self, "resolver_max_outstanding",
					    "1"));
	EXPECT_EQ(1, self->reg.max_outstanding);
	rai_unique_name(name, sizeof(name), "rvmax");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	ASSERT_EQ(0, rvt_hosts_names(self, 1));
	ASSERT_EQ(0, rvt_ask(self->fd, self->hosts[0], 2, &hh));
	EXPECT_EQ(0, rvt_each_once_through_upcall(_metadata, self->fd, &hh, 1));
	EXPECT_EQ(f0 + 1, rai_stat("resolver_fallbacks"));
	EXPECT_EQ(-EAGAIN, rvt_take(self->rfd, names + 1, 3));
	/* The name it holds is still its own to answer. */
	ASSERT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR, &out));
	EXPECT_EQ(0, out.stale);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, ev.status);
}

/*
 * resolver_max_outstanding_per_user 1: a user's second new name goes to
 * the upcall, while another user's name is still offered.
 */
TEST_F_TIMEOUT(resolver, past_the_users_share_its_names_go_to_the_upcall,
	       150)
{
	long long f0 = rai_stat("resolver_fallbacks");
	char mine[128], other[1][128], c;
	rvt_name_t names[4];
	int up[2], go[2], n;
	pid_t pid;
	__u32 h, hh;

	ASSERT_EQ(0, rvt_long_deadline(self));
	ASSERT_EQ(0, rvt_param_and_register(self,
			"resolver_max_outstanding_per_user", "1"));
	rai_unique_name(mine, sizeof(mine), "rvshare");
	ASSERT_EQ(0, rvt_ask(self->fd, mine, 1, &h));
	ASSERT_EQ(0, rvt_hosts_names(self, 1));
	ASSERT_EQ(0, rvt_ask(self->fd, self->hosts[0], 2, &hh));
	rai_unique_name(other[0], sizeof(other[0]), "rvshareb");
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(go));
	pid = rvt_ask_as(USER_B, other, 1, up[1], go[0]);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, read(up[0], &c, 1));
	n = rvt_take_n(self->rfd, names, 2, ANSWER_MS);
	/* Every RESOLVE, B's too (up), queued its name before it returned. */
	if (n == 2)
		n += rvt_take(self->rfd, names + 2, 2) == -EAGAIN ? 0 : 1;
	ASSERT_EQ(1, write(go[1], "g", 1));
	EXPECT_EQ(0, rai_wait_child(pid));
	ASSERT_EQ(2, n) TH_LOG("names offered: %d", n);
	EXPECT_NE(0, rvt_id_of(names, 2, mine));
	EXPECT_NE(0, rvt_id_of(names, 2, other[0]));
	EXPECT_EQ(0, rvt_each_once_through_upcall(_metadata, self->fd, &hh, 1));
	EXPECT_EQ(f0 + 1, rai_stat("resolver_fallbacks"));
}

/* ---- requests that go away under the resolver ------------------------- */

TEST_F(resolver, destroyed_while_waiting_to_be_taken_no_event)
{
	struct rdma_addrinfo_resolver_answers out;
	rvt_name_t names[4];
	char name[128];
	__u32 h, dropped = 9;
	int n;

	rai_unique_name(name, sizeof(name), "rvdpend");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	ASSERT_EQ(0, rai_destroy(self->fd, h, &dropped));
	EXPECT_EQ(0, dropped);
	/* Either outcome is checked: still offered, or gone. */
	n = rvt_take(self->rfd, names, 4);
	if (n == 1) {
		/* Offered still: its answer goes nowhere. */
		EXPECT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0,
					    GOOD_ADDR, &out));
	} else {
		EXPECT_EQ(-EAGAIN, n);
	}
	EXPECT_TRUE(rvt_quiet(self->fd, 500));
	EXPECT_EQ(0, rai_fd_works(self->fd));
	EXPECT_EQ(0, rai_fd_works(self->rfd));
}

TEST_F(resolver, destroyed_while_taken_then_answered_no_event)
{
	struct rdma_addrinfo_resolver_answers out;
	rvt_name_t names[4];
	char name[128];
	__u32 h, h2;

	rai_unique_name(name, sizeof(name), "rvdtaken");
	ASSERT_EQ(0, rvt_ask(self->fd, name, 1, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	ASSERT_EQ(0, rai_destroy(self->fd, h, NULL));
	EXPECT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR,
				    &out));
	EXPECT_EQ(1, out.done);
	EXPECT_TRUE(rvt_quiet(self->fd, 500));
	/* A new request of the same name still works (cached or asked). */
	ASSERT_EQ(0, rvt_ask(self->fd, name, 2, &h2));
	if (rvt_take(self->rfd, names, 4) == 1)
		rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR, &out);
	{
		struct rdma_addrinfo_event ev;

		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, ANSWER_MS));
		EXPECT_EQ(h2, ev.handle);
		EXPECT_EQ(0, ev.status);
	}
}

TEST_F(resolver, caller_closes_while_taken_then_answered)
{
	struct rdma_addrinfo_resolver_answers out;
	long long live0 = rai_stat("requests_live");
	rvt_name_t names[4];
	char name[128];
	__u32 h;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	rai_unique_name(name, sizeof(name), "rvclose");
	ASSERT_EQ(0, rvt_ask(fd, name, 1, &h));
	ASSERT_EQ(1, rvt_take_n(self->rfd, names, 1, ANSWER_MS));
	close(fd);
	EXPECT_EQ(0, rvt_answer_one(self->rfd, names[0].id, 0, GOOD_ADDR,
				    &out));
	EXPECT_EQ(1, out.done);
	EXPECT_EQ(live0, rvt_gauge_settles("requests_live", live0, 5000));
	EXPECT_EQ(0, rai_fd_works(self->rfd));
}

/* The race: callers that destroy and close against a taking resolver. */
struct rvt_race {
	int rfd;		/* the resolver's thread's alone until joined */
	atomic_bool stop;
	atomic_long asked, answered, failures, reregistered;
};

/*
 * The resolver closes its file, names taken and not answered with it (they
 * go to the fallback), and registers a new one: the new file, or -1.
 */
static int rvt_race_reregister(struct rvt_race *r)
{
	int fd = -EBUSY, tries;

	close(r->rfd);
	for (tries = 0; tries < 100 && fd == -EBUSY; tries++) {
		fd = rvt_open_registered(NULL);
		if (fd == -EBUSY)
			usleep(10000);	/* the pace of the tries */
	}
	if (fd < 0) {
		fprintf(stderr, "# registering again: %d\n", fd);
		atomic_fetch_add(&r->failures, 1);
		atomic_store(&r->stop, true);
		return -1;
	}
	atomic_fetch_add(&r->reregistered, 1);
	return fd;
}

static void *rvt_race_resolver(void *arg)
{
	struct rvt_race *r = arg;
	struct rdma_addrinfo_resolver_answers out;
	rvt_answer_t a[16];
	rvt_name_t names[16];
	unsigned int seed = 1, i, held = 0;
	long long next = rai_now_ms() + RACE_MS / 3;
	int n;

	while (!atomic_load(&r->stop)) {
		if (rai_now_ms() >= next) {
			r->rfd = rvt_race_reregister(r);
			if (r->rfd < 0)
				break;
			held = 0;
			next = rai_now_ms() + RACE_MS / 3;
		}
		n = rvt_take(r->rfd, names + held, 16 - held);
		if (n == -EAGAIN) {
			usleep(500);	/* a busy resolver's pace */
			n = 0;
		} else if (n < 0) {
			atomic_fetch_add(&r->failures, 1);
			continue;
		}
		held += n;
		/* Answer now, twice, or after a few rounds (late). */
		if (!held || (rand_r(&seed) % 4 == 0 && held < 16))
			continue;
		for (i = 0; i < held; i++)
			rvt_answer_set(&a[i], names[i].id,
				       i % 5 == 4 ? ENXIO : 0, 30, GOOD_ADDR);
		if (rvt_answer(r->rfd, a, held, &out))
			atomic_fetch_add(&r->failures, 1);
		if (rand_r(&seed) % 8 == 0)
			rvt_answer(r->rfd, a, held, &out);
		atomic_fetch_add(&r->answered, held);
		held = 0;
	}
	return NULL;
}

static void *rvt_race_caller(void *arg)
{
	struct rvt_race *r = arg;
	struct rdma_addrinfo_event ev;
	unsigned int seed = (unsigned int)(uintptr_t)&ev;
	char name[128];
	__u32 h[8];
	int fd, i, k;

	while (!atomic_load(&r->stop)) {
		fd = rai_dev_open(O_NONBLOCK);
		if (fd < 0) {
			atomic_fetch_add(&r->failures, 1);
			break;
		}
		k = 1 + rand_r(&seed) % 8;
		for (i = 0; i < k; i++) {
			rai_unique_name(name, sizeof(name), "rvrace");
			if (rvt_ask(fd, name, i, &h[i])) {
				k = i;
				break;
			}
			atomic_fetch_add(&r->asked, 1);
		}
		/* A third destroyed at once, a third a moment later. */
		for (i = 0; i < k; i++)
			if (rand_r(&seed) % 3 == 0)
				h[i] = rai_destroy(fd, h[i], NULL) ? h[i] : 0;
		usleep(rand_r(&seed) % 3000);	/* varied: the race's moment */
		for (i = 0; i < k; i++)
			if (h[i] && rand_r(&seed) % 2)
				rai_destroy(fd, h[i], NULL);
		if (rand_r(&seed) % 3 == 0)
			rai_wait_event(fd, &ev, 20);
		close(fd);
	}
	return NULL;
}

TEST_F_TIMEOUT(resolver, destroy_and_close_race_take_and_answer, 120)
{
	struct rvt_race r = { .rfd = self->rfd };
	pthread_t res, callers[RACE_CALLERS];
	long long live0 = rai_stat("requests_live");
	int i;

	ASSERT_LE(0, live0);
	ASSERT_EQ(0, pthread_create(&res, NULL, rvt_race_resolver, &r));
	for (i = 0; i < RACE_CALLERS; i++)
		ASSERT_EQ(0, pthread_create(&callers[i], NULL, rvt_race_caller,
					    &r));
	usleep(RACE_MS * 1000);	/* how long the race runs */
	atomic_store(&r.stop, true);
	for (i = 0; i < RACE_CALLERS; i++)
		pthread_join(callers[i], NULL);
	pthread_join(res, NULL);
	self->rfd = r.rfd;
	TH_LOG("%ld names asked, %ld answered, registered again %ld times",
	       atomic_load(&r.asked), atomic_load(&r.answered),
	       atomic_load(&r.reregistered));
	EXPECT_EQ(0, atomic_load(&r.failures));
	EXPECT_LT(0, atomic_load(&r.answered));
	EXPECT_LT(0, atomic_load(&r.reregistered));
	EXPECT_EQ(live0, rvt_gauge_settles("requests_live", live0, 30000));
	EXPECT_EQ(0, rai_fd_works(self->rfd));
	close(self->rfd);
	self->rfd = -1;
	EXPECT_EQ(0, rvt_gauge_settles("resolver_outstanding", 0, 5000));
}

/* ---- containers -------------------------------------------------------- */

/* In a container with no resolver of its own: a DNS name is -EPERM. */
static int rvt_container_lookup_eperm(void *arg)
{
	struct rdma_addrinfo_result *res = NULL;
	const char *name = arg;
	__s32 status = 1;
	__u32 n = 0;
	int fd = rai_dev_open(0), ret;

	if (fd < 0)
		return 2;
	ret = rai_lookup_str(fd, name, NULL, AF_UNSPEC, 0, &res, &n, &status);
	free(res);
	if (ret || status != -EPERM) {
		fprintf(stderr, "# in the container: %d, status %d\n", ret,
			status);
		return 3;
	}
	return 0;
}

/*
 * @fn in a container (rvt_in_container) for a new name tagged @tag: its
 * exit code; *host_take: a TAKE of the host's resolver @rfd right after
 * (-EAGAIN: nothing of the container reached it).
 */
static int rvt_pod_case(int (*fn)(void *), const char *tag, int rfd,
			int *host_take)
{
	rvt_name_t names[4];
	char name[128];
	int ret;

	rai_unique_name(name, sizeof(name), tag);
	ret = rvt_in_container(fn, name, 1);
	*host_take = rvt_take(rfd, names, 4);
	return ret;
}

TEST_F(resolver, container_without_resolver_eperm_while_host_has_one)
{
	int host_take = 0;

	EXPECT_EQ(0, rvt_pod_case(rvt_container_lookup_eperm, "rvpodnone",
				  self->rfd, &host_take));
	EXPECT_EQ(-EAGAIN, host_take);
}

/*
 * The container's resolver @rfd answers what its callers ask: take @n
 * names and answer each POD_ADDR.  0, or the step that failed.
 */
static int rvt_container_serve(int rfd, int n)
{
	struct rdma_addrinfo_resolver_answers out;
	rvt_answer_t a[NS_UIDS];
	rvt_name_t names[NS_UIDS];
	int i, got = rvt_take_n(rfd, names, n, ANSWER_MS);

	if (got != n) {
		fprintf(stderr, "# the container's resolver took %d of %d\n",
			got, n);
		return 10;
	}
	for (i = 0; i < n; i++)
		rvt_answer_set(&a[i], names[i].id, 0, 60, POD_ADDR);
	if (rvt_answer(rfd, a, n, &out) || out.done != (__u32)n ||
	    out.stale || out.malformed)
		return 11;
	return 0;
}

/* A caller in the container: its answer is POD_ADDR.  0 or a step. */
static int rvt_container_caller(const char *name)
{
	struct rdma_addrinfo_event ev;
	int fd = rai_dev_open(O_NONBLOCK);
	__u32 h;

	if (fd < 0 || rvt_ask(fd, name, 1, &h))
		return 20;
	if (rai_wait_event(fd, &ev, ANSWER_MS + 5000) || ev.status) {
		fprintf(stderr, "# the caller in the container: status %d\n",
			ev.status);
		return 21;
	}
	if (rvt_results_hold(fd, h, POD_ADDR))
		return 22;
	close(fd);
	return 0;
}

/* The container's root registers; the same process asks and answers. */
static int rvt_container_same_process(void *arg)
{
	int rfd = rvt_open_registered(NULL), fd, ret;
	struct rdma_addrinfo_event ev;
	__u32 h;

	if (rfd < 0) {
		fprintf(stderr, "# REGISTER in the container: %d\n", rfd);
		return 2;
	}
	fd = rai_dev_open(O_NONBLOCK);
	if (fd < 0 || rvt_ask(fd, arg, 1, &h))
		return 3;
	ret = rvt_container_serve(rfd, 1);
	if (ret)
		return ret;
	if (rai_wait_event(fd, &ev, ANSWER_MS) || ev.status ||
	    rvt_results_hold(fd, h, POD_ADDR)) {
		fprintf(stderr, "# status %d\n", ev.status);
		return 4;
	}
	return 0;
}

TEST_F(resolver, container_root_registers_and_answers_its_own_requests)
{
	struct rdma_addrinfo_resolver_register reg;
	int b, host_take = 0;

	EXPECT_EQ(0, rvt_pod_case(rvt_container_same_process, "rvpodself",
				  self->rfd, &host_take));
	/* The host's resolver stayed registered and was not asked. */
	EXPECT_EQ(-EAGAIN, host_take);
	b = rai_dev_open(0);
	ASSERT_LE(0, b);
	EXPECT_EQ(-EBUSY, rvt_register(b, &reg));
	close(b);
}

/* The resolver and a sibling process (the caller) share the namespaces. */
static int rvt_container_sibling(void *arg)
{
	int rfd = rvt_open_registered(NULL), ret, st;
	pid_t pid;

	if (rfd < 0) {
		fprintf(stderr, "# REGISTER in the container: %d\n", rfd);
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 3;
	if (!pid) {
		close(rfd);
		_exit(rvt_container_caller(arg));
	}
	ret = rvt_container_serve(rfd, 1);
	st = rai_wait_child(pid);
	return ret ? ret : st;
}

TEST_F(resolver, container_resolver_answers_a_sibling_process)
{
	int host_take = 0;

	EXPECT_EQ(0, rvt_pod_case(rvt_container_sibling, "rvpodsib",
				  self->rfd, &host_take));
	EXPECT_EQ(-EAGAIN, host_take);
}

/* Uids 1 and 2 of the container each ask a name; root answers both. */
static int rvt_container_two_uids(void *arg)
{
	char (*names)[128] = arg;
	int rfd = rvt_open_registered(NULL), ret, uid, st = 0;
	pid_t pid[2];

	if (rfd < 0) {
		fprintf(stderr, "# REGISTER in the container: %d\n", rfd);
		return 2;
	}
	for (uid = 1; uid <= 2; uid++) {
		pid[uid - 1] = fork();
		if (pid[uid - 1] < 0)
			return 3;
		if (!pid[uid - 1]) {
			close(rfd);
			if (setresuid(uid, uid, uid))
				_exit(30);
			_exit(rvt_container_caller(names[uid - 1]));
		}
	}
	ret = rvt_container_serve(rfd, 2);
	for (uid = 0; uid < 2; uid++) {
		int s = rai_wait_child(pid[uid]);

		if (s && !st)
			st = s;
	}
	return ret ? ret : st;
}

TEST_F(resolver, two_uids_of_one_container_both_served)
{
	char names[2][128];

	rai_unique_name(names[0], sizeof(names[0]), "rvpoduid1");
	rai_unique_name(names[1], sizeof(names[1]), "rvpoduid2");
	EXPECT_EQ(0, rvt_in_container(rvt_container_two_uids, names, NS_UIDS));
}

TEST_HARNESS_MAIN
