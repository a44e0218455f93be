// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A binary built against rdma-core 60+ (user/tests/forky/rdmacm14_client,
 * built in make check's forky root) asks for rdma_resolve_addrinfo,
 * rdma_query_addrinfo and rdma_write_cm_event at RDMACM_1.4: preloaded,
 * the library serves all three, through the module when it is loaded and
 * through librdmacm's own implementation when it is not.  Without the
 * preload the same binary gets librdmacm's (the control).
 *
 * Runs in the 7.3 phase, chrooted into the forky root; elsewhere (a
 * librdmacm without RDMACM_1.4, or no client built) it skips.  In the
 * forky root (RAI_FORKY_ROOT, set by scripts/forky-root) it never skips.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define CLIENT "tests-forky/rdmacm14_client"

static char client[PATH_MAX + 32], library[PATH_MAX + 32];
static char output[8192];

/* Run the client with @args; its exit status, its stdout in output. */
static int run_client_args(char *const args[], int preload)
{
	int pipefd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		if (preload)
			setenv("LD_PRELOAD", library, 1);
		else
			unsetenv("LD_PRELOAD");
		execv(client, args);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], output + len,
			 sizeof(output) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	output[len] = '\0';
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Run the client on @node 4791. */
static int run_client(const char *node, int preload)
{
	char *args[] = { client, (char *)node, "4791", NULL };

	return run_client_args(args, preload);
}

/* Whether the output has the line "bind @call" naming @object. */
static int bound_to(const char *call, const char *object)
{
	char want[128], *line = output, *end;

	snprintf(want, sizeof(want), "bind %s ", call);
	for (; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (!strncmp(line, want, strlen(want)) &&
		    strstr(line, object) && (!end || strstr(line, object) < end))
			return 1;
	}
	return 0;
}

/* Whether the system's librdmacm has RDMACM_1.4 (rdma-core 60+). */
static int librdmacm_1_4(void)
{
	void *lib = dlopen("librdmacm.so.1", RTLD_LAZY);

	return lib && dlvsym(lib, "rdma_resolve_addrinfo", "RDMACM_1.4");
}

static int module_loaded(void)
{
	return !access("/dev/infiniband/rdma_addrinfo", F_OK);
}

FIXTURE(rdmacm14) {
	int skip;
};

FIXTURE_SETUP(rdmacm14)
{
	ASSERT_NE(NULL, rai_build_path(client, sizeof(client), CLIENT));
	ASSERT_NE(NULL, rai_build_path(library, sizeof(library), RAI_LIBRARY));
	if (getenv("RAI_FORKY_ROOT")) {
		ASSERT_EQ(0, access(client, X_OK)) {
			TH_LOG("%s is not built", client);
		}
	} else if (!librdmacm_1_4() || access(client, X_OK)) {
		SKIP(return, "needs librdmacm 60+ and %s, built in make check's forky root",
		     CLIENT);
	}
}

FIXTURE_TEARDOWN(rdmacm14)
{
}

static void show_output(struct __test_metadata *_metadata)
{
	TH_LOG("client output:\n%s", output);
}

/* The client, preloaded or not: @object serves all three calls. */
static void served_by(struct __test_metadata *_metadata, int preload,
		      const char *object)
{
	run_client(RAI_IP4_B, preload);
	EXPECT_TRUE(bound_to("rdma_resolve_addrinfo", object));
	EXPECT_TRUE(bound_to("rdma_query_addrinfo", object));
	EXPECT_TRUE(bound_to("rdma_write_cm_event", object));
	if (_metadata->passed == 0)
		show_output(_metadata);
}

TEST_F_TIMEOUT(rdmacm14, without_the_preload_librdmacm_serves_the_rdmacm_1_4_calls, 120)
{
	RAI_RETURN_IF_SKIPPED();

	served_by(_metadata, 0, "librdmacm.so.1");
}

