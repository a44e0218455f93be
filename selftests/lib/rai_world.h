/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The world helpers of the rdma_addrinfo VM selftests: what a test does to
 * the world around the module (selftests/world/setup-world builds it; its
 * names and addresses are world_env.h): /etc/hosts lines, the request-key
 * upcall (counter, wrapper, holds), the DNS server, the module itself
 * (load, parameters, counters), shell commands and other users.  Most need
 * root in the VM.
 */
#ifndef RAI_WORLD_H
#define RAI_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "world_env.h"

#define RAI_MODULE_NAME		"rdma_addrinfo"

/* ---- /etc/hosts ------------------------------------------------------- */

/*
 * Append the line "ip<TAB>name" to the guest's /etc/hosts and keep it in
 * line (size bytes) for rai_hosts_remove(): 0, or the shell's status.
 */
int rai_hosts_add(char *line, size_t size, const char *ip, const char *name);
/* Take a line that rai_hosts_add() appended out again (none if empty). */
void rai_hosts_remove(const char *line);

/* ---- upcalls ---------------------------------------------------------- */

/*
 * Route the dns_resolver upcall through a wrapper script that appends the
 * key id to a counter file before exec'ing /sbin/key.dns_resolver, and
 * waits while a hold file exists (to make lookups slow on demand).  Needs
 * root and a writable /etc (the VM).  0 or -errno.
 */
int rai_upcall_counter_install(void);
/* Restore the original request-key.conf. */
void rai_upcall_counter_remove(void);
/* Number of upcalls since install (lines of the counter file), or -errno. */
long rai_upcall_count(void);
/*
 * While held, every upcall waits in the wrapper (after being counted); the
 * hold ends with the calling process, should it die without releasing it.
 */
int rai_upcall_hold(bool on);
/*
 * How long an upcall may take to start: request-key, a shell and exec over
 * 9p under TCG on a busy host took more than 10 s.
 */
#define RAI_UPCALL_START_MS	30000
/* One line per upcall: "PROGRAM KEY-ID". */
#define RAI_UPCALL_LOG		"/run/rai-test-upcalls"
/* request-key.d entry of the module's own DNS helper (setup-world). */
#define RAI_HELPER_CONF		"/etc/request-key.d/rdma-addrinfo.conf"
/*
 * Hold, until rai_upcall_release_names() or the end of the calling process,
 * every upcall whose key description contains text (e.g. a name's tag);
 * other upcalls go on.  Needs rai_upcall_counter_install().  0 or -errno.
 */
int rai_upcall_hold_names(const char *text);
void rai_upcall_release_names(void);
/* Wait until rai_upcall_count() >= target, up to timeout_ms: 0/-ETIMEDOUT. */
int rai_upcall_wait_count(long target, int timeout_ms);
/*
 * Wait until the counter @name of rai_stat() reaches @target, up to
 * timeout_ms: its last value (below @target on a time-out).
 */
long long rai_stat_wait(const char *name, long long target, int timeout_ms);

/*
 * Does the system's key.dns_resolver (keyutils <= 1.6.3) report every
 * getaddrinfo() failure alike, and answer the module's keys because its
 * own helper (dns_helper, request-key.d) is not in use?  Then, per the ABI
 * header, -ENODATA and -EAGAIN arrive as -ENXIO.  *version gets the
 * version text if non-NULL.
 */
bool rai_dns_helper_ambiguous(char *version, size_t size);
/* Does the module ask our own helper (dns_helper=Y, request-key.d entry)? */
bool rai_dns_helper_active(void);

/* A name under the test zone that exists nowhere and was never asked. */
const char *rai_unique_name(char *buf, size_t size, const char *tag);

/* ---- module and shell ------------------------------------------------- */

/* A counter of <debugfs>/rdma_addrinfo/@file ("stats", "sa"), or -1. */
long long rai_debugfs_counter(const char *file, const char *name);
/* Wait until it reaches @target, up to timeout_ms: its last value. */
long long rai_debugfs_counter_wait(const char *file, const char *name,
				   long long target, int timeout_ms);
/* A counter of <debugfs>/rdma_addrinfo/stats, or -1. */
long long rai_stat(const char *name);
/* A module parameter's value, newline cut: 0 or -errno. */
int rai_param_get(const char *name, char *buf, size_t size);
/* Write a module parameter as `echo` would: 0 or -errno of the write. */
int rai_param_set(const char *name, const char *value);
/* A parameter set for a while: its value before, restored by pop. */
struct rai_param_saved {
	const char *name;
	char saved[32];		/* "" when the module has no such parameter */
};
/* Save @name's value and set @value: 0, or -1 without the parameter, or
 * -errno of the write. */
int rai_param_push(struct rai_param_saved *p, const char *name,
		   const char *value);
/* Put back the value push saved (nothing if it saved none). */
void rai_param_pop(struct rai_param_saved *p);

/* system(3) of a formatted command: its exit status, or -1. */
int rai_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The number a formatted command prints first on its stdout, or -1. */
long rai_sh_number(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Module unload/reload (VM only): 0 or -errno. */
int rai_module_unload(void);
/* rmmod, retried while references drain, up to timeout_ms: 0 or -errno. */
int rai_module_unload_within(int timeout_ms);
/* insmod $RAI_REPO/rdma_addrinfo.ko with params (NULL: $RAI_MODULE_PARAMS). */
int rai_module_load(const char *params);
bool rai_module_loaded(void);

/* Stop/restart the test DNS server (dnsmasq of the VM world). */
int rai_dns_server_stop(void);
int rai_dns_server_start(void);
/*
 * What the DNS server itself answers for name/type (ns_t_a, ...): 0 with
 * records, else the resolver's h_errno (HOST_NOT_FOUND for NXDOMAIN,
 * NO_DATA, TRY_AGAIN for SERVFAIL/REFUSED or no server).
 */
int rai_dns_server_answer(const char *name, int type);

/* ---- other users ---------------------------------------------------- */

/*
 * fork(); the child runs as uid (and gid uid, no supplementary groups),
 * and returns 0; the parent gets the child's pid, or -errno.
 */
pid_t rai_fork_as(uid_t uid);
/* Wait for child @pid: its exit status, or 128 + signal, or -1. */
int rai_wait_child(pid_t pid);
/* Keys uid holds against its quota (/proc/key-users qnkeys), or -errno. */
long rai_key_user_keys(uid_t uid);
/*
 * Start @fn in a container: a child forked as @owner (0: root, the caller
 * stays root) makes its own user and network namespace; the parent maps
 * @count uids of it from uid 0 to @first and lets it go; the child becomes
 * the namespace's root and exits with @fn(@arg), or 100 + the step of the
 * set-up that failed.  The child's pid (the caller waits for it), or -1
 * with the child killed and reaped.
 */
pid_t rai_container_start(uid_t owner, uid_t first, int count,
			  int (*fn)(void *), void *arg);

/* ---- threads -------------------------------------------------------- */

/* Whether thread (or process) @tid sleeps: state S, blocked in a wait. */
bool rai_task_sleeps(pid_t tid);
/*
 * Wait up to @timeout_ms until the thread whose tid *@tid holds (0 until
 * it has started and stored it) sleeps on three looks 20 ms apart: blocked
 * in its call, not passing a lock.  0 or -ETIMEDOUT.
 */
int rai_task_wait_asleep(const pid_t *tid, int timeout_ms);

#endif /* RAI_WORLD_H */
