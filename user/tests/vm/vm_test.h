/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers of the VM tests of librdma_addrinfo: event waiting and the
 * LD_PRELOAD variant of each test program; the test world's names and
 * addresses come from selftests/world/world_env.h.
 *
 * Every test program is built twice: NAME_test linked with
 * -lrdma_addrinfo -lrdmacm, and NAME_preload_test linked with -lrdmacm
 * only, which re-executes itself with LD_PRELOAD=../lib/librdma_addrinfo.so.1
 * so that the library is reached the way unmodified binaries reach it.
 */
#ifndef _RAI_VM_TEST_H
#define _RAI_VM_TEST_H

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <rdma/rdma_addrinfo.h>

#include "world_env.h"

/*
 * Paths from this program's own: BUILD/tests-vm/NAME, so BUILD is one level
 * up and the repository ($RAI_REPO, else BUILD/../..) three.
 */
static inline char *rai_exe_up(char *buf, size_t size, int levels)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	struct stat self, st;
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	/*
	 * In a chroot over 9p (the forky root in the 7.3 guest) the link can
	 * read as the path outside the root: keep the first tail of it that
	 * is this program inside.
	 */
	if (!stat("/proc/self/exe", &self) &&
	    (stat(buf, &st) || st.st_dev != self.st_dev ||
	     st.st_ino != self.st_ino)) {
		for (slash = strchr(buf + 1, '/'); slash;
		     slash = strchr(slash + 1, '/'))
			if (!stat(slash, &st) && st.st_dev == self.st_dev &&
			    st.st_ino == self.st_ino) {
				memmove(buf, slash, strlen(slash) + 1);
				break;
			}
	}
	while (levels-- >= 0) {
		slash = strrchr(buf, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	return buf;
}

/* @rel under the build directory (e.g. "lib/librdma_addrinfo.so.1"). */
static inline const char *rai_build_path(char *buf, size_t size,
					 const char *rel)
{
	char dir[PATH_MAX];

	if (!rai_exe_up(dir, sizeof(dir), 1))
		return NULL;
	snprintf(buf, size, "%s/%s", dir, rel);
	return buf;
}

/* @rel under the repository (e.g. "rdma_addrinfo.ko"). */
static inline const char *rai_repo_path(char *buf, size_t size,
					const char *rel)
{
	const char *repo = getenv("RAI_REPO");
	char dir[PATH_MAX];

	if (!repo || !*repo)
		repo = rai_exe_up(dir, sizeof(dir), 3);
	if (!repo)
		return NULL;
	snprintf(buf, size, "%s/%s", repo, rel);
	return buf;
}

#define RAI_LIBRARY "lib/librdma_addrinfo.so.1"

/*
 * The 6.1 harness runs a TEST_F body even when FIXTURE_SETUP called SKIP():
 * bodies of fixtures that can skip start with this.
 */
#define RAI_RETURN_IF_SKIPPED() do { if (_metadata->skip) return; } while (0)

#ifdef RAI_TEST_PRELOAD
/* Resolved at run time from the preloaded library. */
#pragma weak rdma_resolve_addrinfo
#pragma weak rdma_query_addrinfo
#pragma weak rdma_get_local_addr
#pragma weak rdma_addrinfo_channel_fd
#pragma weak rdma_addrinfo_strerror
#pragma weak rdma_addrinfo_status_eai

__attribute__((constructor)) static void rai_test_preload_self(void)
{
	static char exe[PATH_MAX], lib[PATH_MAX + 32], args[8192];
	char *argv[64], *p;
	ssize_t n;
	int argc = 0;
	FILE *f;

	if (getenv("RAI_TEST_PRELOADED"))
		return;
	if (!rai_exe_up(exe, sizeof(exe), -1) ||
	    !rai_build_path(lib, sizeof(lib), RAI_LIBRARY))
		return;
	f = fopen("/proc/self/cmdline", "r");
	if (!f)
		return;
	n = fread(args, 1, sizeof(args) - 1, f);
	fclose(f);
	args[n] = '\0';
	for (p = args; p < args + n && argc < 63; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	setenv("LD_PRELOAD", lib, 1);
	setenv("RAI_TEST_PRELOADED", "1", 1);
	execv(exe, argv);
}
#endif

/*
 * Run the tool (BUILD/bin/rdma-addrinfo) with @args: its exit status (-1
 * if it did not exit), its output (stdout and stderr) in @out.
 */
static inline int rai_run_tool(const char *args, char *out, size_t size)
{
	char tool[PATH_MAX + 32], cmd[PATH_MAX + 256];
	size_t len = 0, n;
	FILE *p;
	int status;

	if (!rai_build_path(tool, sizeof(tool), "bin/rdma-addrinfo"))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", tool, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (len < size - 1 && (n = fread(out + len, 1, size - 1 - len, p)))
		len += n;
	out[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A name no cache has seen: its NXDOMAIN takes a full upcall. */
static inline const char *rai_fresh_missing_name(char *buf, size_t size)
{
	static unsigned int seq;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, size, "nx-%d-%u-%ld." RAI_WORLD_DNS_ZONE, getpid(),
		 seq++, ts.tv_nsec);
	return buf;
}

/* The test zone's DNS server (setup-world's dnsmasq): its pid, or 0. */
static inline pid_t rai_dns_server_pid(void)
{
	FILE *f = fopen("/run/dnsmasq.pid", "r");
	int pid = 0;

	if (f) {
		if (fscanf(f, "%d", &pid) != 1 || pid < 0)
			pid = 0;
		fclose(f);
	}
	return pid;
}

static inline int rai_count(const struct rdma_addrinfo *ai)
{
	int n = 0;

	for (; ai; ai = ai->ai_next)
		n++;
	return n;
}

static inline const char *rai_ntop(const struct sockaddr *sa, char *buf,
				   size_t size)
{
	const void *a = sa->sa_family == AF_INET ?
		(const void *)&((const struct sockaddr_in *)sa)->sin_addr :
		(const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;

	if (sa->sa_family == AF_IB)
		a = &((const struct sockaddr_ib *)sa)->sib_addr;
	return inet_ntop(sa->sa_family == AF_INET ? AF_INET : AF_INET6, a,
			 buf, size);
}

static inline unsigned short rai_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
}

/*
 * Wait up to @timeout_ms for an event on @ch, polling channel->fd and the
 * channel's module fd as a poll loop would.  Return: 0 with *@ev, -1 with
 * errno (ETIMEDOUT when nothing came).
 */
static inline int rai_wait_cm_event(struct rdma_event_channel *ch,
				    struct rdma_cm_event **ev, int timeout_ms)
{
	struct pollfd pfd[2] = {
		{ .fd = ch->fd, .events = POLLIN },
		{ .fd = rdma_addrinfo_channel_fd(ch), .events = POLLIN },
	};
	int n = poll(pfd, 2, timeout_ms);

	if (n < 0)
		return -1;
	if (!n) {
		errno = ETIMEDOUT;
		return -1;
	}
	return rdma_get_cm_event(ch, ev);
}

/* How long a thread started by a test may take to block in its call. */
#define RAI_ASLEEP_MS	20000

/*
 * Whether thread @tid of this process sleeps: state S in
 * /proc/self/task/TID/stat, blocked interruptibly in a wait.
 */
static inline int rai_thread_sleeps(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * Wait up to @ms until the thread whose tid *@tid holds (0 until it has
 * started and stored it) sleeps on three looks 20 ms apart: blocked in
 * its call, not passing a lock or a read.  Return: 0, or -1 if it never
 * did (the caller fails: a signal or an event meant for the wait would
 * come before it).
 */
static inline int rai_thread_wait_asleep(const pid_t *tid, int ms)
{
	struct timespec now, end;
	int asleep = 0;
	pid_t t;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000 + 1;
	while (asleep < 3) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec)
			return -1;
		usleep(20000);	/* the pace of the looks, not a wait */
		t = __atomic_load_n(tid, __ATOMIC_ACQUIRE);
		asleep = t && rai_thread_sleeps(t) ? asleep + 1 : 0;
	}
	return 0;
}

/*
 * Every thread of this process but the caller sleeps, on three looks 20 ms
 * apart, within @ms (the library's own threads, e.g. wake.c's watcher,
 * done with what they were given): 0, or -1.
 */
static inline int rai_other_threads_wait_asleep(int ms)
{
	pid_t self = (pid_t)syscall(SYS_gettid);
	struct timespec now, end;
	int asleep = 0, all;
	struct dirent *d;
	DIR *dir;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000 + 1;
	while (asleep < 3) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec)
			return -1;
		usleep(20000);	/* the pace of the looks, not a wait */
		dir = opendir("/proc/self/task");
		if (!dir)
			return -1;
		all = 1;
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.' && atoi(d->d_name) != self &&
			    !rai_thread_sleeps(atoi(d->d_name)))
				all = 0;
		closedir(dir);
		asleep = all ? asleep + 1 : 0;
	}
	return 0;
}

