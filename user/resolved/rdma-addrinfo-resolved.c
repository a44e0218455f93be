// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo-resolved: the resident DNS resolver of rdma_addrinfo.ko
 * (Documentation/man/rdma-addrinfo-resolved.8, the ABI's "Resident
 * resolver" section).
 *
 * It registers its file of /dev/infiniband/rdma_addrinfo as the resolver
 * of its network namespace and /etc view; then each of a bounded set of
 * threads takes the names the module wants resolved (RESOLVER_TAKE, one
 * at a time, woken alone by the device), resolves them as the DNS helper
 * does (lookup.h: NSS, the records' TTL, one errno per kind of failure)
 * and answers them, several per RESOLVER_ANSWER (pool.h).  One process
 * for every name.
 *
 * The main thread waits for a signalfd (SIGTERM, SIGINT: exit) and for
 * the pool to say the device failed.  Ending is closing the file: the
 * module gives the names it had taken and not answered to its fallback
 * (the dns_resolver upcall) at once.
 *
 * Started by systemd (Type=notify: READY=1 once registered, then a
 * STATUS= line with the names answered) when udev sees the device; in a
 * container, by the container's root.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <rdma/rdma_addrinfo_abi.h>

#include "answer.h"
#include "notify.h"
#include "pool.h"
#include "say.h"

#define DEVICE_PATH	"/dev/" RDMA_ADDRINFO_DEVNAME
/*
 * Lookups at once: as the helper's batches, a burst a server with
 * default socket buffers still answers.
 */
#define THREADS_DEFAULT	16
#define THREADS_MAX	256
/*
 * Names taken and not yet answered, per thread: the one a thread resolves
 * and one answered but not yet sent.  A name the module still holds waits
 * there without a deadline, and the module hands out the users' names
 * round-robin; a name taken runs against its deadline.  So the resolver
 * takes a name only when a thread starts on it.
 */
#define HELD_PER_THREAD	2

/* pool_send_fn: RESOLVER_ANSWER on the device @ctx. */
static int resolved_send_answers(void *ctx,
				 struct rdma_addrinfo_resolver_answer *answers,
				 unsigned int n)
{
	struct rdma_addrinfo_resolver_answers arg = {
		.answers = (uintptr_t)answers,
		.count = n,
		.answer_size = sizeof(*answers),
	};
	int fd = *(const int *)ctx;

	if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_ANSWER, &arg) < 0)
		return -errno;
	if (arg.stale || arg.malformed)
		say(LOG_DEBUG, "%u answers: %u stale, %u malformed", n,
		    arg.stale, arg.malformed);
	return 0;
}

/* Open the device and register; the fd, or -1 after saying why. */
/* What the module takes in answers: canonical names, if it says so. */
static void resolved_features(int fd)
{
	struct rdma_addrinfo_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, &info))
		say(LOG_WARNING, "GET_INFO: %m: answers without canonical names");
	answer_canonical(!!(info.features & RDMA_ADDRINFO_FEATURE_CANONNAME));
}

static int resolved_register(struct rdma_addrinfo_resolver_register *reg)
{
	int fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		say(LOG_ERR, "%s: %m%s", DEVICE_PATH,
		    errno == ENOENT || errno == ENODEV || errno == ENXIO ?
		    " (is rdma_addrinfo.ko loaded?)" : "");
		return -1;
	}
	memset(reg, 0, sizeof(*reg));
	if (!ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, reg)) {
		resolved_features(fd);
		return fd;
	}
	switch (errno) {
	case EPERM:
		say(LOG_ERR, "register: %m: CAP_NET_ADMIN over this network namespace needed");
		break;
	case EBUSY:
		say(LOG_ERR, "register: %m: this network namespace and view have a resolver already");
		break;
	case ENOTTY:
	case EINVAL:
		say(LOG_ERR, "register: %m: the loaded rdma_addrinfo.ko has no resident resolver");
		break;
	default:
		say(LOG_ERR, "register: %m");
	}
	close(fd);
	return -1;
}

/* pool_take_fn: one RESOLVER_TAKE on the device @ctx (O_NONBLOCK). */
static int resolved_take(void *ctx, struct rdma_addrinfo_resolver_name *name)
{
	struct rdma_addrinfo_resolver_take take = {
		.names = (uintptr_t)name,
		.count = 1,
		.name_size = sizeof(*name),
	};
	int fd = *(const int *)ctx;

	/* Written by the module through a pointer: memcheck cannot see it. */
	memset(name, 0, sizeof(*name));
	if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &take) < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	return take.taken ? 1 : 0;
}

/*
 * The service manager's STATUS= line (systemctl status): how many names
 * answered so far, sent again every STATUS_MS while that count moves.
 */
#define STATUS_MS	2000

