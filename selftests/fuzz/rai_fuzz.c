// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rai_fuzz: a structure-aware, multi-threaded fuzzer of the
 * /dev/infiniband/rdma_addrinfo ABI, for the debug kernel (make fuzz).
 *
 * THREADS threads share a small table of open files and, for SECONDS,
 * make random calls on them: RESOLVE (valid-looking and broken: names from
 * the test world, literals, hostile bytes, wrong lengths, unknown flags and
 * families, SA without a device, pointers into unmapped and read-only
 * pages), QUERY, GET_EVENT, DESTROY (known, recent and random handles),
 * GET_INFO, read(2) of any size, poll(2), unknown ioctl numbers, and
 * races: close(2) and reopen of a file another thread is using, fork(2)
 * with the files open.  Built for x86_64 and again for i386 (the
 * compat_ioctl path).
 *
 * Hostile callers with valid input, too (issue 23): valid RESOLVE structs
 * (a fresh DNS name, an SA service, a literal) on a read-only page with
 * RESOLVE_SYNC | RESOLVE_RESULTS, so that the copy-out fails after the
 * request is done; requests destroyed, or their file closed, the moment
 * they start; and besides the main process, "sides" that run the same
 * threads from elsewhere: one in its own user and network namespace
 * (DNS refused for its view), and one user namespace of four uids
 * (mapped by the main process, which runs as root) sharing its files.
 *
 * Resident resolvers (issue 25): one file at a time is this process's
 * resolver (registered, closed and registered again by any thread), which
 * takes names while other threads ask for them, and answers real ids,
 * stale and random ids, garbage lists and bad errnos, from read-only and
 * unmapped pages; any file of the table may try the three ioctls too.
 *
 * Tenants (issue 32): TENANTS processes besides, each in a user and
 * network namespace of its own (half made by nobody, half by root, as a
 * container runtime does), register resolvers that never take, queue long
 * fresh names and destroy most of their requests, close and register
 * again, all at once; one of them is a hostile resolver that answers ids
 * it never took (guessed: they are sequential) with the largest answers
 * the ABI allows and a TTL of a day.
 *
 * It counts every call per operation and outcome and prints the table.
 * It checks only what must hold whatever the input: no call crashes the
 * process with anything but the fault it asked for, errors are the
 * documented ones (an unexpected errno is reported and counted as a
 * finding), and after every file is closed the module holds no request
 * (debugfs requests_live back to 0).  Kernel reports (KASAN, kmemleak,
 * lockdep, UBSAN, hung tasks) are checked by selftests/fuzz/run.
 *
 * Usage: rai_fuzz SECONDS [THREADS] [SEED]
 *   RAI_FUZZ_FAIL=1: the threads set /proc/self/task/TID/make-it-fail,
 *   so failslab/fail_page_alloc (task-filter) fail their allocations.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <rdma/rdma_addrinfo_abi.h>

#include "world_env.h"

#ifndef AF_IB
#define AF_IB 27
#endif

#define DEVICE_PATH	"/dev/" RDMA_ADDRINFO_DEVNAME
#define NFILES		6
#define MAX_THREADS	16
#define RECENT		64

enum op {
	OP_RESOLVE, OP_RESOLVE_SYNC, OP_QUERY, OP_GET_EVENT, OP_READ,
	OP_DESTROY, OP_GET_INFO, OP_POLL, OP_BAD_IOCTL, OP_REOPEN, OP_FORK,
	OP_RO_SYNC, OP_START_RACE, OP_RESOLVER_REGISTER, OP_RESOLVER_TAKE,
	OP_RESOLVER_ANSWER, OP_MAX
};

static const char *const op_names[OP_MAX] = {
	"RESOLVE", "RESOLVE_SYNC", "QUERY", "GET_EVENT", "read", "DESTROY",
	"GET_INFO", "poll", "unknown ioctl", "close+open", "fork",
	"SYNC ro struct", "start+cancel", "RESOLVER_REGISTER", "RESOLVER_TAKE",
	"RESOLVER_ANSWER",
};

/* Outcomes counted per operation: 0 = success, else the errno. */
#define NERR	256
static atomic_ulong counts[OP_MAX][NERR];
static atomic_ulong findings;
static atomic_int files[NFILES];
static atomic_uint recent[RECENT];	/* handles seen lately */
static atomic_int stop;
static char *unmapped;			/* PROT_NONE page */
static char *readonly;			/* PROT_READ page */
static int fail_injection;
static const char *side_name = "main";	/* which process this is */
static __thread char *ro_page;		/* a thread's own page to protect */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

static unsigned int pick(struct rng *r, unsigned int n)
{
	return n ? rnd(r) % n : 0;
}

static void count(enum op op, int ret)
{
	int e = ret < 0 ? errno : 0;

	atomic_fetch_add(&counts[op][e < NERR ? e : NERR - 1], 1);
}

/* Errors any call may return; anything else is reported as a finding. */
static int expected_errno(enum op op, int e)
{
	switch (e) {
	case EINVAL: case EFAULT: case ENOTTY: case EBADF: case EAGAIN:
	case ENOENT: case EBUSY: case ENOMEM: case EINTR: case EMFILE:
	case ENOSPC: case EOVERFLOW: case ENODEV: case EOPNOTSUPP:
	case ERANGE: case ENAMETOOLONG: case EPERM: case EACCES:
	case EPROTONOSUPPORT: case EAFNOSUPPORT: case EDQUOT:
	case ENOBUFS: case EUSERS: case ERESTART:
		return 1;
	case ECHILD:
		return op == OP_FORK;
	default:
		return 0;
	}
}

/* Count the result of @op; an errno that @op should never give is a finding. */
static void tally(enum op op, int ret)
{
	count(op, ret);
	if (ret < 0 && !expected_errno(op, errno) &&
	    atomic_fetch_add(&findings, 1) < 20)
		fprintf(stderr, "rai_fuzz: %s: unexpected errno %d (%s)\n",
			op_names[op], errno, strerror(errno));
}

