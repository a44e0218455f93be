// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hostile callers, as an ordinary user (the device is mode 0666): what the
 * second security review played against the module (issue 23).
 *
 *  - A synchronous RESOLVE_RESULTS whose argument struct is on a read-only
 *    page, for a request that has to wait (a DNS name never seen, an SA
 *    service): the results go out, the request is released, then the
 *    final copy of the struct fails.  The request must be released once,
 *    not a second time on the copy's error path.
 *  - DNS requests refused because they come from another network
 *    namespace, destroyed or closed the moment they are made: a refusal
 *    holds no upcall slot, so none may be given back; afterwards the slot
 *    gauge reads 0 and another user's new name still resolves.
 *  - Several uids of one user namespace against a user outside it: the
 *    namespace is one user's share of the per-user caps (charged to the
 *    user who owns the namespace), whatever uids it maps.
 *
 *  - Results memory per user is bounded in bytes: past it a request
 *    completes with -ENOBUFS, and destroying requests makes room.
 *  - rmmod the moment the last file with batched DNS names in flight is
 *    closed, over and over: the module's teardown must not leave a
 *    gathering timer or a batch's work armed behind it.
 *  - An RDMA device renamed over and over while source selection names
 *    it in results: the name is read from where a rename never frees it
 *    (KASAN, in the debug lane, reports a read of a freed name).
 *
 * Under panic_on_warn=1 the first two, unfixed, bring the guest down.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"
#include "world_env.h"

#define NOBODY		65534
#define OTHER_USER	65533
/* The owner of the test's user namespace, and where its uids map to. */
#define NS_OWNER	5000
#define NS_FIRST_KUID	200000
#define NS_UIDS		4
#define OUTSIDE_USER	6000
#define REFUSED_LOOPS	200
#define REQUESTS_CAP	"8"
#define RENAMED		"raitmp0"	/* a name no device has */
#define RENAMES		20
#define RENAME_MS	8000
#define RMMOD_ROUNDS	8
#define RMMOD_NAMES	12
#define RMMOD_MS	60000

/*
 * Wait up to 5 s for the gauge @name to come back to @value (a backend
 * may drop its reference a moment after the call returned): its value.
 */
static long long gauge_settles(const char *name, long long value)
{
	long long v, end = rai_now_ms() + 5000;

	while ((v = rai_stat(name)) != value && rai_now_ms() < end)
		usleep(20000);	/* the pace of the looks, not a wait */
	return v;
}

/*
 * In a child: a RESOLVE with RESOLVE_SYNC | RESOLVE_RESULTS, prepared by
 * @fill in a struct on a page that is then made read-only.  Exit codes:
 * 0 the ioctl failed with EFAULT and the fd still works with no request
 * left; 10 + n for each other outcome (printed).
 */
static int readonly_results_call(int fd,
				 void (*fill)(struct rdma_addrinfo_resolve *r,
					      struct rdma_addrinfo_result *res))
{
	static struct rdma_addrinfo_result res[8];
	struct rdma_addrinfo_resolve *r;
	struct rdma_addrinfo_info info;
	int ret;

	r = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 10;
	fill(r, res);
	r->flags = RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS;
	r->context = (uintptr_t)res;
	r->result_count = 8;
	if (mprotect(r, 4096, PROT_READ))
		return 11;
	ret = rai_resolve(fd, r);
	if (ret != -EFAULT) {
		fprintf(stderr, "# RESOLVE on a read-only struct: %d\n", ret);
		return 12;
	}
	ret = rai_fd_works(fd);
	if (ret) {
		fprintf(stderr, "# the fd after it: %d\n", ret);
		return 13;
	}
	if (rai_get_info(fd, &info) || info.requests) {
		fprintf(stderr, "# requests left on the fd: %u\n",
			info.requests);
		return 14;
	}
	return 0;
}

static char fresh_name[128];

static int hold_requests(int fd, int most, int *err);

/* A DNS name nobody asked for yet: it waits for the resolver. */
static void fill_new_dns_name(struct rdma_addrinfo_resolve *r,
			      struct rdma_addrinfo_result *res)
{
	(void)res;
	rai_req_init(r, fresh_name, NULL, AF_UNSPEC, 0, 0, 0);
}

/* An SA service on rxe0: waits for the SA (or fails there). */
static void fill_sa_service(struct rdma_addrinfo_resolve *r,
			    struct rdma_addrinfo_result *res)
{
	(void)res;
	rai_req_init(r, NULL, "hostile-svc", 0, RDMA_ADDRINFO_RAI_SA, 0, 0);
	r->port_num = 1;
	snprintf(r->ibdev_name, sizeof(r->ibdev_name), "%s", RAI_IBDEV_A);
}

