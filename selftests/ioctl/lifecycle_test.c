// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Lifecycle: close() with 1000 requests pending and the module unloading
 * afterwards, a process killed (and one interrupted) in a synchronous
 * RESOLVE, two files isolated from each other, rmmod refused while a file
 * is open and fine after.  The tests that unload the module load it again
 * from $RAI_REPO/rdma_addrinfo.ko so the runner's teardown still works.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

FIXTURE(life) {
	int fd;
	bool counter;
	bool unloaded;
};

FIXTURE_SETUP(life)
{
	self->fd = -1;
}

FIXTURE_TEARDOWN(life)
{
	if (self->counter)
		rai_upcall_counter_remove();
	if (self->fd >= 0)
		close(self->fd);
	/* Never leave the module out: the runner's teardown unloads it. */
	if (self->unloaded && !rai_module_loaded()) {
		int ret = rai_module_load(NULL);

		if (ret)
			TH_LOG("reloading the module failed: %s", strerror(-ret));
	}
}

static void life_install_upcall_counter(struct __test_metadata *_metadata,
					FIXTURE_DATA(life) *self)
{
	int ret = rai_upcall_counter_install();

	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
	self->counter = true;
}

TEST_F_TIMEOUT(life, close_with_thousand_pending_then_module_unloads, 120)
{
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_event ev;
	long long t0, dt;
	char name[128];
	long c0;
	int i, ret, fd2;

	if (!rai_module_loaded())
		SKIP(return, "module not loaded by the runner");
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	ASSERT_LE(1000, info.max_requests_per_fd);
	life_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	/* 16 stuck in (or waiting for) an upcall, 984 done with events queued. */
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd,
					       rai_unique_name(name, sizeof(name),
							       "close"),
					       NULL, AF_UNSPEC, 0, i, NULL));
	for (i = 16; i < 1000; i++) {
		snprintf(name, sizeof(name), "10.2.%d.%d", i / 250, i % 250 + 1);
		ASSERT_EQ(0, rai_resolve_async(self->fd, name, NULL, AF_INET,
					       0, i, NULL));
	}
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(1000, info.requests);
	/* A second file sees none of it. */
	fd2 = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, fd2);
	EXPECT_FALSE(rai_readable(fd2));
	t0 = rai_now_ms();
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	dt = rai_now_ms() - t0;
	EXPECT_GT(5000, dt) TH_LOG("close() took %lld ms", dt);
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(fd2, &ev));
	close(fd2);
	rai_upcall_hold(false);
	/* Everything the file owned is gone: the module unloads. */
	ret = rai_module_unload_within(20000);
	if (!ret)
		self->unloaded = true;
	ASSERT_EQ(0, ret) TH_LOG("module still busy 20 s after close: %s",
				 strerror(-ret));
	ret = rai_module_load(NULL);
	ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

/* The state letter of /proc/PID/stat. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return '?';
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return '?';
	}
	fclose(f);
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

static int wait_child(pid_t pid, int *status, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, WNOHANG);
		if (ret == pid)
			return 0;
		if (ret < 0)
			return -errno;
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(10000);	/* the pace of a look with a deadline */
	}
}

TEST_F_TIMEOUT(life, sigkill_during_sync_resolve_ends_the_process, 90)
{
	char name[128];
	int status, ret;
	long c0;
	pid_t pid;

	life_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	rai_unique_name(name, sizeof(name), "kill");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct rdma_addrinfo_resolve r;
		int fd = rai_dev_open(0);

		if (fd < 0)
			_exit(2);
		rai_resolve_sync_str(fd, name, NULL, AF_UNSPEC, 0, &r);
		_exit(3);	/* must not get here: killed in the wait */
	}
	ret = rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS);
	if (ret) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	ASSERT_EQ(0, ret) TH_LOG("the request never reached its upcall");
	ret = rai_task_wait_asleep(&pid, 30000);
	if (ret) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	ASSERT_EQ(0, ret) TH_LOG("the synchronous RESOLVE never slept");
	ASSERT_EQ(0, waitpid(pid, &status, WNOHANG))
		TH_LOG("the synchronous RESOLVE returned while its upcall hangs");
	/* Interruptible wait, not D state. */
	EXPECT_EQ('S', proc_state(pid));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ret = wait_child(pid, &status, 15000);
	EXPECT_EQ(0, ret) TH_LOG("killed process still there after 15 s");
	if (ret) {
		rai_upcall_hold(false);
		waitpid(pid, &status, 0);
	}
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	rai_upcall_hold(false);
	/* The device is fine for everybody else. */
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