TEST_F_TIMEOUT(rdmacm14, preloaded_the_library_serves_the_rdmacm_1_4_calls, 120)
{
	RAI_RETURN_IF_SKIPPED();

	served_by(_metadata, 1, "librdma_addrinfo.so.1");
}

/* With the module: the library's own request; without: librdmacm's. */
TEST_F_TIMEOUT(rdmacm14, preloaded_it_resolves_and_round_trips_a_user_event, 120)
{
	char want[64];
	int ret;

	RAI_RETURN_IF_SKIPPED();

	TH_LOG("module %s", module_loaded() ? "loaded" : "not loaded");
	ret = run_client(RAI_IP4_B, 1);
	snprintf(want, sizeof(want), "result %s port 4791\n", RAI_IP4_B);
	EXPECT_EQ(0, ret);
	EXPECT_NE(NULL, strstr(output, "event RDMA_CM_EVENT_ADDRINFO_RESOLVED status 0\n"));
	EXPECT_NE(NULL, strstr(output, want));
	EXPECT_NE(NULL, strstr(output, "user arg 42\n"));
	if (_metadata->passed == 0)
		show_output(_metadata);
}

/*
 * The client's --semantics steps: what each says through this library
 * with the module (ours) and through rdma-core 65's own calls (as_60),
 * the beginning of the step's line; NULL: no such line.  Where the two
 * differ, the man pages (rdma_resolve_addrinfo.3, rdma_query_addrinfo.3)
 * name the step.
 */