/* The read-only case as user NOBODY, on a fresh fd; the child's status. */
static int readonly_as_nobody(void (*fill)(struct rdma_addrinfo_resolve *r,
					   struct rdma_addrinfo_result *res))
{
	pid_t pid = rai_fork_as(NOBODY);
	int fd;

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = rai_dev_open(0);
		if (fd < 0)
			_exit(2);
		_exit(readonly_results_call(fd, fill));
	}
	return rai_wait_child(pid);
}

TEST(readonly_struct_results_dns_name_that_waits_released_once)
{
	long long live0 = rai_stat("requests_live");

	rai_unique_name(fresh_name, sizeof(fresh_name), "rofresh");
	EXPECT_EQ(0, readonly_as_nobody(fill_new_dns_name));
	/* And again, now that the answer may be cached (answered inline). */
	EXPECT_EQ(0, readonly_as_nobody(fill_new_dns_name));
	EXPECT_EQ(live0, gauge_settles("requests_live", live0));
}

TEST(readonly_struct_results_sa_service_released_once)
{
	long long live0 = rai_stat("requests_live");

	EXPECT_EQ(0, readonly_as_nobody(fill_sa_service));
	EXPECT_EQ(live0, gauge_settles("requests_live", live0));
}

/*
 * The same struct writable: the call succeeds and returns the results,
 * so the read-only cases above fail only on their last copy.
 */
/*
 * The results array, not the struct, is read-only, for a name that
 * waits: the request is released on the failed copy of the results, once
 * (and the struct, written back last, still says nothing was returned).
 */
static int readonly_array_call(int fd)
{
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_info info;
	void *page;
	int ret;

	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 10;
	rai_req_init(&r, fresh_name, NULL, AF_UNSPEC, 0,
		     RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS,
		     (uintptr_t)page);
	r.result_count = 8;
	ret = rai_resolve(fd, &r);
	if (ret != -EFAULT) {
		fprintf(stderr, "# RESOLVE into a read-only array: %d\n", ret);
		return 12;
	}
	if (rai_fd_works(fd) || rai_get_info(fd, &info) || info.requests)
		return 13;
	return 0;
}

TEST(readonly_results_array_for_a_name_that_waits_released_once)
{
	long long live0 = rai_stat("requests_live");
	char line[256];
	pid_t pid;
	int fd;

	/* A name with an address, so that there are results to copy. */
	rai_unique_name(fresh_name, sizeof(fresh_name), "roarray");
	ASSERT_EQ(0, rai_hosts_add(line, sizeof(line), "192.0.2.232",
				   fresh_name));
	pid = rai_fork_as(NOBODY);
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = rai_dev_open(0);
		_exit(fd < 0 ? 2 : readonly_array_call(fd));
	}
	EXPECT_EQ(0, rai_wait_child(pid));
	rai_hosts_remove(line);
	EXPECT_EQ(live0, gauge_settles("requests_live", live0));
}

/*
 * A file passed to a process of another user charges that user: the
 * file's remembered user changes hands and each user has its own share.
 */
TEST(one_file_used_by_two_users_charges_each)
{
	char old[32];
	int fd, err;
	pid_t pid;

	ASSERT_EQ(0, rai_param_get("max_requests_per_user", old, sizeof(old)));
	ASSERT_EQ(0, rai_param_set("max_requests_per_user", "2"));
	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(2, hold_requests(fd, 3, &err));
	EXPECT_EQ(-EDQUOT, err);
	pid = rai_fork_as(NOBODY);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(hold_requests(fd, 3, &err) == 2 && err == -EDQUOT ? 0 : 3);
	EXPECT_EQ(0, rai_wait_child(pid));
	/* Back to the first user: still at its cap. */
	EXPECT_EQ(0, hold_requests(fd, 1, &err));
	EXPECT_EQ(-EDQUOT, err);
	close(fd);
	EXPECT_EQ(0, rai_param_set("max_requests_per_user", old));
}

TEST(writable_struct_results_dns_name_control)
{
	struct rdma_addrinfo_result res[8];
	struct rdma_addrinfo_resolve r;
	int fd = rai_dev_open(0);

	ASSERT_LE(0, fd);
	rai_unique_name(fresh_name, sizeof(fresh_name), "rwfresh");
	rai_req_init(&r, fresh_name, NULL, AF_UNSPEC, 0,
		     RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS,
		     (uintptr_t)res);
	r.result_count = 8;
	EXPECT_EQ(0, rai_resolve(fd, &r));
	EXPECT_EQ(-ENXIO, r.status);
	EXPECT_EQ(0, r.handle);
	close(fd);
}