static int any_fd(struct rng *r)
{
	return atomic_load(&files[pick(r, NFILES)]);
}

/*
 * A file to read from: a blocking one only when an event is queued, so
 * that the threads keep calling instead of sleeping (another thread may
 * still take the event first: then the read sleeps until the next one).
 */
static int read_fd(struct rng *r)
{
	int fd = any_fd(r);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fcntl(fd, F_GETFL) & O_NONBLOCK)
		return fd;
	return poll(&p, 1, 0) == 1 ? fd : -1;
}

static uint32_t any_handle(struct rng *r)
{
	switch (pick(r, 4)) {
	case 0:
		return rnd(r);
	case 1:
		return pick(r, 8);
	default:
		return atomic_load(&recent[pick(r, RECENT)]);
	}
}

static void remember(uint32_t handle)
{
	static atomic_uint next;

	atomic_store(&recent[atomic_fetch_add(&next, 1) % RECENT], handle);
}

/* A user pointer for a buffer of @len bytes the kernel reads. */
static uint64_t in_ptr(struct rng *r, const void *good, size_t len)
{
	switch (pick(r, 16)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)unmapped;
	case 2:			/* straddles into the unmapped page */
		return (uintptr_t)unmapped - (len > 1 ? len / 2 : 1);
	case 3:
		return rnd(r);
	default:
		return (uintptr_t)good;
	}
}

/* A user pointer for @len bytes the kernel writes. */
static uint64_t out_ptr(struct rng *r, void *good, size_t len)
{
	switch (pick(r, 12)) {
	case 0:
		return (uintptr_t)readonly;
	case 1:
		return (uintptr_t)unmapped;
	case 2:
		return (uintptr_t)readonly + 4096 - (len > 1 ? len / 2 : 1);
	case 3:
		return 0;
	default:
		return (uintptr_t)good;
	}
}

static const char *const names[] = {
	RAI_WORLD_IP4_B, RAI_WORLD_IP4_A, RAI_WORLD_IP6_B, RAI_WORLD_IP6_A,
	"::1", "127.0.0.1", "0.0.0.0", "::", "fe80::1%" RAI_WORLD_NETDEV_A,
	"fe80::1%999",
	RAI_ZONE_PEER, RAI_ZONE_SELF, RAI_ZONE_MULTI, RAI_ZONE_PEER4,
	RAI_ZONE_NOADDR, RAI_ZONE_NODATA, "nx." RAI_WORLD_DNS_ZONE,
	RAI_WORLD_HOSTS_NAME, "localhost", "n1", "db",
	"afsdb:" RAI_WORLD_DNS_ZONE, "a;b", "a,b", "a b", "\x01\x02\x03",
	"fe80:0000:0000:0000:0002:c903:0000:0001",
	"256.1.1.1", "1.2.3", "0x7f.1", "[" RAI_WORLD_IP6_B "]", "....", "-",
	"a..b", "xn--bcher-kva." RAI_WORLD_DNS_ZONE, "svc-a", "svc-b", "12345",
};

static const char *const services[] = {
	"4791", "0", "65535", "65536", "-1", "http", "0x1000", "svc-a",
	"18446744073709551615", "", "12a",
};

static void fill_src(struct rng *r, struct rdma_addrinfo_resolve *rs)
{
	struct sockaddr_in *in = (struct sockaddr_in *)rs->src_addr;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)rs->src_addr;

	switch (pick(r, 5)) {
	case 0:
		in->sin_family = AF_INET;
		inet_pton(AF_INET, pick(r, 2) ? RAI_WORLD_IP4_A : "10.9.9.9",
			  &in->sin_addr);
		rs->src_len = pick(r, 4) ? sizeof(*in) : pick(r, 64);
		break;
	case 1:
		in6->sin6_family = AF_INET6;
		inet_pton(AF_INET6, RAI_WORLD_IP6_A, &in6->sin6_addr);
		in6->sin6_scope_id = pick(r, 3) ? 0 : rnd(r);
		rs->src_len = pick(r, 4) ? sizeof(*in6) : pick(r, 64);
		break;
	case 2:
		for (unsigned int i = 0; i < sizeof(rs->src_addr); i++)
			rs->src_addr[i] = rnd(r);
		rs->src_len = pick(r, sizeof(rs->src_addr) + 8);
		break;
	default:
		break;
	}
}

static void fill_resolve(struct rng *r, struct rdma_addrinfo_resolve *rs,
			 char *node, char *service)
{
	static const uint16_t families[] = { 0, AF_INET, AF_INET6, AF_IB,
					     AF_UNIX, 0xffff };
	static const uint16_t spaces[] = { 0, RDMA_ADDRINFO_PS_TCP,
		RDMA_ADDRINFO_PS_UDP, RDMA_ADDRINFO_PS_IB,
		RDMA_ADDRINFO_PS_IPOIB, 0x1234 };
	static const char *const devs[] = { "", RAI_WORLD_IBDEV_A,
		RAI_WORLD_IBDEV_B, "nodev", "rxe0rxe0rxe0" };
	static const char zone_suffix[] = "." RAI_WORLD_DNS_ZONE;
	size_t len;

	memset(rs, 0, sizeof(*rs));
	if (pick(r, 8)) {
		strcpy(node, names[pick(r, sizeof(names) / sizeof(names[0]))]);
		len = strlen(node);
		if (!pick(r, 10))
			node[pick(r, len + 1)] = rnd(r);	/* one hostile byte */
		rs->node = in_ptr(r, node, len);
		rs->node_len = pick(r, 10) ? len : pick(r, 300);
	} else if (pick(r, 2)) {		/* long names, up to the limit */
		len = RDMA_ADDRINFO_NAME_MAX - 2 + pick(r, 5);
		memset(node, 'a' + pick(r, 26), len);
		memcpy(node + len - (sizeof(zone_suffix) - 1), zone_suffix,
		       sizeof(zone_suffix) - 1);
		rs->node = in_ptr(r, node, len);
		rs->node_len = len;
	}
	if (pick(r, 3)) {
		strcpy(service,
		       services[pick(r, sizeof(services) / sizeof(services[0]))]);
		len = strlen(service);
		rs->service = in_ptr(r, service, len ? len : 1);
		rs->service_len = pick(r, 10) ? len : pick(r, 80);
	}
	rs->context = rnd(r);
	rs->ai_flags = pick(r, 4) ? pick(r, 64) : (uint32_t)rnd(r);
	if (pick(r, 3))
		rs->ai_flags &= ~RDMA_ADDRINFO_RAI_SA;
	rs->family = families[pick(r, 6)];
	rs->port_space = spaces[pick(r, 6)];
	rs->qp_type = pick(r, 8) ? pick(r, 5) : rnd(r);
	fill_src(r, rs);
	if (pick(r, 3)) {
		strcpy(rs->ibdev_name, devs[pick(r, 5)]);
		rs->port_num = pick(r, 4);
	}
	if (!pick(r, 30))
		memset(rs->ibdev_name, 'x', sizeof(rs->ibdev_name));
	if (!pick(r, 20))
		rs->result_count = rnd(r);
	if (!pick(r, 20))
		rs->flags |= 1u << pick(r, 32);
}

