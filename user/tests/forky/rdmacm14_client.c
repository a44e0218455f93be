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
 *
 * Usage: rdmacm14_client --semantics NODE MISSING
 * Output: one "STEP WHAT" line per step of rdma_resolve_addrinfo() and
 *         rdma_query_addrinfo() as rdma-core 60+ defines them (the steps
 *         are those of semantics() below); NODE resolves, MISSING does not.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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

/* "-1 ENAME" for a failure, with the number when it has no name. */
static const char *failure(void)
{
	static char buf[64];
	const char *name = strerrorname_np(errno);

	if (name)
		snprintf(buf, sizeof(buf), "-1 %s", name);
	else
		snprintf(buf, sizeof(buf), "-1 errno %d", errno);
	return buf;
}

static void say_ret(const char *step, int ret)
{
	printf("%s %s\n", step, ret ? failure() : "0");
}

/* The next event of the (non-blocking) channel within 20 s, as a line. */
static void say_event(const char *step, struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	int i;

	for (i = 0; i < 400; i++) {
		if (!rdma_get_cm_event(ch, &ev)) {
			printf("%s %s %d\n", step, rdma_event_str(ev->event),
			       ev->status);
			rdma_ack_cm_event(ev);
			return;
		}
		if (errno != EAGAIN)
			break;
		usleep(50000);	/* the pace of a non-blocking look, with its deadline */
	}
	printf("%s none %s\n", step, failure());
}

/* The id's list in *@res and its length, or -1 with the step's failure said. */
static int query_list(const char *step, struct rdma_cm_id *id,
		      struct rdma_addrinfo **res)
{
	struct rdma_addrinfo *ai;
	int n = 0;

	if (rdma_query_addrinfo(id, res)) {
		printf("%s %s\n", step, failure());
		return -1;
	}
	for (ai = *res; ai; ai = ai->ai_next)
		n++;
	return n;
}

static void say_query(const char *step, struct rdma_cm_id *id)
{
	struct rdma_addrinfo *res;
	int n = query_list(step, id, &res);

	if (n < 0)
		return;
	printf("%s 0 results %d family %d qp %d ps %d dst %u src %u\n", step, n,
	       res->ai_family, res->ai_qp_type, res->ai_port_space,
	       (unsigned int)res->ai_dst_len, (unsigned int)res->ai_src_len);
	rdma_freeaddrinfo(res);
}

/* "ADDRESS:PORT" of an IP address, "-" for none, "?" for another family. */
static const char *addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (!sa) {
		snprintf(buf, len, "-");
	} else if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip,
			 ntohs(((const struct sockaddr_in *)sa)->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr, ip,
			  sizeof(ip));
		snprintf(buf, len, "%s:%u", ip,
			 ntohs(((const struct sockaddr_in6 *)sa)->sin6_port));
	} else {
		snprintf(buf, len, "?");
	}
	return buf;
}

/* The first result's fields and addresses, the count last. */
static void say_first(const char *step, struct rdma_cm_id *id)
{
	char src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 8];
	struct rdma_addrinfo *res;
	int n = query_list(step, id, &res);

	if (n < 0)
		return;
	printf("%s 0 family %d qp %d ps %d src %s dst %s results %d\n", step,
	       res->ai_family, res->ai_qp_type, res->ai_port_space,
	       addr_str(res->ai_src_len ? res->ai_src_addr : NULL, src,
			sizeof(src)),
	       addr_str(res->ai_dst_len ? res->ai_dst_addr : NULL, dst,
			sizeof(dst)), n);
	rdma_freeaddrinfo(res);
}

/*
 * The list rdma_getaddrinfo() gives, through the id: no node (glibc's
 * order), a source in the hints (echoed), hints with a destination and
 * no node (copied); and a service glibc does not know (the errno).
 */
static void semantics_list(struct rdma_event_channel *ch,
			   struct rdma_cm_id *id, const char *node)
{
	struct sockaddr_in src = { .sin_family = AF_INET,
				   .sin_port = htons(7472) };
	struct sockaddr_in dst = { .sin_family = AF_INET,
				   .sin_port = htons(7471) };
	struct rdma_addrinfo with_src = { .ai_src_addr = (void *)&src,
					  .ai_src_len = sizeof(src) };
	struct rdma_addrinfo with_dst = { .ai_dst_addr = (void *)&dst,
					  .ai_dst_len = sizeof(dst) };

