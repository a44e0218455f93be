// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The cache of DNS answers is shared by tenants (issue 32, findings 3 and
 * 5): each network namespace and view keeps its share (dns_cache_share),
 * so a container's resident resolver that answers its own names with the
 * largest answers the protocol allows (336 addresses, a day's TTL) evicts
 * its own entries, never the host's.  Before, ~64 such answers evicted
 * every tenant's entries.  Containers here: unprivileged ones (a user's
 * user and network namespace) and one that root creates (as LXD, Docker
 * with userns-remap or a pod with user namespaces do), alone and several
 * at once.
 *
 * And a resolver's answers go with it: a host-view resolver that closes
 * leaves none of its answers in the cache (before, they answered the
 * host's callers for up to their TTL, a day).
 *
 * The test is the host's resolver (as in resolver_*_test); the containers'
 * resolvers are its children.  A cache hit is seen as the module says:
 * the answer is there when RESOLVE returns, and dns_cache_hits counts it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

/* Unprivileged creators of containers. */
#define DCT_OWNER_A	5111
#define DCT_OWNER_B	5112
/* Where the uids of a container root creates begin (LXD's style). */
#define DCT_ROOT_KUID	310000
#define DCT_ROOT_UIDS	65536
/* Answers each flooding container gives: four times what filled it. */
#define DCT_FLOOD	256
/* Names asked and answered per round. */
#define DCT_ROUND	32
#define DCT_ANSWER_MS	10000
#define DCT_HOST_ADDR	"192.0.2.79"
/* "::" 336 times: the most addresses an answer's list holds. */
#define DCT_MAX_ADDRS	((RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE) / 3)
#define DCT_DAY		86400
#define DCT_MAX_TENANTS	3

typedef struct rdma_addrinfo_resolver_name dct_name_t;
typedef struct rdma_addrinfo_resolver_answer dct_answer_t;

/* ---- the resolver's side ---------------------------------------------- */

/* A new O_NONBLOCK file registered as the resolver: fd or -errno. */
static int dct_open_registered(void)
{
	struct rdma_addrinfo_resolver_register reg;
	int fd = rai_dev_open(O_NONBLOCK), ret;

	if (fd < 0)
		return fd;
	memset(&reg, 0, sizeof(reg));
	ret = rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* Take up to @want names from @rfd within timeout_ms: how many, or -errno. */
static int dct_take(int rfd, dct_name_t *names, int want, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	struct pollfd p = { .fd = rfd, .events = POLLIN };
	struct rdma_addrinfo_resolver_take t;
	int got = 0, ret;

	while (got < want) {
		memset(&t, 0, sizeof(t));
		t.names = (uintptr_t)(names + got);
		t.count = want - got;
		t.name_size = sizeof(*names);
		ret = rai_dev_ioctl(rfd, RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &t);
		if (!ret) {
			got += t.taken;
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

/* RESOLVER_ANSWER of @n answers: 0, or -errno / -EPROTO (not all done). */
static int dct_answer(int rfd, dct_answer_t *a, int n)
{
	struct rdma_addrinfo_resolver_answers out;
	int ret;

	memset(&out, 0, sizeof(out));
	out.answers = (uintptr_t)a;
	out.count = n;
	out.answer_size = sizeof(*a);
	ret = rai_dev_ioctl(rfd, RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, &out);
	if (ret)
		return ret;
	if (out.done != (__u32)n || out.stale || out.malformed) {
		fprintf(stderr, "# answers: %u done, %u stale, %u malformed\n",
			out.done, out.stale, out.malformed);
		return -EPROTO;
	}
	return 0;
}

/*
 * Ask @name on the caller @fd, take it from the resolver @rfd and answer
 * @addrs for @ttl seconds; the event arrives.  0 or a negative step.
 */
static int dct_ask_and_answer(int fd, int rfd, const char *name,
			      const char *addrs, __u32 ttl)
{
	struct rdma_addrinfo_event ev;
	dct_answer_t a;
	dct_name_t n;
	__u32 h;
	int ret;

	ret = rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, 1, &h);
	if (ret)
		return ret;
	if (dct_take(rfd, &n, 1, DCT_ANSWER_MS) != 1 || strcmp(n.name, name))
		return -ENOENT;
	memset(&a, 0, sizeof(a));
	a.id = n.id;
	a.ttl = ttl;
	snprintf(a.addrs, sizeof(a.addrs), "%s", addrs);
	ret = dct_answer(rfd, &a, 1);
	if (ret)
		return ret;
	ret = rai_wait_event(fd, &ev, DCT_ANSWER_MS);
	if (ret)
		return ret;
	rai_destroy(fd, h, NULL);
	return ev.status;
}

/*
 * Is @name answered from the cache for the caller @fd?  A hit completes
 * inside RESOLVE: its event is there when the ioctl returns, and
 * dns_cache_hits counted it.  1 hit, 0 miss, or -errno.
 */
static int dct_cache_hit(int fd, const char *name)
{
	long long h0 = rai_stat("dns_cache_hits");
	bool readable;
	__u32 h;
	int ret;

	ret = rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, 2, &h);
	if (ret)
		return ret;
	readable = rai_readable(fd);
	ret = readable && rai_stat("dns_cache_hits") == h0 + 1;
	rai_destroy(fd, h, NULL);
	return ret;
}

/* ---- a container's flood ---------------------------------------------- */

/*
 * In the container (its root, its own network namespace): register as
 * its resolver, then ask DCT_FLOOD names of its own and answer each with
 * DCT_MAX_ADDRS addresses for a day.  Report on @up, wait for a byte on
 * @hold before the resolver closes (its entries stay while the host
 * looks).  0, or a step that failed.
 */
struct dct_flood {
	int up;
	int hold;
	const char *tag;
	int inherited[4];	/* the parent's files, closed by the child */
};

static int dct_flood_run(const struct dct_flood *fl)
{
	static dct_answer_t a[DCT_ROUND];
	static char list[RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE];
	dct_name_t names[DCT_ROUND];
	int rfd, fd, i, got, done;
	char name[128], c = 'f';
	__u32 h;

	char *p = list;

	for (i = 0; i < DCT_MAX_ADDRS; i++)
		p += sprintf(p, "%s::", i ? "," : "");
	rfd = dct_open_registered();
	if (rfd < 0) {
		fprintf(stderr, "# REGISTER in the container: %s\n",
			strerror(-rfd));
		return 2;
	}
	for (done = 0; done < DCT_FLOOD; done += DCT_ROUND) {
		fd = rai_dev_open(O_NONBLOCK);
		if (fd < 0)
			return 3;
		for (i = 0; i < DCT_ROUND; i++)
			if (rai_resolve_async(fd, rai_unique_name(name,
							sizeof(name), fl->tag),
					      NULL, AF_UNSPEC, 0, i, &h))
				return 4;
		got = dct_take(rfd, names, DCT_ROUND, DCT_ANSWER_MS);
		if (got != DCT_ROUND) {
			fprintf(stderr, "# took %d of %d\n", got, DCT_ROUND);
			return 5;
		}
		for (i = 0; i < got; i++) {
			memset(&a[i], 0, sizeof(a[i]));
			a[i].id = names[i].id;
			a[i].ttl = DCT_DAY;
			memcpy(a[i].addrs, list, sizeof(list));
		}
		if (dct_answer(rfd, a, got))
			return 6;
		close(fd);
	}
	if (write(fl->up, &c, 1) != 1 || read(fl->hold, &c, 1) < 0)
		return 7;
	close(rfd);
	return 0;
}

static void dct_close_inherited(const struct dct_flood *fl)
{
	unsigned int i;

	for (i = 0; i < sizeof(fl->inherited) / sizeof(fl->inherited[0]); i++)
		close(fl->inherited[i]);
}

/* The container's own work: dct_flood_run() on @arg, a struct dct_flood. */
static int dct_container_run(void *arg)
{
	const struct dct_flood *fl = arg;

	/* Set after setresuid() in the namespace, which clears it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	dct_close_inherited(fl);
	return dct_flood_run(fl);
}

/*
 * A container running dct_flood_run(): forked as @owner (0: root), its uid
 * 0 mapped to @owner, or (root) DCT_ROOT_UIDS uids from DCT_ROOT_KUID.
 * Its pid, or -1.
 */
static pid_t dct_container_start(uid_t owner, const struct dct_flood *fl)
{
	return rai_container_start(owner, owner ? owner : DCT_ROOT_KUID,
				   owner ? 1 : DCT_ROOT_UIDS,
				   dct_container_run, (void *)fl);
}

/* ---- the fixture: the host's resolver and its cached name ------------- */

FIXTURE(tenant) {
	int rfd;	/* the host's resolver */
	int fd;		/* a host caller */
	char name[128];	/* the host's cached name */
	long long evicted0;
};

FIXTURE_SETUP(tenant)
{
	char v[32];

	self->fd = -1;
	self->rfd = dct_open_registered();
	ASSERT_LE(0, self->rfd)
		TH_LOG("REGISTER for the host: %s", strerror(-self->rfd));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	if (!rai_param_get("dns_cache_bytes", v, sizeof(v)))
		TH_LOG("dns_cache_bytes %s", v);
	rai_unique_name(self->name, sizeof(self->name), "dcthost");
	ASSERT_EQ(0, dct_ask_and_answer(self->fd, self->rfd, self->name,
					DCT_HOST_ADDR, 3600));
	ASSERT_EQ(1, dct_cache_hit(self->fd, self->name))
		TH_LOG("the host's name is no hit before any flood");
	self->evicted0 = rai_stat("dns_cache_evicted");
}

FIXTURE_TEARDOWN(tenant)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->rfd >= 0)
		close(self->rfd);
}

/*
 * Containers (@owners: a uid, or 0 for root) flood at once; once each
 * has given its DCT_FLOOD answers (its resolver still registered), is
 * the host's name a hit?  The floods must have pressed the cache:
 * entries were evicted.
 */
static void dct_floods(struct __test_metadata *_metadata,
		       FIXTURE_DATA(tenant) *self, const uid_t *owners, int n)
{
	struct dct_flood fl[DCT_MAX_TENANTS];
	int up[2], hold[2], i, hit, st;
	pid_t pid[DCT_MAX_TENANTS];
	char c;

	ASSERT_GE(DCT_MAX_TENANTS, n);
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(hold));
	for (i = 0; i < n; i++) {
		fl[i].up = up[1];
		fl[i].hold = hold[0];
		fl[i].tag = owners[i] ? "dctflood" : "dctroot";
		/* Only the test holds the host's files and the pipes' ends. */
		fl[i].inherited[0] = self->rfd;
		fl[i].inherited[1] = self->fd;
		fl[i].inherited[2] = up[0];
		fl[i].inherited[3] = hold[1];
		pid[i] = dct_container_start(owners[i], &fl[i]);
		ASSERT_LT(0, pid[i]) TH_LOG("container %d", i);
	}
	close(up[1]);
	close(hold[0]);
	for (i = 0; i < n; i++)
		if (read(up[0], &c, 1) != 1)
			break;
	EXPECT_EQ(n, i) TH_LOG("%d of %d containers flooded", i, n);
	hit = dct_cache_hit(self->fd, self->name);
	TH_LOG("after %d containers x %d answers of %d addresses: the host's name is a %s; %lld entries evicted, cache %lld entries, %lld bytes",
	       n, DCT_FLOOD, DCT_MAX_ADDRS, hit == 1 ? "hit" : "MISS",
	       rai_stat("dns_cache_evicted") - self->evicted0,
	       rai_stat("dns_cache_entries"), rai_stat("dns_cache_bytes"));
	close(hold[1]);		/* the containers' resolvers close */
	close(up[0]);
	for (i = 0; i < n; i++) {
		st = rai_wait_child(pid[i]);
		EXPECT_EQ(0, st) TH_LOG("container %d exited %d", i, st);
	}
	EXPECT_LT(self->evicted0, rai_stat("dns_cache_evicted"))
		TH_LOG("the floods never filled the cache");
	EXPECT_EQ(1, hit) TH_LOG("the host's cached name was evicted");
}

TEST_F(tenant, unprivileged_container_floods_host_name_stays_a_hit)
{
	static const uid_t owners[] = { DCT_OWNER_A };

	dct_floods(_metadata, self, owners, 1);
}

TEST_F(tenant, root_created_container_floods_host_name_stays_a_hit)
{
	static const uid_t owners[] = { 0 };

	dct_floods(_metadata, self, owners, 1);
}

TEST_F(tenant, several_containers_flood_at_once_host_name_stays_a_hit)
{
	static const uid_t owners[] = { DCT_OWNER_A, 0, DCT_OWNER_B };

	dct_floods(_metadata, self, owners, 3);
}

/* ---- a resolver's answers go with it ----------------------------------- */

TEST(host_resolver_closes_its_answers_leave_the_cache)
{
	int rfd = dct_open_registered(), fd = rai_dev_open(O_NONBLOCK);
	char name[128];
	int before, after;

	ASSERT_LE(0, rfd) TH_LOG("REGISTER for the host: %s", strerror(-rfd));
	ASSERT_LE(0, fd);
	rai_unique_name(name, sizeof(name), "dctgone");
	ASSERT_EQ(0, dct_ask_and_answer(fd, rfd, name, DCT_HOST_ADDR, DCT_DAY));
	before = dct_cache_hit(fd, name);
	close(rfd);
	after = dct_cache_hit(fd, name);
	TH_LOG("the resolver's answer (ttl %d s): a %s while it is registered, a %s after it closed",
	       DCT_DAY, before == 1 ? "hit" : "miss",
	       after == 1 ? "HIT" : "miss");
	EXPECT_EQ(1, before);
	EXPECT_EQ(0, after);
	close(fd);
}

TEST_HARNESS_MAIN
