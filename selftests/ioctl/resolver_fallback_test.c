// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25): the fallback to the upcall when the
 * resolver closes, misses its deadline or is full (each request completes
 * once), and requests destroyed or closed under the resolver.  The test
 * plays the resolver: see resolver_test.h.
 */
#include "resolver_test.h"

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

TEST_HARNESS_MAIN
