// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* A name's A query sent alongside getaddrinfo() for its TTL (ttl_query.h). */
#include <arpa/nameser.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <resolv.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dns_ttl.h"
#include "ttl_query.h"

/*
 * The thread's socket, connected to @sock_server.  A thread of the
 * resident resolver asks one name after another: one socket serves them
 * all, and the key's destructor closes it when the thread ends.
 */
static __thread int sock_fd = -1;
static __thread struct sockaddr_in sock_server;
static pthread_key_t sock_key;
static pthread_once_t sock_key_once = PTHREAD_ONCE_INIT;

static void sock_close(void *fd_plus_one)
{
	close((int)(intptr_t)fd_plus_one - 1);
}

static void sock_key_create(void)
{
	if (pthread_key_create(&sock_key, sock_close))
		sock_key = (pthread_key_t)-1;
}

static int same_server(const struct sockaddr_in *a,
		       const struct sockaddr_in *b)
{
	return a->sin_family == b->sin_family && a->sin_port == b->sin_port &&
	       a->sin_addr.s_addr == b->sin_addr.s_addr;
}

/* The thread's socket connected to @ns, or -1. */
static int thread_socket(const struct sockaddr_in *ns)
{
	int fd;

	if (sock_fd >= 0 && same_server(&sock_server, ns))
		return sock_fd;
	pthread_once(&sock_key_once, sock_key_create);
	if (sock_key == (pthread_key_t)-1)
		return -1;
	if (sock_fd >= 0) {
		pthread_setspecific(sock_key, NULL);
		close(sock_fd);
		sock_fd = -1;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)ns, sizeof(*ns)) ||
	    pthread_setspecific(sock_key, (void *)(intptr_t)(fd + 1))) {
		close(fd);
		return -1;
	}
	sock_fd = fd;
	sock_server = *ns;
	return fd;
}

/*
 * Does res_search() ask @name as it is first?  It does when the name ends
 * with a dot or has at least ndots dots (and one).
 */
static int asked_as_is(const char *name)
{
	size_t len = strlen(name);
	unsigned int dots = 0;
	const char *p;

	if (len && name[len - 1] == '.')
		return 1;
	for (p = name; *p; p++)
		dots += *p == '.';
	return dots && dots >= (unsigned int)_res.ndots;
}

/* The name server the thread's resolver asks first, if an IPv4 one. */
static const struct sockaddr_in *first_server(void)
{
	const struct sockaddr_in *ns = &_res.nsaddr_list[0];

	if (_res.nscount < 1 || ns->sin_family != AF_INET)
		return NULL;
	return ns;
}

/* ttl_query.h */
void ttl_query_send(const char *name, struct ttl_query *q)
{
	unsigned char msg[NS_PACKETSZ];
	const struct sockaddr_in *ns;
	int len, fd;

	q->fd = -1;
	if (!(_res.options & RES_INIT) && res_init())
		return;
	if ((_res.options & RES_USEVC) || !asked_as_is(name))
		return;
	ns = first_server();
	if (!ns)
		return;
	len = res_nmkquery(&_res, ns_o_query, name, ns_c_in, ns_t_a, NULL, 0,
			   NULL, msg, sizeof(msg));
	if (len < HFIXEDSZ)
		return;
	fd = thread_socket(ns);
	if (fd < 0 || send(fd, msg, len, MSG_NOSIGNAL) != len)
		return;
	q->fd = fd;
	q->id = ((const HEADER *)msg)->id;
}

/* ttl_query.h */
long ttl_query_match(const char *name, unsigned short id,
		     const unsigned char *msg, int len)
{
	const HEADER *hdr = (const HEADER *)msg;
	const unsigned char *eom = msg + len, *p;
	char qname[NS_MAXDNAME];
	size_t n;
	int skip;

	if (len < HFIXEDSZ || hdr->id != id || !hdr->qr ||
	    hdr->opcode != ns_o_query || ntohs(hdr->qdcount) != 1)
		return TTL_QUERY_OTHER;
	p = msg + HFIXEDSZ;
	skip = dn_expand(msg, eom, p, qname, sizeof(qname));
	if (skip < 0 || eom - p < skip + QFIXEDSZ)
		return TTL_QUERY_OTHER;
	p += skip;
	n = strlen(name);
	if (n && name[n - 1] == '.')
		n--;	/* dn_expand() gives no trailing dot */
	if (strlen(qname) != n || strncasecmp(qname, name, n) ||
	    (p[0] << 8 | p[1]) != ns_t_a || (p[2] << 8 | p[3]) != ns_c_in)
		return TTL_QUERY_OTHER;
	if (hdr->tc || hdr->rcode != ns_r_noerror || !hdr->ancount)
		return -1;
	return dns_answer_ttl(msg, len);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* ttl_query.h */
long ttl_query_recv(const char *name, const struct ttl_query *q,
		    int wait_ms)
{
	struct pollfd pfd = { .fd = q->fd, .events = POLLIN };
	const struct sockaddr_in *ns;
	unsigned char msg[NS_PACKETSZ];
	struct timespec t0;
	long ttl, left;
	ssize_t n;

	if (q->fd < 0)
		return -1;
	/* getaddrinfo() read a changed resolv.conf: ask again, there. */
	ns = first_server();
	if (!ns || !same_server(ns, &sock_server))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = recv(q->fd, msg, sizeof(msg), MSG_DONTWAIT);
		if (n >= 0) {
			ttl = ttl_query_match(name, q->id, msg, (int)n);
			if (ttl != TTL_QUERY_OTHER)
				return ttl;
			continue;	/* an earlier query's late answer */
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -1;	/* refused (ICMP), ... */
		left = wait_ms - ms_since(&t0);
		if (left <= 0 || poll(&pfd, 1, (int)left) < 0)
			return -1;
	}
}
