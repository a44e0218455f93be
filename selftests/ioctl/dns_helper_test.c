// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's own DNS helper: "rai:NAME" keys go to
 * rdma-addrinfo-dns-helper (request-key.d), which reports NXDOMAIN, NODATA
 * and server failures apart; without it installed, or with the module
 * parameter dns_helper off, key.dns_resolver answers the plain name.  The
 * helper runs as root for anyone's "rai:" key: a user gets one plain name
 * answered, never a batch (the module's alone).
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <netdb.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define HELPER_PARAM	"/sys/module/" RAI_MODULE_NAME "/parameters/dns_helper"
/* Same directory (/etc is a mount of its own), not named *.conf. */
#define HELPER_CONF_AWAY RAI_HELPER_CONF ".away"
#define HELPER_PROG	"rdma-addrinfo-dns-helper"
#define KEYUTILS_PROG	"key.dns_resolver"
/* default_ttl there is the TTL of a name of /etc/hosts (and caps DNS's). */
#define KEYUTILS_CONF	"/etc/keyutils/key.dns_resolver.conf"
/* Names "hslow-*" go to the helper through a wrapper that exits late. */
#define SLOW_CONF	"/etc/request-key.d/rai-test-slowexit.conf"
#define SLOW_PROG	"/run/rai-test-slowexit"
#define SLOW_RAN	"/run/rai-test-slowexit.ran"

FIXTURE(helper) {
	int fd;
	struct rdma_addrinfo_result *res;
	__u32 n;
	__s32 status;
	bool conf_away;
	bool param_off;
	bool ttl_conf;
	bool slow_conf;
	char hosts_line[256];
};

FIXTURE_SETUP(helper)
{
	int ret;

	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(helper)
{
	/* Back in place first: removing the counter restores its content. */
	if (self->conf_away && rename(HELPER_CONF_AWAY, RAI_HELPER_CONF))
		TH_LOG("could not put %s back: %s", RAI_HELPER_CONF,
		       strerror(errno));
	rai_upcall_counter_remove();
	if (self->slow_conf) {
		unlink(SLOW_CONF);
		unlink(SLOW_PROG);
		unlink(SLOW_RAN);
	}
	if (self->ttl_conf)
		unlink(KEYUTILS_CONF);
	if (self->param_off)
		rai_sh("echo Y > " HELPER_PARAM);
	rai_hosts_remove(self->hosts_line);
	RAI_LOOKUP_TEARDOWN();
}

#define LOOKUP(node) RAI_LOOKUP(node, NULL, AF_UNSPEC, 0)

/* Did an upcall after the first @from ones run a program named @prog? */
static bool upcall_ran(long from, const char *prog)
{
	char line[512];
	bool seen = false;
	long i = 0;
	FILE *f = fopen(RAI_UPCALL_LOG, "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (i++ >= from && strstr(line, prog))
			seen = true;
	fclose(f);
	return seen;
}

/* The response code the server gives for @name (A), or -1 if none. */
static int server_rcode(const char *name)
{
	unsigned char buf[512] = { 0 };
	const HEADER *hdr = (const HEADER *)buf;

	if (res_query(name, ns_c_in, ns_t_a, buf, sizeof(buf)) >= 0)
		return ns_r_noerror;
	return hdr->qr ? (int)hdr->rcode : -1;
}

/* A name of our own in /etc/hosts, never looked up before. */
static const char *hosts_name(struct __test_metadata *_metadata,
			      FIXTURE_DATA(helper) *self, char *name,
			      size_t size, const char *tag)
{
	static unsigned int seq;

	snprintf(name, size, "%s-%d-%u.rai.example", tag, getpid(), ++seq);
	EXPECT_EQ(0, rai_hosts_add(self->hosts_line, sizeof(self->hosts_line),
				   "192.0.2.202", name));
	return name;
}

TEST_F(helper, world_routes_rai_keys_to_the_helper)
{
	char line[16] = "";
	FILE *f;

	ASSERT_EQ(0, access(RAI_HELPER_CONF, R_OK))
		TH_LOG("%s missing: setup-world installs it", RAI_HELPER_CONF);
	ASSERT_EQ(0, rai_sh("grep -q '^create[[:space:]]*dns_resolver[[:space:]]*rai:\\*' "
			    RAI_HELPER_CONF));
	f = fopen(HELPER_PARAM, "re");
	ASSERT_NE(NULL, f) TH_LOG("the module has no dns_helper parameter");
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	EXPECT_EQ('Y', line[0]) TH_LOG("dns_helper is on by default");
}

TEST_F(helper, nxdomain_enxio_from_the_helper)
{
	char name[128];
	long c0 = rai_upcall_count();

	LOOKUP(rai_unique_name(name, sizeof(name), "hnx"));
	EXPECT_EQ(-ENXIO, self->status);
	EXPECT_EQ(0, self->n);
	EXPECT_TRUE(upcall_ran(c0, HELPER_PROG))
		TH_LOG("the helper did not answer rai:%s", name);
	EXPECT_FALSE(upcall_ran(c0, KEYUTILS_PROG));
}

TEST_F(helper, name_without_addresses_enodata_not_enxio)
{
	const char *name = rai_env("RAI_NOADDR_NAME", RAI_ZONE_NOADDR);

	ASSERT_EQ(NO_DATA, rai_dns_server_answer(name, ns_t_a))
		TH_LOG("world: %s needs a TXT record only", name);
	LOOKUP(name);
	EXPECT_EQ(-ENODATA, self->status);
	EXPECT_EQ(0, self->n);
}

/*
 * The test world's dnsmasq has no upstream server: names outside its zone
 * are refused, a permanent failure (-EREMOTEIO, EAI_FAIL), not NXDOMAIN.
 */
TEST_F(helper, server_refusal_eremoteio)
{
	char name[128];
	int server;

	snprintf(name, sizeof(name), "refused-%d.rai-outside.example",
		 getpid());
	server = server_rcode(name);
	ASSERT_EQ(ns_r_refused, server)
		TH_LOG("world: the DNS server answers rcode %d for %s, not REFUSED",
		       server, name);
	LOOKUP(name);
	EXPECT_EQ(-EREMOTEIO, self->status);
	EXPECT_EQ(0, self->n);
}

TEST_F(helper, resolved_name_comes_from_the_helper)
{
	char name[96];
	long c0 = rai_upcall_count();

	LOOKUP(hosts_name(_metadata, self, name, sizeof(name), "hok"));
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.202"));
	EXPECT_TRUE(upcall_ran(c0, HELPER_PROG));
	EXPECT_FALSE(upcall_ran(c0, KEYUTILS_PROG));
}

TEST_F(helper, helper_not_installed_falls_back_to_key_dns_resolver)
{
	long long f0, f1;
	char name[96];
	long c0;

	f0 = rai_stat("dns_fallbacks");
	ASSERT_LE(0, f0) TH_LOG("no dns_fallbacks counter");
	ASSERT_EQ(0, rename(RAI_HELPER_CONF, HELPER_CONF_AWAY));
	self->conf_away = true;
	c0 = rai_upcall_count();
	LOOKUP(hosts_name(_metadata, self, name, sizeof(name), "hfb"));
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(1, rai_count_dst(self->res, self->n, "192.0.2.202"));
	f1 = rai_stat("dns_fallbacks");
	EXPECT_EQ(f0 + 1, f1);
	EXPECT_TRUE(upcall_ran(c0, KEYUTILS_PROG));
	EXPECT_FALSE(upcall_ran(c0, HELPER_PROG));
}

TEST_F(helper, dns_helper_off_asks_key_dns_resolver_only)
{
	long long f0;
	char name[96];
	long c0;

	f0 = rai_stat("dns_fallbacks");
	ASSERT_EQ(0, rai_sh("echo N > " HELPER_PARAM));
	self->param_off = true;
	c0 = rai_upcall_count();
	LOOKUP(hosts_name(_metadata, self, name, sizeof(name), "hoff"));
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(f0, rai_stat("dns_fallbacks"));
	EXPECT_EQ(c0 + 1, rai_upcall_count()) TH_LOG("one upcall, no retry");
	EXPECT_TRUE(upcall_ran(c0, KEYUTILS_PROG));
	EXPECT_FALSE(upcall_ran(c0, HELPER_PROG));
}

/* Names of /etc/hosts get @secs of TTL from the helper (default_ttl). */
static void set_default_ttl(struct __test_metadata *_metadata,
			    FIXTURE_DATA(helper) *self, unsigned int secs)
{
	ASSERT_NE(0, access(KEYUTILS_CONF, F_OK))
		TH_LOG("%s exists already; not touching it", KEYUTILS_CONF);
	self->ttl_conf = true;
	ASSERT_EQ(0, rai_sh("mkdir -p /etc/keyutils && echo 'default_ttl = %u' > "
			    KEYUTILS_CONF, secs));
}

/*
 * Names "hslow-*" to the program of the helper's line (the upcall
 * counter's wrapper, then the helper) through SLOW_PROG, which returns
 * 1.5 s after it.
 */
static void install_slow_route(struct __test_metadata *_metadata,
			       FIXTURE_DATA(helper) *self)
{
	static const char script[] =
		"#!/bin/sh\n"
		"touch " SLOW_RAN "\n"
		"\"$@\"\n"
		"rc=$?\n"
		"sleep 1.5	# a slow helper on purpose: time itself\n"
		"exit $rc\n";
	char line[512], prog[400] = "";
	FILE *f;
	int n;

	f = fopen(RAI_HELPER_CONF, "re");
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", RAI_HELPER_CONF, strerror(errno));
	while (!prog[0] && fgets(line, sizeof(line), f)) {
		n = 0;
		if (sscanf(line, " create dns_resolver rai:* %*s %n", &n) == 0 &&
		    n)
			snprintf(prog, sizeof(prog), "%s", line + n);
	}
	fclose(f);
	ASSERT_NE(0, prog[0]) TH_LOG("no rai:* line in %s", RAI_HELPER_CONF);
	self->slow_conf = true;
	f = fopen(SLOW_PROG, "we");
	ASSERT_NE(NULL, f);
	fputs(script, f);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, chmod(SLOW_PROG, 0755));
	f = fopen(SLOW_CONF, "we");
	ASSERT_NE(NULL, f);
	fprintf(f, "create dns_resolver rai:hslow-* * %s %s", SLOW_PROG, prog);
	ASSERT_EQ(0, fclose(f));
}

/*
 * Key lifetimes count whole seconds: a key given 1 s just before a second
 * ends expires within a millisecond.  If it expires before request-key has
 * returned, the kernel fails the upcall with -ENOKEY however valid the
 * answer, and the module fell back to key.dns_resolver (one address, a
 * shared key).  A wrapper that returns 1.5 s after the helper makes that
 * certain here; it happened by chance before, most on slow kernels.  The
 * helper's key lives at least 5 s; its answer says when its records end,
 * and an answer already past them is used, kept nowhere, with TTL 0.
 */
TEST_F_TIMEOUT(helper, one_second_ttl_key_outlives_a_slow_upcall, 90)
{
	long long f0, s0;
	char name[96];

	set_default_ttl(_metadata, self, 1);
	install_slow_route(_metadata, self);
	f0 = rai_stat("dns_fallbacks");
	s0 = rai_stat("dns_stale_keys");

	LOOKUP(hosts_name(_metadata, self, name, sizeof(name), "hslow"));
	EXPECT_EQ(0, access(SLOW_RAN, F_OK))
		TH_LOG("request-key did not run %s", SLOW_PROG);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[0].origin)
		TH_LOG("origin %u: the helper's key expired in its upcall",
		       self->res[0].origin);
	EXPECT_EQ(f0, rai_stat("dns_fallbacks"));
	EXPECT_EQ(0, self->res[0].ttl)
		TH_LOG("an answer 1.5 s old with a TTL of 1 s");
	EXPECT_LT(s0, rai_stat("dns_stale_keys"));
}

/*
 * The other side of that floor: the key of a name with a TTL of 1 s lives
 * 5 s in the keyring, but the module asks for the name again once its
 * records have expired instead of reading the old key.
 */
TEST_F_TIMEOUT(helper, key_past_its_records_ttl_is_asked_again, 90)
{
	long long s0;
	char name[96];
	long c0;

	set_default_ttl(_metadata, self, 1);
	hosts_name(_metadata, self, name, sizeof(name), "httl");
	s0 = rai_stat("dns_stale_keys");
	c0 = rai_upcall_count();
	LOOKUP(name);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[0].origin);
	EXPECT_GE(1, self->res[0].ttl);
	EXPECT_EQ(c0 + 1, rai_upcall_count());
	ASSERT_EQ(0, rai_lookup_release(-1, self->res, self->n));
	self->res = NULL;
	self->n = 0;

	usleep(1500 * 1000);	/* past the records' TTL of 1 s: time itself */
	EXPECT_EQ(0, rai_sh("grep 'rai:%s' /proc/keys | grep -qv ' expd '",
			    name))
		TH_LOG("the key of rai:%s has expired: no floor", name);
	LOOKUP(name);
	ASSERT_EQ(0, self->status);
	ASSERT_EQ(1, self->n);
	EXPECT_EQ(RDMA_ADDRINFO_ORIGIN_DNS, self->res[0].origin);
	EXPECT_EQ(c0 + 2, rai_upcall_count())
		TH_LOG("the name was not asked for again");
	EXPECT_EQ(s0 + 1, rai_stat("dns_stale_keys"));
}

