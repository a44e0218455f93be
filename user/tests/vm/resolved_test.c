// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo-resolved(8) in the VM, the program itself (the module's
 * side of RESOLVER_* has its own tests, selftests/ioctl/resolver_*_test.c):
 * started as systemd starts it (NOTIFY_SOCKET, READY=1 once registered,
 * STATUS= with the names answered; -v lines with <N> priority prefixes),
 * it answers a test-zone name, an /etc/hosts name and a missing name
 * through the tool, with no upcall and the module's resolver_* counters
 * saying it answered; a second one is refused (EBUSY) and exits 1;
 * killed, its names go to the upcall again; SIGTERM ends it with status
 * 0, and in that case the resolver runs under valgrind's memcheck
 * (started so from here; the suite runs this program natively only)
 * without a leak or a memory error.
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "rai_world.h"
#include "vm_test.h"

#define RESOLVED_DNS_CACHE	"/sys/kernel/debug/rdma_addrinfo/dns_cache"
/* Names the resolver answered (the module's count). */
#define RESOLVED_ANSWERED	"resolver_answers"
/* dns_query() calls: upcalls. */
#define RESOLVED_UPCALLS	"dns_queries"
/* Start-up under valgrind and TCG on a busy host. */
#define RESOLVED_READY_MS	120000
#define RESOLVED_EXIT_MS	120000
/* The module's deadline for a name taken, during the tests. */
#define RESOLVED_DEADLINE_MS	"120000"
/* A test: a start, a stop and lookups, the resolver under valgrind. */
#define RESOLVED_TEST_S		300

/* Forget every cached answer of the module: the next asks again. */
static int resolved_forget_names(void)
{
	FILE *f = fopen(RESOLVED_DNS_CACHE, "we");
	int ret;

	if (!f)
		return -errno;
	ret = fputs("\n", f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* The exit status valgrind gives a resolver it found an error in. */
#define RESOLVED_VG_STATUS	254
#define RESOLVED_VG_STATUS_ARG	"--error-exitcode=254"

/*
 * Start the resolver with @arg (or none), NOTIFY_SOCKET the abstract
 * socket @notify_fd is bound to (-1: none), its stderr to @err_fd (-1:
 * as ours); under valgrind's memcheck if @memcheck.  The pid, or -1.
 */
static pid_t resolved_spawn_how(const char *notify_name, const char *arg,
				int err_fd, bool memcheck)
{
	char prog[PATH_MAX + 32];
	pid_t pid;

	if (!rai_build_path(prog, sizeof(prog), "bin/rdma-addrinfo-resolved"))
		return -1;
	pid = fork();
	if (pid)
		return pid;
	if (notify_name)
		setenv("NOTIFY_SOCKET", notify_name, 1);
	else
		unsetenv("NOTIFY_SOCKET");
	if (err_fd >= 0)
		dup2(err_fd, STDERR_FILENO);
	if (memcheck)
		execlp("valgrind", "valgrind", "--quiet", "--leak-check=full",
		       "--show-leak-kinds=definite,indirect",
		       "--errors-for-leak-kinds=definite,indirect",
		       RESOLVED_VG_STATUS_ARG,
		       "--vgdb=no", prog, arg, (char *)NULL);
	else
		execl(prog, prog, arg, (char *)NULL);
	_exit(127);
}

static pid_t resolved_spawn(const char *notify_name, const char *arg,
			    int err_fd)
{
	return resolved_spawn_how(notify_name, arg, err_fd, false);
}

/* Is this process under valgrind (its preload is mapped)? */
static bool resolved_under_valgrind(void)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "vgpreload") != NULL;
	fclose(f);
	return found;
}