/*
 * In a child as user NOBODY in its own user and network namespace:
 * REFUSED_LOOPS times, open the device, start an asynchronous RESOLVE of
 * a DNS name (refused: another network namespace) and destroy it at once
 * (even rounds) or close the fd at once (odd rounds).  Every tenth round
 * waits for the event instead, which must be -EPERM.  Exit code: 0, or
 * the round's step that failed.
 */
static int refused_storm(void)
{
	struct rdma_addrinfo_event ev;
	char name[128];
	__u32 handle;
	int i, fd, ret;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		perror("# unshare");
		return 2;
	}
	for (i = 0; i < REFUSED_LOOPS; i++) {
		fd = rai_dev_open(0);
		if (fd < 0)
			return 3;
		rai_unique_name(name, sizeof(name), "refused");
		ret = rai_resolve_async(fd, name, NULL, AF_UNSPEC, 0, i,
					&handle);
		if (ret) {
			fprintf(stderr, "# round %d: RESOLVE %d\n", i, ret);
			return 4;
		}
		if (i % 10 == 9) {
			ret = rai_wait_event(fd, &ev, 30000);
			if (ret || ev.status != -EPERM || ev.context != (__u64)i) {
				fprintf(stderr, "# round %d: %d status %d\n", i,
					ret, ev.status);
				return 5;
			}
		} else if (!(i & 1) && rai_destroy(fd, handle, NULL)) {
			return 6;
		}
		close(fd);
	}
	return 0;
}

TEST(refused_requests_destroyed_and_closed_at_once_give_back_nothing)
{
	long long refused0 = rai_stat("dns_view_refused");
	struct rdma_addrinfo_result *res = NULL;
	char line[256], name[128];
	__u32 n = 0;
	__s32 status = 1;
	pid_t pid;
	int fd;

	pid = rai_fork_as(NOBODY);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(refused_storm());
	ASSERT_EQ(0, rai_wait_child(pid));
	EXPECT_EQ(refused0 + REFUSED_LOOPS, rai_stat("dns_view_refused"));
	EXPECT_EQ(0, rai_stat("dns_slots_busy"));

	/* Another user's new name still gets a slot and its answer. */
	rai_unique_name(name, sizeof(name), "afterstorm");
	ASSERT_EQ(0, rai_hosts_add(line, sizeof(line), "192.0.2.231", name));
	pid = rai_fork_as(OTHER_USER);
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = rai_dev_open(0);
		if (fd < 0 || rai_lookup_str(fd, name, NULL, AF_INET, 0, &res,
					     &n, &status))
			_exit(2);
		_exit(status ? 3 : n == 1 ? 0 : 4);
	}
	EXPECT_EQ(0, rai_wait_child(pid));
	rai_hosts_remove(line);
	EXPECT_EQ(0, rai_stat("dns_slots_busy"));
	free(res);
}

/*
 * Asynchronous numeric requests on @fd until one fails: how many
 * succeeded; *err the failure.
 */
static int hold_requests(int fd, int most, int *err)
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

/* Write "M N" (0-based uid, count) to @out. */
static void tell_parent(int out, int a, int b)
{
	int v[2] = { a, b };

	if (write(out, v, sizeof(v)) != sizeof(v))
		_exit(9);
}

/*
 * The namespace's first process (uid NS_OWNER, then uid 0 of its own user
 * namespace once the parent has mapped NS_UIDS uids): one fd, and on it
 * the requests of each uid 0..NS_UIDS-1 of the namespace, each made by a
 * child that switches to that uid and exits (the requests stay with the
 * fd, charged to whoever made them).  Reports per uid how many it got
 * and the error that stopped it, then waits to be killed (the fd open).
 */
static void namespace_side(int go, int out)
{
	int fd, uid, got, err;
	char c;
	pid_t pid;

	if (unshare(CLONE_NEWUSER))
		_exit(2);
	tell_parent(out, -1, 0);		/* the parent maps the uids now */
	if (read(go, &c, 1) != 1)
		_exit(3);
	if (setresuid(0, 0, 0))
		_exit(4);
	fd = rai_dev_open(0);
	if (fd < 0)
		_exit(5);
	for (uid = 0; uid < NS_UIDS; uid++) {
		pid = fork();
		if (!pid) {
			if (setresuid(uid, uid, uid))
				_exit(6);
			got = hold_requests(fd, 32, &err);
			tell_parent(out, got, err);
			_exit(0);
		}
		if (rai_wait_child(pid))
			tell_parent(out, -2, uid);
	}
	pause();
	_exit(0);
}

