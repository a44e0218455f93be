// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Tenants of the resident resolver (issue 32): what one namespace's
 * resolver and callers can do to the others.  Each test runs its tenants
 * as child processes, side by side: host root, unprivileged users that made
 * their own user and network namespace ("unshare -Urn" as nobody), and
 * containers whose user namespace root created (as LXD, Docker with
 * userns-remap and Kubernetes do).  Covered: names whose requests are
 * destroyed leave the queue; queued names are charged to the caller's
 * memory cgroup; resolvers and queued names are bounded per user, per
 * user namespace (root's containers each have their own bound);
 * REGISTER needs CAP_NET_ADMIN of the caller as well as of the opener; a
 * REGISTER loop leaves the kernel log quiet; names no resolver takes fall
 * back after resolver_wait_ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define RTT_NOBODY	65534
/* Where a root-created container's uids start (as LXD maps them). */
#define RTT_ROOTNS_KUID	300000
#define RTT_ROOTNS_UIDS	65536
/* An answer through the upcall: request-key and a helper are started. */
#define RTT_UPCALL_MS	(RAI_UPCALL_START_MS + 10000)
#define RTT_CGROOT	"/run/rai-rtt-cgroup"
#define RTT_HOSTS_ADDR	"192.0.2.243"

/* Where a tenant runs. */
enum rtt_where {
	RTT_HOST,	/* host root, the host's namespaces */
	RTT_NOBODY_NS,	/* nobody, in a user+net namespace of its own */
	RTT_ROOT_NS,	/* root of a user+net namespace that root made */
};

/*
 * A tenant: a child process and two pipes.  The child says a byte up when
 * it reached a step, and waits for a byte from go before the next.
 */
struct rtt_child {
	pid_t pid;
	int up[2];
	int go[2];
};

typedef int (*rtt_fn)(struct rtt_child *c, void *arg);

/* In the child: tell the parent a step is done and wait for its go. */
static int rtt_step(struct rtt_child *c)
{
	char b = 's';

	if (write(c->up[1], &b, 1) != 1 || read(c->go[0], &b, 1) != 1)
		return -1;
	return b == 'g' ? 0 : -1;
}

/* In the parent: wait for the child's next step. */
static int rtt_wait_step(struct rtt_child *c)
{
	char b;

	return read(c->up[0], &b, 1) == 1 ? 0 : -1;
}

static int rtt_go(struct rtt_child *c)
{
	return write(c->go[1], "g", 1) == 1 ? 0 : -1;
}

static void rtt_close_pipes(struct rtt_child *c)
{
	close(c->up[0]);
	close(c->go[1]);
}

/*
 * Start a tenant @where that runs @fn(@arg) and exits with its result
 * (100 + a step of the set-up that failed).  With @cgroup, the child is
 * in that cgroup (its cgroup.procs) before @fn runs.  0 or -1.
 */
static int rtt_start(struct rtt_child *c, enum rtt_where where, rtt_fn fn,
		     void *arg, const char *cgroup)
{
	char b = 0, path[64];
	int ret;

	if (pipe(c->up) || pipe(c->go))
		return -1;
	c->pid = where == RTT_NOBODY_NS ? rai_fork_as(RTT_NOBODY) : fork();
	if (c->pid < 0)
		return -1;
	if (!c->pid) {
		if (where != RTT_HOST && unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(101);
		if (rtt_step(c))
			_exit(102);
		if (where != RTT_HOST && setresuid(0, 0, 0))
			_exit(103);
		_exit(fn(c, arg));
	}
	/* The child's ends: a tenant that exits early is then seen (EOF). */
	close(c->up[1]);
	close(c->go[0]);
	c->up[1] = -1;
	c->go[0] = -1;
	ret = rtt_wait_step(c);
	if (!ret && where != RTT_HOST) {
		snprintf(path, sizeof(path), "/proc/%d/uid_map", c->pid);
		if (where == RTT_NOBODY_NS)
			ret = rai_sh("echo '0 %d 1' > %s", RTT_NOBODY, path);
		else
			ret = rai_sh("echo '0 %d %d' > %s", RTT_ROOTNS_KUID,
				     RTT_ROOTNS_UIDS, path);
	}
	if (!ret && cgroup)
		ret = rai_sh("echo %d > %s/cgroup.procs", c->pid, cgroup);
	b = ret ? 'x' : 'g';
	if (write(c->go[1], &b, 1) != 1 || ret) {
		kill(c->pid, SIGKILL);
		rai_wait_child(c->pid);
		rtt_close_pipes(c);
		return -1;
	}
	return 0;
}

/* Let the tenant finish: its exit status. */
static int rtt_finish(struct rtt_child *c)
{
	int ret;

	rtt_go(c);
	ret = rai_wait_child(c->pid);
	rtt_close_pipes(c);
	return ret;
}

static int rtt_register(int fd)
{
	struct rdma_addrinfo_resolver_register reg;

	memset(&reg, 0, sizeof(reg));
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg);
}

/* A long name (about 230 bytes), unique to this process, @tag and @i. */
static const char *rtt_long_name(char *buf, size_t size, const char *tag,
				 int i)
{
	char label[61];

	memset(label, 'a' + i % 26, 60);
	label[60] = '\0';
	snprintf(buf, size, "%s.%s.%s.%s-%d-%d.%s", label, label, label, tag,
		 getpid(), i, RAI_DNS_ZONE);
	return buf;
}

/* The tests that wait for many tenants, or the upcall, need more than 30 s. */
FIXTURE(tenant) {
	int unused;
};

FIXTURE_SETUP(tenant)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(tenant)
{
}

/* ---- finding 1: names whose requests went leave the queue ------------- */

/*
 * What a tenant does: registers a resolver that never takes, queues
 * @names names on a second file, and destroys the requests of all but
 * @keep of them.
 */
struct rtt_queue_job {
	int names;
	int keep;
	const char *tag;
};

static int rtt_queue_names(struct rtt_child *c, void *arg)
{
	const struct rtt_queue_job *job = arg;
	int rfd = rai_dev_open(O_NONBLOCK), fd = rai_dev_open(O_NONBLOCK);
	char name[256];
	__u32 h;
	int i, ret;

	if (rfd < 0 || fd < 0)
		return 1;
	ret = rtt_register(rfd);
	if (ret) {
		fprintf(stderr, "# REGISTER: %s\n", strerror(-ret));
		return 2;
	}
	for (i = 0; i < job->names; i++) {
		rtt_long_name(name, sizeof(name), job->tag, i);
		ret = rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, i, &h);
		if (ret) {
			fprintf(stderr, "# RESOLVE %d: %s\n", i, strerror(-ret));
			return 3;
		}
		if (i >= job->keep && rai_destroy(fd, h, NULL))
			return 4;
	}
	if (rtt_step(c))
		return 5;
	close(fd);
	close(rfd);
	return 0;
}