struct poke {
	pthread_t target;
	pid_t tid;		/* the target's */
	long count;
	int late;		/* it never slept: signalled anyway */
};

/* Once the upcall runs and the target sleeps in its RESOLVE, SIGUSR1. */
static void *poke_when_upcalled(void *arg)
{
	struct poke *p = arg;

	if (rai_upcall_wait_count(p->count, RAI_UPCALL_START_MS))
		return NULL;
	p->late = rai_task_wait_asleep(&p->tid, 30000);
	pthread_kill(p->target, SIGUSR1);
	return NULL;
}

TEST_F_TIMEOUT(life, signal_interrupts_sync_resolve_eintr_request_gone, 90)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_event ev;
	struct poke poke = { 0 };
	pthread_t thr;
	char name[128];
	int ret;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	life_install_upcall_counter(_metadata, self);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	poke.target = pthread_self();
	poke.tid = gettid();
	poke.count = rai_upcall_count() + 1;
	ASSERT_EQ(0, rai_upcall_hold(true));
	ASSERT_EQ(0, pthread_create(&thr, NULL, poke_when_upcalled, &poke));
	ret = rai_resolve_sync_str(self->fd,
				   rai_unique_name(name, sizeof(name), "intr"),
				   NULL, AF_UNSPEC, 0, &r);
	pthread_join(thr, NULL);
	rai_upcall_hold(false);
	EXPECT_EQ(0, poke.late) TH_LOG("the RESOLVE never slept");
	EXPECT_EQ(1, got_usr1);
	ASSERT_EQ(-EINTR, ret);
	/* The request is gone, and it never produces an event. */
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(0, info.requests);
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 4000));
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

struct destroyer {
	int fd;
	pid_t tid;		/* the thread in the synchronous RESOLVE */
	long count;
	__u32 destroyed;
	int late;		/* it never slept: destroyed anyway */
};

/*
 * Once the upcall runs and the RESOLVE sleeps in its wait, destroy
 * whatever small handle the file holds.
 */
static void *destroy_small_handles(void *arg)
{
	struct destroyer *d = arg;
	__u32 h;

	if (rai_upcall_wait_count(d->count, RAI_UPCALL_START_MS))
		return NULL;
	d->late = rai_task_wait_asleep(&d->tid, 30000);
	for (h = 1; h <= 1024 && !d->destroyed; h++)
		if (!rai_destroy(d->fd, h, NULL))
			d->destroyed = h;
	return NULL;
}

TEST_F_TIMEOUT(life, sync_resolve_of_destroyed_handle_enoent, 90)
{
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_event ev;
	struct destroyer d = { 0 };
	pthread_t thr;
	char name[128];
	int ret;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	life_install_upcall_counter(_metadata, self);
	d.fd = self->fd;
	d.tid = gettid();
	d.count = rai_upcall_count() + 1;
	d.destroyed = 0;
	ASSERT_EQ(0, rai_upcall_hold(true));
	ASSERT_EQ(0, pthread_create(&thr, NULL, destroy_small_handles, &d));
	ret = rai_resolve_sync_str(self->fd,
				   rai_unique_name(name, sizeof(name), "gone"),
				   NULL, AF_UNSPEC, 0, &r);
	rai_upcall_hold(false);
	pthread_join(thr, NULL);
	EXPECT_EQ(0, d.late) TH_LOG("the RESOLVE never slept");
	ASSERT_NE(0, d.destroyed) TH_LOG("no small handle to destroy");
	EXPECT_EQ(-ENOENT, ret);
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(0, info.requests);
	EXPECT_EQ(-ETIMEDOUT, rai_wait_event(self->fd, &ev, 3000));
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

/* Handles issued by @n asynchronous numeric RESOLVEs, each destroyed at once. */
static void issue_and_destroy(struct __test_metadata *_metadata, int fd,
			      __u32 *handles, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, rai_resolve_async(fd, "192.0.2.7", NULL, AF_INET,
					       RDMA_ADDRINFO_RAI_NUMERICHOST, i,
					       &handles[i]));
		ASSERT_NE(0, handles[i]);
		if (i)
			ASSERT_LT(handles[i - 1], handles[i])
				TH_LOG("handles go up until the space wraps");
		ASSERT_EQ(0, rai_destroy(fd, handles[i], NULL));
	}
}

