// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Containers: the DNS upcall runs in the host's namespaces and reads the
 * host's /etc/hosts and resolver.  A process in its own network and mount
 * namespace (a pod) with its own /etc/hosts must get its own answer or the
 * documented -EPERM, never the host's entry; dns_host_view=Y lets the
 * administrator answer it from the host's view.  A process whose own mount
 * namespace shows the host's files is answered; numeric literals need no
 * upcall and always work.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define VIEW_PARAM	"/sys/module/" RAI_MODULE_NAME "/parameters/dns_host_view"
#define HOST_ADDR	"192.0.2.207"
#define POD_ADDR	"192.0.2.208"
#define POD_HOSTS	"/run/rai-test-pod-hosts"

FIXTURE(view) {
	char line[256];
	char name[128];
	bool param_on;
};

FIXTURE_SETUP(view)
{
	static unsigned int seq;

	snprintf(self->name, sizeof(self->name), "pod-%d-%u.rai.example",
		 getpid(), ++seq);
	ASSERT_EQ(0, rai_hosts_add(self->line, sizeof(self->line), HOST_ADDR,
				   self->name));
}

FIXTURE_TEARDOWN(view)
{
	if (self->param_on)
		rai_sh("echo N > " VIEW_PARAM);
	rai_hosts_remove(self->line);
	unlink(POD_HOSTS);
}

/* What a lookup in the child saw. */
struct outcome {
	int err;		/* setting up the namespaces, or the ioctls */
	__s32 status;
	__u32 n;
	int host_entry;		/* results that are the host's address */
	int own_entry;		/* results that are the pod's address */
};

#define NS_NET		0x1	/* own network namespace */
#define NS_MNT		0x2	/* own mount namespace */
#define OWN_HOSTS	0x4	/* own /etc/hosts (bind mount) */

/* Look @node up from a child in the namespaces @how asks for. */
static struct outcome lookup_in(const char *node, const char *own_line,
				unsigned int how)
{
	struct outcome o = { .err = -EIO };
	struct rdma_addrinfo_result *res = NULL;
	int p[2], flags = 0, fd;
	pid_t pid;
	FILE *f;

	if (pipe(p))
		return o;
	pid = fork();
	if (pid < 0)
		return o;
	if (!pid) {
		close(p[0]);
		o.err = 0;
		if (how & NS_NET)
			flags |= CLONE_NEWNET;
		if (how & NS_MNT)
			flags |= CLONE_NEWNS;
		if (flags && unshare(flags))
			o.err = -errno;
		if (!o.err && (how & NS_MNT) &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			o.err = -errno;
		if (!o.err && (how & OWN_HOSTS)) {
			f = fopen(POD_HOSTS, "we");
			if (!f || fprintf(f, "127.0.0.1\tlocalhost\n%s\n",
					  own_line) < 0 || fclose(f))
				o.err = -EIO;
			else if (mount(POD_HOSTS, "/etc/hosts", NULL, MS_BIND,
				       NULL))
				o.err = -errno;
		}
		if (!o.err) {
			fd = rai_dev_open(0);
			o.err = fd < 0 ? fd :
				rai_lookup_str(fd, node, NULL, AF_INET, 0, &res,
					       &o.n, &o.status);
			if (fd >= 0)
				close(fd);
		}
		if (!o.err && res) {
			o.host_entry = rai_count_dst(res, o.n, HOST_ADDR);
			o.own_entry = rai_count_dst(res, o.n, POD_ADDR);
		}
		free(res);
		if (write(p[1], &o, sizeof(o)) != sizeof(o))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &o, sizeof(o)) != sizeof(o))
		o.err = -EIO;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return o;
}

/* The pod's own /etc/hosts line for the test's name. */
static const char *pod_line(FIXTURE_DATA(view) *self, char *buf, size_t size)
{
	snprintf(buf, size, "%s\t%s", POD_ADDR, self->name);
	return buf;
}

TEST_F(view, pod_with_own_hosts_never_gets_the_host_entry)
{
	char line[256];
	struct outcome o = lookup_in(self->name, pod_line(self, line,
				     sizeof(line)), NS_NET | NS_MNT | OWN_HOSTS);

	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	EXPECT_EQ(0, o.host_entry)
		TH_LOG("the pod got the host's /etc/hosts entry %s", HOST_ADDR);
	if (o.status) {
		EXPECT_EQ(-EPERM, o.status);
	} else {
		EXPECT_EQ(1, o.own_entry);
	}
}

TEST_F(view, own_netns_with_host_files_refused_eperm)
{
	long long r0 = rai_stat("dns_view_refused");
	struct outcome o = lookup_in(self->name, NULL, NS_NET);

	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	EXPECT_EQ(-EPERM, o.status);
	EXPECT_EQ(0, o.n);
	EXPECT_EQ(r0 + 1, rai_stat("dns_view_refused"));
}

TEST_F(view, own_hosts_in_host_netns_refused_eperm)
{
	char line[256];
	struct outcome o = lookup_in(self->name, pod_line(self, line,
				     sizeof(line)), NS_MNT | OWN_HOSTS);

	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	EXPECT_EQ(-EPERM, o.status);
	EXPECT_EQ(0, o.host_entry);
}

TEST_F(view, own_mount_ns_with_the_host_files_answered)
{
	struct outcome o = lookup_in(self->name, NULL, NS_MNT);

	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	ASSERT_EQ(0, o.status) TH_LOG("%s", strerror(-o.status));
	EXPECT_EQ(1, o.host_entry);
}

TEST_F(view, numeric_literal_in_a_pod_needs_no_upcall)
{
	char line[256];
	struct outcome o = lookup_in("192.0.2.9", pod_line(self, line,
				     sizeof(line)), NS_NET | NS_MNT | OWN_HOSTS);

	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	EXPECT_EQ(0, o.status);
	EXPECT_EQ(1, o.n);
}

TEST_F(view, dns_host_view_answers_a_pod_from_the_host)
{
	char line[256];
	struct outcome o;

	ASSERT_EQ(0, rai_sh("echo Y > " VIEW_PARAM))
		TH_LOG("no dns_host_view parameter");
	self->param_on = true;
	o = lookup_in(self->name, pod_line(self, line, sizeof(line)),
		      NS_NET | NS_MNT | OWN_HOSTS);
	ASSERT_EQ(0, o.err) TH_LOG("namespaces: %s", strerror(-o.err));
	ASSERT_EQ(0, o.status) TH_LOG("%s", strerror(-o.status));
	EXPECT_EQ(1, o.host_entry);
}

TEST_HARNESS_MAIN
