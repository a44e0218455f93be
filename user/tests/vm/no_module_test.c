// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Without the rdma_addrinfo module the library is librdmacm: every call
 * returns what librdmacm's own returns, one syslog line (never stderr)
 * says that names are resolved in user space, and rdma_resolve_addrinfo /
 * rdma_query_addrinfo are librdmacm's where it has them (rdma-core 60+).
 * RDMA_ADDRINFO_REQUIRE_MODULE=1 makes the calls fail with ENODEV instead,
 * said once on stderr.
 *
 * The module is unloaded for each test and loaded again afterwards; where
 * it cannot be (the forky root has no rmmod) the tests run only if it is
 * absent already (make check's 7.3 phase unloads it for them).
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define RAI_DEVICE "/dev/infiniband/rdma_addrinfo"

/* The module at the repository root, with the runner's parameters. */
static int load_module(int load)
{
	char ko[PATH_MAX + 32], cmd[PATH_MAX + 96];

	if (!load)
		return system("rmmod rdma_addrinfo 2>/dev/null");
	/* The runner names the module built for the booted kernel. */
	if (getenv("RAI_KO") && *getenv("RAI_KO"))
		snprintf(ko, sizeof(ko), "%s", getenv("RAI_KO"));
	else if (!rai_repo_path(ko, sizeof(ko), "rdma_addrinfo.ko"))
		return -1;
	snprintf(cmd, sizeof(cmd), "insmod '%s' ${RAI_MODULE_PARAMS:-}", ko);
	return system(cmd);
}

FIXTURE(no_module) {
	int reload;
};

FIXTURE_SETUP(no_module)
{
	unsetenv("RDMA_ADDRINFO_REQUIRE_MODULE");
	if (!access(RAI_DEVICE, F_OK))
		self->reload = !load_module(0);
	if (!access(RAI_DEVICE, F_OK))
		SKIP(return, "the module could not be unloaded");
}

FIXTURE_TEARDOWN(no_module)
{
	if (self->reload)
		load_module(1);
}

typedef int (*rai_getaddrinfo_fn)(const char *node, const char *service,
				  const struct rdma_addrinfo *hints,
				  struct rdma_addrinfo **res);

/* librdmacm's own call @name at @ver, or NULL. */
static void *librdmacm_call(const char *name, const char *ver)
{
	void *lib = dlopen("librdmacm.so.1", RTLD_LAZY);

	return lib ? dlvsym(lib, name, ver) : NULL;
}

static int addr_equal(const struct sockaddr *a, socklen_t alen,
		      const struct sockaddr *b, socklen_t blen)
{
	if (!a || !b)
		return a == b && alen == blen;
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * rdma_getaddrinfo() and librdmacm's with the same arguments: the same
 * return value and the same results, field by field.
 */
static void same_as_librdmacm(struct __test_metadata *_metadata,
			      const char *node, const char *service,
			      const struct rdma_addrinfo *hints)
{
	rai_getaddrinfo_fn theirs = librdmacm_call("rdma_getaddrinfo",
						   "RDMACM_1.0");
	struct rdma_addrinfo *a = NULL, *b = NULL, *x, *y;
	int ra, rb;

	ASSERT_NE(NULL, theirs);
	ra = rdma_getaddrinfo(node, service, hints, &a);
	rb = theirs(node, service, hints, &b);
	TH_LOG("%s %s: library %d, librdmacm %d", node ? node : "(null)",
	       service ? service : "(null)", ra, rb);
	ASSERT_EQ(rb, ra);
	for (x = a, y = b; x && y; x = x->ai_next, y = y->ai_next) {
		EXPECT_EQ(y->ai_flags, x->ai_flags);
		EXPECT_EQ(y->ai_family, x->ai_family);
		EXPECT_EQ(y->ai_qp_type, x->ai_qp_type);
		EXPECT_EQ(y->ai_port_space, x->ai_port_space);
		EXPECT_TRUE(addr_equal(x->ai_src_addr, x->ai_src_len,
				       y->ai_src_addr, y->ai_src_len));
		EXPECT_TRUE(addr_equal(x->ai_dst_addr, x->ai_dst_len,
				       y->ai_dst_addr, y->ai_dst_len));
		EXPECT_EQ(!!y->ai_route, !!x->ai_route);
		EXPECT_EQ(!!y->ai_connect, !!x->ai_connect);
	}
	EXPECT_EQ(NULL, x);
	EXPECT_EQ(NULL, y);
	if (!ra)
		rdma_freeaddrinfo(a);
	if (!rb)
		rdma_freeaddrinfo(b);
}

TEST_F(no_module, getaddrinfo_returns_what_librdmacm_returns)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct rdma_addrinfo hints;

	RAI_RETURN_IF_SKIPPED();

	same_as_librdmacm(_metadata, RAI_IP4_B, "4791", NULL);
	same_as_librdmacm(_metadata, RAI_HOSTS_NAME, "7471", NULL);
	same_as_librdmacm(_metadata, "no-such-name.invalid", NULL, NULL);

	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = RAI_PASSIVE;
	hints.ai_port_space = RDMA_PS_TCP;
	same_as_librdmacm(_metadata, RAI_IP4_A, "7471", &hints);
	same_as_librdmacm(_metadata, NULL, "7471", &hints);

	/* What the module path checks more strictly. */
	memset(&hints, 0, sizeof(hints));
	hints.ai_qp_type = 9;			/* IBV_QPT_XRC_SEND */
	hints.ai_port_space = RDMA_PS_IB;
	same_as_librdmacm(_metadata, RAI_IP4_B, "7471", &hints);
	memset(&hints, 0, sizeof(hints));
	inet_pton(AF_INET, RAI_IP4_B, &dst.sin_addr);
	hints.ai_dst_addr = (struct sockaddr *)&dst;
	hints.ai_dst_len = sizeof(dst);
	same_as_librdmacm(_metadata, NULL, NULL, &hints);
}

/*
 * In a child: syslog(3) goes to a socket of the test (bound over /dev/log
 * in a mount namespace of its own), stderr to a pipe; @fn runs, and the
 * messages and stderr naming the library are counted.
 */
struct said {
	int syslog_lines;	/* syslog messages saying "user space" */
	int stderr_lines;	/* stderr lines naming the library */
};


static int capture_log_socket(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	/* In a chroot "/" is no mount point (EINVAL): forky-root's own. */
	if (unshare(CLONE_NEWNS) ||
	    (mount(NULL, "/", "none", MS_REC | MS_PRIVATE, NULL) &&
	     errno != EINVAL))
		return -1;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "/run/rai-log-%d",
		 getpid());
	unlink(sun.sun_path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)))
		return -1;
	if (access("/dev/log", F_OK))
		close(open("/dev/log", O_WRONLY | O_CREAT, 0666));
	if (mount(sun.sun_path, "/dev/log", "none", MS_BIND, NULL))
		return -1;
	return fd;
}