#define RTT_TENANTS	8
#define RTT_NAMES	64

/*
 * Eight tenants at once (host root, four nobody namespaces, three
 * root-created containers), each with a resolver that never takes: 64
 * names each, the requests of 63 destroyed.  The queues keep the one
 * name per tenant whose request waits, nothing of the others.  The kept
 * names must not end their wait meanwhile: resolver_wait_ms and
 * dns_timeout_ms are lifted for the test (a debug kernel takes longer
 * than their defaults to start eight tenants).
 */
TEST_F_TIMEOUT(tenant, destroyed_requests_leave_no_name_queued_in_any_tenant, 120)
{
	static const enum rtt_where where[RTT_TENANTS] = {
		RTT_HOST, RTT_NOBODY_NS, RTT_NOBODY_NS, RTT_NOBODY_NS,
		RTT_NOBODY_NS, RTT_ROOT_NS, RTT_ROOT_NS, RTT_ROOT_NS,
	};
	struct rtt_queue_job job = { RTT_NAMES, 1, "rttq" };
	struct rtt_child c[RTT_TENANTS];
	long long q0 = rai_stat("resolver_outstanding");
	long long n0 = rai_stat("resolvers"), q1, n1;
	struct rai_param_saved pw = {}, pt = {};
	int i, started = 0;

	/* No resolver_wait_ms before issue 32: names waited without end. */
	rai_param_push(&pw, "resolver_wait_ms", "600000");
	if (rai_param_push(&pt, "dns_timeout_ms", "0")) {
		rai_param_pop(&pw);
		ASSERT_TRUE(0) TH_LOG("dns_timeout_ms not set");
	}
	for (i = 0; i < RTT_TENANTS; i++, started++)
		if (rtt_start(&c[i], where[i], rtt_queue_names, &job, NULL))
			break;
	for (i = 0; i < started; i++)
		EXPECT_EQ(0, rtt_wait_step(&c[i]));
	q1 = rai_stat("resolver_outstanding");
	n1 = rai_stat("resolvers");
	for (i = 0; i < started; i++)
		EXPECT_EQ(0, rtt_finish(&c[i]));
	rai_param_pop(&pw);
	rai_param_pop(&pt);
	ASSERT_EQ(RTT_TENANTS, started);
	TH_LOG("%d tenants, %d names each, %d destroyed: %lld names queued",
	       RTT_TENANTS, RTT_NAMES, RTT_NAMES - 1, q1 - q0);
	EXPECT_EQ(n0 + RTT_TENANTS, n1);
	EXPECT_EQ(q0 + RTT_TENANTS, q1);
	EXPECT_EQ(q0, rai_stat("resolver_outstanding"));
	EXPECT_EQ(n0, rai_stat("resolvers"));
}

