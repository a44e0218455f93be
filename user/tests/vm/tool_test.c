// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo(1) in the VM: one line per result with family, destination,
 * port or service ID, source, device and port; JSON; errors and exit status.
 */
#include <grp.h>
#include <sched.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

/* The first result's line ends with its canonical names. */
TEST(one_line_per_result_with_source_device_and_port)
{
	char out[4096], want[512], host[256] = "";

	ASSERT_EQ(0, gethostname(host, sizeof(host)));
	ASSERT_EQ(0, rai_run_tool("--family inet " RAI_ZONE_PEER " 4791", out,
			      sizeof(out)));
	snprintf(want, sizeof(want),
		 "inet  %s port 4791 src %s dev %s port 1 canonname %s src-canonname %s\n",
		 RAI_IP4_B, RAI_IP4_A, RAI_IBDEV_A, RAI_ZONE_PEER, host);
	ASSERT_STREQ(want, out);
}

/* Only the first: a CNAME's target; a literal has none. */
TEST(canonical_name_of_a_cname_on_the_first_line_only)
{
	char out[4096], want[256], args[128], *nl;

	ASSERT_EQ(0, rai_run_tool("--noroute " RAI_ZONE_ALIAS, out,
				  sizeof(out)));
	snprintf(want, sizeof(want), " canonname %s\n", RAI_ZONE_PEER4);
	nl = strchr(out, '\n');
	ASSERT_NE(NULL, nl);
	ASSERT_LE(strlen(want), (size_t)(nl + 1 - out));
	EXPECT_EQ(0, strncmp(nl + 1 - strlen(want), want, strlen(want)))
		TH_LOG("got: %s", out);
	EXPECT_EQ(NULL, strstr(nl, "canonname")) TH_LOG("got: %s", out);
	snprintf(args, sizeof(args), "--noroute %s", RAI_IP4_B);
	ASSERT_EQ(0, rai_run_tool(args, out, sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "canonname")) TH_LOG("got: %s", out);
}

TEST(every_result_of_a_name_is_listed)
{
	char out[4096], *p;
	int lines = 0;

	ASSERT_EQ(0, rai_run_tool(RAI_ZONE_MULTI, out, sizeof(out)));
	for (p = out; (p = strchr(p, '\n')); p++)
		lines++;
	ASSERT_EQ(4, lines);
}

TEST(async_lists_the_same_results)
{
	char sync[4096], async[4096];

	ASSERT_EQ(0, rai_run_tool(RAI_ZONE_PEER " 4791", sync, sizeof(sync)));
	ASSERT_EQ(0, rai_run_tool("--async " RAI_ZONE_PEER " 4791", async,
			      sizeof(async)));
	ASSERT_STREQ(sync, async);
}

/* A GID literal (the peer's IPv4-mapped GID) with --family ib --numeric. */
TEST(ib_family_shows_service_id_and_device)
{
	char out[4096], args[128];

	snprintf(args, sizeof(args), "--family ib --numeric ::ffff:%s 4791",
		 RAI_IP4_B);
	ASSERT_EQ(0, rai_run_tool(args, out, sizeof(out)));
	ASSERT_EQ(0, strncmp(out, "ib    ", 6));
	ASSERT_NE(NULL, strstr(out, " sid 0x"));
	ASSERT_NE(NULL, strstr(out, " dev rxe"));
}

/*
 * --family ib of an IP literal lists IP results, as librdmacm does: an
 * AF_IB address is made only from an IB address (request.c).
 */
TEST(ib_family_of_an_ip_literal_lists_ip_results)
{
	char out[4096], args[128];

	snprintf(args, sizeof(args), "--family ib %s 4791", RAI_IP4_B);
	ASSERT_EQ(0, rai_run_tool(args, out, sizeof(out)));
	ASSERT_EQ(0, strncmp(out, "inet  ", 6));
	ASSERT_EQ(NULL, strstr(out, "ib    "));
}

TEST(json_is_an_array_of_results)
{
	char out[4096];

	ASSERT_EQ(0, rai_run_tool("--json --family inet " RAI_ZONE_PEER " 4791",
			      out, sizeof(out)));
	ASSERT_EQ('[', out[0]);
	ASSERT_NE(NULL, strstr(out, "\"family\": \"inet\""));
	ASSERT_NE(NULL, strstr(out, "\"port\": 4791"));
	ASSERT_NE(NULL, strstr(out, "\"device\": \"rxe0\""));
	ASSERT_NE(NULL, strstr(out, "\"canonname\": \"" RAI_ZONE_PEER "\""));
	ASSERT_NE(NULL, strstr(out, "\"src_canonname\": \""));
	ASSERT_NE(NULL, strstr(out, "\n]\n"));
}

TEST(unknown_name_is_a_readable_error_and_exit_1)
{
	char out[4096];

	ASSERT_EQ(1, rai_run_tool(RAI_ZONE_MISSING, out, sizeof(out)));
	ASSERT_NE(NULL, strstr(out, "rdma-addrinfo: " RAI_ZONE_MISSING ": "));
	ASSERT_EQ(1, rai_run_tool("--async " RAI_ZONE_MISSING, out, sizeof(out)));
	ASSERT_NE(NULL, strstr(out, "rdma-addrinfo: " RAI_ZONE_MISSING ": "));
}

TEST(usage_errors_exit_2_and_help_exits_0)
{
	char out[4096];

	ASSERT_EQ(2, rai_run_tool("--family x25 host", out, sizeof(out)));
	ASSERT_EQ(2, rai_run_tool("", out, sizeof(out)));
	ASSERT_EQ(0, rai_run_tool("--help", out, sizeof(out)));
	ASSERT_NE(NULL, strstr(out, "Usage: rdma-addrinfo"));
}