static void op_resolve(struct rng *r, int sync)
{
	struct rdma_addrinfo_resolve rs;
	char node[RDMA_ADDRINFO_NAME_MAX + 8], service[96];
	/* 4 results, and room for the canonical name after them. */
	struct rdma_addrinfo_result res[5];
	void *arg = &rs;
	int ret;

	fill_resolve(r, &rs, node, service);
	if (sync) {
		rs.flags |= RDMA_ADDRINFO_RESOLVE_SYNC;
		/* A waiting upcall would stall this thread for seconds. */
		if (pick(r, 20))
			rs.ai_flags |= RDMA_ADDRINFO_RAI_NUMERICHOST;
		/* The one-call form: results into an array (or a bad one). */
		if (pick(r, 2)) {
			rs.flags |= RDMA_ADDRINFO_RESOLVE_RESULTS;
			if (pick(r, 2))
				rs.flags |= RDMA_ADDRINFO_RESOLVE_CANONNAME;
			rs.result_count = pick(r, 6) ? pick(r, 5) : rnd(r);
			rs.context = out_ptr(r, res, rs.result_count <= 4 ?
					     rs.result_count * sizeof(res[0]) :
					     sizeof(res));
			if (rs.result_count > 4 &&
			    rs.context == (uintptr_t)res)
				rs.result_count = 4;
		}
	}
	/* The canonical name goes after result_count results: near them. */
	if ((rs.flags & RDMA_ADDRINFO_RESOLVE_CANONNAME) && rs.result_count > 4)
		rs.result_count = 4;
	if (!pick(r, 20))
		arg = pick(r, 2) ? (void *)readonly : (void *)unmapped;
	ret = ioctl(any_fd(r), RDMA_ADDRINFO_IOC_RESOLVE, arg);
	tally(sync ? OP_RESOLVE_SYNC : OP_RESOLVE, ret);
	if (!ret && arg == &rs)
		remember(rs.handle);
}

/*
 * A valid RESOLVE that has to wait, mostly: a DNS name nobody asked for
 * (its upcall answers NXDOMAIN), an SA service on port 1 of an rxe device
 * (the responder answers, or nobody does), or a literal (answered at
 * once).  @node and @service hold the strings.
 */
static void fill_valid(struct rng *r, struct rdma_addrinfo_resolve *rs,
		       char *node, char *service)
{
	static const char *const devs[] = { RAI_WORLD_IBDEV_A,
					    RAI_WORLD_IBDEV_B };
	unsigned int kind = pick(r, 10);

	memset(rs, 0, sizeof(*rs));
	rs->context = rnd(r);
	if (kind < 4) {
		snprintf(node, RDMA_ADDRINFO_NAME_MAX, "fz%llx." RAI_WORLD_DNS_ZONE,
			 (unsigned long long)rnd(r));
	} else if (kind < 8) {
		strcpy(service, pick(r, 2) ? "svc-a" : "svc-b");
		rs->service = (uintptr_t)service;
		rs->service_len = strlen(service);
		rs->ai_flags = RDMA_ADDRINFO_RAI_SA;
		strcpy(rs->ibdev_name, devs[pick(r, 2)]);
		rs->port_num = 1;
		return;
	} else {
		strcpy(node, kind == 8 ? "127.0.0.1" : RAI_ZONE_PEER);
	}
	rs->node = (uintptr_t)node;
	rs->node_len = strlen(node);
}

/*
 * ioctl @cmd with a copy of @arg (@len bytes) on this thread's own page,
 * made read-only for the call: the kernel reads a valid struct and cannot
 * write it back.
 */
static int ioctl_read_only(int fd, unsigned long cmd, const void *arg,
			   size_t len)
{
	int ret, e;

	if (!ro_page) {
		ro_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ro_page == MAP_FAILED) {
			ro_page = NULL;
			errno = ENOMEM;
			return -1;
		}
	}
	if (mprotect(ro_page, 4096, PROT_READ | PROT_WRITE))
		return -1;
	memcpy(ro_page, arg, len);
	if (mprotect(ro_page, 4096, PROT_READ))
		return -1;
	ret = ioctl(fd, cmd, ro_page);
	e = errno;
	mprotect(ro_page, 4096, PROT_READ | PROT_WRITE);
	errno = e;
	return ret;
}

/*
 * A valid synchronous RESOLVE with its results in an array, the struct
 * read-only: the results go out, the request is released, then the copy
 * of the struct fails (EFAULT); it must not be released again.
 */
