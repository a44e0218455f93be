// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The VM selftests' hands on the test world: /etc/hosts, the request-key
 * upcall, the DNS server, the module (load, parameters, counters) and
 * other users.  See rai_world.h.
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <resolv.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rai_ioctl.h"
#include "rai_world.h"

/* ---- /etc/hosts ------------------------------------------------------- */

int rai_hosts_add(char *line, size_t size, const char *ip, const char *name)
{
	snprintf(line, size, "%s\t%s", ip, name);
	return rai_sh("printf '%%s\\n' '%s' >> /etc/hosts", line);
}

/*
 * Renamed over /etc/hosts, never rewritten in place: a lookup reading it
 * meanwhile (an upcall's helper, a refresh in the background) sees the
 * old file or the new one, never an empty or half-written one, which
 * would send a name of the file to DNS (-EREMOTEIO, kept in the keyring
 * for a minute).
 */
void rai_hosts_remove(const char *line)
{
	if (line[0])
		rai_sh("grep -vxF '%s' /etc/hosts > /etc/hosts.rai && "
		       "mv -f /etc/hosts.rai /etc/hosts", line);
}

/* ---- upcalls ---------------------------------------------------------- */

#define RK_CONF		"/etc/request-key.conf"
#define RK_SAVED	"/run/rai-test-request-key.conf.orig"
/* Our own helper's entry (selftests/world/setup-world installs it). */
#define RK_D_CONF	RAI_HELPER_CONF
#define RK_D_SAVED	"/run/rai-test-request-key.d.conf.orig"
#define UPCALL_WRAPPER	"/run/rai-test-upcall-wrapper"
#define UPCALL_COUNTER	RAI_UPCALL_LOG
#define UPCALL_HOLD	"/run/rai-test-upcall-hold"
#define DNS_CMDLINE	"/run/rai-test-dnsmasq.cmdline"
#define UPCALL_NAME_HOLD "/run/rai-test-upcall-name-hold"

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len) {
		int err = errno ? -errno : -EIO;

		close(fd);
		return err;
	}
	if (fchmod(fd, mode) < 0) {
		close(fd);
		return -errno;
	}
	return close(fd) ? -errno : 0;
}