/*
 * The helper reads its key's description field by field: "type;uid;gid;
 * perm;" and then the description whole.  Split at the last ';', the key
 * "rai:nosuch;rai:NAME" (made from user space: request-key hands it to the
 * helper like the module's own) would be answered with NAME's addresses.
 */
TEST_F(helper, key_description_not_split_at_its_last_semicolon)
{
	char name[96];
	long c0;

	hosts_name(_metadata, self, name, sizeof(name), "hdesc");
	c0 = rai_upcall_count();
	EXPECT_NE(0, rai_sh("keyctl request2 dns_resolver 'rai:nosuch;rai:%s' '' @s >/dev/null 2>&1",
			    name))
		TH_LOG("the helper answered rai:nosuch;rai:%s as %s", name,
		       name);
	EXPECT_TRUE(upcall_ran(c0, HELPER_PROG));
	/* The same route works for the plain description. */
	EXPECT_EQ(0, rai_sh("keyctl request2 dns_resolver 'rai:%s' '' @s >/dev/null",
			    name));
}

/* ---- requests of users ------------------------------------------------ */

/*
 * request-key runs the helper as root for whoever asks for a "rai:" key.
 * It answers a batch only when the module asked (uid 0 and the kernel's
 * ".dns_resolver" thread keyring, request-key's %u and %T); a user gets
 * what key.dns_resolver would give: one name, answered plainly.  Before,
 * `keyctl request2 dns_resolver rai:@x 'rai-batch n1 ... n64' @s` had root
 * resolve 64 names of the user's choosing on 16 threads.
 */