static void op_ro_sync(struct rng *r)
{
	char node[RDMA_ADDRINFO_NAME_MAX + 8], service[96];
	/* 4 results, and room for the canonical name after them. */
	struct rdma_addrinfo_result res[5];
	struct rdma_addrinfo_resolve rs;

	fill_valid(r, &rs, node, service);
	rs.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
	if (pick(r, 4)) {
		rs.flags |= RDMA_ADDRINFO_RESOLVE_RESULTS;
		rs.context = (uintptr_t)res;
		rs.result_count = 4;
		if (pick(r, 2))
			rs.flags |= RDMA_ADDRINFO_RESOLVE_CANONNAME;
	}
	tally(OP_RO_SYNC, ioctl_read_only(any_fd(r), RDMA_ADDRINFO_IOC_RESOLVE,
					  &rs, sizeof(rs)));
}

/*
 * A valid asynchronous RESOLVE destroyed, or its file closed, the moment
 * it starts: before, during or after the backend's start, while it waits
 * for a slot, or as it is refused.
 */
static void op_start_race(struct rng *r)
{
	char node[RDMA_ADDRINFO_NAME_MAX + 8], service[96];
	struct rdma_addrinfo_resolve rs;
	struct rdma_addrinfo_destroy d = { 0 };
	int fd, ret;

	fill_valid(r, &rs, node, service);
	fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	tally(OP_START_RACE, fd);
	if (fd < 0)
		return;
	ret = ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &rs);
	tally(OP_START_RACE, ret);
	if (!ret && pick(r, 2)) {
		d.handle = rs.handle;
		tally(OP_START_RACE, ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d));
	}
	close(fd);
}

/* Room for every result a request can hold (max_results <= 1024). */
static struct rdma_addrinfo_result query_room[1024];

static void op_query(struct rng *r)
{
	static const uint32_t sizes[] = { sizeof(struct rdma_addrinfo_result),
					  0, 8, 4096, 0xffffffff };
	/* 4 results, and room for the canonical name after them. */
	struct rdma_addrinfo_result res[5];
	struct rdma_addrinfo_query q = { 0 };

	q.handle = any_handle(r);
	q.count = pick(r, 6) ? pick(r, 5) : rnd(r);
	q.result_size = pick(r, 4) ? sizes[0] : sizes[pick(r, 5)];
	q.results = out_ptr(r, res, q.count <= 4 ? q.count * sizeof(res[0]) :
			    sizeof(res));
	/*
	 * More than 4 into good memory: the kernel copies min(count, total)
	 * results, total up to max_results (at most 1024), so never into
	 * res on the stack (a stack smash of the fuzzer's own making, seen
	 * in a debug lane) but into room for all.
	 */
	if (q.count > 4 && q.results == (uintptr_t)res) {
		if (pick(r, 4))
			q.count = 4;
		else
			q.results = (uintptr_t)query_room;
	}
	if (pick(r, 2))
		q.flags = RDMA_ADDRINFO_QUERY_CANONNAME;
	if (!pick(r, 20))
		q.flags |= 1u << pick(r, 32);
	/* The canonical name goes after count results: near them. */
	if ((q.flags & RDMA_ADDRINFO_QUERY_CANONNAME) && q.count > 4)
		q.count = 4;
	tally(OP_QUERY, ioctl(any_fd(r), RDMA_ADDRINFO_IOC_QUERY,
			      pick(r, 20) ? (void *)&q : (void *)unmapped));
}

static void op_get_event(struct rng *r)
{
	struct rdma_addrinfo_event ev;
	void *p = &ev;
	int ret;

	int fd = read_fd(r);

	if (fd < 0)
		return;
	if (!pick(r, 10))
		p = pick(r, 2) ? (void *)readonly : (void *)unmapped;
	ret = ioctl(fd, RDMA_ADDRINFO_IOC_GET_EVENT, p);
	tally(OP_GET_EVENT, ret);
	if (!ret && p == &ev && !pick(r, 2)) {
		struct rdma_addrinfo_destroy d = { .handle = ev.handle };

		tally(OP_DESTROY, ioctl(any_fd(r), RDMA_ADDRINFO_IOC_DESTROY,
					&d));
	}
}

static void op_read(struct rng *r)
{
	struct rdma_addrinfo_event ev[8];
	size_t len = pick(r, 3) ? sizeof(ev[0]) * (1 + pick(r, 8)) :
				  pick(r, sizeof(ev));
	int fd = read_fd(r);
	void *p = ev;
	ssize_t n;

	if (fd < 0)
		return;
	if (!pick(r, 10))
		p = pick(r, 2) ? (void *)readonly : (void *)unmapped;
	n = read(fd, p, len);
	tally(OP_READ, n < 0 ? -1 : 0);
	if (n > 0 && p == ev) {
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
			struct rdma_addrinfo_destroy d = {
				.handle = ev[i].handle,
			};

			remember(ev[i].handle);
			if (pick(r, 2))
				tally(OP_DESTROY,
				      ioctl(any_fd(r),
					    RDMA_ADDRINFO_IOC_DESTROY, &d));
		}
	}
}

static void op_destroy(struct rng *r)
{
	struct rdma_addrinfo_destroy d = { .handle = any_handle(r) };

	if (!pick(r, 20))
		d.flags = rnd(r);
	if (!pick(r, 20))
		d.reserved = rnd(r);
	tally(OP_DESTROY, ioctl(any_fd(r), RDMA_ADDRINFO_IOC_DESTROY,
				pick(r, 30) ? (void *)&d : (void *)readonly));
}

static void op_get_info(struct rng *r)
{
	struct rdma_addrinfo_info info;
	void *p = &info;

	if (!pick(r, 5))
		p = pick(r, 2) ? (void *)readonly : (void *)unmapped;
	tally(OP_GET_INFO, ioctl(any_fd(r), RDMA_ADDRINFO_IOC_GET_INFO, p));
}