static int count_lines(const char *buf, const char *what)
{
	const char *p;
	int n = 0;

	for (p = buf; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* Messages on the socket that say "user space"; the child's exit status. */
static int syslog_user_space_lines(int log)
{
	char msg[1024];
	ssize_t n;
	int lines = 0;

	while ((n = recv(log, msg, sizeof(msg) - 1, MSG_DONTWAIT)) > 0) {
		msg[n] = '\0';
		lines += strstr(msg, "librdma_addrinfo") &&
			 strstr(msg, "user space");
	}
	return lines;
}

static struct said run_and_count(void (*fn)(void))
{
	struct said said = { -1, -1 };
	int pipefd[2], status, log;
	ssize_t n, len = 0;
	char buf[4096];
	pid_t pid;

	if (pipe(pipefd))
		return said;
	pid = fork();
	if (!pid) {
		close(pipefd[0]);
		log = capture_log_socket();
		if (log < 0)
			_exit(1);
		dup2(pipefd[1], 2);
		fn();
		_exit(10 + syslog_user_space_lines(log));
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	buf[len] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status) < 10)
		return said;
	said.syslog_lines = WEXITSTATUS(status) - 10;
	said.stderr_lines = count_lines(buf, "librdma_addrinfo");
	return said;
}

static void two_calls(void)
{
	struct rdma_addrinfo *res;

	if (!rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res))
		rdma_freeaddrinfo(res);
	if (!rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res))
		rdma_freeaddrinfo(res);
}