static char *read_file_alloc(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/*
 * Route every dns_resolver line of request-key file @path through the
 * counting wrapper ("create dns_resolver DESC CALLOUT WRAPPER PROG ARGS"),
 * keeping the original in @saved.  A missing file is left alone.
 */
static int wrap_request_key_file(const char *path, const char *saved)
{
	char *conf, *line, *out, *p;
	char op[32], type[64], desc[128], callout[128];
	int ret, prog;

	conf = read_file_alloc(path);
	if (!conf)
		return errno == ENOENT ? 0 : -errno;
	if (strstr(conf, UPCALL_WRAPPER)) {
		free(conf);
		return 0;	/* already installed */
	}
	ret = write_file(saved, conf, 0644);
	if (ret) {
		free(conf);
		return ret;
	}
	out = malloc(strlen(conf) * 2 + 256);
	if (!out) {
		free(conf);
		return -ENOMEM;
	}
	p = out;
	for (line = strtok(conf, "\n"); line; line = strtok(NULL, "\n")) {
		prog = 0;
		if (sscanf(line, " %31s %63s %127s %127s %n", op, type, desc,
			   callout, &prog) == 4 && prog && !strcmp(op, "create") &&
		    !strcmp(type, "dns_resolver"))
			p += sprintf(p, "create dns_resolver %s %s %s %s\n", desc,
				     callout, UPCALL_WRAPPER, line + prog);
		else
			p += sprintf(p, "%s\n", line);
	}
	ret = write_file(path, out, 0644);
	free(out);
	free(conf);
	return ret;
}

static void unwrap_request_key_file(const char *path, const char *saved)
{
	char *text = read_file_alloc(saved);

	if (!text)
		return;
	if (!write_file(path, text, 0644))
		unlink(saved);
	free(text);
}

int rai_upcall_counter_install(void)
{
	static const char wrapper[] =
		"#!/bin/sh\n"
		"# rdma_addrinfo selftests: count dns_resolver upcalls.\n"
		"# Arguments: the request-key program and its own arguments.\n"
		"echo \"$1 $2\" >> " UPCALL_COUNTER "\n"
		"# Held while the hold file names a live process (the test).\n"
		"while { read -r pid < " UPCALL_HOLD "; } 2>/dev/null &&\n"
		"      kill -0 \"$pid\" 2>/dev/null; do\n"
		"	sleep 0.05	# the pace of the look at the hold\n"
		"done\n"
		"# Names containing the text of the name-hold file wait, without\n"
		"# polling, while the test holds its lock (rai_upcall_hold_names).\n"
		"# A batch's names are in the callout information, which the\n"
		"# authorisation key in our session keyring holds.\n"
		"if read -r pat < " UPCALL_NAME_HOLD " 2>/dev/null && [ -n \"$pat\" ]; then\n"
		"	names=$(keyctl rdescribe \"$2\" 2>/dev/null)\n"
		"	case \"$names\" in\n"
		"	*';rai:@'*) for a in $(keyctl show @s 2>/dev/null |\n"
		"			awk '/request_key_auth/ { print $1 }'); do\n"
		"		names=\"$names $(keyctl pipe \"$a\" 2>/dev/null)\"\n"
		"	done ;;\n"
		"	esac\n"
		"	case \"$names\" in\n"
		"	*\"$pat\"*) flock -s " UPCALL_NAME_HOLD " true ;;\n"
		"	esac\n"
		"fi\n"
		"exec \"$@\"\n";
	int ret;

	ret = write_file(UPCALL_WRAPPER, wrapper, 0755);
	if (ret)
		return ret;
	if (access(UPCALL_COUNTER, F_OK)) {
		ret = write_file(UPCALL_COUNTER, "", 0644);
		if (ret)
			return ret;
	}
	/* Both key.dns_resolver's line and our own helper's. */
	ret = wrap_request_key_file(RK_CONF, RK_SAVED);
	if (!ret)
		ret = wrap_request_key_file(RK_D_CONF, RK_D_SAVED);
	return ret;
}

void rai_upcall_counter_remove(void)
{
	rai_upcall_hold(false);
	rai_upcall_release_names();
	unwrap_request_key_file(RK_CONF, RK_SAVED);
	unwrap_request_key_file(RK_D_CONF, RK_D_SAVED);
}

long rai_upcall_count(void)
{
	char *text = read_file_alloc(UPCALL_COUNTER);
	long n = 0;
	char *p;

	if (!text)
		return -errno;
	for (p = text; *p; p++)
		if (*p == '\n')
			n++;
	free(text);
	return n;
}

int rai_upcall_hold(bool on)
{
	char pid[32];

	if (on) {
		snprintf(pid, sizeof(pid), "%d\n", getpid());
		return write_file(UPCALL_HOLD, pid, 0644);
	}
	if (unlink(UPCALL_HOLD) && errno != ENOENT)
		return -errno;
	return 0;
}

static int name_hold_fd = -1;

int rai_upcall_hold_names(const char *text)
{
	int fd;

	if (name_hold_fd >= 0)
		return -EBUSY;
	fd = open(UPCALL_NAME_HOLD, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX) || dprintf(fd, "%s\n", text) < 0) {
		int err = -errno;

		close(fd);
		unlink(UPCALL_NAME_HOLD);
		return err;
	}
	name_hold_fd = fd;
	return 0;
}

void rai_upcall_release_names(void)
{
	if (name_hold_fd < 0)
		return;
	/* New upcalls find no file; the waiting ones get the lock. */
	unlink(UPCALL_NAME_HOLD);
	close(name_hold_fd);
	name_hold_fd = -1;
}

int rai_upcall_wait_count(long target, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;

	while (rai_upcall_count() < target) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(20000);	/* the pace of a look with a deadline */
	}
	return 0;
}

long long rai_debugfs_counter_wait(const char *file, const char *name,
				   long long target, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms, v;

	while ((v = rai_debugfs_counter(file, name)) < target &&
	       rai_now_ms() < end)
		usleep(20000);	/* the pace of the looks, not a wait */
	return v;
}

long long rai_stat_wait(const char *name, long long target, int timeout_ms)
{
	return rai_debugfs_counter_wait("stats", name, target, timeout_ms);
}

