// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The resident resolver (issue 25): containers with and without a resolver
 * of their own.  The test plays the resolver: see resolver_test.h.
 */
#include "resolver_test.h"

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
