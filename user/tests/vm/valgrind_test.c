// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * No leak in the library: rdma-addrinfo under valgrind (definite and
 * indirect leaks and memory errors fail, as for the test programs that
 * selftests/world/run-suite runs under valgrind, with the same
 * suppressions) through its synchronous and asynchronous paths.  Possible
 * leaks are librdmacm's process-wide state.  Two runs only: each took one to two
 * minutes under TCG on a busy host, and run-suite allows 300 s a program.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define VALGRIND_ERROR 99

FIXTURE(valgrind) {
	char tool[PATH_MAX + 32];
	char supp[PATH_MAX + 32];
};

FIXTURE_SETUP(valgrind)
{
	if (system("valgrind --version >/dev/null 2>&1"))
		SKIP(return, "no valgrind");
	ASSERT_NE(NULL, rai_build_path(self->tool, sizeof(self->tool),
				       "bin/rdma-addrinfo"));
	ASSERT_NE(NULL, rai_repo_path(self->supp, sizeof(self->supp),
				      "selftests/valgrind.supp"));
}

FIXTURE_TEARDOWN(valgrind)
{
}

/* The tool's exit status under valgrind, VALGRIND_ERROR for its findings. */
static int run_tool_in_valgrind(FIXTURE_DATA(valgrind) *self,
				const char *args)
{
	char cmd[3 * PATH_MAX];
	int status;

	snprintf(cmd, sizeof(cmd),
		 "valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --suppressions=%s --error-exitcode=%d %s %s >/dev/null",
		 self->supp, VALGRIND_ERROR, self->tool, args);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F_TIMEOUT(valgrind, sync_resolution_of_every_result, 300)
{
	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, run_tool_in_valgrind(self, RAI_ZONE_MULTI " 4791"));
}

TEST_F_TIMEOUT(valgrind, async_resolution_through_the_event_channel, 300)
{
	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, run_tool_in_valgrind(self, "--async --json "
					  RAI_ZONE_PEER " 4791"));
}

TEST_HARNESS_MAIN