/* ---- finding 1: queued names charged to the caller's memory cgroup ---- */

/* A cgroup v2 hierarchy with the memory controller: its root, or NULL. */
static const char *rtt_cgroup_root(void)
{
	const char *root = "/sys/fs/cgroup";

	if (access("/sys/fs/cgroup/cgroup.controllers", R_OK)) {
		/* The test VM mounts no cgroup file system. */
		root = RTT_CGROOT;
		mkdir(root, 0755);
		if (access(RTT_CGROOT "/cgroup.controllers", R_OK) &&
		    mount("none", root, "cgroup2", 0, NULL))
			return NULL;
	}
	if (rai_sh("grep -qw memory %s/cgroup.controllers && "
		   "echo +memory > %s/cgroup.subtree_control", root, root))
		return NULL;
	return root;
}

/* A value of the cgroup's memory.stat, or -1. */
static long long rtt_memstat(const char *cg, const char *key)
{
	return rai_sh_number("awk '$1 == \"%s\" { print $2 }' %s/memory.stat",
			     key, cg);
}

static long long rtt_memcurrent(const char *cg)
{
	return rai_sh_number("cat %s/memory.current", cg);
}

#define RTT_CG_NAMES	512

/*
 * The tenant of the cgroup test: registers, then (a step each) queues
 * RTT_CG_NAMES distinct names, then as many requests of one name already
 * queued; every request stays.
 */
static int rtt_cg_tenant(struct rtt_child *c, void *arg)
{
	int rfd = rai_dev_open(O_NONBLOCK), fd = rai_dev_open(O_NONBLOCK);
	char name[256];
	__u32 h;
	int i;

	(void)arg;
	if (rfd < 0 || fd < 0 || rtt_register(rfd))
		return 1;
	if (rtt_step(c))
		return 2;
	for (i = 0; i < RTT_CG_NAMES; i++)
		if (rai_resolve_async(fd, rtt_long_name(name, sizeof(name),
							"rttcg", i),
				      NULL, AF_UNSPEC, 0, i, &h))
			return 3;
	if (rtt_step(c))
		return 4;
	rtt_long_name(name, sizeof(name), "rttcg", 0);
	for (i = 0; i < RTT_CG_NAMES; i++)
		if (rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, i, &h))
			return 5;
	if (rtt_step(c))
		return 6;
	return 0;
}

