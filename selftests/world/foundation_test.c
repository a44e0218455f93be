// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The test world itself: the module and its device node, the two Soft-RoCE
 * ports and the wire between them, the DNS server and the dns_resolver
 * upcall.  Everything the other suites take for granted is proven here.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <netdb.h>
#include <resolv.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "world_env.h"

#define DEVICE_PATH "/dev/infiniband/rdma_addrinfo"
#define MISC_MAJOR_NUMBER 10

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (int)n;
}

static long read_counter(const char *ibdev, const char *counter)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", ibdev,
		 counter);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

TEST(module_is_loaded)
{
	char buf[65536];

	ASSERT_LT(0, read_file("/proc/modules", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "\nrdma_addrinfo ") ?:
			strncmp(buf, "rdma_addrinfo ", 14) == 0 ? buf : NULL);
}

TEST(device_node_is_misc_char_device_mode_0666)
{
	struct stat st;

	ASSERT_EQ(0, stat(DEVICE_PATH, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0666, st.st_mode & 07777);
	EXPECT_EQ(MISC_MAJOR_NUMBER, major(st.st_rdev));
}

TEST(device_opens_for_unprivileged_user)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC);
		_exit(fd >= 0 ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static void expect_port_active(struct __test_metadata *_metadata,
			       const char *ibdev)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/state",
		 ibdev);
	ASSERT_LT(0, read_file(path, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "ACTIVE")) {
		TH_LOG("%s port 1 state: %s", ibdev, buf);
	}
}

TEST(rxe_ports_are_active)
{
	expect_port_active(_metadata, RAI_IBDEV_A);
	expect_port_active(_metadata, RAI_IBDEV_B);
}

/*
 * RoCEv2 IPv6 GIDs are what the SA tests need (the SA responder is reached
 * by sa_gid: Documentation/admin-guide.rst, InfiniBand SA).
 */
TEST(rxe_ports_have_ipv6_gids)
{
	const char *ibdev[2] = { RAI_IBDEV_A,
				 RAI_IBDEV_B };
	const char *ip6[2] = { RAI_IP6_A,
			       RAI_IP6_B };
	int i, idx;

	for (i = 0; i < 2; i++) {
		struct in6_addr want, got;
		int found = 0;

		ASSERT_EQ(1, inet_pton(AF_INET6, ip6[i], &want));
		for (idx = 0; idx < 16 && !found; idx++) {
			char path[256], buf[64];

			snprintf(path, sizeof(path),
				 "/sys/class/infiniband/%s/ports/1/gids/%d",
				 ibdev[i], idx);
			if (read_file(path, buf, sizeof(buf)) <= 0)
				continue;
			buf[strcspn(buf, "\n")] = '\0';
			if (inet_pton(AF_INET6, buf, &got) == 1 &&
			    !memcmp(&got, &want, sizeof(got)))
				found = 1;
		}
		EXPECT_TRUE(found) {
			TH_LOG("no GID %s on %s", ip6[i], ibdev[i]);
		}
	}
}

/*
 * An RDMA CM connection from A to B, with the packets counted by both rxe
 * devices: proof that the traffic crossed the veth wire and not lo.
 */
TEST(rdma_cm_connection_crosses_the_wire)
{
	const char *ip_b = RAI_IP4_B;
	const char *dev_a = RAI_IBDEV_A;
	const char *dev_b = RAI_IBDEV_B;
	long sent_before = read_counter(dev_a, "sent_pkts");
	long rcvd_before = read_counter(dev_b, "rcvd_pkts");
	int status = 0, tries, rc;
	char cmd[512];
	pid_t server;

	ASSERT_LE(0, sent_before);
	ASSERT_LE(0, rcvd_before);
	server = fork();
	ASSERT_LE(0, server);
	if (server == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execlp("rping", "rping", "-s", "-a", ip_b, "-C", "3", NULL);
		_exit(127);
	}
	/*
	 * The client again while the server is not listening yet (rejected
	 * at once): under a loaded emulator its start may take seconds.
	 * Within the harness's 30 s; the server serves one client.
	 */
	snprintf(cmd, sizeof(cmd),
		 "timeout 8 rping -c -a %s -C 3 >/dev/null 2>&1", ip_b);
	for (tries = 0, rc = -1; rc && tries < 10; tries++) {
		usleep(500000);	/* the pace of the tries, 10 at most */
		rc = system(cmd);
		if (rc && waitpid(server, &status, WNOHANG) == server) {
			server = 0;	/* the server gave up: no use trying */
			break;
		}
	}
	EXPECT_EQ(0, rc) {
		TH_LOG("rping client: status %d after %d tries", rc, tries);
	}
	if (server && rc)
		kill(server, SIGKILL);
	if (server)
		ASSERT_EQ(server, waitpid(server, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_LE(sent_before + 6, read_counter(dev_a, "sent_pkts"));
	EXPECT_LE(rcvd_before + 6, read_counter(dev_b, "rcvd_pkts"));
}

static int count_answers(const char *name, int type)
{
	unsigned char answer[4096];
	ns_msg msg;
	int len;

	len = res_query(name, ns_c_in, type, answer, sizeof(answer));
	if (len < 0)
		return -1;
	if (ns_initparse(answer, len, &msg) < 0)
		return -2;
	return ns_msg_count(msg, ns_s_an);
}

TEST(dnsmasq_serves_the_test_zone)
{
	ASSERT_EQ(0, res_init());
	EXPECT_EQ(3, count_answers(RAI_ZONE_MULTI, ns_t_a));
	EXPECT_EQ(1, count_answers(RAI_ZONE_MULTI, ns_t_aaaa));
	EXPECT_EQ(-1, count_answers(RAI_ZONE_MISSING, ns_t_a));
	EXPECT_EQ(HOST_NOT_FOUND, h_errno);
}

/* The kernel's dns_resolver key type, through request-key and its helper. */
TEST(dns_resolver_upcall_resolves_a_test_name)
{
	char buf[512];
	long id, n;

	id = syscall(SYS_request_key, "dns_resolver", RAI_ZONE_MULTI,
		     "list", KEY_SPEC_PROCESS_KEYRING);
	ASSERT_LT(0, id) {
		TH_LOG("request_key: %s", strerror(errno));
	}
	n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf) - 1);
	ASSERT_LT(0, n);
	buf[n] = '\0';
	EXPECT_NE(NULL, strstr(buf, "192.0.2.10"));
	EXPECT_NE(NULL, strstr(buf, "192.0.2.11"));
	EXPECT_NE(NULL, strstr(buf, "192.0.2.12"));
	EXPECT_NE(NULL, strstr(buf, "2001:db8::10")) {
		TH_LOG("payload: %s", buf);
	}
}

TEST_HARNESS_MAIN