static const struct semantics_row {
	const char *step, *ours, *as_60;
} semantics_rows[] = {
	{ "query-null", "-1 EINVAL", "-1 EINVAL" },
	{ "query-unresolved", "-1 ENOENT", "-1 ENOENT" },
	{ "resolve", "0", "0" },
	{ "query-at-once", "0 results 1 family 2 qp 2 ps 262 dst 16",
	  "0 results 1 family 2 qp 2 ps 262 dst 16" },
	{ "query-again", "-1 ENOENT", "-1 ENOENT" },
	{ "event-after-query", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_ERROR" },
	{ "query-after-event", "-1 ENOENT", "-1 ENOENT" },
	{ "resolve-usual", "0", "0" },
	{ "event-usual", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	{ "query-usual", "0 results 1 family 2 qp 2 ps 262 dst 16",
	  "0 results 1 family 2 qp 2 ps 262 dst 16" },
	{ "query-twice", "-1 ENOENT", "-1 ENOENT" },
	{ "resolve-sa-node", "-1 EOPNOTSUPP", "-1 EOPNOTSUPP" },
	{ "resolve-sa-dns", "-1 EOPNOTSUPP", "-1 EOPNOTSUPP" },
	{ "resolve-sa-no-service", "-1 EINVAL", "-1 errno -1" },
	{ "resolve-hints", "0", "0" },
	{ "event-hints", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	{ "query-hints", "0 results 1 family 2 qp 2 ps 262 dst 0 src 0",
	  "0 results 1 family 2 qp 2 ps 262 dst 0 src 0" },
	{ "resolve-missing", "0", "-1 errno -" },
	{ "event-missing", "RDMA_CM_EVENT_ADDRINFO_ERROR -6", NULL },
	{ "query-missing", "-1 ENOENT", "-1 ENOENT" },
	{ "resolve-no-node", "0", "0" },
	{ "event-no-node", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	/* its family: glibc's first, checked in semantics_as() */
	{ "query-no-node", "0 family ", "0 family " },
	{ "resolve-src", "0", "0" },
	{ "event-src", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	{ "query-src", "0 family 2 qp 2 ps 262 src 127.0.0.1:7472 dst ",
	  "0 family 2 qp 2 ps 262 src 127.0.0.1:7472 dst " },
	{ "resolve-dst-hints", "0", "0" },
	{ "event-dst-hints", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	{ "query-dst-hints", "0 family 0 qp 0 ps 0 src - dst 127.0.0.2:7471 results 1",
	  "0 family 0 qp 0 ps 0 src - dst 127.0.0.2:7471 results 1" },
	{ "resolve-bad-service", "-1 ENOENT", "-1 errno -8" },
	{ "event-bad-service", NULL, NULL },
	{ "resolve-unqueried", "0", "0" },
	{ "event-unqueried", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0",
	  "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0" },
	{ "resolve-after-unqueried", "0", "-1 EBUSY" },
	{ "event-after-unqueried", "RDMA_CM_EVENT_ADDRINFO_RESOLVED 0", NULL },
};

/* The rest of the output's line for @step, or NULL. */
static const char *step_line(const char *step, char *buf, size_t size)
{
	size_t n = strlen(step);
	const char *line, *end;

	for (line = output; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		if (!strncmp(line, step, n) && line[n] == ' ') {
			snprintf(buf, size, "%.*s", (int)(end - line - n - 1),
				 line + n + 1);
			return buf;
		}
	}
	return NULL;
}

/* The family of glibc's first answer for an active lookup without a node. */
static int glibc_first_family(void)
{
	struct addrinfo h = { .ai_socktype = SOCK_STREAM }, *res;
	int family;

	if (getaddrinfo(NULL, "4791", &h, &res))
		return -1;
	family = res->ai_family;
	freeaddrinfo(res);
	return family;
}

/* The client's --semantics run, each step as the @ours or the 60+ column. */
static void semantics_as(struct __test_metadata *_metadata, int preload,
			 int ours)
{
	const struct semantics_row *row;
	char missing[96], buf[160];
	char *args[] = { client, "--semantics",
			 (char *)(ours ? RAI_ZONE_PEER4 : RAI_IP4_B),
			 (char *)rai_fresh_missing_name(missing, sizeof(missing)),
			 NULL };
	const char *got, *want;

	EXPECT_EQ(0, run_client_args(args, preload));
	for (row = semantics_rows; row < semantics_rows + ARRAY_SIZE(semantics_rows);
	     row++) {
		want = ours ? row->ours : row->as_60;
		got = step_line(row->step, buf, sizeof(buf));
		if (!want) {
			EXPECT_EQ(NULL, got) TH_LOG("%s: %s", row->step, got);
		} else if (!got) {
			EXPECT_NE(NULL, got) TH_LOG("%s: no line", row->step);
		} else {
			EXPECT_EQ(0, strncmp(got, want, strlen(want)))
				TH_LOG("%s: \"%s\", not \"%s\"", row->step, got, want);
		}
	}
	/* Without a node, the first result is of glibc's first family. */
	got = step_line("query-no-node", buf, sizeof(buf));
	snprintf(missing, sizeof(missing), "0 family %d ", glibc_first_family());
	EXPECT_TRUE(got && !strncmp(got, missing, strlen(missing)))
		TH_LOG("query-no-node: \"%s\", not \"%s\"", got ? got : "",
		       missing);
	show_output(_metadata);
}

/* The control: rdma-core 65's own calls, as its cma.c defines them. */
TEST_F_TIMEOUT(rdmacm14, without_the_preload_resolve_and_query_are_librdmacm_60s, 120)
{
	RAI_RETURN_IF_SKIPPED();

	semantics_as(_metadata, 0, 0);
}

/*
 * Preloaded, the RDMACM_1.4 calls behave as rdma-core 60+'s: through the
 * module (the rows' ours), or, without it, they are librdmacm's own.
 */
TEST_F_TIMEOUT(rdmacm14, preloaded_resolve_and_query_are_as_librdmacm_60s, 120)
{
	RAI_RETURN_IF_SKIPPED();

	TH_LOG("module %s", module_loaded() ? "loaded" : "not loaded");
	semantics_as(_metadata, 1, module_loaded());
}

TEST_HARNESS_MAIN
