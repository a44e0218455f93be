// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * No leak in the library: rdma-addrinfo under valgrind (definite leaks and
 * memory errors fail) through its synchronous and asynchronous paths.
 * Possible leaks are librdmacm's process-wide state.  Two runs only: each
 * takes one to two minutes under TCG, and run-suite allows 300 s a program.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define VALGRIND_ERROR 99

FIXTURE(valgrind) {
	char tool[PATH_MAX + 32];
};

FIXTURE_SETUP(valgrind)
{
	if (system("valgrind --version >/dev/null 2>&1"))
		SKIP(return, "no valgrind");
	ASSERT_NE(NULL, rai_build_path(self->tool, sizeof(self->tool),
				       "bin/rdma-addrinfo"));
}

FIXTURE_TEARDOWN(valgrind)
{
}

/* The tool's exit status under valgrind, VALGRIND_ERROR for its findings. */
static int run_tool(const char *tool, const char *args)
{
	char cmd[PATH_MAX + 512];
	int status;

	snprintf(cmd, sizeof(cmd),
		 "valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=%d %s %s >/dev/null",
		 VALGRIND_ERROR, tool, args);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F_TIMEOUT(valgrind, sync_resolution_of_every_result, 300)
{
	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, run_tool(self->tool, RAI_ZONE_MULTI " 4791"));
}

TEST_F_TIMEOUT(valgrind, async_resolution_through_the_event_channel, 300)
{
	RAI_RETURN_IF_SKIPPED();
	ASSERT_EQ(0, run_tool(self->tool, "--async --json " RAI_ZONE_PEER " 4791"));
}

TEST_HARNESS_MAIN