TEST(uids_of_one_user_namespace_share_one_users_caps)
{
	int to_ns[2], from_ns[2], v[2], uid, total = 0, got, err;
	char old[32], path[64];
	pid_t ns, pid;
	int fd;

	ASSERT_EQ(0, rai_param_get("max_requests_per_user", old, sizeof(old)));
	ASSERT_EQ(0, rai_param_set("max_requests_per_user", REQUESTS_CAP));
	ASSERT_EQ(0, pipe(to_ns));
	ASSERT_EQ(0, pipe(from_ns));
	ns = rai_fork_as(NS_OWNER);
	ASSERT_LE(0, ns);
	if (!ns)
		namespace_side(to_ns[0], from_ns[1]);
	ASSERT_EQ(sizeof(v), read(from_ns[0], v, sizeof(v)));
	ASSERT_EQ(-1, v[0]);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", ns);
	ASSERT_EQ(0, rai_sh("echo '0 %d %d' > %s", NS_FIRST_KUID, NS_UIDS,
			    path));
	ASSERT_EQ(1, write(to_ns[1], "g", 1));

	for (uid = 0; uid < NS_UIDS; uid++) {
		ASSERT_EQ(sizeof(v), read(from_ns[0], v, sizeof(v)));
		ASSERT_LE(0, v[0]) TH_LOG("uid %d of the namespace failed",
					  v[1]);
		TH_LOG("uid %d of the namespace: %d requests, then %d", uid,
		       v[0], v[1]);
		total += v[0];
		/* Whoever reaches the share is refused with EDQUOT. */
		if (v[1])
			EXPECT_EQ(-EDQUOT, v[1]);
	}
	EXPECT_EQ(atoi(REQUESTS_CAP), total);

	/* A user outside the namespace still has a whole share. */
	pid = rai_fork_as(OUTSIDE_USER);
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = rai_dev_open(0);
		if (fd < 0)
			_exit(2);
		got = hold_requests(fd, 32, &err);
		_exit(got == atoi(REQUESTS_CAP) && err == -EDQUOT ? 0 : 3);
	}
	EXPECT_EQ(0, rai_wait_child(pid));

	kill(ns, SIGKILL);
	rai_wait_child(ns);
	EXPECT_EQ(0, rai_param_set("max_requests_per_user", old));
}

/*
 * As user @uid: @n asynchronous numeric requests, each awaited, kept:
 * how many completed with 0 before the first -ENOBUFS (and every one
 * after it must be -ENOBUFS too); then one destroyed makes room for one
 * more.  Exit code: the count, or 100 + a failed step.
 */
static int results_until_full(int n, bool make_room)
{
	struct rdma_addrinfo_event ev;
	__u32 handle, first = 0;
	int i, ok = 0, full = 0, fd;

	fd = rai_dev_open(0);
	if (fd < 0)
		return 101;
	for (i = 0; i < n; i++) {
		if (rai_resolve_async(fd, "127.0.0.1", NULL, AF_INET, 0, i,
				      &handle) ||
		    rai_wait_event(fd, &ev, 10000))
			return 102;
		if (!first)
			first = handle;
		if (!ev.status && !full)
			ok++;
		else if (ev.status == -ENOBUFS && !ev.num_results)
			full++;
		else
			return 103;
	}
	if (make_room) {
		if (!full || rai_destroy(fd, first, NULL) ||
		    rai_resolve_async(fd, "127.0.0.1", NULL, AF_INET, 0, 0,
				      &handle) ||
		    rai_wait_event(fd, &ev, 10000) || ev.status)
			return 104;
	}
	return ok;
}

TEST(results_memory_per_user_bounded_in_bytes)
{
	int per = 4096 / sizeof(struct rdma_addrinfo_result);
	char old[32];
	pid_t pid;

	ASSERT_EQ(0, rai_param_get("max_result_kib_per_user", old,
				   sizeof(old)));
	ASSERT_EQ(0, rai_param_set("max_result_kib_per_user", "4"));
	pid = rai_fork_as(NOBODY);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(results_until_full(per + 3, true));
	EXPECT_EQ(per, rai_wait_child(pid));
	/* Another user has a share of its own. */
	pid = rai_fork_as(OTHER_USER);
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(results_until_full(per, false));
	EXPECT_EQ(per, rai_wait_child(pid));
	EXPECT_EQ(0, rai_param_set("max_result_kib_per_user", old));
}

