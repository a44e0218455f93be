// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sa_burst: N identical asynchronous RESOLVE(RAI_SA) requests on one file
 * of /dev/infiniband/rdma_addrinfo, all in flight together, then N
 * events; prints how many completed with each status.  With the test SA
 * responder's MAD count before and after, it shows coalescing and the
 * cache ("N queries -> at most 2 MADs").
 *
 * usage: sa_burst [-n N] [-d IBDEV] [-p PORT] [-r] [-D] SERVICE
 *   -r  RAI_NOROUTE     -D  destroy every request right after RESOLVE
 * Exit status: 0 when every event has status 0 (or, with -D, no event
 * arrives), 1 otherwise, 2 on a usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <rdma/rdma_addrinfo_abi.h>

#include "world_env.h"

int main(int argc, char **argv)
{
	const char *dev = RAI_IBDEV_A, *service;
	unsigned int n = 1000, port = 1, ok = 0, got = 0, i;
	int opt, fd, noroute = 0, destroy = 0;
	int statuses[8] = { 0 }, codes[8] = { 0 }, ncodes = 0;

	while ((opt = getopt(argc, argv, "n:d:p:rD")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			dev = optarg;
			break;
		case 'p':
			port = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			noroute = 1;
			break;
		case 'D':
			destroy = 1;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-n N] [-d IBDEV] [-p PORT] [-r] [-D] SERVICE\n",
				argv[0]);
			return 2;
		}
	}
	if (optind != argc - 1 || !n)
		return 2;
	service = argv[optind];
	fd = open("/dev/" RDMA_ADDRINFO_DEVNAME, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("open");
		return 2;
	}
	for (i = 0; i < n; i++) {
		struct rdma_addrinfo_resolve r;

		memset(&r, 0, sizeof(r));
		r.service = (uintptr_t)service;
		r.service_len = strlen(service);
		r.ai_flags = RDMA_ADDRINFO_RAI_SA |
			     (noroute ? RDMA_ADDRINFO_RAI_NOROUTE : 0);
		r.port_num = port;
		r.context = i;
		snprintf(r.ibdev_name, sizeof(r.ibdev_name), "%s", dev);
		if (ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &r)) {
			fprintf(stderr, "RESOLVE %u: %s\n", i, strerror(errno));
			return 2;
		}
		if (destroy) {
			struct rdma_addrinfo_destroy d = { .handle = r.handle };

			if (ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d)) {
				perror("DESTROY");
				return 2;
			}
		}
	}
	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct rdma_addrinfo_event ev;
		int k;

		if (poll(&p, 1, destroy ? 3000 : 60000) <= 0)
			break;
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev)) {
			perror("read");
			return 2;
		}
		got++;
		ok += !ev.status;
		for (k = 0; k < ncodes && codes[k] != ev.status; k++)
			;
		if (k == ncodes && ncodes < 8)
			codes[ncodes++] = ev.status;
		if (k < 8)
			statuses[k]++;
	}
	printf("requests %u events %u ok %u", n, got, ok);
	for (i = 0; i < (unsigned int)ncodes; i++)
		printf(" status[%d]=%d", codes[i], statuses[i]);
	printf("\n");
	close(fd);
	if (destroy)
		return got ? 1 : 0;
	return ok == n ? 0 : 1;
}