/*
 * Every handle value that was not given out, between and beyond those
 * that were (the table keeps indices of its own reserved), is unknown to
 * QUERY and DESTROY, and a hostile DESTROY of all of them changes nothing
 * for the requests made afterwards.
 */
TEST_F(life, handles_never_issued_are_unknown_and_harmless)
{
	enum { N = 200 };
	__u32 first[N], later[N], h, top;
	struct rdma_addrinfo_query q;
	struct rdma_addrinfo_event ev;
	int i, j = 0;

	self->fd = rai_dev_open(0);
	ASSERT_LE(0, self->fd);
	issue_and_destroy(_metadata, self->fd, first, N);
	top = first[N - 1] + 256;
	for (h = 1; h <= top; h++) {
		if (j < N && h == first[j]) {
			j++;
			continue;
		}
		memset(&q, 0, sizeof(q));
		q.handle = h;
		q.result_size = sizeof(struct rdma_addrinfo_result);
		ASSERT_EQ(-ENOENT, rai_query(self->fd, &q)) TH_LOG("handle %u", h);
		ASSERT_EQ(-ENOENT, rai_destroy(self->fd, h, NULL))
			TH_LOG("handle %u", h);
	}
	for (h = 1; h <= top; h++)
		ASSERT_EQ(-ENOENT, rai_destroy(self->fd, h, NULL));

	issue_and_destroy(_metadata, self->fd, later, N);
	EXPECT_LT(first[N - 1], later[0]) TH_LOG("a destroyed handle came back");
	/* And a request still completes with its event. */
	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.7", NULL, AF_INET,
				       RDMA_ADDRINFO_RAI_NUMERICHOST, 7, &h));
	EXPECT_LT(later[N - 1], h);
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 5000));
	EXPECT_EQ(h, ev.handle);
	EXPECT_EQ(0, ev.status);
	EXPECT_EQ(0, rai_destroy(self->fd, h, NULL));
	for (i = 0; i < N; i++)
		EXPECT_EQ(-ENOENT, rai_destroy(self->fd, later[i], NULL));
}

TEST_F(life, two_fds_isolated)
{
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_query q;
	struct rdma_addrinfo_event ev;
	__u32 ha;
	int fdb;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	fdb = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, fdb);
	ASSERT_EQ(0, rai_resolve_sync_str(self->fd, "192.0.2.9", NULL, AF_INET,
					  0, &r));
	ASSERT_EQ(0, r.status);
	/* A's handle is unknown to B. */
	memset(&q, 0, sizeof(q));
	q.handle = r.handle;
	q.result_size = sizeof(struct rdma_addrinfo_result);
	EXPECT_EQ(-ENOENT, rai_query(fdb, &q));
	EXPECT_EQ(-ENOENT, rai_destroy(fdb, r.handle, NULL));
	/* ... and still A's. */
	EXPECT_EQ(0, rai_query(self->fd, &q));
	EXPECT_EQ(1, q.total);
	/* A's events stay on A. */
	ASSERT_EQ(0, rai_resolve_async(self->fd, "192.0.2.8", NULL, AF_INET, 0,
				       0xa, &ha));
	ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 5000));
	EXPECT_EQ(0xa, ev.context);
	EXPECT_FALSE(rai_readable(fdb));
	EXPECT_EQ(-EAGAIN, rai_dev_get_event(fdb, &ev));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(2, info.requests);
	ASSERT_EQ(0, rai_get_info(fdb, &info));
	EXPECT_EQ(0, info.requests);
	/* B's own request works and leaves A's alone. */
	EXPECT_EQ(0, rai_fd_works(fdb));
	EXPECT_EQ(0, rai_destroy(self->fd, r.handle, NULL));
	EXPECT_EQ(0, rai_destroy(self->fd, ha, NULL));
	close(fdb);
}