bool rai_task_sleeps(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	/* A thread's /proc/TID is there, though not listed. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

int rai_task_wait_asleep(const pid_t *tid, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	int asleep = 0;
	pid_t t;

	while (asleep < 3) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(20000);	/* the pace of the looks, not a wait */
		t = __atomic_load_n(tid, __ATOMIC_ACQUIRE);
		asleep = t && rai_task_sleeps(t) ? asleep + 1 : 0;
	}
	return 0;
}

bool rai_dns_helper_active(void)
{
	char line[8] = "";
	FILE *f;

	f = fopen("/sys/module/" RAI_MODULE_NAME "/parameters/dns_helper", "re");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return line[0] == 'Y' && !access(RK_D_CONF, F_OK);
}

bool rai_dns_helper_ambiguous(char *version, size_t size)
{
	char line[256] = "", *p;
	unsigned int a = 0, b = 0, c = 0;
	FILE *f;

	/* Our own helper answers the module's keys: every status distinct. */
	if (rai_dns_helper_active()) {
		if (version)
			snprintf(version, size, "rdma-addrinfo-dns-helper");
		return false;
	}
	f = popen("/sbin/key.dns_resolver -V 2>&1", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		pclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	if (version)
		snprintf(version, size, "%s", line);
	p = strstr(line, "keyutils-");
	if (!p || sscanf(p, "keyutils-%u.%u.%u", &a, &b, &c) < 2)
		return false;
	return a < 1 || (a == 1 && (b < 6 || (b == 6 && c <= 3)));
}

const char *rai_unique_name(char *buf, size_t size, const char *tag)
{
	static unsigned int seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, "%s-%d-%u-%lx%lx.%s", tag, getpid(), ++seq,
		 (long)ts.tv_sec, ts.tv_nsec, RAI_DNS_ZONE);
	return buf;
}

/* ---- module and shell ------------------------------------------------- */

long long rai_debugfs_counter(const char *file, const char *name)
{
	char key[64], path[128];
	long long v, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/" RAI_MODULE_NAME "/%s",
		 file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

long long rai_stat(const char *name)
{
	return rai_debugfs_counter("stats", name);
}

int rai_param_get(const char *name, char *buf, size_t size)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 RAI_MODULE_NAME, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -EIO;
}

int rai_param_set(const char *name, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 RAI_MODULE_NAME, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int rai_param_push(struct rai_param_saved *p, const char *name,
		   const char *value)
{
	p->name = name;
	if (rai_param_get(name, p->saved, sizeof(p->saved))) {
		p->saved[0] = '\0';
		return -1;
	}
	return rai_param_set(name, value);
}

void rai_param_pop(struct rai_param_saved *p)
{
	if (p->saved[0])
		rai_param_set(p->name, p->saved);
}

int rai_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = system(cmd);
	if (ret < 0 || !WIFEXITED(ret))
		return -1;
	return WEXITSTATUS(ret);
}