static void resolved_status(struct pool *pool, unsigned long threads,
			    unsigned long *said)
{
	unsigned long sends, answers;
	char state[128];

	pool_stats(pool, &sends, &answers);
	if (*said == answers)
		return;
	snprintf(state, sizeof(state),
		 "STATUS=registered, %lu threads: %lu names answered", threads,
		 answers);
	if (notify_service_manager(state) > 0)
		*said = answers;
}

/* Until SIGTERM/SIGINT (0) or the device fails (-1). */
static int resolved_wait(int sig_fd, struct pool *pool, unsigned long threads)
{
	struct pollfd pfd[2] = {
		{ .fd = sig_fd, .events = POLLIN },
		{ .fd = pool_failed_fd(pool), .events = POLLIN },
	};
	struct signalfd_siginfo si;
	const char *notify = getenv("NOTIFY_SOCKET");
	/* READY=1 said 0 names: no wake-ups without a service manager. */
	int timeout = notify && *notify ? STATUS_MS : -1;
	unsigned long said = 0;
	int n;

	for (;;) {
		n = poll(pfd, 2, timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			say(LOG_ERR, "poll: %m");
			return -1;
		}
		if (!n) {
			resolved_status(pool, threads, &said);
			continue;
		}
		if (pfd[0].revents & POLLIN) {
			if (read(sig_fd, &si, sizeof(si)) == sizeof(si))
				say(LOG_INFO, "%s: exiting",
				    strsignal((int)si.ssi_signo));
			return 0;
		}
		if (pfd[1].revents & POLLIN) {
			say(LOG_ERR, "%s: the device failed: %s", DEVICE_PATH,
			    strerror(-pool_failed(pool)));
			notify_service_manager("STATUS=the device failed");
			return -1;
		}
	}
}

static void resolved_usage(FILE *f)
{
	fprintf(f,
		"usage: rdma-addrinfo-resolved [-f] [-v] [-t THREADS]\n"
		"resident DNS resolver of rdma_addrinfo.ko: registers on %s\n"
		"and resolves the names of its network namespace and /etc view\n"
		"  -f          stay in the foreground (the default; for systemd)\n"
		"  -v          verbose: every name, logged to stderr\n"
		"  -t THREADS  lookups at once (default %d, at most %d)\n",
		DEVICE_PATH, THREADS_DEFAULT, THREADS_MAX);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "threads", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rdma_addrinfo_resolver_register reg;
	unsigned long threads = THREADS_DEFAULT, sends, answers;
	unsigned int held;
	struct pool *pool;
	sigset_t sigs;
	int opt, fd, sig_fd, ret;
	char *end, state[128];

	while ((opt = getopt_long(argc, argv, "fvt:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			break;
		case 'v':
			say_verbose = 1;
			break;
		case 't':
			errno = 0;
			threads = strtoul(optarg, &end, 10);
			if (errno || *end || !threads || threads > THREADS_MAX) {
				fprintf(stderr, "rdma-addrinfo-resolved: -t %s: 1 to %d threads\n",
					optarg, THREADS_MAX);
				return 2;
			}
			break;
		case 'h':
			resolved_usage(stdout);
			return 0;
		default:
			resolved_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		resolved_usage(stderr);
		return 2;
	}
	openlog("rdma-addrinfo-resolved", LOG_PID, LOG_DAEMON);

	/* Blocked in every thread (the pool's inherit it): the signalfd's. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	sig_fd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sig_fd < 0) {
		say(LOG_ERR, "signalfd: %m");
		return 1;
	}
	fd = resolved_register(&reg);
	if (fd < 0) {
		close(sig_fd);
		return 1;
	}
	held = (unsigned int)threads * HELD_PER_THREAD;
	if (reg.max_outstanding && held > reg.max_outstanding)
		held = reg.max_outstanding;
	pool = pool_create((unsigned int)threads, held, fd, resolved_take,
			   resolved_send_answers, &fd);
	if (!pool) {
		say(LOG_ERR, "starting %lu threads: %m", threads);
		close(fd);
		close(sig_fd);
		return 1;
	}
	say(LOG_INFO, "registered: %lu threads, %u names at once, deadline %u ms",
	    threads, held, reg.deadline_ms);
	snprintf(state, sizeof(state),
		 "READY=1\nSTATUS=registered, %lu threads: 0 names answered",
		 threads);
	ret = notify_service_manager(state);
	if (ret < 0)
		say(LOG_ERR, "NOTIFY_SOCKET: %s", strerror(-ret));

	ret = resolved_wait(sig_fd, pool, threads);

	notify_service_manager("STOPPING=1");
	/* No answer after this: then the file, and the names it held, go. */
	pool_stop(pool);
	pool_stats(pool, &sends, &answers);
	close(fd);
	pool_destroy(pool);
	close(sig_fd);
	say(LOG_INFO, "%lu names answered in %lu calls", answers, sends);
	closelog();
	return ret ? 1 : 0;
}
