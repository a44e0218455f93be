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

/*
 * Run the worker tests-vm/@name with @argv (NULL-ended, argv[0] left for
 * the path), preloaded with the library or not, on the librdmacm of the
 * build directory's @libdir (NULL: the system's); its stdout in @out.
 * Return: its exit status, 128 + the signal that killed it, or -1.
 */
static int fds_spawn(const char *name, char **argv, const char *libdir,
		     int preload, char *out, size_t size)
{
	char worker[PATH_MAX + 80], lib[PATH_MAX + 32], dir[PATH_MAX + 32];
	char rel[48];
	int pipefd[2], status;
	ssize_t len = 0, k;
	pid_t pid;

	out[0] = '\0';
	snprintf(rel, sizeof(rel), "tests-vm/%s", name);
	if (!rai_build_path(worker, sizeof(worker), rel) ||
	    !rai_build_path(lib, sizeof(lib), RAI_LIBRARY) ||
	    (libdir && !rai_build_path(dir, sizeof(dir), libdir)) ||
	    pipe(pipefd))
		return -1;
	argv[0] = worker;
	pid = fork();
	if (!pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		if (libdir)
			setenv("LD_LIBRARY_PATH", dir, 1);
		if (preload)
			setenv("LD_PRELOAD", lib, 1);
		else if (!fds_under_valgrind())
			unsetenv("LD_PRELOAD");
		execv(worker, argv);
		_exit(127);
	}
	close(pipefd[1]);
	while ((k = read(pipefd[0], out + len, size - 1 - len)) > 0)
		len += k;
	close(pipefd[0]);
	out[len] = '\0';
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

/* fds_worker for @n connections within @seconds, preloaded or not. */
static int fds_run_worker(struct fds_run *r, int n, int seconds, int preload)
{
	char args[2][16], port[16], out[256];
	char *argv[] = { NULL, args[0], args[1], port, NULL };
	int ret;

	snprintf(args[0], sizeof(args[0]), "%d", n);
	snprintf(args[1], sizeof(args[1]), "%d", seconds);
	snprintf(port, sizeof(port), "%d", 20000 + (getpid() + preload) % 20000);
	ret = fds_spawn("fds_worker", argv, NULL, preload, out, sizeof(out));
	memset(r, 0, sizeof(*r));
	if (sscanf(out, "connections %d open fds %d module %d eventfd %d\n"
		   "after destroy fds %d module %d eventfd %d",
		   &r->connections, &r->open.all, &r->open.module,
		   &r->open.eventfd, &r->after.all, &r->after.module,
		   &r->after.eventfd) != 7)
		r->after.all = -1;
	return ret;
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

/*
 * A librdmacm linked with -Bsymbolic-functions, as Ubuntu links it (issue
 * 26 item 9), keeps its calls of its own functions to itself: the
 * rdma_destroy_id() of rdma_destroy_ep() and the
 * rdma_destroy_event_channel() that frees a synchronous id's private
 * channel never reach the library's wrappers.  symbolic_worker makes such
 * ids and destroys them, and an id at the address of one destroyed so;
 * it runs on the copy of librdmacm that the build marks DF_SYMBOLIC
 * (user/tests/symbolic/df_symbolic.c), plain and preloaded, and preloaded
 * on the normal librdmacm: no descriptor more after its cycles than
 * before them, a synchronous id's module fd closed as the id goes (one
 * freed past the library: when librdmacm makes the next id or channel at
 * its address), and every request of an id with a channel ends in its
 * event, whichever librdmacm.
 */
/* The ids made until one was at a freed id's address, after @after. */
struct fds_reuse {
	int tries, reused, event;
};

static void fds_scan_reuse(struct fds_reuse *r, const char *out,
			   const char *after)
{
	char key[32];
	const char *p;

	r->event = -1;
	snprintf(key, sizeof(key), "reuse %s tries", after);
	p = strstr(out, key);
	if (p)
		sscanf(p + strlen(key), "%d reused %d event %d", &r->tries,
		       &r->reused, &r->event);
}

struct fds_symbolic {
	int exit, symbolic;
	struct fds_reuse ep, bypass;
	int before, after, module, eventfd;
	int left[4];	/* the module's fds after ep, bypass, sync, migrate */
	char out[768];
};

/* symbolic_worker on the librdmacm of @libdir (NULL: the system's). */
static void fds_run_symbolic(struct fds_symbolic *r, const char *libdir,
			     int preload)
{
	char *argv[] = { NULL, NULL };
	const char *p;

	memset(r, 0, sizeof(*r));
	r->before = r->after = -1;
	r->exit = fds_spawn("symbolic_worker", argv, libdir, preload, r->out,
			    sizeof(r->out));
	sscanf(r->out, "symbolic %d", &r->symbolic);
	fds_scan_reuse(&r->ep, r->out, "ep");
	fds_scan_reuse(&r->bypass, r->out, "bypass");
	p = strstr(r->out, "fds ");
	if (p)
		sscanf(p, "fds before %d after %d module %d eventfd %d",
		       &r->before, &r->after, &r->module, &r->eventfd);
	memset(r->left, -1, sizeof(r->left));
	p = strstr(r->out, "module fds left ");
	if (p)
		sscanf(p, "module fds left by ep %d bypass %d sync %d migrate %d",
		       &r->left[0], &r->left[1], &r->left[2], &r->left[3]);
}

static void fds_log_symbolic(struct __test_metadata *_metadata,
			     const char *who, const struct fds_symbolic *r)
{
	TH_LOG("%s: exit %d symbolic %d; fds before %d after %d (module %d, eventfd %d; module's left by ep %d bypass %d sync %d migrate %d); id at a freed address after ep %d/%d (event %d), bypass %d/%d (event %d)",
	       who, r->exit, r->symbolic, r->before, r->after, r->module,
	       r->eventfd, r->left[0], r->left[1], r->left[2], r->left[3],
	       r->ep.reused, r->ep.tries, r->ep.event, r->bypass.reused,
	       r->bypass.tries, r->bypass.event);
	if (r->exit)
		TH_LOG("%s said: %s", who, r->out);
}

#define FDS_SYMBOLIC_DIR	"tests-vm/librdmacm-symbolic"

/* The library's run @r: as many fds after its cycles as before. */
static void fds_expect_symbolic(struct __test_metadata *_metadata,
				const struct fds_symbolic *r, int symbolic)
{
	EXPECT_EQ(0, r->exit);
	EXPECT_EQ(symbolic, r->symbolic);
	EXPECT_EQ(1, r->ep.reused);
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, r->ep.event);
	EXPECT_EQ(1, r->bypass.reused);
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, r->bypass.event);
	EXPECT_LE(0, r->before);
	EXPECT_EQ(r->before, r->after);
	EXPECT_EQ(0, r->module);
	EXPECT_EQ(0, r->eventfd);
	/* Closed as the id goes, but for a bypass's last id (lazily). */
	EXPECT_EQ(0, r->left[0]);
	EXPECT_GE(1, r->left[1]);
	EXPECT_LE(0, r->left[1]);
	EXPECT_EQ(0, r->left[2]);
	EXPECT_EQ(0, r->left[3]);
}

