// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * File descriptors (issue 26 item 1): a server that has accepted many
 * connections has as many open with the library as with librdmacm alone,
 * with the module loaded and without it.  The library used to give every
 * channel that rdma_get_cm_event() was ever called on an eventfd, and
 * librdmacm calls it on the private channel of every synchronous id: a
 * server near RLIMIT_NOFILE ran out at about half its connections.
 *
 * fds_worker (linked with librdmacm only) connects and accepts up to 1000
 * connections in one process and counts /proc/self/fd; it runs plain
 * first, for as many connections as RUN_S allows (at least MIN_UP), then
 * preloaded with the library for as many, and both counts must be equal,
 * but for the one fd of the module's that rdma_getaddrinfo() keeps for
 * the process (getaddrinfo.c), which the worker counts apart: with the
 * module at most that one, without it none; no eventfd at all.
 */
#include <signal.h>

#include "kselftest_harness.h"
#include "vm_test.h"
#include "as_librdmacm.h"

#define CONNECTIONS	1000
#define RUN_S		150
/* Under valgrind (the suite's @valgrind run traces the worker) fewer. */
#define MIN_UP		300
#define MIN_UP_VALGRIND	20

/* What /proc/self/fd held: all, the module's device file, eventfds. */
struct fds_seen {
	int all, module, eventfd;
};

/* What one run of the worker said, connections up and after destroy. */
struct fds_run {
	int connections;
	struct fds_seen open, after;
};

/* Whether this program runs under valgrind (its preload is in the env). */
static int fds_under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

/* fds_worker for @n connections within @seconds, preloaded or not. */
static int fds_run_worker(struct fds_run *r, int n, int seconds, int preload)
{
	char worker[PATH_MAX + 32], lib[PATH_MAX + 32], out[256];
	char args[2][16], port[16];
	int pipefd[2], status;
	ssize_t len = 0, k;
	pid_t pid;

	if (!rai_build_path(worker, sizeof(worker), "tests-vm/fds_worker") ||
	    !rai_build_path(lib, sizeof(lib), RAI_LIBRARY) || pipe(pipefd))
		return -1;
	snprintf(args[0], sizeof(args[0]), "%d", n);
	snprintf(args[1], sizeof(args[1]), "%d", seconds);
	snprintf(port, sizeof(port), "%d", 20000 + (getpid() + preload) % 20000);
	pid = fork();
	if (!pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		if (preload)
			setenv("LD_PRELOAD", lib, 1);
		else if (!fds_under_valgrind())
			unsetenv("LD_PRELOAD");
		execl(worker, worker, args[0], args[1], port, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while ((k = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += k;
	close(pipefd[0]);
	out[len] = '\0';
	waitpid(pid, &status, 0);
	memset(r, 0, sizeof(*r));
	if (sscanf(out, "connections %d open fds %d module %d eventfd %d\n"
		   "after destroy fds %d module %d eventfd %d",
		   &r->connections, &r->open.all, &r->open.module,
		   &r->open.eventfd, &r->after.all, &r->after.module,
		   &r->after.eventfd) != 7)
		r->after.all = -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void fds_log(struct __test_metadata *_metadata, const char *who,
		    const struct fds_run *r, int ret)
{
	TH_LOG("%s: %d connections: %d fds (module %d, eventfd %d); after destroy %d (%d, %d); exit %d",
	       who, r->connections, r->open.all, r->open.module,
	       r->open.eventfd, r->after.all, r->after.module,
	       r->after.eventfd, ret);
}

/* @ours has what @plain has, and at most @module fds of the module. */
static void fds_expect_same(struct __test_metadata *_metadata,
			    const struct fds_seen *plain,
			    const struct fds_seen *ours, int module)
{
	EXPECT_EQ(0, plain->module);
	EXPECT_EQ(plain->eventfd, ours->eventfd);
	EXPECT_GE(module, ours->module);
	EXPECT_EQ(plain->all, ours->all - ours->module);
}

/* librdmacm's counts, then the library's for as many connections. */
static void fds_as_librdmacm(struct __test_metadata *_metadata, int module)
{
	int min = fds_under_valgrind() ? MIN_UP_VALGRIND : MIN_UP;
	struct fds_run plain, ours;
	int ret;

	ret = fds_run_worker(&plain, CONNECTIONS, RUN_S, 0);
	fds_log(_metadata, "librdmacm", &plain, ret);
	ASSERT_EQ(0, ret);
	ASSERT_LE(min, plain.connections);
	ASSERT_LE(0, plain.after.all);
	ret = fds_run_worker(&ours, plain.connections, 0, 1);
	fds_log(_metadata, "library  ", &ours, ret);
	EXPECT_EQ(0, ret);
	ASSERT_EQ(plain.connections, ours.connections);
	ASSERT_LE(0, ours.after.all);
	fds_expect_same(_metadata, &plain.open, &ours.open, module);
	fds_expect_same(_metadata, &plain.after, &ours.after, module);
}

FIXTURE(fds) {
	int reload;
};

FIXTURE_VARIANT(fds) {
	int module;
};

FIXTURE_VARIANT_ADD(fds, with_module) {
	.module = 1,
};

FIXTURE_VARIANT_ADD(fds, without_module) {
	.module = 0,
};

FIXTURE_SETUP(fds)
{
	if (variant->module) {
		if (access(RAI_DEVICE, F_OK))
			SKIP(return, "the module is not loaded");
		return;
	}
	if (!access(RAI_DEVICE, F_OK))
		self->reload = !rai_module_set_loaded(0);
	if (!access(RAI_DEVICE, F_OK))
		SKIP(return, "the module could not be unloaded");
}

FIXTURE_TEARDOWN(fds)
{
	if (self->reload)
		rai_module_set_loaded(1);
}

TEST_F_TIMEOUT(fds, after_accepted_connections_as_many_as_librdmacm, 600)
{
	RAI_RETURN_IF_SKIPPED();

	fds_as_librdmacm(_metadata, variant->module);
}

TEST_HARNESS_MAIN