static void op_poll(struct rng *r)
{
	struct pollfd p = { .fd = any_fd(r), .events = POLLIN | POLLOUT };

	tally(OP_POLL, poll(&p, 1, pick(r, 3)));
}

static void op_bad_ioctl(struct rng *r)
{
	unsigned long cmd;
	char buf[512];

	switch (pick(r, 4)) {
	case 0:		/* our magic, unknown number */
		cmd = _IOC(pick(r, 4), RDMA_ADDRINFO_IOC_MAGIC, 8 + pick(r, 247),
			   pick(r, 512));
		break;
	case 1:		/* a known number with the wrong size or direction */
		cmd = _IOC(pick(r, 4), RDMA_ADDRINFO_IOC_MAGIC, pick(r, 8),
			   pick(r, 512));
		break;
	case 2:
		cmd = FIONREAD;
		break;
	default:
		cmd = rnd(r);
		break;
	}
	memset(buf, 0, sizeof(buf));
	tally(OP_BAD_IOCTL, ioctl(any_fd(r), cmd, buf));
}

static void op_reopen(struct rng *r)
{
	int slot = pick(r, NFILES);
	int fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC |
		      (pick(r, 2) ? O_NONBLOCK : 0));
	int old;

	tally(OP_REOPEN, fd);
	if (fd < 0)
		return;
	old = atomic_exchange(&files[slot], fd);
	/* Another thread may be inside a call on @old: that is the race. */
	close(old);
}

static void op_fork(struct rng *r)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		tally(OP_FORK, -1);
		return;
	}
	if (!pid) {
		struct rng cr = { r->s ^ 0x9e3779b97f4a7c15ULL };

		for (int i = 0; i < 20; i++) {
			if (pick(&cr, 2))
				op_resolve(&cr, 0);
			else
				op_destroy(&cr);
		}
		_exit(0);
	}
	if (pick(r, 3))
		kill(pid, SIGKILL);
	tally(OP_FORK, waitpid(pid, &status, 0) < 0 ? -1 : 0);
}

/* The file registered as this process's resolver, or -1. */
static atomic_int resolver_fd = -1;
static atomic_ullong resolver_ids;	/* the last id taken */

/* Close the resolver (its names go to the upcall) and register anew. */
static void op_resolver_register(struct rng *r)
{
	struct rdma_addrinfo_resolver_register reg = { 0 };
	int fd, old;

	if (pick(r, 4)) {
		/* Any file: EBUSY, EINVAL, EFAULT, EPERM in a side. */
		reg.flags = !pick(r, 8);
		reg.reserved = !pick(r, 8);
		tally(OP_RESOLVER_REGISTER,
		      ioctl(any_fd(r), RDMA_ADDRINFO_IOC_RESOLVER_REGISTER,
			    pick(r, 6) ? (void *)&reg :
			    (void *)(uintptr_t)out_ptr(r, &reg, sizeof(reg))));
		return;
	}
	old = atomic_exchange(&resolver_fd, -1);
	if (old >= 0)
		close(old);
	fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg) < 0) {
		tally(OP_RESOLVER_REGISTER, -1);
		close(fd);
		return;
	}
	tally(OP_RESOLVER_REGISTER, 0);
	old = atomic_exchange(&resolver_fd, fd);
	if (old >= 0)
		close(old);
}

static int a_resolver_fd(struct rng *r)
{
	int fd = atomic_load(&resolver_fd);

	/* Another thread may close it meanwhile: EBADF, or another file. */
	return fd >= 0 && pick(r, 8) ? fd : any_fd(r);
}

static void op_resolver_take(struct rng *r)
{
	struct rdma_addrinfo_resolver_name names[8];
	struct rdma_addrinfo_resolver_take t = {
		.count = 1 + pick(r, 8),
		.name_size = sizeof(names[0]),
	};
	int fd = a_resolver_fd(r), ret;

	if (!pick(r, 10))
		t.count = pick(r, 2) ? 0 : (uint32_t)rnd(r);
	if (!pick(r, 10))
		t.name_size = pick(r, 512);
	t.reserved = !pick(r, 16);
	t.names = out_ptr(r, names, sizeof(names));
	/* A blocking TAKE on a file of the table would sleep: never. */
	if (!(fcntl(fd, F_GETFL) & O_NONBLOCK))
		return;
	ret = ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVER_TAKE,
		    pick(r, 8) ? (void *)&t :
		    (void *)(uintptr_t)out_ptr(r, &t, sizeof(t)));
	tally(OP_RESOLVER_TAKE, ret);
	if (!ret && t.taken && t.names == (uintptr_t)names)
		atomic_store(&resolver_ids, names[t.taken - 1].id);
}

static void op_resolver_answer(struct rng *r)
{
	static const char *const lists[] = {
		"192.0.2.1", "192.0.2.1,2001:db8::1", "", "junk",
		"192.0.2.1,junk", "fe80::1%lo", ",", "192.0.2.999",
	};
	struct rdma_addrinfo_resolver_answer a[4];
	struct rdma_addrinfo_resolver_answers as = {
		.answer_size = sizeof(a[0]),
	};
	uint64_t last = atomic_load(&resolver_ids);
	unsigned int i;

	memset(a, 0, sizeof(a));
	as.count = 1 + pick(r, 4);
	for (i = 0; i < as.count; i++) {
		a[i].id = pick(r, 4) ? last - pick(r, 16) : rnd(r);
		a[i].error = pick(r, 3) ? 0 : pick(r, 2) ? ENXIO : pick(r, 200);
		a[i].ttl = pick(r, 4) ? 1 + pick(r, 60) : (uint32_t)rnd(r);
		if (pick(r, 16))
			snprintf(a[i].addrs, sizeof(a[i].addrs), "%s",
				 lists[pick(r, 8)]);
		else
			memset(a[i].addrs, 'x', sizeof(a[i].addrs));
	}
	if (!pick(r, 10))
		as.count = (uint32_t)rnd(r);
	if (!pick(r, 10))
		as.answer_size = pick(r, 2048);
	as.reserved = !pick(r, 16);
	as.answers = in_ptr(r, a, sizeof(a));
	tally(OP_RESOLVER_ANSWER,
	      ioctl(a_resolver_fd(r), RDMA_ADDRINFO_IOC_RESOLVER_ANSWER,
		    pick(r, 8) ? (void *)&as :
		    (void *)(uintptr_t)out_ptr(r, &as, sizeof(as))));
}