TEST_F_TIMEOUT(life, rmmod_refused_while_fd_open_fine_after, 60)
{
	int ret;

	if (!rai_module_loaded())
		SKIP(return, "module not loaded by the runner");
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ret = rai_module_unload();
	if (!ret)
		self->unloaded = true;
	/* delete_module(O_NONBLOCK) on a module in use: EWOULDBLOCK. */
	ASSERT_NE(0, ret) TH_LOG("module unloaded under an open fd");
	EXPECT_TRUE(ret == -EAGAIN || ret == -EBUSY) TH_LOG("errno %d", -ret);
	EXPECT_TRUE(rai_module_loaded());
	EXPECT_EQ(0, rai_fd_works(self->fd));
	close(self->fd);
	self->fd = -1;
	ret = rai_module_unload_within(10000);
	if (!ret)
		self->unloaded = true;
	ASSERT_EQ(0, ret) TH_LOG("unload after close: %s", strerror(-ret));
	EXPECT_FALSE(rai_module_loaded());
	EXPECT_NE(0, access(RAI_DEV_PATH, F_OK));
	ret = rai_module_load(NULL);
	ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

/*
 * Source selection happens in the network namespace of the file's opener:
 * a file opened in a fresh namespace sees no route to the peer; a file
 * opened before the switch keeps the original namespace.
 */
TEST_F(life, requests_use_the_openers_network_namespace)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct rdma_addrinfo_result *res;
		int before, after, ret = 0;
		__s32 st;
		__u32 n;

		before = rai_dev_open(0);
		if (before < 0 || unshare(CLONE_NEWNET))
			_exit(10);
		rai_sh("ip link set lo up");
		after = rai_dev_open(0);
		if (after < 0)
			_exit(11);
		/* Opened in the new namespace: no route to the peer. */
		if (rai_lookup_str(after, RAI_IP4_B, NULL, AF_INET, 0,
				   &res, &n, &st) || st || n != 1)
			_exit(12);
		if (res[0].src_len || res[0].src_status != -ENETUNREACH)
			ret = 13;
		free(res);
		if (ret)
			_exit(ret);
		/* Opened before: the original namespace, rxe0. */
		if (rai_lookup_str(before, RAI_IP4_B, NULL, AF_INET, 0,
				   &res, &n, &st) || st || n != 1)
			_exit(14);
		if (!res[0].src_len || strcmp(res[0].ibdev_name, RAI_IBDEV_A))
			ret = 15;
		free(res);
		_exit(ret);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("step %d: 10 setup, 11 open in new netns, 12/14 lookup, 13 new netns saw a source, 15 old fd lost its namespace",
		       WEXITSTATUS(status));
}

/*
 * An upcall that does not return (a request-key helper that sleeps) holds
 * the module: rmmod fails at once instead of waiting for it forever, and
 * succeeds once the upcall is over.
 */
TEST_F_TIMEOUT(life, rmmod_refused_while_upcall_hangs, 120)
{
	char name[128];
	int status, ret;
	long c0;
	pid_t pid;

	if (!rai_module_loaded())
		SKIP(return, "module not loaded by the runner");
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	life_install_upcall_counter(_metadata, self);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, rai_upcall_hold(true));
	ASSERT_EQ(0, rai_resolve_async(self->fd,
				       rai_unique_name(name, sizeof(name),
						       "rmmod"),
				       NULL, AF_UNSPEC, 0, 1, NULL));
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + 1, RAI_UPCALL_START_MS));
	/* No file is open any more: only the upcall is left. */
	close(self->fd);
	self->fd = -1;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(-rai_module_unload());
	ret = wait_child(pid, &status, 5000);
	if (ret) {
		/* It waits for the upcall: end it, or it waits forever. */
		rai_upcall_hold(false);
		waitpid(pid, &status, 0);
		self->unloaded = true;
	}
	ASSERT_EQ(0, ret) TH_LOG("rmmod still waiting for the upcall after 5 s");
	ASSERT_TRUE(WIFEXITED(status));
	if (!WEXITSTATUS(status))
		self->unloaded = true;
	EXPECT_TRUE(WEXITSTATUS(status) == EAGAIN ||
		    WEXITSTATUS(status) == EBUSY)
		TH_LOG("rmmod: %s", strerror(WEXITSTATUS(status)));
	EXPECT_TRUE(rai_module_loaded());

	/* The upcall ends: the module goes. */
	rai_upcall_hold(false);
	ret = rai_module_unload_within(30000);
	if (!ret)
		self->unloaded = true;
	ASSERT_EQ(0, ret) TH_LOG("unload after the upcall: %s", strerror(-ret));
	ret = rai_module_load(NULL);
	ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, rai_fd_works(self->fd));
}

TEST_HARNESS_MAIN