/*
 * A nobody namespace in a memory cgroup queues 512 distinct names (their
 * requests kept), then 512 requests of one name: the first grows the
 * cgroup's kernel memory by the names beyond what the requests cost.
 */
TEST_F_TIMEOUT(tenant, queued_names_charged_to_the_callers_memory_cgroup, 120)
{
	long long s0, s1, s2, m0, m1, m2, per_name;
	const char *root = rtt_cgroup_root();
	struct rtt_child c;
	char cg[128];

	if (!root)
		SKIP(return, "no cgroup v2 hierarchy with the memory controller");
	snprintf(cg, sizeof(cg), "%s/rtt-%d", root, getpid());
	ASSERT_EQ(0, mkdir(cg, 0755));
	ASSERT_EQ(0, rtt_start(&c, RTT_NOBODY_NS, rtt_cg_tenant, NULL, cg));
	ASSERT_EQ(0, rtt_wait_step(&c));
	s0 = rtt_memstat(cg, "slab");
	m0 = rtt_memcurrent(cg);
	ASSERT_EQ(0, rtt_go(&c));
	ASSERT_EQ(0, rtt_wait_step(&c));
	s1 = rtt_memstat(cg, "slab");
	m1 = rtt_memcurrent(cg);
	ASSERT_EQ(0, rtt_go(&c));
	ASSERT_EQ(0, rtt_wait_step(&c));
	s2 = rtt_memstat(cg, "slab");
	m2 = rtt_memcurrent(cg);
	EXPECT_EQ(0, rtt_finish(&c));
	rmdir(cg);
	per_name = ((s1 - s0) - (s2 - s1)) / RTT_CG_NAMES;
	TH_LOG("slab: +%lld B for %d names, +%lld B for as many requests of one name: %lld B per name; memory.current +%lld, +%lld",
	       s1 - s0, RTT_CG_NAMES, s2 - s1, per_name, m1 - m0, m2 - m1);
	/* A queued name holds its ~230 bytes at least. */
	EXPECT_LE(230, per_name);
	EXPECT_LT(m0, m1);
}

/* ---- finding 1: resolvers and names bounded per user ------------------ */

/*
 * nobody registers in one network namespace after another: the third
 * REGISTER is refused (resolver_max_per_user 2).  Each registered
 * namespace queues 60 names (kept): 100 are queued
 * (resolver_max_names_per_user 100), the rest go the way they would
 * without a resolver.  Exits 0 when the third REGISTER got EDQUOT.
 */
static int rtt_bounded_tenant(struct rtt_child *c, void *arg)
{
	int rfd[3], fd[2], i, k, third;
	char name[256];
	__u32 h;

	(void)arg;
	for (i = 0; i < 3; i++) {
		if (i && unshare(CLONE_NEWNET))
			return 1;
		rfd[i] = rai_dev_open(O_NONBLOCK);
		if (rfd[i] < 0)
			return 2;
		if (i < 2) {
			fd[i] = rai_dev_open(O_NONBLOCK);
			if (fd[i] < 0 || rtt_register(rfd[i]))
				return 3;
		}
	}
	third = rtt_register(rfd[2]);
	for (i = 0; i < 2; i++)
		for (k = 0; k < 60; k++)
			if (rai_resolve_async(fd[i],
					      rtt_long_name(name, sizeof(name),
							    i ? "rttb" : "rtta",
							    k),
					      NULL, AF_UNSPEC, 0, k, &h))
				return 4;
	if (rtt_step(c))
		return 5;
	if (third)
		fprintf(stderr, "# third REGISTER: %s\n", strerror(-third));
	return third == -EDQUOT ? 0 : 6;
}

/* A root-created container beside it registers and queues all its names. */
static int rtt_bounded_neighbour(struct rtt_child *c, void *arg)
{
	struct rtt_queue_job job = { 60, 60, "rttn" };

	(void)arg;
	return rtt_queue_names(c, &job);
}

