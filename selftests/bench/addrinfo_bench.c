// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * addrinfo_bench: what resolving a name costs through rdma_addrinfo.ko,
 * against the alternatives, all measured in the same process and run.
 *
 * References: getppid() (one syscall) and GET_INFO (one no-op ioctl).
 * Alternatives: the system librdmacm's own rdma_getaddrinfo() (user-space
 * getaddrinfo(), first answer only) and glibc's getaddrinfo().
 * Absolute times under emulation mean little; the ratios are the result.
 *
 * Usage: addrinfo_bench [ITERATIONS]   (inside the test VM: make bench)
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#define DEVICE_PATH	"/dev/" RDMA_ADDRINFO_DEVNAME
#define BATCH		1000

typedef int (*getaddrinfo_fn)(const char *, const char *,
			      const struct rdma_addrinfo *,
			      struct rdma_addrinfo **);
typedef void (*freeaddrinfo_fn)(struct rdma_addrinfo *);

static int dev_fd = -1;
static getaddrinfo_fn rdmacm_getaddrinfo;
static freeaddrinfo_fn rdmacm_freeaddrinfo;
static const char *dns_name = "peer.rai.test";
static const char *numeric_name = "192.168.77.2";

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	fprintf(stderr, "addrinfo_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Each op returns the number of results it produced (or 0). */
typedef int (*op_fn)(void);

static int op_getppid(void)
{
	return getppid() > 0;
}

static int op_get_info(void)
{
	struct rdma_addrinfo_info info;

	if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_GET_INFO, &info))
		die("GET_INFO");
	return 1;
}

/* The module without the library: RESOLVE(sync), QUERY, DESTROY. */
static int op_ioctl_numeric(void)
{
	struct rdma_addrinfo_result res[4];
	struct rdma_addrinfo_resolve r = {
		.node = (unsigned long)numeric_name,
		.node_len = strlen(numeric_name),
		.service = (unsigned long)"4791",
		.service_len = 4,
		.ai_flags = RDMA_ADDRINFO_RAI_NUMERICHOST,
		.flags = RDMA_ADDRINFO_RESOLVE_SYNC,
	};
	struct rdma_addrinfo_query q = {
		.results = (unsigned long)res,
		.count = 4,
		.result_size = sizeof(res[0]),
	};
	struct rdma_addrinfo_destroy d = { 0 };

	if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_RESOLVE, &r))
		die("RESOLVE");
	q.handle = r.handle;
	if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_QUERY, &q))
		die("QUERY");
	d.handle = r.handle;
	if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_DESTROY, &d))
		die("DESTROY");
	return q.copied;
}

static int count_and_free(struct rdma_addrinfo *res, freeaddrinfo_fn fr)
{
	struct rdma_addrinfo *ai;
	int n = 0;

	for (ai = res; ai; ai = ai->ai_next)
		n++;
	fr(res);
	return n;
}

static int lookup(getaddrinfo_fn ga, freeaddrinfo_fn fr, const char *node,
		  int flags)
{
	struct rdma_addrinfo hints = { .ai_flags = flags,
				       .ai_port_space = RDMA_PS_TCP };
	struct rdma_addrinfo *res;

	if (ga(node, "4791", &hints, &res))
		return 0;
	return count_and_free(res, fr);
}

static int op_module_numeric(void)
{
	return lookup(rdma_getaddrinfo, rdma_freeaddrinfo, numeric_name,
		      RAI_NUMERICHOST);
}

static int op_rdmacm_numeric(void)
{
	return lookup(rdmacm_getaddrinfo, rdmacm_freeaddrinfo, numeric_name,
		      RAI_NUMERICHOST);
}

static int op_module_dns(void)
{
	return lookup(rdma_getaddrinfo, rdma_freeaddrinfo, dns_name, 0);
}

static int op_rdmacm_dns(void)
{
	return lookup(rdmacm_getaddrinfo, rdmacm_freeaddrinfo, dns_name, 0);
}

static int op_glibc_dns(void)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int n = 0;

	if (getaddrinfo(dns_name, "4791", &hints, &res))
		return 0;
	for (ai = res; ai; ai = ai->ai_next)
		n++;
	freeaddrinfo(res);
	return n;
}

struct measure {
	const char *name;
	op_fn op;
	double us;
	int results;
};

static void run(struct measure *m, int iterations)
{
	double t0;
	int i;

	m->results = m->op();	/* warm up: caches, lazily opened fds */
	t0 = now_us();
	for (i = 0; i < iterations; i++)
		m->op();
	m->us = (now_us() - t0) / iterations;
}