/* RDMA_CM_EVENT_USER of rdma-core 60+ (librdmacm 44's header lacks it). */
#define RAI_TEST_CM_EVENT_USER	((enum rdma_cm_event_type)18)

typedef int (*rai_write_cm_event_fn)(struct rdma_cm_id *id,
				     enum rdma_cm_event_type event,
				     int status, unsigned long long arg);

/*
 * librdmacm's rdma_write_cm_event() (RDMACM_1.4), or NULL: looked up in
 * librdmacm itself, since the library exports a pass-through of its own.
 */
static inline rai_write_cm_event_fn rai_write_cm_event(void)
{
	void *librdmacm = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);

	return librdmacm ? (rai_write_cm_event_fn)dlvsym(librdmacm,
			"rdma_write_cm_event", "RDMACM_1.4") : NULL;
}

/*
 * Whether the library can wake pollers of channel->fd: librdmacm has
 * rdma_write_cm_event() and the kernel's rdma_ucm takes it (6.18+), tried
 * on a channel of its own.  Return: 1, or 0 with the reason in *@why.
 */
static inline int rai_wake_expected(const char **why)
{
	rai_write_cm_event_fn wr = rai_write_cm_event();
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	int ok = 0;

	*why = "librdmacm has no rdma_write_cm_event (rdma-core < 60)";
	if (!wr)
		return 0;
	*why = "no rdma_cm channel or id";
	ch = rdma_create_event_channel();
	if (!ch)
		return 0;
	if (!rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		*why = "rdma_ucm rejects WRITE_CM_EVENT (kernel < 6.18)";
		if (!wr(id, RAI_TEST_CM_EVENT_USER, 0, 0) &&
		    !rdma_get_cm_event(ch, &ev)) {
			ok = ev->event == RAI_TEST_CM_EVENT_USER;
			rdma_ack_cm_event(ev);
		}
		rdma_destroy_id(id);
	}
	rdma_destroy_event_channel(ch);
	return ok;
}

#endif /* _RAI_VM_TEST_H */