FIXTURE(symbolic) {
	int unused;
};

FIXTURE_SETUP(symbolic)
{
	if (access(RAI_DEVICE, F_OK))
		SKIP(return, "the module is not loaded");
	/*
	 * valgrind's allocator does not give a freed block out again at
	 * once: no id is made at a freed one's address (nor would the
	 * library then drop what it knew of one freed past it).
	 */
	if (fds_under_valgrind())
		SKIP(return, "no address is reused under valgrind");
}

FIXTURE_TEARDOWN(symbolic)
{
}

/* A hung symbolic_worker ends itself after 20 s (HANG_S): 3 runs fit. */
TEST_F_TIMEOUT(symbolic, librdmacm_leaves_no_fd_and_no_stale_id, 90)
{
	struct fds_symbolic plain, ours, normal;

	RAI_RETURN_IF_SKIPPED();
	fds_run_symbolic(&plain, FDS_SYMBOLIC_DIR, 0);
	fds_log_symbolic(_metadata, "librdmacm -Bsymbolic          ", &plain);
	ASSERT_EQ(0, plain.exit);
	ASSERT_EQ(1, plain.symbolic);
	ASSERT_LE(0, plain.before);
	EXPECT_EQ(plain.before, plain.after);

	fds_run_symbolic(&ours, FDS_SYMBOLIC_DIR, 1);
	fds_log_symbolic(_metadata, "library, librdmacm -Bsymbolic ", &ours);
	fds_expect_symbolic(_metadata, &ours, 1);

	fds_run_symbolic(&normal, NULL, 1);
	fds_log_symbolic(_metadata, "library, librdmacm            ", &normal);
	fds_expect_symbolic(_metadata, &normal, 0);
}

TEST_HARNESS_MAIN
