// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A user's program, built in the VM against the installed packages only:
 *   cc lookup.c $(pkg-config --cflags --libs rdma_addrinfo)
 * Resolves NODE through rdma_getaddrinfo() and prints every destination
 * address, one a line; rdma_addrinfo_strerror() is the library's own, so
 * the program does not link without it.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <rdma/rdma_addrinfo.h>

int main(int argc, char **argv)
{
	struct rdma_addrinfo *res, *ai;
	char buf[INET6_ADDRSTRLEN];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s NODE\n", argv[0]);
		return 2;
	}
	ret = rdma_getaddrinfo(argv[1], NULL, NULL, &res);
	if (ret) {
		fprintf(stderr, "%s: %s\n", argv[1], rdma_addrinfo_strerror(ret));
		return 1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		const struct sockaddr *sa = ai->ai_dst_addr;
		const void *a = sa->sa_family == AF_INET6 ?
			(const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
			(const void *)&((const struct sockaddr_in *)sa)->sin_addr;

		if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6)
			printf("%s\n", inet_ntop(sa->sa_family, a, buf, sizeof(buf)));
	}
	rdma_freeaddrinfo(res);
	return 0;
}
