// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Unmodified rdmacm-utils programs with the library preloaded: rdma_client
 * reaches rdma_server over Soft-RoCE by a name that only the test zone's DNS
 * server knows, while its own user-space resolver is cut off (a private
 * /etc/resolv.conf naming a dead server).  Only the module, whose upcall
 * runs in the initial namespaces, can resolve the name.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define PORT "7471"
#define SERVER_LOG "/run/rai-rdma_server.log"
#define CLIENT_LOG "/run/rai-rdma_client.log"

static char library[PATH_MAX];

/* ../lib/librdma_addrinfo.so.1 next to this program's directory */
static const char *library_path(void)
{
	char *slash;
	ssize_t n = readlink("/proc/self/exe", library, sizeof(library) - 40);

	if (n <= 0)
		return NULL;
	library[n] = '\0';
	slash = strrchr(library, '/');
	*slash = '\0';
	slash = strrchr(library, '/');
	strcpy(slash, "/lib/librdma_addrinfo.so.1");
	return library;
}

static pid_t start_server(void)
{
	pid_t pid = fork();

	if (!pid) {
		int log = open(SERVER_LOG, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(log, 1);
		dup2(log, 2);
		unsetenv("LD_PRELOAD");
		execlp("rdma_server", "rdma_server", "-s", "::", "-p", PORT,
		       (char *)NULL);
		_exit(127);
	}
	usleep(1500000);	/* let it listen (TCG is slow) */
	return pid;
}

/* Cut the process off from user-space name resolution. */
static int isolate_resolver(void)
{
	const char *conf = "/run/rai-dead-resolv.conf";
	int fd;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	fd = open(conf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dprintf(fd, "nameserver 127.0.0.9\noptions timeout:1 attempts:1\n") < 0)
		return -1;
	close(fd);
	return mount(conf, "/etc/resolv.conf", NULL, MS_BIND, NULL);
}

/* Run rdma_client against the DNS-only name; its exit status, or -1. */
static int run_client(int preload)
{
	int status, i;
	pid_t pid = fork();

	if (!pid) {
		int log = open(CLIENT_LOG, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(log, 1);
		dup2(log, 2);
		if (isolate_resolver())
			_exit(126);
		if (preload)
			setenv("LD_PRELOAD", library_path(), 1);
		else
			unsetenv("LD_PRELOAD");
		execlp("rdma_client", "rdma_client", "-s", RAI_ZONE_PEER, "-p",
		       PORT, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 600; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void show_log(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "# %s: %s", path, line);
	fclose(f);
}

static void stop_server(pid_t pid, int show)
{
	int status;

	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	if (show) {
		show_log(SERVER_LOG);
		show_log(CLIENT_LOG);
	}
}

TEST(rdma_client_preloaded_connects_to_a_name_only_the_kernel_resolves)
{
	pid_t server;
	int ret;

	ASSERT_NE(NULL, library_path());
	ASSERT_EQ(0, access(library, R_OK));
	server = start_server();
	ret = run_client(1);
	stop_server(server, ret != 0);
	ASSERT_EQ(0, ret);
}

TEST(rdma_client_without_the_library_cannot_resolve_that_name)
{
	pid_t server;
	int ret;

	server = start_server();
	ret = run_client(0);
	stop_server(server, 0);
	show_log(CLIENT_LOG);
	ASSERT_NE(0, ret);
	ASSERT_NE(126, ret);	/* isolation itself worked */
}

TEST_HARNESS_MAIN
