// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * An rdma-core 60+ program, built in the forky root against rdma-core 65's
 * own <rdma/rdma_cma.h> and linked with -lrdmacm alone: its references to
 * rdma_resolve_addrinfo, rdma_query_addrinfo and rdma_write_cm_event are
 * at RDMACM_1.4.  It says which object serves each call, then resolves
 * NODE SERVICE on an rdma_cm_id and round-trips one RDMA_CM_EVENT_USER.
 * user/tests/vm/rdmacm14_test.c runs it with and without the library
 * preloaded.
 *
 * Usage: rdmacm14_client NODE SERVICE
 * Output: "bind CALL OBJECT" lines, "event NAME status N",
 *         "result ADDRESS port N" lines, "user arg N"; exit status 0 when
 *         every step worked.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rdma/rdma_cma.h>

static void say_binding(const char *call, void *fn)
{
	Dl_info info;

	if (dladdr(fn, &info) && info.dli_fname)
		printf("bind %s %s\n", call, info.dli_fname);
	else
		printf("bind %s ?\n", call);
}

static void say_result(const struct rdma_addrinfo *ai)
{
	const struct sockaddr *sa = ai->ai_dst_addr;
	char buf[INET6_ADDRSTRLEN] = "?";
	unsigned short port = 0;

	if (sa && sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  buf, sizeof(buf));
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	} else if (sa && sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr, buf,
			  sizeof(buf));
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	}
	printf("result %s port %u\n", buf, port);
}

static int resolve_and_print(struct rdma_event_channel *ch,
			     struct rdma_cm_id *id, const char *node,
			     const char *service)
{
	struct rdma_addrinfo *res, *ai;
	struct rdma_cm_event *ev;
	int status;

	if (rdma_resolve_addrinfo(id, node, service, NULL)) {
		printf("rdma_resolve_addrinfo: %s\n", strerror(errno));
		return -1;
	}
	if (rdma_get_cm_event(ch, &ev)) {
		printf("rdma_get_cm_event: %s\n", strerror(errno));
		return -1;
	}
	printf("event %s status %d\n", rdma_event_str(ev->event), ev->status);
	status = ev->event == RDMA_CM_EVENT_ADDRINFO_RESOLVED ? 0 : -1;
	rdma_ack_cm_event(ev);
	if (status)
		return -1;
	if (rdma_query_addrinfo(id, &res)) {
		printf("rdma_query_addrinfo: %s\n", strerror(errno));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next)
		say_result(ai);
	rdma_freeaddrinfo(res);
	return 0;
}

static int user_event(struct rdma_event_channel *ch, struct rdma_cm_id *id)
{
	struct rdma_cm_event *ev;

	if (rdma_write_cm_event(id, RDMA_CM_EVENT_USER, 0, 42)) {
		printf("rdma_write_cm_event: %s\n", strerror(errno));
		return -1;
	}
	if (rdma_get_cm_event(ch, &ev)) {
		printf("rdma_get_cm_event: %s\n", strerror(errno));
		return -1;
	}
	printf("user arg %llu\n", (unsigned long long)ev->param.arg);
	rdma_ack_cm_event(ev);
	return 0;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NODE SERVICE\n", argv[0]);
		return 2;
	}
	say_binding("rdma_resolve_addrinfo", (void *)rdma_resolve_addrinfo);
	say_binding("rdma_query_addrinfo", (void *)rdma_query_addrinfo);
	say_binding("rdma_write_cm_event", (void *)rdma_write_cm_event);
	fflush(stdout);

	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		printf("no rdma_cm channel or id: %s\n", strerror(errno));
		return 1;
	}
	ret = resolve_and_print(ch, id, argv[1], argv[2]) || user_event(ch, id);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return ret ? 1 : 0;
}
