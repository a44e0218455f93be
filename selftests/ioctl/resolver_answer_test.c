// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25): RESOLVER_ANSWER: its validation
 * errors, results and the cache, canonical names, errors as statuses,
 * garbage as -EPROTO, stale ids, EFAULT.  The test plays the resolver: see
 * resolver_test.h.
 */
#include "resolver_test.h"

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

TEST_HARNESS_MAIN
