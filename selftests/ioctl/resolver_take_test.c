// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25): RESOLVER_TAKE: its validation errors,
 * blocking and poll, one name for many requests, round-robin between
 * users, nothing lost on EFAULT.  The test plays the resolver: see
 * resolver_test.h.
 */
#include "resolver_test.h"

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

TEST_HARNESS_MAIN
