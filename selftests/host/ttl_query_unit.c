// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of the TTL query sent alongside getaddrinfo()
 * (user/dns-helper/ttl_query.c), against a name server of its own on
 * 127.0.0.1 (a UDP socket of this test), no other network:
 *
 *  - only its own answer counts: the id, a response, one question that
 *    is the name's A/IN (case and a trailing dot aside); anything else is
 *    another query's, read and dropped;
 *  - the answer gives the smallest TTL of its records, or none (-1) when
 *    it is truncated, an error or empty: the caller asks res_search();
 *  - it goes out only when res_search() would ask the name as it is
 *    first (ndots), to the thread's first name server;
 *  - no answer in time: -1 after the wait; late answers of earlier
 *    queries on the socket are skipped;
 *  - the thread's socket is closed when the thread ends.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lookup.h"
#include "ttl_query.h"
#include "unit_check.h"

/*
 * A response to the A query of @qname with id @id, rcode @rcode, TC
 * @tc, and one A record per @ttls entry: its length in @msg.
 */
static int unit_response(unsigned char *msg, size_t size, const char *qname,
			 unsigned short id, int rcode, int tc,
			 const unsigned int *ttls, unsigned int nttls)
{
	HEADER *hdr = (HEADER *)msg;
	unsigned char *p;
	unsigned int i;
	int len;

	len = res_mkquery(ns_o_query, qname, ns_c_in, ns_t_a, NULL, 0, NULL,
			  msg, (int)size);
	if (len < 0 || (size_t)len + nttls * (2 + RRFIXEDSZ + 4) > size)
		return -1;
	hdr->id = id;
	hdr->qr = 1;
	hdr->ra = 1;
	hdr->tc = tc;
	hdr->rcode = rcode;
	hdr->ancount = htons(nttls);
	p = msg + len;
	for (i = 0; i < nttls; i++) {
		*p++ = 0xc0;		/* the question's name, compressed */
		*p++ = HFIXEDSZ;
		memset(p, 0, RRFIXEDSZ + 4);
		p[1] = ns_t_a;
		p[3] = ns_c_in;
		p[4] = ttls[i] >> 24;
		p[5] = ttls[i] >> 16;
		p[6] = ttls[i] >> 8;
		p[7] = ttls[i];
		p[9] = 4;
		p[RRFIXEDSZ + 3] = i + 1;	/* 0.0.0.i+1 */
		p += RRFIXEDSZ + 4;
	}
	return (int)(p - msg);
}

static void test_match(void)
{
	static const unsigned int two[] = { 300, 120 };
	/* Answers to the query that give no TTL: res_search() is asked. */
	static const struct {
		const char *what;
		int rcode, tc;
		unsigned int records;
	} none[] = {
		{ "NXDOMAIN", ns_r_nxdomain, 0, 0 },
		{ "SERVFAIL", ns_r_servfail, 0, 0 },
		{ "no record (NODATA)", ns_r_noerror, 0, 0 },
		{ "truncated (res_search() asks over TCP)", ns_r_noerror, 1, 2 },
	};
	unsigned char msg[NS_PACKETSZ], *q;
	const char *name = "peer.example";
	unsigned int i;
	int len;

	len = unit_response(msg, sizeof(msg), name, 7, ns_r_noerror, 0, two, 2);
	CHECK(ttl_query_match(name, 7, msg, len) == 120,
	      "its answer: the smallest TTL of its records");
	CHECK(ttl_query_match("PEER.Example.", 7, msg, len) == 120,
	      "the name in other case, with a trailing dot: the same name");
	CHECK(ttl_query_match(name, 8, msg, len) == TTL_QUERY_OTHER,
	      "another id: another query's");
	CHECK(ttl_query_match("other.example", 7, msg, len) == TTL_QUERY_OTHER,
	      "another name: another query's");
	CHECK(ttl_query_match(name, 7, msg, HFIXEDSZ - 1) == TTL_QUERY_OTHER &&
	      ttl_query_match(name, 7, msg, HFIXEDSZ + 3) == TTL_QUERY_OTHER,
	      "cut short before the question's end: not an answer");
	((HEADER *)msg)->qr = 0;
	CHECK(ttl_query_match(name, 7, msg, len) == TTL_QUERY_OTHER,
	      "a query, not a response: not an answer");
	((HEADER *)msg)->qr = 1;
	q = msg + HFIXEDSZ + strlen(name) + 2;	/* the question's type */
	q[1] = ns_t_aaaa;
	CHECK(ttl_query_match(name, 7, msg, len) == TTL_QUERY_OTHER,
	      "the AAAA question: another query's");

	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		len = unit_response(msg, sizeof(msg), name, 7, none[i].rcode,
				    none[i].tc, two, none[i].records);
		CHECK(ttl_query_match(name, 7, msg, len) == -1,
		      "%s: its answer, no TTL", none[i].what);
	}
}

/* The test's name server's address. */
static struct sockaddr_in unit_ns;

