// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One user must not starve or exhaust the others (Documentation/
 * admin-guide.rst, "Limits per user"):
 *
 *  - user A floods unique names whose upcalls never answer (held in the
 *    test's request-key wrapper) while user B resolves a name: B is
 *    answered within one upcall of its own, and A never holds more than
 *    max_upcalls_per_user upcalls;
 *  - the wait for an upcall slot counts toward dns_timeout_ms;
 *  - a user's requests over all its files are capped (EDQUOT) while
 *    another user's are not;
 *  - root's keys (/proc/key-users, the quota NFS and CIFS share) stay
 *    under the module's key budget while a user floods names, and a
 *    user past its own budget does not spend another's.
 *
 * The users are two uids of no account; the test runs as root in the VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rai_ioctl.h"
#include "rai_world.h"

#define UID_A		60001
#define UID_B		60002
#define UID_FRESH	61000
#define KEY_TTL_CONF	"/etc/keyutils/key.dns_resolver.conf"
#define PARAMS		"/sys/module/" RAI_MODULE_NAME "/parameters/"
/* Names with this tag wait in the request-key wrapper while held. */
#define HELD_TAG	"fairheld"
/*
 * The stated bound for B, generous on purpose: B's name needs one upcall
 * of its own, and starting one (request-key, a shell, exec over 9p) took
 * more than 10 s under TCG on a busy host (RAI_UPCALL_START_MS).  Without
 * fair slots B waits for A's held upcalls, i.e. forever.
 */
#define B_BOUND_MS	RAI_UPCALL_START_MS

struct saved_param {
	const char *name;
	char value[32];
};

/* Save a parameter and set it; restored by params_restore(). */
static int param_set(struct saved_param *save, const char *name,
		     const char *value)
{
	int ret = rai_param_get(name, save->value, sizeof(save->value));

	if (ret)
		return ret;
	save->name = name;
	return rai_param_set(name, value);
}

static void params_restore(struct saved_param *saved, int n)
{
	while (n--)
		if (saved[n].name)
			rai_param_set(saved[n].name, saved[n].value);
}

FIXTURE(fair) {
	int fd;
	pid_t a, b;
	struct saved_param saved[4];
	char hosts_pat[160];
	bool ttl_conf;
};

FIXTURE_SETUP(fair)
{
	int ret;

	self->a = self->b = 0;
	self->fd = rai_dev_open(O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
	ret = rai_upcall_counter_install();
	ASSERT_EQ(0, ret) TH_LOG("upcall counter: %s", strerror(-ret));
}

FIXTURE_TEARDOWN(fair)
{
	if (self->a > 0) {
		kill(self->a, SIGKILL);
		waitpid(self->a, NULL, 0);
	}
	if (self->b > 0) {
		kill(self->b, SIGKILL);
		waitpid(self->b, NULL, 0);
	}
	rai_upcall_release_names();
	rai_upcall_counter_remove();
	params_restore(self->saved, 4);
	if (self->ttl_conf)
		rai_sh("if [ -f " KEY_TTL_CONF ".rai ]; then mv " KEY_TTL_CONF
		       ".rai " KEY_TTL_CONF "; else rm -f " KEY_TTL_CONF "; fi");
	if (self->hosts_pat[0])
		rai_sh("grep -v '%s' /etc/hosts > /etc/hosts.rai; "
		       "mv -f /etc/hosts.rai /etc/hosts",	/* as rai_world.c */
		       self->hosts_pat);
	close(self->fd);
}

/* What the children report through their pipe. */
struct report {
	int ret;		/* first ioctl error, 0 */
	int status;		/* B: completion status */
	int eagain;		/* flood: completions with -EAGAIN */
	int ok;			/* flood: completions with status 0 */
	int other;		/* flood: first other status, 0 if none */
	long long ms;		/* B: time to the answer */
};

static int read_report(int rfd, struct report *rep, int timeout_ms)
{
	struct pollfd p = { .fd = rfd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -errno;
	if (!n)
		return -ETIMEDOUT;
	return read(rfd, rep, sizeof(*rep)) == sizeof(*rep) ? 0 : -EPIPE;
}

/*
 * Child as uid: n async lookups of fresh names with tag (or of names[i]).
 * wait == false: all at once, report once submitted.  wait == true: at
 * most FLOOD_WINDOW outstanding (so that none waits for a slot beyond
 * dns_timeout_ms), report once all are answered.  Then stay (keeping the
 * requests) until killed.
 */
#define FLOOD_WINDOW	16

static void flood(int wfd, const char *tag, char **names, int n, bool wait)
{
	struct report rep = { 0 };
	struct rdma_addrinfo_event ev;
	int fd, sent = 0, done = 0;
	char name[128];

	fd = rai_dev_open(O_NONBLOCK);
	if (fd < 0) {
		rep.ret = fd;
		goto out;
	}
	while (done < n) {
		while (sent < n && (!wait || sent - done < FLOOD_WINDOW)) {
			rep.ret = rai_resolve_async(fd, names ? names[sent] :
					rai_unique_name(name, sizeof(name), tag),
					NULL, AF_UNSPEC, 0, sent, NULL);
			if (rep.ret)
				goto out;
			sent++;
		}
		if (!wait)
			break;
		rep.ret = rai_wait_event(fd, &ev, 60000);
		if (rep.ret)
			break;
		done++;
		rep.ok += ev.status == 0;
		rep.eagain += ev.status == -EAGAIN;
		if (ev.status && ev.status != -EAGAIN && !rep.other)
			rep.other = ev.status;
	}
out:
	if (write(wfd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(2);
	for (;;)
		pause();
}

/* Child as uid: one synchronous lookup of name, timed. */
static void lookup_once(int wfd, const char *name)
{
	struct rdma_addrinfo_result *res = NULL;
	struct report rep = { 0 };
	long long t0 = rai_now_ms();
	__s32 status = 0;
	__u32 n = 0;
	int fd;

	fd = rai_dev_open(0);
	if (fd < 0) {
		rep.ret = fd;
	} else {
		rep.ret = rai_lookup_str(fd, name, NULL, AF_UNSPEC, 0, &res,
					 &n, &status);
		rep.status = status;
		rep.ok = n;
	}
	rep.ms = rai_now_ms() - t0;
	free(res);
	if (write(wfd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(2);
	_exit(0);
}

/*
 * A child as uid reporting on *rfd: one lookup of name if set, else a
 * flood (see flood()).
 */
static pid_t spawn(uid_t uid, int *rfd, const char *name, const char *tag,
		   char **names, int n, bool wait)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = rai_fork_as(uid);
	if (pid == 0) {
		close(p[0]);
		if (name)
			lookup_once(p[1], name);
		flood(p[1], tag, names, n, wait);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

#define spawn_flood(uid, rfd, tag, names, n, wait) \
	spawn(uid, rfd, NULL, tag, names, n, wait)
#define spawn_lookup(uid, rfd, name) spawn(uid, rfd, name, NULL, NULL, 0, false)

/* Slots one user can take: max_upcalls_per_user, or all of them. */
static unsigned int user_slots(const struct rdma_addrinfo_info *info)
{
	if (info->max_upcalls_per_user &&
	    info->max_upcalls_per_user < info->max_upcalls)
		return info->max_upcalls_per_user;
	return info->max_upcalls;
}

TEST_F_TIMEOUT(fair, flooding_user_does_not_delay_another_users_name, 180)
{
	struct rdma_addrinfo_info info;
	char bname[128], line[256];
	struct report rep;
	unsigned int slots;
	int rfd_a, rfd_b;
	long c0, c1;

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	slots = user_slots(&info);
	/*
	 * A takes every slot it may: each flooded name gets an upcall at
	 * once, not in a batch after the first (dns_batch_wait_ms).
	 */
	ASSERT_EQ(0, param_set(&self->saved[0], "dns_batch_wait_ms", "0"));
	/* B's name: in /etc/hosts only, never looked up before. */
	snprintf(bname, sizeof(bname), "fair-b-%d.rai.example", getpid());
	ASSERT_EQ(0, rai_hosts_add(line, sizeof(line), "192.0.2.77", bname));
	snprintf(self->hosts_pat, sizeof(self->hosts_pat), "%s", bname);

	ASSERT_EQ(0, rai_upcall_hold_names(HELD_TAG));
	c0 = rai_upcall_count();
	ASSERT_LE(0, c0);
	/* A: twice as many never-answered names as there are slots. */
	self->a = spawn_flood(UID_A, &rfd_a, HELD_TAG, NULL,
			      2 * info.max_upcalls, false);
	ASSERT_LT(0, self->a);
	ASSERT_EQ(0, read_report(rfd_a, &rep, 30000));
	ASSERT_EQ(0, rep.ret) TH_LOG("A's RESOLVE: %s", strerror(-rep.ret));
	/* Every slot A may take is taken, and held. */
	ASSERT_EQ(0, rai_upcall_wait_count(c0 + slots, RAI_UPCALL_START_MS))
		TH_LOG("A's upcalls did not start: %ld of %u",
		       rai_upcall_count() - c0, slots);

	self->b = spawn_lookup(UID_B, &rfd_b, bname);
	ASSERT_LT(0, self->b);
	ASSERT_EQ(0, read_report(rfd_b, &rep, B_BOUND_MS))
		TH_LOG("B not answered within %d ms while A floods (%ld upcalls started)",
		       B_BOUND_MS, rai_upcall_count() - c0);
	EXPECT_EQ(0, rep.ret);
	EXPECT_EQ(0, rep.status) TH_LOG("B's status %d after %lld ms",
					rep.status, rep.ms);
	EXPECT_EQ(1, rep.ok);
	TH_LOG("B answered in %lld ms while A held %u upcalls", rep.ms, slots);
	waitpid(self->b, NULL, 0);
	self->b = 0;

	/*
	 * A never got more than its share: its upcalls plus B's one.  B's
	 * freed slot had 0.5 s to go wrong: an absence, time is the test.
	 */
	usleep(500000);
	c1 = rai_upcall_count();
	EXPECT_LE(c1 - c0, (long)slots + 1)
		TH_LOG("%ld upcalls for %u slots of A and one of B", c1 - c0,
		       slots);
	close(rfd_a);
	close(rfd_b);
}

TEST_F_TIMEOUT(fair, slot_wait_counts_toward_dns_timeout, 120)
{
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_event ev;
	unsigned int i, n, timedout = 0;
	long long t0, last = 0;
	char name[128];

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	ASSERT_EQ(0, param_set(&self->saved[0], "dns_timeout_ms", "3000"));
	ASSERT_EQ(0, rai_upcall_hold_names(HELD_TAG));
	/* More held names than slots: some wait for a slot all along. */
	n = info.max_upcalls + 1;
	t0 = rai_now_ms();
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, rai_resolve_async(self->fd,
					       rai_unique_name(name, sizeof(name),
							       HELD_TAG),
					       NULL, AF_UNSPEC, 0, i, NULL));
	/* Each ends by its deadline, whether it got a slot or not. */
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, rai_wait_event(self->fd, &ev, 3000 + 20000))
			TH_LOG("%u of %u requests ended by dns_timeout_ms; the others wait for a slot without a deadline",
			       i, n);
		timedout += ev.status == -ETIMEDOUT;
		last = rai_now_ms() - t0;
	}
	EXPECT_EQ(n, timedout);
	TH_LOG("%u requests timed out, the last after %lld ms", n, last);
}

TEST_F_TIMEOUT(fair, per_user_request_cap_edquot_across_files, 60)
{
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_resolve r;
	int p[2], fds[2], i, st;
	struct report rep;
	pid_t pid;

	ASSERT_EQ(0, param_set(&self->saved[0], "max_requests_per_user", "6"));
	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	EXPECT_EQ(6, info.max_requests_per_user);

	/* A: 3 + 3 on two files, the 7th fails on either. */
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	self->a = rai_fork_as(UID_A);
	ASSERT_LE(0, self->a);
	if (!self->a) {
		memset(&rep, 0, sizeof(rep));
		fds[0] = rai_dev_open(0);
		fds[1] = rai_dev_open(0);
		for (i = 0; i < 6 && !rep.ret; i++)
			rep.ret = rai_resolve_sync_str(fds[i % 2], "192.0.2.1",
						       NULL, AF_INET, 0, &r);
		rep.status = rai_resolve_sync_str(fds[0], "192.0.2.1", NULL,
						  AF_INET, 0, &r);
		rep.eagain = rai_resolve_sync_str(fds[1], "192.0.2.1", NULL,
						  AF_INET, 0, &r);
		if (write(p[1], &rep, sizeof(rep)) != sizeof(rep))
			_exit(2);
		for (;;)
			pause();
	}
	close(p[1]);
	ASSERT_EQ(0, read_report(p[0], &rep, 20000));
	close(p[0]);
	EXPECT_EQ(0, rep.ret) TH_LOG("A's first 6: %s", strerror(-rep.ret));
	EXPECT_EQ(-EDQUOT, rep.status);
	EXPECT_EQ(-EDQUOT, rep.eagain);

	/* B, while A holds its 6: not affected. */
	pid = rai_fork_as(UID_B);
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = rai_dev_open(0);

		_exit(fd >= 0 && !rai_fd_works(fd) ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * Until the flood's report arrives on rfd (consumed, closed): the most
 * keys root held, sampled every 100 ms.
 */
static int watch_root_keys(int rfd, struct report *rep, long k0, long *kmax)
{
	long k;
	int ret;

	*kmax = k0;
	do {
		k = rai_key_user_keys(0);
		if (k > *kmax)
			*kmax = k;
		ret = read_report(rfd, rep, 100);
	} while (ret == -ETIMEDOUT);
	close(rfd);
	return ret;
}

/* Keys the module's records stand for (debugfs stats), 0 if not told. */
static long module_keys(void)
{
	FILE *f = fopen("/sys/kernel/debug/" RAI_MODULE_NAME "/stats", "re");
	char line[128];
	long n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "dns_keys %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* /etc/hosts names, resolvable, whose keys live 600 s. */
#define FLOOD_NAMES	200

TEST_F_TIMEOUT(fair, flood_of_names_keeps_roots_keys_under_the_budget, 240)
{
	struct rdma_addrinfo_info info;
	char *names[FLOOD_NAMES], bname[200], line[256];
	/* A user of its own: no keys charged by an earlier run. */
	uid_t uid_a = UID_FRESH + getpid() % 4096;
	long k0, kmax, budget = 80;
	struct report rep;
	char value[32];
	int rfd, i;
	FILE *f;

	ASSERT_EQ(0, rai_get_info(self->fd, &info));
	k0 = rai_key_user_keys(0);
	ASSERT_LE(0, k0) TH_LOG("/proc/key-users: %s", strerror(-k0));
	/*
	 * A user's budget holds half of it in cached keys plus its upcalls
	 * in progress (two keys each); the module's, two such users beyond
	 * what earlier tests left (their keys may live 600 s).  Without these
	 * parameters, go on: the figures show what happens.
	 */
	snprintf(value, sizeof(value), "%ld", module_keys() + budget);
	EXPECT_EQ(0, param_set(&self->saved[0], "dns_max_keys", value));
	EXPECT_EQ(0, param_set(&self->saved[1], "dns_max_keys_per_user",
			       "40"));
	/*
	 * One name per upcall, each leaving its key: a batch's key is gone
	 * once read (dns_batch_test), so only these need the budget.
	 */
	EXPECT_EQ(0, param_set(&self->saved[2], "dns_batch_names", "1"));
	/*
	 * 200 upcalls one after another outlast dns_timeout_ms's 20 s on a
	 * slow kernel (the debug kernel, busy); the budget is the point here.
	 */
	EXPECT_EQ(0, param_set(&self->saved[3], "dns_timeout_ms", "0"));
	/* Positive keys live long: only invalidation can bound them. */
	self->ttl_conf = true;
	ASSERT_EQ(0, rai_sh("mkdir -p /etc/keyutils; cp -a " KEY_TTL_CONF " "
			    KEY_TTL_CONF ".rai 2>/dev/null; "
			    "echo 'default_ttl = 600' > " KEY_TTL_CONF));
	snprintf(self->hosts_pat, sizeof(self->hosts_pat), "keyflood-%d-",
		 getpid());
	f = fopen("/etc/hosts", "ae");
	ASSERT_NE(NULL, f);
	for (i = 0; i < FLOOD_NAMES; i++) {
		ASSERT_LE(0, asprintf(&names[i], "%s%d.rai.example",
				      self->hosts_pat, i));
		fprintf(f, "192.0.2.%d\t%s\n", 1 + i % 200, names[i]);
	}
	fclose(f);

	self->a = spawn_flood(uid_a, &rfd, NULL, names, FLOOD_NAMES, true);
	ASSERT_LT(0, self->a);
	ASSERT_EQ(0, watch_root_keys(rfd, &rep, k0, &kmax));
	for (i = 0; i < FLOOD_NAMES; i++)
		free(names[i]);
	EXPECT_EQ(0, rep.ret);
	/* Every name resolved: beyond half the budget, keys are dropped. */
	EXPECT_EQ(FLOOD_NAMES, rep.ok)
		TH_LOG("%d refused (EAGAIN), first other status %d",
		       rep.eagain, rep.other);
	/*
	 * Root's keys: the budget, plus those of upcalls in progress (the
	 * key being built and request-key's session keyring) and keys
	 * invalidated but not yet collected.
	 */
	EXPECT_GE(k0 + budget + 2 * (long)info.max_upcalls, kmax)
		TH_LOG("root's keys went from %ld to %ld for %d names",
		       k0, kmax, FLOOD_NAMES);
	TH_LOG("root's keys: %ld before, at most %ld during the flood", k0,
	       kmax);
	kill(self->a, SIGKILL);
	waitpid(self->a, NULL, 0);
	self->a = 0;

	/*
	 * Missing names leave negative keys that cannot be dropped: A's own
	 * budget ends its flood (EAGAIN), and B still resolves.
	 */
	self->a = spawn_flood(uid_a, &rfd, "keynx", NULL, FLOOD_NAMES, true);
	ASSERT_LT(0, self->a);
	ASSERT_EQ(0, watch_root_keys(rfd, &rep, k0, &kmax));
	EXPECT_EQ(0, rep.ret);
	EXPECT_LT(0, rep.eagain) TH_LOG("A's missing names were never refused");
	EXPECT_GE(k0 + budget + 2 * (long)info.max_upcalls, kmax)
		TH_LOG("root's keys went from %ld to %ld for %d missing names",
		       k0, kmax, FLOOD_NAMES);
	TH_LOG("missing names: %d refused (EAGAIN), root's keys at most %ld",
	       rep.eagain, kmax);

	snprintf(bname, sizeof(bname), "%sb.rai.example", self->hosts_pat);
	ASSERT_EQ(0, rai_hosts_add(line, sizeof(line), "192.0.2.78", bname));
	self->b = spawn_lookup(UID_B, &rfd, bname);
	ASSERT_LT(0, self->b);
	ASSERT_EQ(0, read_report(rfd, &rep, B_BOUND_MS));
	close(rfd);
	EXPECT_EQ(0, rep.ret);
	EXPECT_EQ(0, rep.status) TH_LOG("B's name while A's budget is spent");
}

TEST_HARNESS_MAIN