/* An abstract datagram socket "@rai-resolved-test-PID", named in @name. */
static int resolved_notify_socket(char *name, size_t size)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, len;

	len = snprintf(name, size, "@rai-resolved-test-%d", getpid());
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memcpy(sun.sun_path, name, len);
	sun.sun_path[0] = '\0';
	if (bind(fd, (struct sockaddr *)&sun,
		 offsetof(struct sockaddr_un, sun_path) + len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Wait for @pid to exit, up to @ms: its wait status, or -1 (still running
 * or not ours).
 */
static int resolved_wait_exit(pid_t pid, int ms)
{
	int status, waited;

	for (waited = 0; waited < ms; waited += 50) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(50 * 1000);	/* the pace of a look with a deadline */
	}
	return -1;
}

/* Is the world's resolver running (setup-world with RAI_RESOLVED=1)? */
static bool resolved_world_runs_one(void)
{
	FILE *f = fopen("/run/rai-resolved.pid", "re");
	int pid = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid > 0 && !kill(pid, 0);
}

FIXTURE(resolved) {
	int notify_fd;
	pid_t pid;
	char ready[256];
	struct rai_param_saved deadline;	/* resolver_deadline_ms */
	struct rai_param_saved timeout;		/* dns_timeout_ms */
	bool memcheck;		/* the resolver runs under valgrind */
};

FIXTURE_SETUP(resolved)
{
	struct pollfd pfd;
	char name[108];
	ssize_t n;
	int waited, status = 0;

	self->pid = -1;
	self->notify_fd = -1;
	self->deadline.saved[0] = '\0';
	self->timeout.saved[0] = '\0';
	if (resolved_world_runs_one())
		SKIP(return, "the world's resolver runs (RAI_RESOLVED=1): this test starts its own");
	/*
	 * The resolver under valgrind on TCG may take longer than the
	 * module's deadline for a name: then the upcall answers it, which
	 * these tests tell from the resolver's answer.
	 */
	ASSERT_TRUE(!rai_param_push(&self->deadline, "resolver_deadline_ms",
				    RESOLVED_DEADLINE_MS) || !self->deadline.saved[0]);
	/* Nor may the request's own time-out (20 s) end it first. */
	ASSERT_TRUE(!rai_param_push(&self->timeout, "dns_timeout_ms",
				    RESOLVED_DEADLINE_MS) || !self->timeout.saved[0]);
	self->notify_fd = resolved_notify_socket(name, sizeof(name));
	ASSERT_LE(0, self->notify_fd) TH_LOG("notify socket: %s", strerror(errno));
	/*
	 * The resolver under valgrind in one case, the last: the suite runs
	 * this program natively only (a start under valgrind takes 20-25 s
	 * on TCG; seven of them were 5.5 minutes of make check).
	 */
	self->memcheck = !strcmp(_metadata->name,
				 "sigterm_ends_it_with_status_zero") &&
			 !resolved_under_valgrind() &&
			 !system("valgrind --version >/dev/null 2>&1");
	self->pid = resolved_spawn_how(name, NULL, -1, self->memcheck);
	ASSERT_LT(0, self->pid);
	/* READY=1 comes once registered; an early exit is a failure. */
	pfd.fd = self->notify_fd;
	pfd.events = POLLIN;
	for (waited = 0; waited < RESOLVED_READY_MS; waited += 100) {
		if (poll(&pfd, 1, 100) == 1)
			break;
		if (waitpid(self->pid, &status, WNOHANG) == self->pid) {
			self->pid = -1;
			break;
		}
	}
	ASSERT_LT(0, self->pid) TH_LOG("the resolver exited (status %#x) before READY=1",
				       status);
	ASSERT_EQ(1, poll(&pfd, 1, 0)) TH_LOG("no READY=1 in %d ms", waited);
	n = recv(self->notify_fd, self->ready, sizeof(self->ready) - 1, 0);
	ASSERT_LT(0, n);
	self->ready[n] = '\0';
	TH_LOG("resolver %d ready after %d ms: %s", self->pid, waited, self->ready);
}

FIXTURE_TEARDOWN(resolved)
{
	if (self->pid > 0) {
		kill(self->pid, SIGTERM);
		if (resolved_wait_exit(self->pid, RESOLVED_EXIT_MS) < 0) {
			kill(self->pid, SIGKILL);
			waitpid(self->pid, NULL, 0);
		}
	}
	if (self->notify_fd >= 0)
		close(self->notify_fd);
	rai_param_pop(&self->deadline);
	rai_param_pop(&self->timeout);
}

/* READY=1 with the first STATUS= line: nothing answered yet. */
TEST_F_TIMEOUT(resolved, says_ready_once_registered, RESOLVED_TEST_S)
{
	static const char want[] = "READY=1\nSTATUS=registered, ";

	RAI_RETURN_IF_SKIPPED();

	EXPECT_EQ(0, strncmp(self->ready, want, sizeof(want) - 1))
		TH_LOG("%s", self->ready);
	EXPECT_NE(NULL, strstr(self->ready, " threads: 0 names answered"))
		TH_LOG("%s", self->ready);
	EXPECT_EQ(0, kill(self->pid, 0));
}

/* @args through the tool: no upcall, one more answer of the resolver. */
static void resolved_expect_answered(struct __test_metadata *_metadata,
				     const char *args, int want_status,
				     const char *want, char *out, size_t size)
{
	long long upcalls, answered;

	ASSERT_EQ(0, resolved_forget_names());
	upcalls = rai_stat(RESOLVED_UPCALLS);
	answered = rai_stat(RESOLVED_ANSWERED);
	ASSERT_LE(0, upcalls);
	ASSERT_LE(0, answered) TH_LOG("no counter %s in the module's stats",
				      RESOLVED_ANSWERED);
	EXPECT_EQ(want_status, rai_run_tool(args, out, size))
		TH_LOG("%s: %s", args, out);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s: want '%s', got: %s",
						   args, want, out);
	EXPECT_EQ(upcalls, rai_stat(RESOLVED_UPCALLS))
		TH_LOG("%s: an upcall with the resolver running", args);
	EXPECT_LT(answered, rai_stat(RESOLVED_ANSWERED))
		TH_LOG("%s: not answered by the resolver", args);
}