#define USER_UID	65534
/* Callout information as the module's batch keys carry it. */
#define USER_CALLOUT	"rai-batch a.rai.test b.rai.test"

FIXTURE(user_keys) {
	char hosts_line[256];
};

FIXTURE_SETUP(user_keys)
{
	int ret;

	ASSERT_EQ(0, access(RAI_HELPER_CONF, R_OK))
		TH_LOG("%s missing: setup-world installs it", RAI_HELPER_CONF);
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(user_keys)
{
	rai_upcall_counter_remove();
	rai_hosts_remove(self->hosts_line);
}

/* What a user's request for a dns_resolver key got. */
struct user_key {
	enum {
		USER_KEY_ERROR,		/* the user could not ask */
		USER_KEY_REFUSED,	/* request_key() failed: err */
		USER_KEY_PLAIN,		/* instantiated, a list of addresses */
		USER_KEY_BATCH,		/* instantiated with a batch's answer */
	} result;
	int err;
	char payload[4096];
};

/*
 * request_key(2) of the dns_resolver key @desc with @callout, as USER_UID
 * in a session keyring of its own, as `keyctl request2` does; 0 with
 * *@uk filled in, or -errno.
 */
static int request_as_user(const char *desc, const char *callout,
			   struct user_key *uk)
{
	struct user_key *shared;
	int status, ret = 0;
	pid_t pid;
	long id, n;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -errno;
	memset(shared, 0, sizeof(*shared));
	pid = rai_fork_as(USER_UID);
	if (pid < 0) {
		munmap(shared, sizeof(*shared));
		return (int)pid;
	}
	if (!pid) {
		/* Root's session keyring is not the user's to write. */
		if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0) {
			shared->err = errno;
			_exit(0);
		}
		id = syscall(SYS_request_key, "dns_resolver", desc, callout,
			     KEY_SPEC_SESSION_KEYRING);
		if (id < 0) {
			shared->result = USER_KEY_REFUSED;
			shared->err = errno;
			_exit(0);
		}
		n = syscall(SYS_keyctl, KEYCTL_READ, id, shared->payload,
			    sizeof(shared->payload) - 1);
		if (n < 0) {
			shared->err = errno;
			_exit(0);
		}
		shared->payload[n < (long)sizeof(shared->payload) ? n :
				(long)sizeof(shared->payload) - 1] = '\0';
		shared->result = strncmp(shared->payload, "rai-batch", 9) ?
				 USER_KEY_PLAIN : USER_KEY_BATCH;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		ret = -errno;
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		ret = -ECHILD;
	*uk = *shared;
	munmap(shared, sizeof(*shared));
	return ret;
}

/* A user's batch key is a name like any other: "@rai-hostile-PID" fails. */
TEST_F_TIMEOUT(user_keys, user_batch_key_gets_no_batch_answer, 90)
{
	struct user_key uk;
	char desc[64];
	long c0 = rai_upcall_count();

	snprintf(desc, sizeof(desc), "rai:@rai-hostile-%d", getpid());
	ASSERT_EQ(0, request_as_user(desc, USER_CALLOUT, &uk));
	ASSERT_NE(USER_KEY_ERROR, uk.result)
		TH_LOG("uid %d could not ask: %s", USER_UID, strerror(uk.err));
	EXPECT_TRUE(upcall_ran(c0, HELPER_PROG))
		TH_LOG("the helper was not asked for %s", desc);
	EXPECT_NE(USER_KEY_BATCH, uk.result)
		TH_LOG("uid %d got a batch answer for %s: %.200s", USER_UID,
		       desc, uk.payload);
	if (uk.result == USER_KEY_REFUSED)
		TH_LOG("%s refused: %s, as a name it is", desc,
		       strerror(uk.err));
	else
		TH_LOG("%s instantiated as a name: %.200s", desc, uk.payload);
}

/*
 * A user's "rai:NAME" with a batch's callout: NAME's addresses (and its
 * canonical name, itself), no more.
 */
TEST_F_TIMEOUT(user_keys, user_name_key_gets_one_plain_answer, 90)
{
	char name[96], desc[128], list[160];
	struct user_key uk;
	long c0;

	snprintf(name, sizeof(name), "huser-%d.rai.example", getpid());
	snprintf(list, sizeof(list), "192.0.2.203,canon=%s,until=", name);
	ASSERT_EQ(0, rai_hosts_add(self->hosts_line, sizeof(self->hosts_line),
				   "192.0.2.203", name));
	snprintf(desc, sizeof(desc), "rai:%s", name);
	c0 = rai_upcall_count();
	ASSERT_EQ(0, request_as_user(desc, USER_CALLOUT, &uk));
	ASSERT_EQ(USER_KEY_PLAIN, uk.result)
		TH_LOG("%s: result %d, %s, payload '%.200s'", desc, uk.result,
		       strerror(uk.err), uk.payload);
	EXPECT_TRUE(upcall_ran(c0, HELPER_PROG))
		TH_LOG("the helper was not asked for %s", desc);
	EXPECT_EQ(0, strncmp(uk.payload, list, strlen(list)))
		TH_LOG("payload '%.200s': not %s's one address", uk.payload,
		       name);
	EXPECT_EQ(NULL, strchr(uk.payload, '\n'))
		TH_LOG("payload '%.200s': more than one line", uk.payload);
}

TEST_HARNESS_MAIN