TEST_F_TIMEOUT(tenant, resolvers_and_queued_names_bounded_per_user, 120)
{
	struct rai_param_saved pr = {}, pn = {};
	long long q0 = rai_stat("resolver_outstanding"), q1, q2;
	struct rtt_child c, n;

	if (rai_param_push(&pr, "resolver_max_per_user", "2") ||
	    rai_param_push(&pn, "resolver_max_names_per_user", "100") ||
	    rtt_start(&c, RTT_NOBODY_NS, rtt_bounded_tenant, NULL, NULL)) {
		rai_param_pop(&pr);
		rai_param_pop(&pn);
		ASSERT_TRUE(0) TH_LOG("parameters or tenant not set up");
	}
	EXPECT_EQ(0, rtt_wait_step(&c));
	q1 = rai_stat("resolver_outstanding");
	ASSERT_EQ(0, rtt_start(&n, RTT_ROOT_NS, rtt_bounded_neighbour, NULL,
			       NULL));
	EXPECT_EQ(0, rtt_wait_step(&n));
	q2 = rai_stat("resolver_outstanding");
	EXPECT_EQ(0, rtt_finish(&n));
	EXPECT_EQ(0, rtt_finish(&c));
	rai_param_pop(&pr);
	rai_param_pop(&pn);
	TH_LOG("nobody: 120 names asked in 2 namespaces, %lld queued; a root container beside: 60 asked, %lld queued",
	       q1 - q0, q2 - q1);
	EXPECT_EQ(q0 + 100, q1);
	EXPECT_EQ(q1 + 60, q2);
	EXPECT_EQ(q0, rai_stat("resolver_outstanding"));
}

/*
 * The bounds are per user namespace (kernel/user.c's shares), so a
 * container that root created (LXD, Docker userns-remap, pods) fills its
 * own, not host root's.  Six such containers and a nobody namespace fill
 * theirs at once (two resolvers, the third REGISTER EDQUOT; 100 names
 * queued of 120); host root, after them, still registers two and queues
 * its 100.  Before the bounds were keyed on the outermost owner: the first
 * container took host root's and every other got EDQUOT.
 */
#define RTT_SHARE_TENANTS	8

TEST_F_TIMEOUT(tenant, root_containers_fill_their_resolver_shares_not_host_roots, 120)
{
	static const enum rtt_where where[RTT_SHARE_TENANTS] = {
		RTT_ROOT_NS, RTT_ROOT_NS, RTT_ROOT_NS, RTT_ROOT_NS,
		RTT_ROOT_NS, RTT_ROOT_NS, RTT_NOBODY_NS, RTT_HOST,
	};
	long long q0 = rai_stat("resolver_outstanding"), q1, q2;
	struct rtt_child c[RTT_SHARE_TENANTS];
	struct rai_param_saved pr = {}, pn = {}, pw = {}, pt = {};
	int i, started = 0, full = 0, host;

	/* Queued names must outlive a slow (debug) kernel's start of all. */
	rai_param_push(&pw, "resolver_wait_ms", "600000");
	rai_param_push(&pt, "dns_timeout_ms", "0");
	if (rai_param_push(&pr, "resolver_max_per_user", "2") ||
	    rai_param_push(&pn, "resolver_max_names_per_user", "100")) {
		rai_param_pop(&pr);
		rai_param_pop(&pn);
		rai_param_pop(&pw);
		rai_param_pop(&pt);
		ASSERT_TRUE(0) TH_LOG("parameters not set");
	}
	/* The containers and the nobody namespace at once, then host root. */
	for (i = 0; i < RTT_SHARE_TENANTS - 1; i++, started++)
		if (rtt_start(&c[i], where[i], rtt_bounded_tenant, NULL, NULL))
			break;
	for (i = 0; i < started; i++)
		EXPECT_EQ(0, rtt_wait_step(&c[i]));
	q1 = rai_stat("resolver_outstanding");
	if (started == RTT_SHARE_TENANTS - 1 &&
	    !rtt_start(&c[started], RTT_HOST, rtt_bounded_tenant, NULL, NULL)) {
		EXPECT_EQ(0, rtt_wait_step(&c[started]));
		started++;
	}
	q2 = rai_stat("resolver_outstanding");
	for (i = 0; i < started; i++) {
		int ret = rtt_finish(&c[i]);

		EXPECT_EQ(0, ret) TH_LOG("tenant %d (%s)", i,
					 where[i] == RTT_HOST ? "host root" :
					 where[i] == RTT_ROOT_NS ? "root container" :
					 "nobody namespace");
		full += !ret;
	}
	host = started == RTT_SHARE_TENANTS ? (int)(q2 - q1) : -1;
	rai_param_pop(&pr);
	rai_param_pop(&pn);
	rai_param_pop(&pw);
	rai_param_pop(&pt);
	TH_LOG("%d tenants (6 root containers, nobody, host root last): %d got their 2 resolvers and EDQUOT on the third; %lld names queued before host root, host root queued %d",
	       RTT_SHARE_TENANTS, full, q1 - q0, host);
	ASSERT_EQ(RTT_SHARE_TENANTS, started);
	EXPECT_EQ(RTT_SHARE_TENANTS, full);
	EXPECT_EQ(q0 + 100 * (RTT_SHARE_TENANTS - 1), q1);
	EXPECT_EQ(100, host);
	EXPECT_EQ(q0, rai_stat("resolver_outstanding"));
}