static void set_make_it_fail(int on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/make-it-fail",
		 (long)syscall(SYS_gettid));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, on ? "1" : "0", 1) != 1)
		perror("make-it-fail");
	close(fd);
}

static void *worker(void *arg)
{
	struct rng r = { (uintptr_t)arg * 0x2545F4914F6CDD1DULL + 1 };

	if (fail_injection)
		set_make_it_fail(1);
	while (!atomic_load(&stop)) {
		unsigned int w = pick(&r, 100);

		if (w < 30)
			op_resolve(&r, 0);
		else if (w < 36)
			op_resolve(&r, 1);
		else if (w < 48)
			op_query(&r);
		else if (w < 56)
			op_get_event(&r);
		else if (w < 66)
			op_read(&r);
		else if (w < 80)
			op_destroy(&r);
		else if (w < 85)
			op_get_info(&r);
		else if (w < 90)
			op_poll(&r);
		else if (w < 93)
			op_bad_ioctl(&r);
		else if (w < 95)
			op_start_race(&r);
		else if (w < 96)
			op_ro_sync(&r);
		else if (w < 97)
			op_reopen(&r);
		else if (w < 99)
			switch (pick(&r, 8)) {
			case 0:
				op_resolver_register(&r);
				break;
			case 1: case 2: case 3: case 4:
				op_resolver_take(&r);
				break;
			default:
				op_resolver_answer(&r);
				break;
			}
		else if (!pick(&r, 20))
			op_fork(&r);
	}
	if (fail_injection)
		set_make_it_fail(0);
	return NULL;
}

/*
 * Threads may sleep in read() or GET_EVENT on a blocking file, or in a
 * synchronous RESOLVE (at most dns_timeout_ms): give every file an event.
 */
static void wake_readers(void)
{
	struct rdma_addrinfo_resolve rs = {
		.node = (uintptr_t)"127.0.0.1", .node_len = 9,
		.ai_flags = RDMA_ADDRINFO_RAI_NUMERICHOST,
	};
	int i;

	/* At a cap, requests in flight will complete and wake them. */
	for (i = 0; i < NFILES; i++)
		ioctl(atomic_load(&files[i]), RDMA_ADDRINFO_IOC_RESOLVE, &rs);
	usleep(100000);	/* the fuzzer's pace, not a wait for a state */
}

/* SIGUSR1 interrupts a worker's wait (no SA_RESTART): it sees stop. */
static void on_wake_signal(int sig)
{
	(void)sig;
}

static long requests_live(void)
{
	FILE *f = fopen("/sys/kernel/debug/rdma_addrinfo/stats", "r");
	char key[64];
	long v, live = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, "requests_live"))
			live = v;
	fclose(f);
	return live;
}

/* (Re)open the files this process's threads share. */
static int open_files(void)
{
	int i, fd;

	for (i = 0; i < NFILES; i++) {
		fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC |
			  (i % 2 ? O_NONBLOCK : 0));
		if (fd < 0) {
			perror(DEVICE_PATH);
			return -1;
		}
		fd = atomic_exchange(&files[i], fd);
		if (fd > 0)
			close(fd);
	}
	return 0;
}

/* @threads workers for @seconds, then every file closed: 0 or 2. */
static int run_threads(int seconds, int threads, unsigned long seed)
{
	pthread_t tid[MAX_THREADS];
	int i;

	for (i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker,
				   (void *)(uintptr_t)(seed + i))) {
			perror("pthread_create");
			return 2;
		}
	sleep(seconds);
	atomic_store(&stop, 1);
	/*
	 * A worker may wait for an event that never comes (the user's
	 * request cap reached, so wake_readers() cannot queue one): the
	 * signal ends its wait with EINTR.
	 */
	for (i = 0; i < threads; i++)
		while (pthread_tryjoin_np(tid[i], NULL)) {
			wake_readers();
			pthread_kill(tid[i], SIGUSR1);
		}
	for (i = 0; i < NFILES; i++)
		close(atomic_load(&files[i]));
	i = atomic_exchange(&resolver_fd, -1);
	if (i >= 0)
		close(i);
	return 0;
}

/* The table of calls and outcomes of this process; its call count. */
static unsigned long print_table(void)
{
	unsigned long total = 0;
	int i, e;

	printf("%-14s %10s  outcomes (%s)\n", "call", "calls", side_name);
	for (i = 0; i < OP_MAX; i++) {
		unsigned long n = 0;

		for (e = 0; e < NERR; e++)
			n += atomic_load(&counts[i][e]);
		total += n;
		printf("%-14s %10lu ", op_names[i], n);
		for (e = 0; e < NERR; e++) {
			unsigned long c = atomic_load(&counts[i][e]);

			if (c)
				printf(" %s:%lu", e ? strerrorname_np(e) : "ok",
				       c);
		}
		printf("\n");
	}
	printf("rai_fuzz: %lu calls, %lu unexpected errors (%s)\n", total,
	       atomic_load(&findings), side_name);
	fflush(stdout);
	return total;
}