TEST_F_TIMEOUT(resolved, answers_a_zone_name_without_an_upcall, RESOLVED_TEST_S)
{
	char out[4096], want[128];

	RAI_RETURN_IF_SKIPPED();

	snprintf(want, sizeof(want), "inet  %s ", RAI_IP4_B);
	resolved_expect_answered(_metadata, "--family inet " RAI_ZONE_PEER4,
				 0, want, out, sizeof(out));
}

/* Its answers carry the canonical name (the module takes them). */
/*
 * Once it answered a name, its STATUS= line says so (within the
 * resolver's 2 s between updates; waited for, not slept).
 */
TEST_F_TIMEOUT(resolved, status_says_the_names_answered, RESOLVED_TEST_S)
{
	char out[4096], msg[256] = "";
	struct pollfd pfd = { .fd = self->notify_fd, .events = POLLIN };
	int waited;
	ssize_t n;

	RAI_RETURN_IF_SKIPPED();

	resolved_expect_answered(_metadata, "--family inet " RAI_ZONE_MULTI, 0,
				 "192.0.2.11", out, sizeof(out));
	for (waited = 0; waited < RESOLVED_READY_MS; waited += 100) {
		if (poll(&pfd, 1, 100) != 1)
			continue;
		n = recv(self->notify_fd, msg, sizeof(msg) - 1, 0);
		ASSERT_LT(0, n);
		msg[n] = '\0';
		if (strstr(msg, ": 1 names answered"))
			break;
	}
	EXPECT_EQ(0, strncmp(msg, "STATUS=registered, ",
			     strlen("STATUS=registered, "))) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, ": 1 names answered"))
		TH_LOG("in %d ms, last: %s", waited, msg);
}

TEST_F_TIMEOUT(resolved, answers_a_cname_with_its_canonical_name,
	       RESOLVED_TEST_S)
{
	char out[4096];

	RAI_RETURN_IF_SKIPPED();

	resolved_expect_answered(_metadata, "--noroute " RAI_ZONE_ALIAS, 0,
				 " canonname " RAI_ZONE_PEER4 "\n", out,
				 sizeof(out));
}

TEST_F_TIMEOUT(resolved, answers_an_etc_hosts_name, RESOLVED_TEST_S)
{
	char out[4096], args[256], want[128];

	RAI_RETURN_IF_SKIPPED();

	snprintf(args, sizeof(args), "--family inet %s", RAI_HOSTS_NAME);
	snprintf(want, sizeof(want), "inet  %s ", RAI_HOSTS_ADDR);
	resolved_expect_answered(_metadata, args, 0, want, out, sizeof(out));
}