/* ---- finding 5: a passed descriptor gains nothing --------------------- */

/* REGISTER of @fd (opened by host root) as nobody: exits 0 on EPERM. */
static int rtt_register_passed(struct rtt_child *c, void *arg)
{
	int ret = rtt_register(*(int *)arg);

	(void)c;
	if (ret != -EPERM)
		fprintf(stderr, "# REGISTER of root's descriptor: %d\n", ret);
	return ret == -EPERM ? 0 : 3;
}

/*
 * A descriptor host root opened, held by a process that dropped to nobody
 * (and by one that then made its own namespaces): REGISTER is EPERM, and
 * the host's slot stays free for the real resolver.
 */
TEST(register_through_a_root_descriptor_after_dropping_privileges_eperm)
{
	static const enum rtt_where where[2] = { RTT_NOBODY_NS, RTT_HOST };
	long long r0 = rai_stat("resolver_registered");
	int fd = rai_dev_open(0), b, i;
	struct rtt_child c;
	pid_t pid;

	ASSERT_LE(0, fd);
	for (i = 0; i < 2; i++) {
		if (where[i] == RTT_HOST) {
			/* Dropped to nobody, no namespace of its own. */
			pid = rai_fork_as(RTT_NOBODY);
			ASSERT_LE(0, pid);
			if (!pid)
				_exit(rtt_register_passed(NULL, &fd));
			EXPECT_EQ(0, rai_wait_child(pid));
			continue;
		}
		ASSERT_EQ(0, rtt_start(&c, where[i], rtt_register_passed, &fd,
				       NULL));
		EXPECT_EQ(0, rai_wait_child(c.pid));
		rtt_close_pipes(&c);
	}
	EXPECT_EQ(r0, rai_stat("resolver_registered"));
	/* The host's slot is free: root's own REGISTER succeeds. */
	b = rai_dev_open(0);
	ASSERT_LE(0, b);
	EXPECT_EQ(0, rtt_register(b));
	close(b);
	close(fd);
}

/* ---- finding 4: the kernel log stays quiet ---------------------------- */

#define RTT_LOG_ROUNDS	200

static int rtt_register_loop(struct rtt_child *c, void *arg)
{
	int i, fd, failed = 0;

	(void)c;
	(void)arg;
	for (i = 0; i < RTT_LOG_ROUNDS; i++) {
		fd = rai_dev_open(0);
		if (fd < 0 || rtt_register(fd))
			failed++;
		if (fd >= 0)
			close(fd);
	}
	return failed ? 3 : 0;
}

static long rtt_log_lines(void)
{
	return rai_sh_number("dmesg | grep -c 'resident resolver'");
}

/*
 * 200 rounds of open, REGISTER, close by nobody in its own namespace: the
 * kernel log gets a bounded number of lines (ratelimited: 10 of each kind
 * per 5 s interval the loop lasted, started or not).
 */