/* BATCH asynchronous requests in flight on one fd, until every event. */
static double async_batch_us(const char *node)
{
	static struct rdma_addrinfo_event ev[64];
	struct rdma_addrinfo_resolve r;
	struct rdma_addrinfo_destroy d;
	int i, got = 0;
	double t0;

	t0 = now_us();
	for (i = 0; i < BATCH; i++) {
		memset(&r, 0, sizeof(r));
		r.node = (unsigned long)node;
		r.node_len = strlen(node);
		r.service = (unsigned long)"4791";
		r.service_len = 4;
		r.context = i;
		if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_RESOLVE, &r))
			die("RESOLVE");
	}
	while (got < BATCH) {
		ssize_t n = read(dev_fd, ev, sizeof(ev));

		if (n < 0)
			die("read");
		for (i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
			memset(&d, 0, sizeof(d));
			d.handle = ev[i].handle;
			if (ioctl(dev_fd, RDMA_ADDRINFO_IOC_DESTROY, &d))
				die("DESTROY");
		}
		got += n / sizeof(ev[0]);
	}
	return (now_us() - t0) / BATCH;
}

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key) + 1, NULL, 10);
	fclose(f);
	return v;
}

/* Kernel memory held per completed request (Slab + kernel heap delta). */
static long bytes_per_held_request(const char *node)
{
	struct rdma_addrinfo_resolve r;
	long before, after;
	int fd, i;

	fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("open");
	before = meminfo_kb("Slab:") + meminfo_kb("VmallocUsed:");
	for (i = 0; i < BATCH; i++) {
		memset(&r, 0, sizeof(r));
		r.node = (unsigned long)node;
		r.node_len = strlen(node);
		r.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
		if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &r))
			die("RESOLVE");
	}
	after = meminfo_kb("Slab:") + meminfo_kb("VmallocUsed:");
	close(fd);
	return (after - before) * 1024 / BATCH;
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 2000;
	struct measure m[] = {
		{ .name = "getppid() syscall (reference)", .op = op_getppid },
		{ .name = "GET_INFO no-op ioctl (reference)", .op = op_get_info },
		{ .name = "module: numeric rdma_getaddrinfo", .op = op_module_numeric },
		{ .name = "module: numeric, raw ioctls", .op = op_ioctl_numeric },
		{ .name = "librdmacm: numeric rdma_getaddrinfo", .op = op_rdmacm_numeric },
		{ .name = "module: DNS name, kernel-cached", .op = op_module_dns },
		{ .name = "librdmacm: DNS name (getaddrinfo)", .op = op_rdmacm_dns },
		{ .name = "glibc getaddrinfo (reference)", .op = op_glibc_dns },
	};
	void *rdmacm;
	double async_us;
	size_t i;

	dev_fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (dev_fd < 0)
		die(DEVICE_PATH);
	/* The system librdmacm's own implementation, not our wrapper. */
	rdmacm = dlopen("librdmacm.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!rdmacm)
		die("dlopen librdmacm.so.1");
	rdmacm_getaddrinfo = (getaddrinfo_fn)dlsym(rdmacm, "rdma_getaddrinfo");
	rdmacm_freeaddrinfo =
		(freeaddrinfo_fn)dlsym(rdmacm, "rdma_freeaddrinfo");
	if (!rdmacm_getaddrinfo || !rdmacm_freeaddrinfo)
		die("dlsym");

	printf("addrinfo_bench: %d iterations per line, name %s\n",
	       iterations, dns_name);
	printf("%-40s %10s %8s %8s\n", "operation", "us/op", "x ioctl",
	       "results");
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		run(&m[i], iterations);
		printf("%-40s %10.2f %8.2f %8d\n", m[i].name, m[i].us,
		       m[i].us / m[1].us, m[i].results);
	}
	printf("ratio librdmacm/module, numeric: %.2f\n", m[4].us / m[2].us);
	printf("ratio librdmacm/module, DNS:     %.2f\n", m[6].us / m[5].us);

	async_us = async_batch_us(dns_name);
	printf("module: %d async requests in flight on one fd: %.2f us/request "
	       "(%.2f x sync module, %.2f x librdmacm sync)\n", BATCH, async_us,
	       async_us / m[5].us, async_us / m[6].us);
	printf("kernel memory per held request (%d held, 2 results each): "
	       "%ld bytes (result record %zu bytes)\n", BATCH,
	       bytes_per_held_request(dns_name),
	       sizeof(struct rdma_addrinfo_result));
	close(dev_fd);
	dlclose(rdmacm);
	return 0;
}
