// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Unmodified rdmacm-utils programs with the library preloaded: rdma_client
 * reaches rdma_server over Soft-RoCE by name while its own user-space
 * resolver is cut off (a private /etc/resolv.conf naming a dead server and
 * an empty /etc/hosts).  Only the module, whose upcall runs in the initial
 * namespaces, can resolve the name; since the client's resolver files are
 * not the host's, the module answers it only with dns_host_view=Y (else
 * EPERM: a container's view), which the test sets as an administrator
 * would.
 *
 * rdma_client connects to the first result only, and RDMA connections over
 * IPv6 are refused in the test world, so the name must have only the IPv4
 * address of the peer: RAI_ZONE_PEER4 from the test zone when it has one,
 * else a name added to the guest's /etc/hosts for this test.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm_test.h"

#define PORT "7471"
#define PEER4_ZONE rai_env("RAI_ZONE_PEER4", "peer4.rai.test")
#define PEER4_HOSTS "peer4-hosts.rai.example"
#define SERVER_LOG "/run/rai-rdma_server.log"
#define CLIENT_LOG "/run/rai-rdma_client.log"
#define HOST_VIEW "/sys/module/rdma_addrinfo/parameters/dns_host_view"

static char library[PATH_MAX + 32];

/* A name of the peer's IPv4 address alone, that the module resolves. */
static const char *peer4_name(void)
{
	struct rdma_addrinfo *res = NULL;
	FILE *hosts;

	if (!rdma_getaddrinfo(PEER4_ZONE, NULL, NULL, &res)) {
		rdma_freeaddrinfo(res);
		return PEER4_ZONE;
	}
	if (!rdma_getaddrinfo(PEER4_HOSTS, NULL, NULL, &res)) {
		rdma_freeaddrinfo(res);
		return PEER4_HOSTS;
	}
	hosts = fopen("/etc/hosts", "a");
	if (!hosts)
		return NULL;
	fprintf(hosts, "%s\t%s\n", RAI_IP4_B, PEER4_HOSTS);
	fclose(hosts);
	return PEER4_HOSTS;
}

static const char *library_path(void)
{
	return rai_build_path(library, sizeof(library), RAI_LIBRARY);
}

static pid_t start_server(void)
{
	pid_t pid = fork();

	if (!pid) {
		int log = open(SERVER_LOG, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(log, 1);
		dup2(log, 2);
		unsetenv("LD_PRELOAD");
		execlp("rdma_server", "rdma_server", "-s", RAI_IP4_B, "-p", PORT,
		       (char *)NULL);
		_exit(127);
	}
	usleep(1500000);	/* let it listen (TCG is slow) */
	return pid;
}

/*
 * Cut the process off from user-space name resolution.  (The kernel ignores
 * the file system type of these mounts; valgrind wants a string there.)
 */
static int isolate_resolver(void)
{
	const char *conf = "/run/rai-dead-resolv.conf";
	const char *hosts = "/run/rai-empty-hosts";
	int fd;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", "none", MS_REC | MS_PRIVATE, NULL))
		return -1;
	fd = open(conf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dprintf(fd, "nameserver 127.0.0.9\noptions timeout:1 attempts:1\n") < 0)
		return -1;
	close(fd);
	fd = open(hosts, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	if (mount(conf, "/etc/resolv.conf", "none", MS_BIND, NULL))
		return -1;
	return mount(hosts, "/etc/hosts", "none", MS_BIND, NULL);
}

/* Run rdma_client against @name, resolver cut off; exit status or -1. */
static int run_client(const char *name, int preload)
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
		execlp("rdma_client", "rdma_client", "-s", name, "-p", PORT,
		       (char *)NULL);
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

static int log_contains(const char *path, const char *what)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !!strstr(line, what);
	fclose(f);
	return found;
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
	const char *name = peer4_name();
	pid_t server;
	int ret;

	ASSERT_NE(NULL, name);
	ASSERT_NE(NULL, library_path());
	ASSERT_EQ(0, access(library, R_OK));
	ASSERT_EQ(0, system("echo Y > " HOST_VIEW));
	server = start_server();
	ret = run_client(name, 1);
	stop_server(server, ret != 0);
	EXPECT_EQ(0, system("echo N > " HOST_VIEW));
	ASSERT_EQ(0, ret);
}

TEST(rdma_client_without_the_library_cannot_resolve_that_name)
{
	const char *name = peer4_name();
	pid_t server;
	int ret;

	ASSERT_NE(NULL, name);
	server = start_server();
	ret = run_client(name, 0);
	stop_server(server, 0);
	show_log(CLIENT_LOG);
	ASSERT_NE(0, ret);
	ASSERT_NE(126, ret);	/* isolation itself worked */
	/* it failed to resolve, not to connect */
	ASSERT_TRUE(log_contains(CLIENT_LOG, "rdma_getaddrinfo"));
}

TEST_HARNESS_MAIN