/* The calling thread's resolver asks the test's name server only. */
static int unit_use_server(void)
{
	if (res_init())
		return -1;
	_res.nscount = 1;
	_res.nsaddr_list[0] = unit_ns;
	_res.ndots = 1;
	_res.options &= ~RES_USEVC;
	return 0;
}

/* The test's name server: a UDP socket on 127.0.0.1, the thread's first. */
static int unit_server(void)
{
	socklen_t len = sizeof(unit_ns);
	int fd;

	unit_ns.sin_family = AF_INET;
	unit_ns.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&unit_ns, sizeof(unit_ns)) ||
	    getsockname(fd, (struct sockaddr *)&unit_ns, &len) ||
	    unit_use_server())
		return -1;
	return fd;
}

/* The query the server got, within 1 s: its length, its sender in @from. */
static int unit_server_recv(int fd, unsigned char *msg, size_t size,
			    struct sockaddr_in *from)
{
	struct timeval tv = { .tv_sec = 1 };
	socklen_t len = sizeof(*from);

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return (int)recvfrom(fd, msg, size, 0, (struct sockaddr *)from, &len);
}

static long unit_ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_query(int server)
{
	static const unsigned int one[] = { 77 };
	unsigned char msg[NS_PACKETSZ], reply[NS_PACKETSZ];
	const char *name = "peer.example";
	const HEADER *hdr = (const HEADER *)msg;
	struct sockaddr_in from;
	struct ttl_query q;
	struct timespec t0;
	char qname[NS_MAXDNAME];
	int len, n;
	long ttl;

	ttl_query_send(name, &q);
	len = q.fd >= 0 ? unit_server_recv(server, msg, sizeof(msg), &from) : -1;
	CHECK(len > HFIXEDSZ && !hdr->qr && ntohs(hdr->qdcount) == 1 &&
	      hdr->id == q.id &&
	      dn_expand(msg, msg + len, msg + HFIXEDSZ, qname,
			sizeof(qname)) > 0 && !strcmp(qname, name),
	      "a name with ndots dots: its A query goes to the first server");
	if (len <= HFIXEDSZ)
		return;
	/* A late answer of an earlier query first, then its own. */
	n = unit_response(reply, sizeof(reply), "old.example",
			  (unsigned short)(q.id + 1), ns_r_noerror, 0, one, 1);
	sendto(server, reply, n, 0, (struct sockaddr *)&from, sizeof(from));
	n = unit_response(reply, sizeof(reply), name, q.id, ns_r_noerror, 0,
			  one, 1);
	sendto(server, reply, n, 0, (struct sockaddr *)&from, sizeof(from));
	ttl = ttl_query_recv(name, &q, 1000);
	CHECK(ttl == 77, "its answer read past an earlier query's: TTL 77 (got %ld)",
	      ttl);

	ttl_query_send("host", &q);
	CHECK(q.fd < 0, "a name without a dot (res_search() asks the search list first): none sent");
	_res.ndots = 3;
	ttl_query_send(name, &q);
	CHECK(q.fd < 0, "a name with fewer than ndots dots: none sent");
	ttl_query_send("peer.example.", &q);
	CHECK(q.fd >= 0, "a name with a trailing dot: sent whatever ndots says");
	if (q.fd >= 0)
		unit_server_recv(server, msg, sizeof(msg), &from);
	_res.ndots = 1;

	ttl_query_send(name, &q);
	if (q.fd >= 0)
		unit_server_recv(server, msg, sizeof(msg), &from);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ttl = ttl_query_recv(name, &q, 100);
	CHECK(ttl == -1 && unit_ms_since(&t0) >= 100 && unit_ms_since(&t0) < 900,
	      "no answer: none after the wait (100 ms; %ld ms)",
	      unit_ms_since(&t0));
}

static void *unit_thread_query(void *arg)
{
	struct ttl_query *q = arg;

	if (!unit_use_server())	/* each thread has a resolver of its own */
		ttl_query_send("peer.example", q);
	return NULL;
}

static void test_socket_closed_with_thread(int server)
{
	unsigned char msg[NS_PACKETSZ];
	struct sockaddr_in from;
	struct ttl_query q = { .fd = -1 };
	pthread_t t;

	if (pthread_create(&t, NULL, unit_thread_query, &q) ||
	    pthread_join(t, NULL))
		abort();
	if (q.fd >= 0)
		unit_server_recv(server, msg, sizeof(msg), &from);
	CHECK(q.fd >= 0 && fcntl(q.fd, F_GETFD) == -1 && errno == EBADF,
	      "the thread's socket is closed when the thread ends (fd %d)",
	      q.fd);
}

int main(void)
{
	int server;

	test_match();
	server = unit_server();
	CHECK(server >= 0, "a name server on 127.0.0.1");
	if (server >= 0) {
		test_query(server);
		test_socket_closed_with_thread(server);
		close(server);
	}
	return UNIT_SUMMARY();
}