/* Wait for process @pid: 0 if it exited 0, else 1 (reported). */
static int side_status(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) != pid) {
		fprintf(stderr, "rai_fuzz: %s: lost\n", what);
		return 1;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	fprintf(stderr, "rai_fuzz: %s: exit %d signal %d\n", what,
		WIFEXITED(st) ? WEXITSTATUS(st) : -1,
		WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return 1;
}

/* A side's threads, on files of its own, then its table; exit status. */
static int side_run(const char *name, int seconds, int threads,
		    unsigned long seed)
{
	side_name = name;
	if (open_files())
		return 2;
	if (run_threads(seconds, threads, seed))
		return 2;
	print_table();
	return atomic_load(&findings) ? 1 : 0;
}

/* The side in a user and network namespace of its own (as root's). */
static pid_t side_netns(int seconds, unsigned long seed)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		perror("rai_fuzz: netns side: unshare");
		_exit(0);	/* not where namespaces are allowed */
	}
	_exit(side_run("netns", seconds, 2, seed));
}

#define SIDE_NS_OWNER	5001
#define SIDE_NS_KUID	300000
#define SIDE_NS_UIDS	4

/*
 * The side of one user namespace (owned by uid SIDE_NS_OWNER) mapping
 * SIDE_NS_UIDS uids: its first process opens the files, then each uid of
 * the namespace runs one thread on them in a process of its own.  The
 * uid map is written by us, the parent, as root.
 */
static pid_t side_userns(int seconds, unsigned long seed)
{
	int go[2], ready[2], i, rc = 0;
	pid_t pid, kids[SIDE_NS_UIDS];
	char path[64], map[64], c;
	FILE *f;

	if (pipe(go) || pipe(ready))
		return -1;
	pid = fork();
	if (!pid) {
		if (setresgid(SIDE_NS_OWNER, SIDE_NS_OWNER, SIDE_NS_OWNER) ||
		    setresuid(SIDE_NS_OWNER, SIDE_NS_OWNER, SIDE_NS_OWNER) ||
		    unshare(CLONE_NEWUSER))
			_exit(0);	/* not where it is allowed */
		c = 'u';
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1 ||
		    c != 'g' || setresuid(0, 0, 0))
			_exit(0);
		if (open_files())
			_exit(2);
		for (i = 0; i < SIDE_NS_UIDS; i++) {
			kids[i] = fork();
			if (kids[i])
				continue;
			snprintf(path, sizeof(path), "userns uid %d", i);
			if (setresuid(i, i, i))
				_exit(2);
			side_name = path;
			if (run_threads(seconds, 1, seed + i))
				_exit(2);
			print_table();
			_exit(atomic_load(&findings) ? 1 : 0);
		}
		for (i = 0; i < NFILES; i++)
			close(atomic_load(&files[i]));
		for (i = 0; i < SIDE_NS_UIDS; i++)
			if (kids[i] > 0)
				rc |= side_status(kids[i], "userns uid");
		_exit(rc);
	}
	c = 0;
	if (pid > 0 && read(ready[0], &c, 1) == 1 && c == 'u') {
		snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
		snprintf(map, sizeof(map), "0 %d %d\n", SIDE_NS_KUID,
			 SIDE_NS_UIDS);
		f = fopen(path, "w");
		c = f && fputs(map, f) >= 0 && !fclose(f) ? 'g' : 'n';
		if (c == 'n')
			fprintf(stderr, "rai_fuzz: userns side: no uid map\n");
	}
	if (pid > 0 && write(go[1], &c, 1) != 1)
		perror("rai_fuzz: userns side");
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	return pid;
}

#define TENANTS		6
#define TENANT_NAMES	32

/* The largest answer: as many IPv6 addresses as @addrs holds, a day. */
static void tenant_big_answer(struct rdma_addrinfo_resolver_answer *a,
			      uint64_t id, unsigned int salt)
{
	size_t len = 0;
	int n;

	memset(a, 0, sizeof(*a));
	a->id = id;
	a->ttl = 86400;
	for (;;) {
		n = snprintf(a->addrs + len, sizeof(a->addrs) - len,
			     "%s2001:db8:%x:ffff:ffff:ffff:ffff:%x",
			     len ? "," : "", salt & 0xffff,
			     (unsigned int)(len & 0xffff));
		if (n < 0 || len + n >= sizeof(a->addrs))
			break;
		len += n;
	}
	a->addrs[len] = '\0';
}

/*
 * One tenant, in its namespaces: rounds of open, REGISTER, TENANT_NAMES
 * RESOLVEs of long fresh names (most destroyed at once), never a TAKE,
 * and (@hostile) ANSWERs of the ids of all its names, never taken, with
 * the largest answers; files closed, again.
 */
static int tenant_run(int seconds, unsigned long seed, int hostile)
{
	static struct rdma_addrinfo_resolver_answer big[8];
	struct rng r = { seed * 0x9E3779B97F4A7C15ULL + 1 };
	struct rdma_addrinfo_resolver_register reg;
	struct rdma_addrinfo_resolver_answers as;
	struct rdma_addrinfo_destroy d;
	struct rdma_addrinfo_resolve rs;
	time_t end = time(NULL) + seconds;
	uint64_t guess;
	char node[256];
	int rfd, fd, k, i;

	while (time(NULL) < end) {
		rfd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		if (rfd < 0 || fd < 0)
			return 2;
		memset(&reg, 0, sizeof(reg));
		tally(OP_RESOLVER_REGISTER,
		      ioctl(rfd, RDMA_ADDRINFO_IOC_RESOLVER_REGISTER, &reg));
		for (k = 0; k < TENANT_NAMES; k++) {
			memset(&rs, 0, sizeof(rs));
			snprintf(node, sizeof(node),
				 "%0120llx.%0120llx." RAI_WORLD_DNS_ZONE,
				 (unsigned long long)rnd(&r),
				 (unsigned long long)rnd(&r));
			rs.node = (uintptr_t)node;
			rs.node_len = strlen(node);
			rs.context = k;
			i = ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &rs);
			tally(OP_RESOLVE, i);
			/* The hostile tenant's names stay, for its answers. */
			if (i || hostile || !pick(&r, 4))
				continue;
			memset(&d, 0, sizeof(d));
			d.handle = rs.handle;
			tally(OP_DESTROY,
			      ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d));
		}
		/* Ids of a new resolver start at 1: all of its names. */
		for (guess = 1, k = 0; hostile && k < 4; k++) {
			for (i = 0; i < 8; i++)
				tenant_big_answer(&big[i], guess++, i);
			memset(&as, 0, sizeof(as));
			as.answers = (uintptr_t)big;
			as.count = 8;
			as.answer_size = sizeof(big[0]);
			tally(OP_RESOLVER_ANSWER,
			      ioctl(rfd, RDMA_ADDRINFO_IOC_RESOLVER_ANSWER,
				    &as));
		}
		/* Now and then the requests outlive a resolver, or not. */
		if (pick(&r, 2)) {
			close(rfd);
			close(fd);
		} else {
			close(fd);
			close(rfd);
		}
	}
	print_table();
	return atomic_load(&findings) ? 1 : 0;
}