long rai_sh_number(const char *fmt, ...)
{
	char cmd[1024];
	long n = -1;
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "re");
	if (!p)
		return -1;
	if (fscanf(p, "%ld", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

bool rai_module_loaded(void)
{
	return access("/sys/module/" RAI_MODULE_NAME, F_OK) == 0;
}

int rai_module_unload(void)
{
	if (syscall(SYS_delete_module, RAI_MODULE_NAME, O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

int rai_module_unload_within(int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	int ret;

	for (;;) {
		ret = rai_module_unload();
		if (!ret || rai_now_ms() > end)
			return ret;
		usleep(50000);	/* the pace of a look with a deadline */
	}
}

int rai_module_load(const char *params)
{
	char path[4096];
	long long end;
	int fd, ret;

	/* The runner names the module built for the booted kernel. */
	if (getenv("RAI_KO") && *getenv("RAI_KO"))
		snprintf(path, sizeof(path), "%s", getenv("RAI_KO"));
	else
		snprintf(path, sizeof(path), "%s/rdma_addrinfo.ko",
			 rai_env("RAI_REPO", "."));
	if (!params)
		params = rai_env("RAI_MODULE_PARAMS", "");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	/* devtmpfs creates the node asynchronously. */
	end = rai_now_ms() + 5000;
	while (access(RAI_DEV_PATH, F_OK)) {
		if (rai_now_ms() > end)
			return -ENODEV;
		usleep(10000);	/* the pace of a look with a deadline */
	}
	return 0;
}

/* ---- DNS server ------------------------------------------------------- */

static pid_t dnsmasq_pid(void)
{
	char *text = read_file_alloc("/run/dnsmasq.pid");
	pid_t pid;

	if (!text)
		return -1;
	pid = atoi(text);
	free(text);
	if (pid <= 0 || kill(pid, 0))
		return -1;
	return pid;
}

int rai_dns_server_stop(void)
{
	char path[64], buf[8192];
	pid_t pid = dnsmasq_pid();
	long long end;
	ssize_t len;
	int fd, ret;

	if (pid < 0)
		return -ESRCH;
	/* Remember its command line (NUL-separated) to start it again. */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len <= 0)
		return -EIO;
	fd = open(DNS_CMDLINE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len) == len ? 0 : -EIO;
	close(fd);
	if (ret)
		return ret;
	if (kill(pid, SIGTERM))
		return -errno;
	end = rai_now_ms() + 5000;
	while (!kill(pid, 0)) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(10000);	/* the pace of a look with a deadline */
	}
	unlink("/run/dnsmasq.pid");
	return 0;
}

int rai_dns_server_start(void)
{
	char buf[8192], *argv[128];
	long long end;
	ssize_t len;
	int fd, argc = 0, status;
	pid_t pid;
	char *p;

	if (dnsmasq_pid() > 0)
		return 0;
	fd = open(DNS_CMDLINE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -EIO;
	buf[len] = '\0';
	for (p = buf; p < buf + len && argc < 127; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	/* dnsmasq daemonizes: the parent exits once it listens. */
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	end = rai_now_ms() + 5000;
	while (dnsmasq_pid() < 0) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(10000);	/* the pace of a look with a deadline */
	}
	return 0;
}

int rai_dns_server_answer(const char *name, int type)
{
	unsigned char buf[1024];

	if (res_query(name, ns_c_in, type, buf, sizeof(buf)) >= 0)
		return 0;
	return h_errno;
}

/* ---- other users ------------------------------------------------------ */

pid_t rai_fork_as(uid_t uid)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid)
		return pid;
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("rai_fork_as");
		_exit(127);
	}
	return 0;
}

int rai_wait_child(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

pid_t rai_container_start(uid_t owner, uid_t first, int count,
			  int (*fn)(void *), void *arg)
{
	int up[2], go[2], ret;
	char c = 0, path[64];
	pid_t pid;

	if (pipe(up))
		return -1;
	if (pipe(go)) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	pid = owner ? rai_fork_as(owner) : fork();
	if (pid < 0) {
		ret = -1;
		goto out;
	}
	if (!pid) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
			perror("# unshare");
			_exit(101);
		}
		if (write(up[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(102);
		if (c != 'g' || setresuid(0, 0, 0)) {
			perror("# setresuid in the namespace");
			_exit(103);
		}
		_exit(fn(arg));
	}
	ret = read(up[0], &c, 1) == 1 ? 0 : -1;
	if (!ret) {
		snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
		c = rai_sh("echo '0 %u %d' > %s", first, count, path) ?
			'x' : 'g';
		ret = write(go[1], &c, 1) == 1 && c == 'g' ? 0 : -1;
	}
	if (ret) {
		kill(pid, SIGKILL);
		rai_wait_child(pid);
	}
out:
	close(up[0]);
	close(up[1]);
	close(go[0]);
	close(go[1]);
	return ret ? -1 : pid;
}

long rai_key_user_keys(uid_t uid)
{
	unsigned int u, usage, nkeys, nikeys, qnkeys, maxkeys;
	char line[256];
	long ret = -ENOENT;
	FILE *f;

	f = fopen("/proc/key-users", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %u: %u %u/%u %u/%u", &u, &usage, &nkeys,
			   &nikeys, &qnkeys, &maxkeys) == 6 && u == uid) {
			ret = qnkeys;
			break;
		}
	}
	fclose(f);
	return ret;
}
