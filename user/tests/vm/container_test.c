// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A container without a resolver of its own (issue 25): a child in a new
 * user, mount and network namespace, with an /etc/hosts only it has and a
 * resolv.conf that points nowhere, asks for a name only its /etc/hosts
 * knows.  The module refuses the container's view (-EPERM, counted as
 * dns_view_refused); the library then resolves the name in the caller's
 * process, as librdmacm does, and answers what librdmacm answers in that
 * child: rdma_getaddrinfo(), rdma_resolve_addrinfo() with its one event
 * and rdma_query_addrinfo() (on a channel and on a synchronous id), a
 * name neither view has with librdmacm's error, said once in syslog.
 * Numeric literals are answered by the module as before.
 */
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "rai_world.h"
#include "vm_test.h"
#include "as_librdmacm.h"

/*
 * Each test starts a container or two, each with its own rdma_cm: under
 * valgrind on a busy TCG host one such test was seen beyond the harness's
 * 30 s.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120

#define POD_ADDR	"198.51.100.77"
#define POD_NAME	"pod-only.rai.example"
#define POD_PORT	"7471"
#define POD_HOSTS	"/run/rai-container-hosts"
#define POD_RESOLV	"/run/rai-container-resolv.conf"

/* @path holds @text.  Return: 0 or -1. */
static int container_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	if (fputs(text, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

static int container_lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = -1;

	if (s < 0)
		return -1;
	if (!ioctl(s, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		ret = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return ret;
}

/*
 * Enter a container: new user (root mapped to root), mount and network
 * namespaces, lo up, its own /etc/hosts (POD_NAME) and a resolv.conf whose
 * server does not exist.  Return: 0 or -1.
 */
static int container_enter(void)
{
	char map[32];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (container_write(POD_HOSTS, "127.0.0.1\tlocalhost\n" POD_ADDR
			    "\t" POD_NAME "\n") ||
	    container_write(POD_RESOLV, "nameserver 127.0.0.1\n"
			    "options timeout:1 attempts:1\n"))
		return -1;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET))
		return -1;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)uid);
	if (container_write("/proc/self/uid_map", map))
		return -1;
	container_write("/proc/self/setgroups", "deny\n");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)gid);
	if (container_write("/proc/self/gid_map", map))
		return -1;
	if (mount(NULL, "/", "none", MS_REC | MS_PRIVATE, NULL) &&
	    errno != EINVAL)
		return -1;
	if (mount(POD_HOSTS, "/etc/hosts", "none", MS_BIND, NULL) ||
	    mount(POD_RESOLV, "/etc/resolv.conf", "none", MS_BIND, NULL))
		return -1;
	return container_lo_up();
}

/* What a child saw: the library's and librdmacm's answers. */
struct seen {
	int setup;		/* container_enter() failed: its errno */
	int ret, err;		/* the library's return value and errno */
	int theirs;		/* librdmacm's return value */
	int count, their_count;
	int same;		/* first results equal field by field */
	char addr[INET6_ADDRSTRLEN];
	int port;
	/* rdma_resolve_addrinfo() */
	int resolve_ret, event, status, status_eai, events_after;
	int query_ret;
};

static int container_same_first(const struct rdma_addrinfo *a,
				const struct rdma_addrinfo *b)
{
	return a && b && a->ai_flags == b->ai_flags &&
	       a->ai_family == b->ai_family &&
	       a->ai_qp_type == b->ai_qp_type &&
	       a->ai_port_space == b->ai_port_space &&
	       addr_equal(a->ai_dst_addr, a->ai_dst_len, b->ai_dst_addr,
			  b->ai_dst_len) &&
	       addr_equal(a->ai_src_addr, a->ai_src_len, b->ai_src_addr,
			  b->ai_src_len);
}

static void container_note(struct seen *s, const struct rdma_addrinfo *ai)
{
	if (!ai || !ai->ai_dst_addr)
		return;
	rai_ntop(ai->ai_dst_addr, s->addr, sizeof(s->addr));
	s->port = rai_port(ai->ai_dst_addr);
}