TEST_F_TIMEOUT(tenant, register_loop_leaves_the_kernel_log_quiet, 120)
{
	long l0 = rtt_log_lines(), l1, allowed;
	long long t0 = rai_now_ms(), ms;
	struct rtt_child c;

	ASSERT_LE(0, l0);
	ASSERT_EQ(0, rtt_start(&c, RTT_NOBODY_NS, rtt_register_loop, NULL,
			       NULL));
	EXPECT_EQ(0, rai_wait_child(c.pid));
	rtt_close_pipes(&c);
	ms = rai_now_ms() - t0;
	l1 = rtt_log_lines();
	allowed = 2 * 10 * (ms / 5000 + 2);
	TH_LOG("%d rounds in %lld ms: %ld log lines (at most %ld allowed)",
	       RTT_LOG_ROUNDS, ms, l1 - l0, allowed);
	EXPECT_GE(allowed, l1 - l0);
}

/* ---- finding 7: names no resolver takes fall back --------------------- */

/* A tenant whose resolver never takes: its request ends with EPERM. */
static int rtt_untaken_tenant(struct rtt_child *c, void *arg)
{
	struct rdma_addrinfo_event ev;
	int rfd = rai_dev_open(O_NONBLOCK), fd = rai_dev_open(O_NONBLOCK);
	char name[256];
	__u32 h;
	int ret;

	(void)c;
	(void)arg;
	if (rfd < 0 || fd < 0 || rtt_register(rfd))
		return 1;
	if (rai_resolve_async(fd, rtt_long_name(name, sizeof(name), "rttu", 0),
			      NULL, AF_UNSPEC, 0, 1, &h))
		return 2;
	ret = rai_wait_event(fd, &ev, RTT_UPCALL_MS);
	if (ret || ev.handle != h) {
		fprintf(stderr, "# no event: %d\n", ret);
		return 3;
	}
	if (ev.status != -EPERM) {
		fprintf(stderr, "# status %d, not EPERM\n", ev.status);
		return 4;
	}
	return 0;
}

/*
 * Host root's resolver and a nobody namespace's never take
 * (resolver_wait_ms 500): the host's name is answered by the upcall, the
 * namespace's request goes the way it would without a resolver (EPERM,
 * no upcall for another view), each before dns_timeout_ms.
 */
TEST_F_TIMEOUT(tenant, untaken_names_fall_back_after_resolver_wait_ms, 150)
{
	long long d0 = rai_stat("resolver_deadlines");
	struct rdma_addrinfo_event ev;
	struct rdma_addrinfo_result *res = NULL;
	struct rai_param_saved pw = {};
	char line[256], name[128];
	int rfd, fd;
	__u32 h, n = 0;
	struct rtt_child c;

	ASSERT_EQ(0, rai_param_push(&pw, "resolver_wait_ms", "500"));
	rfd = rai_dev_open(O_NONBLOCK);
	fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, rfd);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rtt_register(rfd));
	rai_unique_name(name, sizeof(name), "rttw");
	ASSERT_EQ(0, rai_hosts_add(line, sizeof(line), RTT_HOSTS_ADDR, name));
	ASSERT_EQ(0, rtt_start(&c, RTT_NOBODY_NS, rtt_untaken_tenant, NULL,
			       NULL));
	EXPECT_EQ(0, rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, 1, &h));
	EXPECT_EQ(0, rai_wait_event(fd, &ev, RTT_UPCALL_MS));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, ev.status);
	if (!ev.status) {
		EXPECT_EQ(0, rai_query_all(fd, h, &res, &n));
		EXPECT_EQ(1, rai_count_dst(res, n, RTT_HOSTS_ADDR));
		free(res);
	}
	EXPECT_EQ(0, rai_wait_child(c.pid));
	rtt_close_pipes(&c);
	EXPECT_LE(d0 + 2, rai_stat("resolver_deadlines"));
	rai_hosts_remove(line);
	close(fd);
	close(rfd);
	rai_param_pop(&pw);
}

TEST_HARNESS_MAIN