/*
 * An empty node is a node, not "no node": glibc (so librdmacm) says
 * EAI_NONAME; it is not the hints alone (a result of family 0).
 */
TEST(empty_node_is_an_unknown_name_and_exit_1)
{
	char out[4096];

	ASSERT_EQ(1, rai_run_tool("'' 7471", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, gai_strerror(EAI_NONAME))) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "unknown")) TH_LOG("%s", out);
	ASSERT_EQ(1, rai_run_tool("''", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, gai_strerror(EAI_NONAME))) TH_LOG("%s", out);
	ASSERT_EQ(1, rai_run_tool("--async ''", out, sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "unknown")) TH_LOG("%s", out);
}

typedef int (*tool_gai_fn)(const char *node, const char *service,
			   const struct rdma_addrinfo *hints,
			   struct rdma_addrinfo **res);

/*
 * No RDMA device file at all (an empty /dev/infiniband in a mount
 * namespace): the module's is absent and librdmacm fails with -1 and
 * errno; the tool says errno's message, not gai_strerror(-1)'s "Bad value
 * for ai_flags".
 */
TEST(librdmacm_s_failure_says_its_errno)
{
	int pipefd[2], status, err;
	char out[4096], want[512];
	struct rdma_addrinfo *res;
	void *lib;
	tool_gai_fn theirs;
	ssize_t n;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		if (unshare(CLONE_NEWNS) ||
		    (mount(NULL, "/", "none", MS_REC | MS_PRIVATE, NULL) &&
		     errno != EINVAL) ||
		    mount("none", "/dev/infiniband", "tmpfs", 0, NULL))
			_exit(2);
		lib = dlopen("librdmacm.so.1", RTLD_LAZY);
		theirs = lib ? (tool_gai_fn)dlvsym(lib, "rdma_getaddrinfo",
						   "RDMACM_1.0") : NULL;
		if (!theirs)
			_exit(3);
		errno = 0;
		if (theirs("127.0.0.1", "7471", NULL, &res) != -1)
			_exit(4);
		err = errno;
		snprintf(want, sizeof(want), "rdma-addrinfo: 127.0.0.1: %s\n",
			 strerror(err));
		status = rai_run_tool("127.0.0.1 7471", out, sizeof(out));
		dprintf(pipefd[1], "exit %d\nwant %sgot  %s", status, want,
			out);
		_exit(status == 1 && !strcmp(out, want) ? 0 : 1);
	}
	close(pipefd[1]);
	n = read(pipefd[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) >= 2)
		SKIP(return, "no empty /dev/infiniband, or librdmacm answered (%d)",
		     WEXITSTATUS(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s", out);
}

/*
 * --info and --stats as a user without privilege (nobody) in a container
 * of its own (a user and a network namespace, as unshare -Urn): the
 * counters are the new namespace's (nothing yet, though the VM's own have
 * counted every earlier test), no resolver is registered there, and the
 * caller holds no request.
 */
TEST(info_and_stats_for_an_unprivileged_user_in_a_container)
{
	int pipefd[2], status;
	char out[4096];
	size_t len;
	ssize_t n;
	pid_t pid;

	/* Something counted in the VM's namespace before. */
	ASSERT_EQ(0, rai_run_tool("--noroute -n 127.0.0.1 7471", out,
				  sizeof(out)));
	ASSERT_EQ(0, rai_run_tool("--stats", out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "\nrequests 0\n")) TH_LOG("%s", out);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		static const char want_stats[] =
			"{\"resolvers\":0,\"requests\":0,\"completed\":0,"
			"\"failed\":0,\"cancelled\":0,\"events_dropped\":0,"
			"\"numeric\":0}\n";
		int ok;

		close(pipefd[0]);
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(3);
		status = rai_run_tool("--stats -j", out, sizeof(out));
		ok = status == 0 && !strcmp(out, want_stats);
		dprintf(pipefd[1], "stats: exit %d: %s", status, out);
		status = rai_run_tool("--info", out, sizeof(out));
		ok = ok && status == 0 && strstr(out, "\nfeatures ") &&
		     strstr(out, " stats") &&
		     strstr(out, "\nresolver none (0 in this network namespace)\n");
		dprintf(pipefd[1], "info: exit %d: %s", status, out);
		status = rai_run_tool("--info -j", out, sizeof(out));
		ok = ok && status == 0 && strstr(out, "\"own_requests\":0,") &&
		     strstr(out, "\"resolvers\":0,") && out[0] == '{';
		dprintf(pipefd[1], "info -j: exit %d: %s", status, out);
		_exit(ok ? 0 : 1);
	}
	close(pipefd[1]);
	/* All of it: the child writes three times (a short read: SIGPIPE). */
	len = 0;
	while (len < sizeof(out) - 1 &&
	       (n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "no user namespace for nobody");
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s", out);
}

/* --stats and --info take no NODE; -4 and -6 are --family. */
TEST(info_stats_and_short_options)
{
	char out[4096], want[512], args[128];

	EXPECT_EQ(2, rai_run_tool("--stats " RAI_ZONE_PEER, out, sizeof(out)));
	EXPECT_EQ(2, rai_run_tool("--info --stats", out, sizeof(out)));
	ASSERT_EQ(0, rai_run_tool("-4 " RAI_ZONE_PEER " 4791", out,
				  sizeof(out)));
	ASSERT_EQ(0, rai_run_tool("--family inet " RAI_ZONE_PEER " 4791", want,
				  sizeof(want)));
	EXPECT_STREQ(want, out);
	snprintf(args, sizeof(args), "-j -n --noroute %s", RAI_IP4_B);
	ASSERT_EQ(0, rai_run_tool(args, out, sizeof(out)));
	EXPECT_EQ('[', out[0]) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