/*
 * TENANTS processes in user and network namespaces of their own, the
 * first half made by nobody, the rest by root (uid 0 mapped to
 * SIDE_NS_KUID + 100 * i by us); the last is hostile.  Their pids go to
 * @pids (-1 where a fork failed).
 */
static void side_tenants(int seconds, unsigned long seed, pid_t *pids)
{
	char path[64], map[64], c;
	int ready[2], go[2], i;
	FILE *f;

	for (i = 0; i < TENANTS; i++) {
		pids[i] = -1;
		if (pipe(ready) || pipe(go))
			return;
		pids[i] = fork();
		if (!pids[i]) {
			if (i < TENANTS / 2 &&
			    (setgroups(0, NULL) ||
			     setresgid(65534, 65534, 65534) ||
			     setresuid(65534, 65534, 65534)))
				_exit(0);
			if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
				_exit(0);	/* not where it is allowed */
			c = 'u';
			if (write(ready[1], &c, 1) != 1 ||
			    read(go[0], &c, 1) != 1 || c != 'g' ||
			    setresuid(0, 0, 0))
				_exit(0);
			side_name = i == TENANTS - 1 ? "hostile tenant" :
				    "tenant";
			/* Busy loops all: the main threads keep their share. */
			errno = 0;
			if (nice(10) == -1 && errno)
				perror("rai_fuzz: tenant: nice");
			_exit(tenant_run(seconds, seed + i, i == TENANTS - 1));
		}
		c = 0;
		if (pids[i] > 0 && read(ready[0], &c, 1) == 1 && c == 'u') {
			snprintf(path, sizeof(path), "/proc/%d/uid_map",
				 pids[i]);
			if (i < TENANTS / 2)
				snprintf(map, sizeof(map), "0 65534 1\n");
			else
				snprintf(map, sizeof(map), "0 %d 1\n",
					 SIDE_NS_KUID + 100 * i);
			f = fopen(path, "w");
			c = f && fputs(map, f) >= 0 && !fclose(f) ? 'g' : 'n';
		}
		if (pids[i] > 0 && write(go[1], &c, 1) != 1)
			perror("rai_fuzz: tenant");
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	int threads = argc > 2 ? atoi(argv[2]) : 4;
	unsigned long seed = argc > 3 ? strtoul(argv[3], NULL, 0) :
				       (unsigned long)time(NULL);
	const char *sides_env = getenv("RAI_FUZZ_SIDES");
	bool sides = !sides_env || strcmp(sides_env, "0");
	pid_t netns = -1, userns = -1, tenants[TENANTS];
	unsigned long side_findings = 0;
	long live = -1;
	int i;

	if (threads < 1 || threads > MAX_THREADS)
		threads = 4;
	fail_injection = getenv("RAI_FUZZ_FAIL") &&
			 !strcmp(getenv("RAI_FUZZ_FAIL"), "1");
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGUSR1, &(struct sigaction){ .sa_handler = on_wake_signal },
		  NULL);
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	/*
	 * A guard page after it: what is written past its end (a canonical
	 * name after the results) faults instead of landing in our memory.
	 */
	readonly = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (unmapped == MAP_FAILED || readonly == MAP_FAILED ||
	    mprotect(readonly, 4096, PROT_READ)) {
		perror("mmap");
		return 2;
	}
	for (i = 0; i < NFILES; i++)
		atomic_store(&files[i], -1);
	if (open_files())
		return 2;
	printf("rai_fuzz: %d s, %d threads, seed %lu, %zu-bit%s%s\n", seconds,
	       threads, seed, sizeof(long) * 8,
	       fail_injection ? ", allocation failures injected" : "",
	       sides ? ", sides: netns, userns of 4 uids, 6 tenants" : "");
	fflush(stdout);
	if (sides) {
		netns = side_netns(seconds, seed + 100);
		userns = side_userns(seconds, seed + 200);
		side_tenants(seconds, seed + 300, tenants);
	}
	if (run_threads(seconds, threads, seed))
		return 2;
	if (netns > 0)
		side_findings += side_status(netns, "netns side");
	if (userns > 0)
		side_findings += side_status(userns, "userns side");
	for (i = 0; sides && i < TENANTS; i++)
		if (tenants[i] > 0)
			side_findings += side_status(tenants[i], "tenant");
	print_table();
	if (side_findings)
		printf("rai_fuzz: %lu side(s) failed\n", side_findings);

	/* Closed files cancel their requests; upcalls may still be ending. */
	if (getenv("RAI_FUZZ_LIVE") && !strcmp(getenv("RAI_FUZZ_LIVE"), "0"))
		return atomic_load(&findings) || side_findings ? 1 : 0;
	for (i = 0; i < 600; i++) {
		live = requests_live();
		if (live <= 0)
			break;
		usleep(100000);	/* the pace of a look, 60 s at most */
	}
	printf("rai_fuzz: requests_live after close: %ld\n", live);
	return atomic_load(&findings) || side_findings || live != 0 ? 1 : 0;
}