/* A missing name fails as it does through the upcall: EAI_NONAME. */
TEST_F_TIMEOUT(resolved, a_missing_name_fails_as_through_the_upcall, RESOLVED_TEST_S)
{
	char out[4096], name[128], upcall_out[4096], upcall_name[128];
	const char *msg = rdma_addrinfo_strerror(EAI_NONAME);

	RAI_RETURN_IF_SKIPPED();

	rai_fresh_missing_name(name, sizeof(name));
	resolved_expect_answered(_metadata, name, 1, msg, out, sizeof(out));

	/* The same through the upcall, the resolver gone. */
	kill(self->pid, SIGTERM);
	ASSERT_LE(0, resolved_wait_exit(self->pid, RESOLVED_EXIT_MS));
	self->pid = -1;
	rai_fresh_missing_name(upcall_name, sizeof(upcall_name));
	EXPECT_EQ(1, rai_run_tool(upcall_name, upcall_out,
				       sizeof(upcall_out)));
	EXPECT_NE(NULL, strstr(upcall_out, msg)) TH_LOG("%s", upcall_out);
}

TEST_F_TIMEOUT(resolved, a_second_resolver_is_refused_busy, RESOLVED_TEST_S)
{
	char err[1024] = "";
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, pipe(fds));
	pid = resolved_spawn(NULL, "-v", fds[1]);
	close(fds[1]);
	ASSERT_LT(0, pid);
	status = resolved_wait_exit(pid, RESOLVED_EXIT_MS);
	n = read(fds[0], err, sizeof(err) - 1);
	close(fds[0]);
	if (status < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	err[n > 0 ? n : 0] = '\0';
	ASSERT_TRUE(status >= 0 && WIFEXITED(status))
		TH_LOG("the second resolver still ran: %s", err);
	EXPECT_EQ(1, WEXITSTATUS(status)) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, strerror(EBUSY))) TH_LOG("said: %s", err);
	/* stderr a pipe: each line with its priority, LOG_ERR's <3>. */
	EXPECT_TRUE(!strncmp(err, "<3>register: ", strlen("<3>register: ")) ||
		    strstr(err, "\n<3>register: ")) TH_LOG("said: %s", err);
	/* The first one still serves. */
	EXPECT_EQ(0, kill(self->pid, 0));
}

TEST_F_TIMEOUT(resolved, killed_its_names_go_to_the_upcall, RESOLVED_TEST_S)
{
	long long upcalls;
	char out[4096];
	int status;

	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(0, kill(self->pid, SIGKILL));
	ASSERT_EQ(self->pid, waitpid(self->pid, &status, 0));
	self->pid = -1;
	ASSERT_EQ(0, resolved_forget_names());
	upcalls = rai_stat(RESOLVED_UPCALLS);
	EXPECT_EQ(0, rai_run_tool("--family inet " RAI_ZONE_MULTI, out,
				       sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "192.0.2.11")) TH_LOG("%s", out);
	EXPECT_LT(upcalls, rai_stat(RESOLVED_UPCALLS))
		TH_LOG("no upcall once the resolver was killed");
}

TEST_F_TIMEOUT(resolved, sigterm_ends_it_with_status_zero, RESOLVED_TEST_S)
{
	char out[4096];
	int status;

	RAI_RETURN_IF_SKIPPED();

	/* A name through it first: its answer path runs under memcheck too. */
	ASSERT_EQ(0, resolved_forget_names());
	EXPECT_EQ(0, rai_run_tool("--family inet " RAI_ZONE_MULTI, out,
				  sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "192.0.2.11")) TH_LOG("%s", out);
	ASSERT_EQ(0, kill(self->pid, SIGTERM));
	status = resolved_wait_exit(self->pid, RESOLVED_EXIT_MS);
	self->pid = -1;
	ASSERT_LE(0, status) TH_LOG("still running");
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	/* Under valgrind, 254: a leak or a memory error in the resolver. */
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s", WEXITSTATUS(status) == RESOLVED_VG_STATUS ?
		       "valgrind found a leak or a memory error in the resolver" : "");
	TH_LOG("the resolver ran %s", self->memcheck ? "under valgrind's memcheck" :
	       "natively (no valgrind, or this test is under valgrind already)");
}

TEST_HARNESS_MAIN