/* rdma_getaddrinfo(@node) through the library and through librdmacm. */
static void container_getaddrinfo(struct seen *s, const char *node)
{
	rai_getaddrinfo_fn theirs = librdmacm_call("rdma_getaddrinfo",
						   "RDMACM_1.0");
	struct rdma_addrinfo *a = NULL, *b = NULL;

	errno = 0;
	s->ret = rdma_getaddrinfo(node, POD_PORT, NULL, &a);
	s->err = errno;
	s->theirs = theirs ? theirs(node, POD_PORT, NULL, &b) : -100;
	if (!s->ret) {
		s->count = rai_count(a);
		container_note(s, a);
	}
	if (!s->theirs)
		s->their_count = rai_count(b);
	s->same = !s->ret && !s->theirs && container_same_first(a, b);
	if (!s->ret)
		rdma_freeaddrinfo(a);
	if (!s->theirs)
		rdma_freeaddrinfo(b);
}

/*
 * rdma_resolve_addrinfo(@node) on an id of a channel (@sync: of no
 * channel), its event, rdma_query_addrinfo(), and whether another event
 * comes within half a second.
 */
static void container_resolve(struct seen *s, const char *node, int sync)
{
	struct rdma_event_channel *ch = NULL;
	struct rdma_addrinfo *res = NULL;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	s->event = -1;
	if (!sync) {
		ch = rdma_create_event_channel();
		if (!ch)
			return;
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
		goto out;
	s->resolve_ret = rdma_resolve_addrinfo(id, node, POD_PORT, NULL);
	if (s->resolve_ret) {
		s->err = errno;
	} else if (!sync && !rai_wait_cm_event(ch, &ev, 10000)) {
		s->event = ev->event;
		s->status = ev->status;
		s->status_eai = ev->status ?
				rdma_addrinfo_status_eai(ev->status) : 0;
		rdma_ack_cm_event(ev);
		if (!rai_wait_cm_event(ch, &ev, 500)) {
			s->events_after++;
			rdma_ack_cm_event(ev);
		}
	}
	s->query_ret = rdma_query_addrinfo(id, &res);
	if (!s->query_ret) {
		s->count = rai_count(res);
		container_note(s, res);
		rdma_freeaddrinfo(res);
	}
	rdma_destroy_id(id);
out:
	if (ch)
		rdma_destroy_event_channel(ch);
}

enum container_call { C_GETADDRINFO, C_RESOLVE, C_RESOLVE_SYNC };

/* @call for @node in a container; what it saw. */
static struct seen in_container(enum container_call call, const char *node)
{
	struct seen s = { .setup = -1 };
	int p[2], status = 0;
	pid_t pid;

	if (pipe(p))
		return s;
	pid = fork();
	if (!pid) {
		close(p[0]);
		s.setup = container_enter() ? errno : 0;
		if (!s.setup && call == C_GETADDRINFO)
			container_getaddrinfo(&s, node);
		else if (!s.setup)
			container_resolve(&s, node, call == C_RESOLVE_SYNC);
		if (write(p[1], &s, sizeof(s)) != sizeof(s))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &s, sizeof(s)) != sizeof(s))
		s.setup = -1;
	close(p[0]);
	/* Under valgrind, the child's leaks and errors are its exit status. */
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "# the container's process: status %#x\n",
			status);
		s.setup = ECHILD;
	}
	return s;
}

TEST(getaddrinfo_answers_from_the_container_s_own_view)
{
	long long r0 = rai_stat("dns_view_refused");
	struct seen s = in_container(C_GETADDRINFO, POD_NAME);

	ASSERT_EQ(0, s.setup) TH_LOG("namespaces: %s", strerror(s.setup));
	EXPECT_EQ(0, s.theirs) TH_LOG("librdmacm: %d", s.theirs);
	ASSERT_EQ(0, s.ret) {
		TH_LOG("rdma_getaddrinfo: %d (%s), errno %s", s.ret,
		       gai_strerror(s.ret), strerror(s.err));
	}
	EXPECT_STREQ(POD_ADDR, s.addr);
	EXPECT_EQ(atoi(POD_PORT), s.port);
	EXPECT_EQ(s.their_count, s.count);
	EXPECT_TRUE(s.same);
	/* The module was asked and refused the container's view. */
	if (r0 >= 0)
		EXPECT_LT(r0, rai_stat("dns_view_refused"));
}