static void two_calls_module_required(void)
{
	setenv("RDMA_ADDRINFO_REQUIRE_MODULE", "1", 1);
	two_calls();
}

TEST_F(no_module, said_once_in_syslog_and_never_on_stderr)
{
	struct said said;

	RAI_RETURN_IF_SKIPPED();

	said = run_and_count(two_calls);
	ASSERT_NE(-1, said.syslog_lines);
	EXPECT_EQ(1, said.syslog_lines);
	EXPECT_EQ(0, said.stderr_lines);
}

TEST_F(no_module, require_module_1_fails_with_enodev_said_once_on_stderr)
{
	struct rdma_addrinfo *res = NULL;
	struct said said;

	RAI_RETURN_IF_SKIPPED();

	said = run_and_count(two_calls_module_required);
	ASSERT_NE(-1, said.syslog_lines);
	EXPECT_EQ(0, said.syslog_lines);
	EXPECT_EQ(1, said.stderr_lines);

	setenv("RDMA_ADDRINFO_REQUIRE_MODULE", "1", 1);
	errno = 0;
	EXPECT_EQ(EAI_SYSTEM, rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(NULL, res);
}

/* An id on a channel, the event of one rdma_resolve_addrinfo() on it. */
static int resolve_on_id(struct __test_metadata *_metadata,
			 struct rdma_cm_event *copy, struct rdma_addrinfo **res)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	int ret, err = 0;

	ch = rdma_create_event_channel();
	if (!ch)
		return -1;
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		rdma_destroy_event_channel(ch);
		return -1;
	}
	ret = rdma_resolve_addrinfo(id, RAI_IP4_B, "4791", NULL);
	if (ret) {
		err = errno;
	} else if (!rai_wait_cm_event(ch, &ev, 10000)) {
		*copy = *ev;
		rdma_ack_cm_event(ev);
		if (rdma_query_addrinfo(id, res))
			*res = NULL;
	} else {
		TH_LOG("no event: %s", strerror(errno));
		copy->event = RDMA_CM_EVENT_CONNECT_ERROR;
	}
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	errno = err;
	return ret;
}

/*
 * librdmacm 60+ has its own rdma_resolve_addrinfo: without the module it
 * serves the call.  Older ones have none, and the call fails with ENODEV.
 */
TEST_F(no_module, resolve_addrinfo_is_librdmacm_s_own_where_it_has_one)
{
	struct rdma_addrinfo *res = NULL;
	struct rdma_cm_event ev = { 0 };
	char want[INET6_ADDRSTRLEN], got[INET6_ADDRSTRLEN] = "";

	RAI_RETURN_IF_SKIPPED();

	if (!librdmacm_call("rdma_resolve_addrinfo", "RDMACM_1.4")) {
		TH_LOG("librdmacm has no rdma_resolve_addrinfo: ENODEV");
		errno = 0;
		EXPECT_EQ(-1, resolve_on_id(_metadata, &ev, &res));
		EXPECT_EQ(ENODEV, errno);
		return;
	}
	ASSERT_EQ(0, resolve_on_id(_metadata, &ev, &res)) {
		TH_LOG("rdma_resolve_addrinfo: %s", strerror(errno));
	}
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, ev.event);
	EXPECT_EQ(0, ev.status);
	ASSERT_NE(NULL, res);
	snprintf(want, sizeof(want), "%s", RAI_IP4_B);
	rai_ntop(res->ai_dst_addr, got, sizeof(got));
	EXPECT_STREQ(want, got);
	EXPECT_EQ(4791, rai_port(res->ai_dst_addr));
	rdma_freeaddrinfo(res);
}

TEST_F(no_module, require_module_1_resolve_addrinfo_fails_with_enodev)
{
	struct rdma_addrinfo *res = NULL;
	struct rdma_cm_event ev = { 0 };

	RAI_RETURN_IF_SKIPPED();

	setenv("RDMA_ADDRINFO_REQUIRE_MODULE", "1", 1);
	errno = 0;
	EXPECT_EQ(-1, resolve_on_id(_metadata, &ev, &res));
	EXPECT_EQ(ENODEV, errno);
}

TEST_HARNESS_MAIN
