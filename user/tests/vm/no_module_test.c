// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Without the rdma_addrinfo module: a clear error (ENODEV, one stderr line
 * naming the module) and no silent fallback, unless RDMA_ADDRINFO_FALLBACK=1.
 * The module is unloaded for each test and loaded again afterwards.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

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
	int unloaded;
};

FIXTURE_SETUP(no_module)
{
	self->unloaded = !load_module(0) &&
			 access("/dev/infiniband/rdma_addrinfo", F_OK);
	if (!self->unloaded)
		SKIP(return, "the module could not be unloaded");
}

FIXTURE_TEARDOWN(no_module)
{
	if (self->unloaded)
		load_module(1);
}

/* Run @fn in a child with stderr captured; the number of lines it wrote
 * that name the module. */
static int stderr_lines_naming_module(void (*fn)(void))
{
	char buf[4096], *p;
	int pipefd[2], lines = 0, status;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		fn();
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	buf[len] = '\0';
	for (p = buf; (p = strstr(p, "rdma_addrinfo kernel module")); p++)
		lines++;
	return lines;
}

static void two_failed_calls(void)
{
	struct rdma_addrinfo *res;

	rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res);
	rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res);
}

TEST_F(no_module, getaddrinfo_fails_with_eai_system_and_enodev)
{
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	errno = 0;
	ASSERT_EQ(EAI_SYSTEM, rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res));
	ASSERT_EQ(ENODEV, errno);
	ASSERT_EQ(NULL, res);
}

TEST_F(no_module, one_stderr_line_names_the_module)
{
	RAI_RETURN_IF_SKIPPED();

	ASSERT_EQ(1, stderr_lines_naming_module(two_failed_calls));
}

TEST_F(no_module, resolve_addrinfo_fails_with_enodev_and_no_event)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	RAI_RETURN_IF_SKIPPED();

	ch = rdma_create_event_channel();
	ASSERT_NE(NULL, ch);
	ASSERT_EQ(0, rdma_create_id(ch, &id, NULL, RDMA_PS_TCP));
	errno = 0;
	ASSERT_EQ(-1, rdma_resolve_addrinfo(id, RAI_IP4_B, "4791", NULL));
	ASSERT_EQ(ENODEV, errno);
	ASSERT_EQ(0, fcntl(ch->fd, F_SETFL, O_NONBLOCK));
	errno = 0;
	ASSERT_EQ(-1, rdma_get_cm_event(ch, &ev));
	ASSERT_EQ(EAGAIN, errno);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
}

TEST_F(no_module, fallback_only_when_rdma_addrinfo_fallback_is_1)
{
	struct rdma_addrinfo *res = NULL;

	RAI_RETURN_IF_SKIPPED();

	setenv("RDMA_ADDRINFO_FALLBACK", "0", 1);
	ASSERT_EQ(EAI_SYSTEM, rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res));
	setenv("RDMA_ADDRINFO_FALLBACK", "1", 1);
	ASSERT_EQ(0, rdma_getaddrinfo(RAI_IP4_B, "4791", NULL, &res));
	ASSERT_NE(NULL, res);
	rdma_freeaddrinfo(res);
}

TEST_HARNESS_MAIN
