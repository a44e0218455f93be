// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The kernel's dns_resolver key cache is shared with NFS, CIFS and Ceph:
 * they ask dns_query() for a plain name without options and read one
 * address.  Whatever the module asks, with its own helper on, off or not
 * installed, a later dns_query() made as NFS makes it (by the test module
 * selftests/kmod/rai_dnsq.ko, in the kernel: a keyctl from user space
 * searches other keyrings) must get one address, not "a,b".  Without the
 * helper the module says so: origin DNS_SINGLE, the dns_single counter,
 * one kernel log line.  Names shorter than 3 bytes resolve.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define HELPER_PARAM	"/sys/module/" RAI_MODULE_NAME "/parameters/dns_helper"
#define HELPER_CONF_AWAY RAI_HELPER_CONF ".away"
#define DNSQ_FILE	"/sys/kernel/debug/rai_dnsq/query"
/* Built for the running kernel; RAI_DNSQ_KO: another build (debug lane). */
#define DNSQ_KO		"selftests/kmod/rai_dnsq.ko"
#define ADDR4		"192.0.2.205"
#define ADDR6		"2001:db8::205"
#define SHORT_ADDR	"192.0.2.206"
#define SINGLE_LOG	"rdma-addrinfo-dns-helper not used"

FIXTURE(keyring) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
	bool conf_away;
	bool param_off;
	char line4[256];
	char line6[256];
	char name[128];
};

FIXTURE_SETUP(keyring)
{
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	if (access(DNSQ_FILE, W_OK))
		ASSERT_EQ(0, rai_sh("insmod %s/%s", rai_env("RAI_REPO", "."),
				    rai_env("RAI_DNSQ_KO", DNSQ_KO)))
			TH_LOG("cannot load the test module %s",
			       rai_env("RAI_DNSQ_KO", DNSQ_KO));
}

FIXTURE_TEARDOWN(keyring)
{
	if (self->conf_away && rename(HELPER_CONF_AWAY, RAI_HELPER_CONF))
		TH_LOG("could not put %s back: %s", RAI_HELPER_CONF,
		       strerror(errno));
	if (self->param_off)
		rai_sh("echo Y > " HELPER_PARAM);
	rai_hosts_remove(self->line4);
	rai_hosts_remove(self->line6);
	rai_sh("rmmod rai_dnsq");
	RAI_LOOKUP_TEARDOWN();
}

#define LOOKUP(node) RAI_LOOKUP(node, NULL, AF_UNSPEC, 0)

/* dns_query(net, NULL, name, len, NULL, &res, NULL, false), as NFS: 0 or -errno. */
static int nfs_query(const char *name, char *result, size_t size)
{
	char out[1100] = "", payload[1024] = "";
	int ret, status;
	FILE *f = fopen(DNSQ_FILE, "r+e");

	if (!f)
		return -errno;
	ret = fprintf(f, "%s", name) < 0 || fflush(f) ? -EIO : 0;
	rewind(f);
	if (!ret && !fgets(out, sizeof(out), f))
		ret = -EIO;
	fclose(f);
	if (ret)
		return ret;
	if (sscanf(out, "%d %1023[^\n]", &status, payload) < 1)
		return -EIO;
	snprintf(result, size, "%s", payload);
	return status < 0 ? status : 0;
}

/* A dual-stack name of our own in /etc/hosts, never looked up before. */
static const char *dual_name(struct __test_metadata *_metadata,
			     FIXTURE_DATA(keyring) *self, const char *tag)
{
	static unsigned int seq;

	snprintf(self->name, sizeof(self->name), "%s-%d-%u.rai.example", tag,
		 getpid(), ++seq);
	EXPECT_EQ(0, rai_hosts_add(self->line4, sizeof(self->line4), ADDR4,
				   self->name));
	EXPECT_EQ(0, rai_hosts_add(self->line6, sizeof(self->line6), ADDR6,
				   self->name));
	return self->name;
}

/* A name of two bytes in /etc/hosts (dns_query() refuses such names). */
static const char *short_name(struct __test_metadata *_metadata,
			      FIXTURE_DATA(keyring) *self, char first)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	snprintf(self->name, sizeof(self->name), "%c%c", first,
		 digits[getpid() % 36]);
	EXPECT_EQ(0, rai_hosts_add(self->line4, sizeof(self->line4),
				   SHORT_ADDR, self->name));
	return self->name;
}