	inet_pton(AF_INET, "127.0.0.1", &src.sin_addr);
	inet_pton(AF_INET, "127.0.0.2", &dst.sin_addr);
	say_ret("resolve-no-node", rdma_resolve_addrinfo(id, NULL, "4791", NULL));
	say_event("event-no-node", ch);
	say_first("query-no-node", id);
	say_ret("resolve-src", rdma_resolve_addrinfo(id, node, "4791", &with_src));
	say_event("event-src", ch);
	say_first("query-src", id);
	say_ret("resolve-dst-hints",
		rdma_resolve_addrinfo(id, NULL, NULL, &with_dst));
	say_event("event-dst-hints", ch);
	say_first("query-dst-hints", id);
	if (rdma_resolve_addrinfo(id, node, "no-such-service-rai", NULL)) {
		say_ret("resolve-bad-service", -1);
	} else {
		say_ret("resolve-bad-service", 0);
		say_event("event-bad-service", ch);
	}
}

/* Each step, one line; the rows of rdmacm14_test's table. */
static void semantics(struct rdma_event_channel *ch, struct rdma_cm_id *id,
		      const char *node, const char *missing)
{
	struct rdma_addrinfo sa_node = { .ai_flags = RAI_SA };
	struct rdma_addrinfo sa_dns = { .ai_flags = RAI_SA | RAI_DNS };
	struct rdma_addrinfo sa_alone = { .ai_flags = RAI_SA };
	struct rdma_addrinfo alone = { .ai_family = AF_INET,
				       .ai_qp_type = IBV_QPT_RC,
				       .ai_port_space = RDMA_PS_TCP };
	struct rdma_addrinfo *res;

	say_ret("query-null", rdma_query_addrinfo(NULL, &res));
	say_ret("query-unresolved", rdma_query_addrinfo(id, &res));
	/* Queried before its event: a DNS result is there on return. */
	say_ret("resolve", rdma_resolve_addrinfo(id, node, "4791", NULL));
	say_query("query-at-once", id);
	say_query("query-again", id);
	say_event("event-after-query", ch);
	say_query("query-after-event", id);
	/* In the usual order: the event, then the query, once. */
	say_ret("resolve-usual", rdma_resolve_addrinfo(id, node, "4791", NULL));
	say_event("event-usual", ch);
	say_query("query-usual", id);
	say_query("query-twice", id);
	say_ret("resolve-sa-node", rdma_resolve_addrinfo(id, node, "1", &sa_node));
	say_ret("resolve-sa-dns", rdma_resolve_addrinfo(id, NULL, "1", &sa_dns));
	say_ret("resolve-sa-no-service",
		rdma_resolve_addrinfo(id, NULL, NULL, &sa_alone));
	/* Hints without an address: they come back. */
	say_ret("resolve-hints", rdma_resolve_addrinfo(id, NULL, NULL, &alone));
	say_event("event-hints", ch);
	say_query("query-hints", id);
	/* A name that does not resolve. */
	if (rdma_resolve_addrinfo(id, missing, NULL, NULL)) {
		say_ret("resolve-missing", -1);
	} else {
		say_ret("resolve-missing", 0);
		say_event("event-missing", ch);
	}
	say_query("query-missing", id);
	semantics_list(ch, id, node);
	/* A second request after the event, the first never queried. */
	say_ret("resolve-unqueried", rdma_resolve_addrinfo(id, node, "4791", NULL));
	say_event("event-unqueried", ch);
	if (rdma_resolve_addrinfo(id, node, "4791", NULL)) {
		say_ret("resolve-after-unqueried", -1);
	} else {
		say_ret("resolve-after-unqueried", 0);
		say_event("event-after-unqueried", ch);
	}
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	int ret;

	if (argc == 4 && !strcmp(argv[1], "--semantics")) {
		ch = rdma_create_event_channel();
		if (!ch || fcntl(ch->fd, F_SETFL, O_NONBLOCK) ||
		    rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
			printf("no rdma_cm channel or id: %s\n", strerror(errno));
			return 1;
		}
		semantics(ch, id, argv[2], argv[3]);
		rdma_destroy_id(id);
		rdma_destroy_event_channel(ch);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s NODE SERVICE\n", argv[0]);
		fprintf(stderr, "       %s --semantics NODE MISSING\n", argv[0]);
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
