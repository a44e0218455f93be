// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo-resolved: the resident DNS resolver of rdma_addrinfo.ko
 * (Documentation/man/rdma-addrinfo-resolved.8, the ABI's "Resident
 * resolver" section).
 *
 * It registers its file of /dev/infiniband/rdma_addrinfo as the resolver
 * of its network namespace and /etc view, then takes the names the module
 * wants resolved (RESOLVER_TAKE, up to TAKE_MAX per call), resolves them
 * with a bounded set of threads as the DNS helper does (lookup.h: NSS,
 * the records' TTL, one errno per kind of failure) and answers them,
 * several per RESOLVER_ANSWER (pool.h).  One process for every name.
 *
 * The main thread only takes names: it polls the device (names waiting),
 * a signalfd (SIGTERM, SIGINT: exit) and the pool's room eventfd (it
 * takes no more names than the pool has room for).  Ending is closing
 * the file: the module gives the names it had taken and not answered to
 * its fallback (the dns_resolver upcall) at once.
 *
 * Started by systemd (Type=notify: READY=1 once registered) when udev
 * sees the device; in a container, by the container's root.
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

#include "notify.h"
#include "pool.h"
#include "say.h"

#define DEVICE_PATH	"/dev/" RDMA_ADDRINFO_DEVNAME
/* Names per RESOLVER_TAKE. */
#define TAKE_MAX	64
/*
 * Lookups at once: as the helper's batches, a burst a server with
 * default socket buffers still answers.
 */
#define THREADS_DEFAULT	16
#define THREADS_MAX	256
/*
 * Names held at once, per thread: the one a thread resolves and the next.
 * A name the module still holds waits there without a deadline, and the
 * module hands out the users' names round-robin; a name taken waits here
 * against its deadline, first come first served.  So the resolver takes
 * only what its threads will start on soon: taking everything at once
 * (the module's bound, 4096) made names of a burst miss their deadline
 * in this queue and go to the upcall after all (95 of 2748 in a bench
 * run), and let one user's burst delay every other user's names.
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
	if (!ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, reg))
		return fd;
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

/* Take up to @room names into the pool: 0, or -errno (EAGAIN: none). */
static int resolved_take(int fd, struct pool *pool, unsigned int room,
			 struct rdma_addrinfo_resolver_name *names)
{
	struct rdma_addrinfo_resolver_take take = {
		.names = (uintptr_t)names,
		.count = room < TAKE_MAX ? room : TAKE_MAX,
		.name_size = sizeof(*names),
	};
	unsigned int i;

	if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_TAKE, &take) < 0)
		return -errno;
	for (i = 0; i < take.taken && i < take.count; i++) {
		names[i].name[sizeof(names[i].name) - 1] = '\0';
		if (pool_add(pool, names[i].id, names[i].name))
			say(LOG_ERR, "%s: no room (cannot happen)", names[i].name);
	}
	return 0;
}

/*
 * Take names until SIGTERM/SIGINT (0) or the device fails (-1).  No name
 * more than the pool has room for: without room, the device is not
 * polled and the pool's room fd says when to look again.
 */
static int resolved_loop(int fd, int sig_fd, struct pool *pool)
{
	static struct rdma_addrinfo_resolver_name names[TAKE_MAX];
	struct pollfd pfd[3] = {
		{ .fd = fd }, { .fd = sig_fd, .events = POLLIN },
		{ .fd = pool_room_fd(pool), .events = POLLIN },
	};
	struct signalfd_siginfo si;
	unsigned int room;
	uint64_t count;
	int ret;

	for (;;) {
		room = pool_room(pool);
		pfd[0].events = room ? POLLIN : 0;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			say(LOG_ERR, "poll: %m");
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			if (read(sig_fd, &si, sizeof(si)) == sizeof(si))
				say(LOG_INFO, "%s: exiting",
				    strsignal((int)si.ssi_signo));
			return 0;
		}
		if ((pfd[2].revents & POLLIN) &&
		    read(pfd[2].fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			say(LOG_ERR, "room eventfd: %m");
		if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			say(LOG_ERR, "%s: the device failed (poll %#x)",
			    DEVICE_PATH, pfd[0].revents);
			return -1;
		}
		if (!room || !(pfd[0].revents & POLLIN))
			continue;
		ret = resolved_take(fd, pool, room, names);
		if (ret && ret != -EAGAIN && ret != -EINTR) {
			say(LOG_ERR, "take: %s", strerror(-ret));
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
	char *end;

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
	pool = pool_create((unsigned int)threads, held, reg.deadline_ms,
			   resolved_send_answers, &fd);
	if (!pool) {
		say(LOG_ERR, "starting %lu threads: %m", threads);
		close(fd);
		close(sig_fd);
		return 1;
	}
	say(LOG_INFO, "registered: %lu threads, %u names at once, deadline %u ms",
	    threads, held, reg.deadline_ms);
	ret = notify_service_manager("READY=1");
	if (ret < 0)
		say(LOG_ERR, "NOTIFY_SOCKET: %s", strerror(-ret));

	ret = resolved_loop(fd, sig_fd, pool);

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