/* After the module resolved @name: what NFS gets is one address. */
#define EXPECT_NFS_GETS_ONE_ADDRESS(name) do { \
	char _res[1024]; \
	int _ret = nfs_query(name, _res, sizeof(_res)); \
	ASSERT_EQ(0, _ret) TH_LOG("dns_query(%s) as NFS: %s", name, \
				  strerror(-_ret)); \
	EXPECT_EQ(NULL, strchr(_res, ',')) \
		TH_LOG("NFS's key for %s holds \"%s\", not one address", \
		       name, _res); \
	EXPECT_STREQ(ADDR4, _res); \
} while (0)

static long dmesg_count(const char *text)
{
	return rai_sh_number("dmesg | grep -c '%s'", text);
}

/* Without the helper: one IPv4 address, and the module says so. */
#define EXPECT_SINGLE_ANSWER() do { \
	ASSERT_EQ(0, self->status); \
	ASSERT_EQ(1, self->n); \
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, ADDR4)); \
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS_SINGLE, self->res[0].origin); \
	EXPECT_LT(0, self->res[0].ttl); \
} while (0)

/* A dual-stack name, looked up without the helper: one address, said so. */
#define LOOKUP_WITHOUT_HELPER(tag) do { \
	long long _s0 = rai_stat("dns_single"); \
	LOOKUP(dual_name(_metadata, self, tag)); \
	EXPECT_NFS_GETS_ONE_ADDRESS(self->name); \
	EXPECT_SINGLE_ANSWER(); \
	EXPECT_EQ(_s0 + 1, rai_stat("dns_single")); \
} while (0)

TEST_F(keyring, helper_off_nfs_still_gets_one_address)
{
	ASSERT_EQ(0, rai_sh("echo N > " HELPER_PARAM));
	self->param_off = true;
	LOOKUP_WITHOUT_HELPER("koff");
}

TEST_F(keyring, helper_not_installed_nfs_still_gets_one_address)
{
	ASSERT_EQ(0, rename(RAI_HELPER_CONF, HELPER_CONF_AWAY));
	self->conf_away = true;
	LOOKUP_WITHOUT_HELPER("kmiss");
}

TEST_F(keyring, helper_on_every_address_and_nfs_gets_one)
{
	long long s0 = rai_stat("dns_single");
	__u32 i;

	LOOKUP(dual_name(_metadata, self, "kon"));
	ASSERT_EQ(0, self->status);
	EXPECT_EQ(2, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, ADDR4));
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, ADDR6));
	for (i = 0; i < self->n; i++)
		EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[i].origin);
	EXPECT_EQ(s0, rai_stat("dns_single"));
	EXPECT_NFS_GETS_ONE_ADDRESS(self->name);
}

TEST_F(keyring, helper_off_said_once_in_the_kernel_log)
{
	char name2[160];
	long before;

	ASSERT_EQ(0, rai_sh("echo N > " HELPER_PARAM));
	self->param_off = true;
	before = dmesg_count(SINGLE_LOG);
	LOOKUP(dual_name(_metadata, self, "klog"));
	EXPECT_SINGLE_ANSWER();
	rai_lookup_release(-1, self->res, self->n);
	self->res = NULL;
	snprintf(name2, sizeof(name2), "%s", self->name);
	LOOKUP(name2);
	EXPECT_SINGLE_ANSWER();
	EXPECT_LE(1, dmesg_count(SINGLE_LOG)) TH_LOG("nothing in the log");
	EXPECT_GE(before + 1, dmesg_count(SINGLE_LOG))
		TH_LOG("more than one log line");
}

/* A two-byte name resolves, with results of origin @want. */
#define LOOKUP_SHORT(first, want) do { \
	LOOKUP(short_name(_metadata, self, first)); \
	ASSERT_EQ(0, self->status) TH_LOG("%s: %s", self->name, \
					  strerror(-self->status)); \
	ASSERT_EQ(1, self->n); \
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, SHORT_ADDR)); \
	EXPECT_EQ(want, self->res[0].origin); \
} while (0)

TEST_F(keyring, two_byte_name_resolves_with_the_helper)
{
	LOOKUP_SHORT('k', RDMA_ADDRINFO_ORIGIN_DNS);
}

TEST_F(keyring, two_byte_name_resolves_without_the_helper)
{
	ASSERT_EQ(0, rai_sh("echo N > " HELPER_PARAM));
	self->param_off = true;
	LOOKUP_SHORT('j', RDMA_ADDRINFO_ORIGIN_DNS_SINGLE);
}

TEST_HARNESS_MAIN