/*
 * Names enough for a batch, asked at once (the first takes a slot, the
 * others gather behind it), then the file closed and the module removed
 * at once: whatever step the upcall and the gathering timer are at.
 */
/*
 * The tests that remove the module or rename a device: whatever happens,
 * the next test finds the module loaded and rxe0 under its name.  Their
 * time depends on upcalls and process starts, seconds each on the debug
 * kernel under TCG: they get more than the harness's 30 s.
 */
FIXTURE(world_change) {
	int unused;
};

FIXTURE_SETUP(world_change)
{
}

FIXTURE_TEARDOWN(world_change)
{
	if (!rai_module_loaded())
		rai_module_load(NULL);
	rai_sh("rdma dev set %s name %s 2>/dev/null", RENAMED, RAI_IBDEV_A);
}

TEST_F_TIMEOUT(world_change, rmmod_as_the_file_with_a_batch_in_flight_closes,
	       240)
{
	long long end = rai_now_ms() + RMMOD_MS;
	char name[128];
	__u32 handle;
	int round, i, fd, ret;

	if (!rai_module_loaded())
		SKIP(return, "module not loaded by the runner");
	/* RMMOD_ROUNDS, or as many as RMMOD_MS allows (at least one). */
	for (round = 0; round < RMMOD_ROUNDS &&
	     (!round || rai_now_ms() < end); round++) {
		fd = rai_dev_open(0);
		ASSERT_LE(0, fd);
		for (i = 0; i < RMMOD_NAMES; i++) {
			rai_unique_name(name, sizeof(name), "rmmod");
			ASSERT_EQ(0, rai_resolve_async(fd, name, NULL,
						       AF_UNSPEC, 0, i,
						       &handle));
		}
		/* Round by round a little later: the upcall gets further. */
		usleep(round * 25000);	/* varied: the close's moment */
		close(fd);
		ret = rai_module_unload_within(30000);
		if (ret) {
			TH_LOG("round %d: rmmod: %s", round, strerror(-ret));
			break;
		}
		ret = rai_module_load(NULL);
		ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	}
	TH_LOG("%d rounds", round);
	EXPECT_EQ(0, ret);
	if (!rai_module_loaded())
		ASSERT_EQ(0, rai_module_load(NULL));
	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, rai_fd_works(fd));
	close(fd);
}

/*
 * In a child: rename RAI_IBDEV_A to RENAMED and back, RENAMES times or
 * for RENAME_MS, whichever ends first (a rename is two process starts:
 * on the debug kernel under TCG that is a second and more, and the test
 * must end well within the harness's 30 s with the device's own name).
 */
static int renamer(void)
{
	long long end = rai_now_ms() + RENAME_MS;
	int i;

	for (i = 0; i < RENAMES && rai_now_ms() < end; i++) {
		if (rai_sh("rdma dev set %s name %s", RAI_IBDEV_A, RENAMED))
			return 2;
		if (rai_sh("rdma dev set %s name %s", RENAMED, RAI_IBDEV_A))
			return 3;
	}
	return 0;
}

TEST_F_TIMEOUT(world_change, device_renamed_while_source_selection_names_it,
	       120)
{
	struct rdma_addrinfo_result *res;
	unsigned int lookups = 0, named = 0, other = 0;
	int fd, st, done = 0;
	__s32 status;
	pid_t pid;
	__u32 n, i;

	fd = rai_dev_open(0);
	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(renamer());
	while (!done) {
		done = waitpid(pid, &st, WNOHANG) == pid;
		res = NULL;
		ASSERT_EQ(0, rai_lookup_str(fd, RAI_IP4_B, NULL, AF_INET, 0,
					    &res, &n, &status));
		lookups++;
		for (i = 0; i < n; i++) {
			if (res[i].src_status)
				continue;
			if (!strcmp(res[i].ibdev_name, RAI_IBDEV_A) ||
			    !strcmp(res[i].ibdev_name, RENAMED))
				named++;
			else
				other++;
		}
		free(res);
	}
	TH_LOG("%u lookups, %u results named the device, %u otherwise",
	       lookups, named, other);
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	EXPECT_EQ(0, other);
	EXPECT_LT(0, named);
	/* Whatever happened, the device ends under its own name. */
	rai_sh("rdma dev set %s name %s 2>/dev/null", RENAMED, RAI_IBDEV_A);
	close(fd);
}

TEST_HARNESS_MAIN
