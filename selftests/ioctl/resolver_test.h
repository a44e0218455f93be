/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
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
 * The cases are split by ABI section, one program each:
 * resolver_register_test (GET_INFO, REGISTER), resolver_take_test (TAKE),
 * resolver_answer_test (ANSWER), resolver_fallback_test (the fallback to
 * the upcall, requests that go away under the resolver) and
 * resolver_container_test (containers); this header holds what they share:
 * the resolver's and the callers' side, containers, the fixture.
 *
 * Names are new to the module's cache: rai_unique_name() for the names
 * the test answers itself (they exist nowhere), fresh /etc/hosts lines for
 * the names the upcall must answer when the resolver is gone.
 */
#ifndef RAI_RESOLVER_TEST_H
#define RAI_RESOLVER_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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

static inline int rvt_register(int fd, struct rdma_addrinfo_resolver_register *reg)
{
	memset(reg, 0, sizeof(*reg));
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, reg);
}

/* A new O_NONBLOCK file registered as the resolver: fd or -errno. */
static inline int rvt_open_registered(struct rdma_addrinfo_resolver_register *reg)
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
static inline int rvt_take(int fd, rvt_name_t *names, __u32 count)
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
static inline int rvt_take_n(int fd, rvt_name_t *names, int want, int timeout_ms)
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
static inline __u64 rvt_id_of(const rvt_name_t *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i].name, name))
			return names[i].id;
	return 0;
}

static inline void rvt_answer_set(rvt_answer_t *a, __u64 id, int error, __u32 ttl,
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
static inline int rvt_answer(int fd, rvt_answer_t *a, __u32 count,
		      struct rdma_addrinfo_resolver_answers *out)
{
	memset(out, 0, sizeof(*out));
	out->answers = (uintptr_t)a;
	out->count = count;
	out->answer_size = sizeof(*a);
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, out);
}

static inline int rvt_answer_one(int fd, __u64 id, int error, const char *addrs,
			  struct rdma_addrinfo_resolver_answers *out)
{
	rvt_answer_t a;

	rvt_answer_set(&a, id, error, 60, addrs);
	return rvt_answer(fd, &a, 1, out);
}

/* ---- the callers' side ------------------------------------------------ */

static inline int rvt_ask(int fd, const char *name, __u64 ctx, __u32 *handle)
{
	return rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, ctx, handle);
}

/*
 * The results of @handle on @fd hold @ip exactly once, all of origin DNS:
 * 0, else a negative errno or 1 (wrong results, logged).
 */
static inline int rvt_results_hold(int fd, __u32 handle, const char *ip)
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
static inline bool rvt_quiet(int fd, int ms)
{
	struct rdma_addrinfo_event ev;

	return rai_wait_event(fd, &ev, ms) == -ETIMEDOUT;
}

/* Wait up to @ms for the gauge @name to come back to @value: its value. */
static inline long long rvt_gauge_settles(const char *name, long long value, int ms)
{
	long long v, end = rai_now_ms() + ms;

	while ((v = rai_stat(name)) != value && rai_now_ms() < end)
		usleep(20000);	/* the pace of the looks, not a wait */
	return v;
}

struct rvt_sync_lookup {
	const char *name;
	int ret;
	__s32 status;
	__u32 n;
	struct rdma_addrinfo_result *res;
};

static inline void *rvt_sync_lookup_thread(void *arg)
{
	struct rvt_sync_lookup *s = arg;
	int fd = rai_dev_open(0);

	s->ret = fd < 0 ? fd : rai_lookup_str(fd, s->name, NULL, AF_INET, 0,
					      &s->res, &s->n, &s->status);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * A child as @uid: asks the @n names at @names (128 bytes each) on a new
 * file, says so on @up, waits on @go, exits 0 (or the step that failed).
 * The parent gets its pid.
 */
static inline pid_t rvt_ask_as(uid_t uid, char (*names)[128], int n, int up,
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

/* ---- containers ------------------------------------------------------- */

/*
 * Run @fn in a child that, as the unprivileged NS_OWNER, made its own user
 * and network namespace; the parent maps @uids uids of it (uid 0 to
 * NS_OWNER when 1, else to NS_FIRST_KUID on), and the child becomes the
 * namespace's root.  The child's exit code: @fn's result, or 100 + a
 * step of the set-up that failed.
 */
static inline int rvt_in_container(int (*fn)(void *), void *arg, int uids)
{
	pid_t pid = rai_container_start(NS_OWNER,
					uids == 1 ? NS_OWNER : NS_FIRST_KUID,
					uids, fn, arg);

	return pid < 0 ? -1 : rai_wait_child(pid);
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
static inline int rvt_hosts_names(FIXTURE_DATA(resolver) *self, int n)
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
static inline int rvt_param_and_register(FIXTURE_DATA(resolver) *self,
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
static inline int rvt_long_deadline(FIXTURE_DATA(resolver) *self)
{
	int ret = rai_param_get("resolver_deadline_ms", self->saved_deadline,
				sizeof(self->saved_deadline));

	if (ret) {
		self->saved_deadline[0] = '\0';
		return ret;
	}
	return rai_param_set("resolver_deadline_ms", "600000");
}

#endif /* RAI_RESOLVER_TEST_H */