TEST(resolve_addrinfo_event_and_query_from_the_container_s_view)
{
	long long r0 = rai_stat("dns_view_refused");
	struct seen s = in_container(C_RESOLVE, POD_NAME);

	ASSERT_EQ(0, s.setup) TH_LOG("namespaces: %s", strerror(s.setup));
	ASSERT_EQ(0, s.resolve_ret) TH_LOG("%s", strerror(s.err));
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_RESOLVED, s.event) {
		TH_LOG("event %d status %d (%s)", s.event, s.status,
		       strerror(-s.status));
	}
	EXPECT_EQ(0, s.status);
	EXPECT_EQ(0, s.events_after);
	ASSERT_EQ(0, s.query_ret);
	EXPECT_EQ(1, s.count);
	EXPECT_STREQ(POD_ADDR, s.addr);
	EXPECT_EQ(atoi(POD_PORT), s.port);
	if (r0 >= 0)
		EXPECT_LT(r0, rai_stat("dns_view_refused"));
}

TEST(resolve_addrinfo_on_a_synchronous_id_in_a_container)
{
	struct seen s = in_container(C_RESOLVE_SYNC, POD_NAME);

	ASSERT_EQ(0, s.setup) TH_LOG("namespaces: %s", strerror(s.setup));
	ASSERT_EQ(0, s.resolve_ret) TH_LOG("%s", strerror(s.err));
	ASSERT_EQ(0, s.query_ret);
	EXPECT_STREQ(POD_ADDR, s.addr);
}

/* A name neither the host nor the container knows: librdmacm's error. */
TEST(a_name_no_view_has_fails_as_in_librdmacm)
{
	const char *missing = "no-such-pod-name.invalid";
	struct seen s = in_container(C_GETADDRINFO, missing);
	struct seen r = in_container(C_RESOLVE, missing);

	ASSERT_EQ(0, s.setup) TH_LOG("namespaces: %s", strerror(s.setup));
	ASSERT_NE(0, s.theirs);
	EXPECT_EQ(s.theirs, s.ret) {
		TH_LOG("library %d (%s, errno %s), librdmacm %d (%s)", s.ret,
		       gai_strerror(s.ret), strerror(s.err), s.theirs,
		       gai_strerror(s.theirs));
	}
	ASSERT_EQ(0, r.setup);
	ASSERT_EQ(0, r.resolve_ret);
	EXPECT_EQ(RDMA_CM_EVENT_ADDRINFO_ERROR, r.event);
	EXPECT_EQ(s.theirs, r.status_eai) {
		TH_LOG("event status %d (%s) is %d, librdmacm %d", r.status,
		       strerror(-r.status), r.status_eai, s.theirs);
	}
	EXPECT_EQ(0, r.events_after);
	EXPECT_NE(0, r.query_ret);
}

TEST(numeric_literals_are_still_the_module_s)
{
	long long r0 = rai_stat("dns_view_refused");
	struct seen s = in_container(C_GETADDRINFO, POD_ADDR);

	ASSERT_EQ(0, s.setup) TH_LOG("namespaces: %s", strerror(s.setup));
	ASSERT_EQ(0, s.ret);
	EXPECT_STREQ(POD_ADDR, s.addr);
	EXPECT_TRUE(s.same);
	EXPECT_EQ(r0, rai_stat("dns_view_refused"));
}

/* Two lookups and a resolve in a container, for run_and_count(). */
static void container_three_calls(void)
{
	struct rdma_addrinfo *res;
	struct seen s;

	if (container_enter())
		_exit(2);
	if (!rdma_getaddrinfo(POD_NAME, POD_PORT, NULL, &res))
		rdma_freeaddrinfo(res);
	if (!rdma_getaddrinfo(POD_NAME, POD_PORT, NULL, &res))
		rdma_freeaddrinfo(res);
	memset(&s, 0, sizeof(s));
	container_resolve(&s, POD_NAME, 0);
}

TEST(said_once_in_syslog_and_never_on_stderr)
{
	said_once_in_syslog_only(_metadata, container_three_calls);
}

TEST_HARNESS_MAIN
