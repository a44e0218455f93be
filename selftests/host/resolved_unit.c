// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of the resident resolver's answers (user/resolved:
 * answer.c, pool.c, with the shared lookup of user/dns-helper), without
 * the module: RESOLVER_ANSWER is a stand-in that records what it gets.
 *
 *  - an answer as the module's strict parser takes it: "a,b,c" numeric
 *    addresses only, each once, NUL-terminated within
 *    RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE, cut at an address when too many;
 *  - each failure as one of the errors the module accepts (ENXIO,
 *    ENODATA, EAGAIN, EREMOTEIO), with the helper's TTLs;
 *  - answers batched: names resolved while a send is under way go
 *    together in the next one, each answered once;
 *  - the workers take names themselves from a stand-in device (a queue
 *    and an eventfd readable while it has names), a name waking one
 *    waiting worker, never more names taken than the capacity; a failed
 *    take is said; nothing is taken or sent once stopped.
 *
 *  - the records' TTL taken from the query sent alongside getaddrinfo()
 *    when it answers, from res_search() when it does not, never asked
 *    for a name of the hosts file, capped by default_ttl either way.
 *
 * No network: getaddrinfo(), res_search() and the TTL query (ttl_query.h)
 * are stand-ins below.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <resolv.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "lookup.h"
#include "pool.h"
#include "say.h"
#include "ttl_query.h"
#include "unit_check.h"

#define SLOW_MS		300
/* The records' TTL of "dnsttl*" names. */
#define DNS_TTL_S	300
/* The files lookup.c reads (the Makefile's -D). */
#define UNIT_HOSTS	LOOKUP_HOSTS_FILE
#define UNIT_CONF	KEYUTILS_CONF
/* The TTL the query sent alongside getaddrinfo() gives "pttl*" names. */
#define QUERY_TTL_S	42
/* "many*" names: IPv6 addresses, more than one answer holds. */
#define MANY_ADDRS	60

static void unit_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* One addrinfo entry with its address in the same block. */
static struct addrinfo *unit_ai(int family, const char *text,
				struct addrinfo *next)
{
	struct {
		struct addrinfo ai;
		struct sockaddr_in6 sa;
	} *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	e->ai.ai_family = family;
	e->ai.ai_socktype = SOCK_STREAM;
	e->ai.ai_addr = (struct sockaddr *)&e->sa;
	e->ai.ai_next = next;
	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&e->sa;

		sin->sin_family = AF_INET;
		inet_pton(AF_INET, text, &sin->sin_addr);
		e->ai.ai_addrlen = sizeof(*sin);
	} else if (family == AF_INET6) {
		e->sa.sin6_family = AF_INET6;
		inet_pton(AF_INET6, text, &e->sa.sin6_addr);
		e->ai.ai_addrlen = sizeof(e->sa);
	} else {
		e->sa.sin6_family = (sa_family_t)family;
		e->ai.ai_addrlen = sizeof(e->sa);
	}
	return &e->ai;
}

void freeaddrinfo(struct addrinfo *ai)
{
	struct addrinfo *next;

	for (; ai; ai = next) {
		next = ai->ai_next;
		free(ai->ai_canonname);
		free(ai);
	}
}

/*
 * getaddrinfo() by the name's first word: "nxdomain", "nodata", "again",
 * "refused" (EAI_AGAIN, the server said REFUSED), "fail", "memory",
 * "unix" (no IP address), "many" (MANY_ADDRS IPv6 addresses), "dup"
 * (one address three times), "slow" (SLOW_MS, then 192.0.2.2); any
 * other: 192.0.2.1 and 2001:db8::1, "alias*" with the canonical name
 * "real*".
 */
int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	struct addrinfo *ai = NULL;
	char text[64];
	int i;

	(void)service;
	if (!strncmp(node, "nxdomain", 8) || !strncmp(node, "nodata", 6))
		return EAI_NONAME;
	if (!strncmp(node, "again", 5) || !strncmp(node, "refused", 7))
		return EAI_AGAIN;
	if (!strncmp(node, "fail", 4))
		return EAI_FAIL;
	if (!strncmp(node, "memory", 6))
		return EAI_MEMORY;
	if (!strncmp(node, "unix", 4)) {
		ai = unit_ai(AF_UNIX, NULL, NULL);
	} else if (!strncmp(node, "many", 4)) {
		for (i = MANY_ADDRS; i > 0; i--) {
			snprintf(text, sizeof(text),
				 "2001:db8:1234:5678:9abc:def0:%x:%x", i, i);
			ai = unit_ai(AF_INET6, text, ai);
		}
	} else if (!strncmp(node, "dup", 3)) {
		for (i = 0; i < 3; i++)
			ai = unit_ai(AF_INET, "192.0.2.7", ai);
	} else if (!strncmp(node, "slow", 4)) {
		unit_sleep_ms(SLOW_MS);
		ai = unit_ai(AF_INET, "192.0.2.2", NULL);
	} else {
		ai = unit_ai(AF_INET6, "2001:db8::1", NULL);
		ai = unit_ai(AF_INET, "192.0.2.1", ai);
	}
	/* "alias*": an alias of "real*" (AI_CANONNAME asked for). */
	if (hints && (hints->ai_flags & AI_CANONNAME) &&
	    !strncmp(node, "alias", 5) &&
	    asprintf(&ai->ai_canonname, "real%s", node + 5) < 0)
		abort();
	*res = ai;
	return 0;
}

/* A response with one A record of TTL @ttl (owner: the root): its length. */
static int unit_dns_answer(unsigned char *answer, int anslen, unsigned int ttl)
{
	unsigned char *p = answer + HFIXEDSZ;
	int len = HFIXEDSZ + 1 + RRFIXEDSZ + 4;

	if (anslen < len)
		return -1;
	memset(answer, 0, (size_t)len);
	((HEADER *)answer)->qr = 1;
	((HEADER *)answer)->ancount = htons(1);
	p++;			/* the root's empty label */
	p[1] = ns_t_a;
	p[3] = ns_c_in;
	p[4] = ttl >> 24;
	p[5] = ttl >> 16;
	p[6] = ttl >> 8;
	p[7] = ttl;
	p[9] = 4;		/* rdlength; the address stays 0.0.0.0 */
	return len;
}

/*
 * res_search(): records of TTL DNS_TTL_S for "dnsttl*" names, none for
 * the others (the TTL is the default), and the DNS status of the failing
 * names: NXDOMAIN, NODATA, no answer, REFUSED.
 */
int res_search(const char *dname, int class, int type, unsigned char *answer,
	       int anslen)
{
	HEADER *hdr = (HEADER *)answer;

	(void)class;
	if (!strncmp(dname, "dnsttl", 6) && type == ns_t_a)
		return unit_dns_answer(answer, anslen, DNS_TTL_S);
	if (!strncmp(dname, "nodata", 6)) {
		h_errno = NO_DATA;
	} else if (!strncmp(dname, "again", 5)) {
		h_errno = TRY_AGAIN;
	} else if (!strncmp(dname, "refused", 7)) {
		if (anslen >= (int)sizeof(*hdr))
			hdr->rcode = ns_r_refused;
		h_errno = TRY_AGAIN;
	} else {
		h_errno = HOST_NOT_FOUND;
	}
	return -1;
}

/*
 * The TTL query: sent for every name (counted), answered for "pttl*"
 * names only (QUERY_TTL_S), as a server that gives "dnsttl*" names'
 * records to res_search() alone would.
 */
static unsigned int ttl_queries_sent;

void ttl_query_send(const char *name, struct ttl_query *q)
{
	q->fd = 1000;	/* never a real one: only ttl_query_recv() reads it */
	q->id = (unsigned short)strlen(name);
	__atomic_add_fetch(&ttl_queries_sent, 1, __ATOMIC_RELAXED);
}

long ttl_query_recv(const char *name, const struct ttl_query *q, int wait_ms)
{
	(void)wait_ms;
	if (q->fd != 1000 || q->id != (unsigned short)strlen(name))
		abort();	/* not what ttl_query_send() set */
	return strncmp(name, "pttl", 4) ? -1 : QUERY_TTL_S;
}

/* ---- one answer ------------------------------------------------------ */

/* Does @addrs hold only numeric addresses, comma-separated, each once? */
static bool unit_list_well_formed(const char *addrs, size_t size)
{
	char copy[RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE], *tok, *save;
	unsigned char bin[16];
	size_t len = strnlen(addrs, size);

	if (len == 0 || len == size || addrs[len - 1] == ',')
		return false;
	memcpy(copy, addrs, len + 1);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (inet_pton(AF_INET, tok, bin) != 1 &&
		    inet_pton(AF_INET6, tok, bin) != 1)
			return false;
		/* The same address later in the list? */
		if (strstr(addrs + (tok - copy) + strlen(tok), tok))
			return false;
	}
	return !strstr(addrs, ",,");
}

static unsigned int unit_count_addrs(const char *list)
{
	unsigned int n = *list ? 1 : 0;

	for (; (list = strchr(list, ',')); list++)
		n++;
	return n;
}

/*
 * The canonical name goes with the addresses only once the module has
 * said it takes them (answer_canonical()): an older one would take the
 * answer for malformed.
 */
static void test_answer_canonical_name(void)
{
	struct rdma_addrinfo_resolver_answer ans;

	answer_canonical(0);
	answer_build(&ans, 3, "alias.example");
	CHECK(ans.error == 0 && !strcmp(ans.addrs, "192.0.2.1,2001:db8::1"),
	      "a module without canonical names: none (%s)", ans.addrs);
	answer_canonical(1);
	answer_build(&ans, 4, "alias.example");
	CHECK(ans.error == 0 &&
	      !strcmp(ans.addrs, "192.0.2.1,2001:db8::1," RDMA_ADDRINFO_RESOLVER_CANON
		      "real.example"),
	      "a module that takes them: after the addresses (%s)", ans.addrs);
	answer_build(&ans, 5, "host.example");
	CHECK(ans.error == 0 && !strcmp(ans.addrs, "192.0.2.1,2001:db8::1"),
	      "getaddrinfo() gives none: none (%s)", ans.addrs);
	answer_canonical(0);
}

static void test_answer_lists(void)
{
	struct rdma_addrinfo_resolver_answer ans;
	unsigned int listed;
	char next[64];
	size_t len;

	answer_build(&ans, 7, "host.example");
	CHECK(ans.id == 7 && ans.error == 0 &&
	      !strcmp(ans.addrs, "192.0.2.1,2001:db8::1"),
	      "a name: id kept, every address as \"a,b\" (%s)", ans.addrs);
	CHECK(ans.ttl >= 1, "with its TTL (%u s)", ans.ttl);
	CHECK(unit_list_well_formed(ans.addrs, sizeof(ans.addrs)),
	      "a list the module's parser takes");

	answer_build(&ans, 8, "dup.example");
	CHECK(ans.error == 0 && !strcmp(ans.addrs, "192.0.2.7"),
	      "an address given three times is listed once (%s)", ans.addrs);

	answer_build(&ans, 9, "many.example");
	len = strnlen(ans.addrs, sizeof(ans.addrs));
	CHECK(ans.error == 0 && len < sizeof(ans.addrs),
	      "%d IPv6 addresses: NUL-terminated within %zu bytes (%zu)",
	      MANY_ADDRS, sizeof(ans.addrs), len);
	listed = unit_count_addrs(ans.addrs);
	len = (size_t)snprintf(next, sizeof(next), "2001:db8:1234:5678:9abc:def0:%x:%x",
		       listed + 1, listed + 1);
	CHECK(listed < MANY_ADDRS &&
	      strnlen(ans.addrs, sizeof(ans.addrs)) + 1 + len + 1 >
	      sizeof(ans.addrs),
	      "as many as fit (%u): the next one would not", listed);
	CHECK(unit_list_well_formed(ans.addrs, sizeof(ans.addrs)),
	      "cut at an address: every entry whole and numeric");
	CHECK(!strncmp(ans.addrs, "2001:db8:1234:5678:9abc:def0:1:1,", 33),
	      "in getaddrinfo()'s order");
}

static void test_answer_errors(void)
{
	static const struct {
		const char *name;
		int error;
		unsigned int ttl;
	} cases[] = {
		{ "nxdomain.example", ENXIO, NEGATIVE_TTL_S },
		{ "nodata.example", ENODATA, NEGATIVE_TTL_S },
		{ "again.example", EAGAIN, TEMPORARY_TTL_S },
		{ "refused.example", EREMOTEIO, NEGATIVE_TTL_S },
		{ "fail.example", EREMOTEIO, NEGATIVE_TTL_S },
		{ "memory.example", EAGAIN, TEMPORARY_TTL_S },
		{ "unix.example", ENODATA, NEGATIVE_TTL_S },
		{ "bad;name", ENXIO, NEGATIVE_TTL_S },
	};
	struct rdma_addrinfo_resolver_answer ans;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&ans, 0x55, sizeof(ans));
		answer_build(&ans, i, cases[i].name);
		CHECK(ans.id == i && ans.error == cases[i].error &&
		      ans.ttl == cases[i].ttl && !ans.addrs[0],
		      "%s: error %d (%s), TTL %u, no list (got %d, %u)",
		      cases[i].name, cases[i].error, strerror(cases[i].error),
		      cases[i].ttl, ans.error, ans.ttl);
	}
	CHECK(answer_error(ENOMEM) == EAGAIN && answer_error(EPROTO) == EAGAIN &&
	      answer_error(ENXIO) == ENXIO && answer_error(EREMOTEIO) == EREMOTEIO,
	      "errors the module does not take become EAGAIN");
}

/* ---- the files, read again ------------------------------------------ */

static void unit_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

/*
 * The resident resolver lives long: a changed key.dns_resolver.conf or
 * hosts file counts for the next name, without a restart.
 */
static void test_files_read_again(void)
{
	const char *name = "dnsttl.example";

	CHECK(name_ttl(name) == DNS_TTL_S, "no files: the records' TTL (%u)",
	      name_ttl(name));
	unit_write_file(UNIT_CONF, "default_ttl = 60\n");
	CHECK(name_ttl(name) == 60,
	      "default_ttl = 60 written since: it caps the records' TTL (%u)",
	      name_ttl(name));
	unit_write_file(UNIT_CONF, "# longer\ndefault_ttl = 600\n");
	CHECK(name_ttl(name) == DNS_TTL_S,
	      "changed to 600: the records' TTL again (%u)", name_ttl(name));
	unit_write_file(UNIT_HOSTS, "192.0.2.9\tother.example dnsttl.example\n");
	CHECK(name_ttl(name) == 600,
	      "the name added to the hosts file: default_ttl (%u)",
	      name_ttl(name));
	unlink(UNIT_HOSTS);
	unlink(UNIT_CONF);
	CHECK(name_ttl(name) == DNS_TTL_S,
	      "both files gone: the records' TTL (%u)", name_ttl(name));
}

/*
 * An answer's TTL comes from the query sent alongside getaddrinfo() when
 * it gives one, else from res_search(); a hosts file name asks no DNS;
 * default_ttl caps both.
 */
static void test_ttl_alongside_getaddrinfo(void)
{
	struct rdma_addrinfo_resolver_answer ans;
	unsigned int sent;

	sent = ttl_queries_sent;
	answer_build(&ans, 1, "pttl.example");
	CHECK(!ans.error && ans.ttl == QUERY_TTL_S &&
	      ttl_queries_sent == sent + 1,
	      "the query alongside getaddrinfo() answers: its TTL %u (got %u, %u sent)",
	      QUERY_TTL_S, ans.ttl, ttl_queries_sent - sent);
	answer_build(&ans, 2, "dnsttl.example");
	CHECK(!ans.error && ans.ttl == DNS_TTL_S,
	      "it gives none: res_search()'s TTL %u (got %u)", DNS_TTL_S,
	      ans.ttl);
	unit_write_file(UNIT_CONF, "default_ttl = 30\n");
	answer_build(&ans, 3, "pttl.example");
	CHECK(ans.ttl == 30, "default_ttl = 30 caps it (got %u)", ans.ttl);
	unit_write_file(UNIT_HOSTS, "192.0.2.9\tpttl.example\n");
	sent = ttl_queries_sent;
	answer_build(&ans, 4, "pttl.example");
	CHECK(ans.ttl == 30 && ttl_queries_sent == sent,
	      "a hosts file name: default_ttl, no query sent (got %u, %u sent)",
	      ans.ttl, ttl_queries_sent - sent);
	unlink(UNIT_HOSTS);
	unlink(UNIT_CONF);
	sent = ttl_queries_sent;
	answer_build(&ans, 5, "nxdomain.example");
	CHECK(ans.error == ENXIO && ans.ttl == NEGATIVE_TTL_S &&
	      ttl_queries_sent == sent + 1,
	      "a failed name: its failure's TTL, the query's answer unread (got %d, %u)",
	      ans.error, ans.ttl);
}

/* ---- the log ------------------------------------------------------- */

/* say()'s %m is the caller's errno, whatever say() calls before (isatty()). */
static void test_say_keeps_errno(void)
{
	char path[] = "/tmp/rai-resolved-unit-log.XXXXXX", text[256] = "";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO), verbose = say_verbose;
	ssize_t n;

	if (fd < 0 || saved < 0)
		abort();
	fflush(stderr);
	dup2(fd, STDERR_FILENO);	/* a file: isatty() fails, ENOTTY */
	say_verbose = 1;
	errno = EBUSY;
	say(LOG_ERR, "register: %m");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	say_verbose = verbose;
	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	text[strcspn(text, "\n")] = '\0';
	CHECK(strstr(text, strerror(EBUSY)) != NULL,
	      "say(\"%%m\") with errno EBUSY: \"%s\"", text);
}

/* ---- the pool -------------------------------------------------------- */

#define BATCH_NAMES	32

/* RESOLVER_ANSWER stand-in: what it was given. */
static struct {
	pthread_mutex_t lock;
	unsigned int calls, answers, largest, first_wait_ms;
	unsigned int per_id[BATCH_NAMES * 2];
	int bad;
} sent = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int unit_send(void *ctx, struct rdma_addrinfo_resolver_answer *a,
		     unsigned int n)
{
	unsigned int i, wait = 0;

	(void)ctx;
	pthread_mutex_lock(&sent.lock);
	if (!sent.calls++)
		wait = sent.first_wait_ms;
	sent.answers += n;
	if (n > sent.largest)
		sent.largest = n;
	for (i = 0; i < n; i++) {
		if (a[i].id < BATCH_NAMES * 2)
			sent.per_id[a[i].id]++;
		if (a[i].error || strcmp(a[i].addrs, "192.0.2.1,2001:db8::1"))
			sent.bad++;
	}
	pthread_mutex_unlock(&sent.lock);
	/* The first send is slow: the names resolved meanwhile wait. */
	unit_sleep_ms(wait);
	return 0;
}

static void unit_sent_reset(unsigned int first_wait_ms)
{
	pthread_mutex_lock(&sent.lock);
	memset(sent.per_id, 0, sizeof(sent.per_id));
	sent.calls = sent.answers = sent.largest = 0;
	sent.bad = 0;
	sent.first_wait_ms = first_wait_ms;
	pthread_mutex_unlock(&sent.lock);
}

/* The stand-in device: names to take, and an eventfd counting them. */
static struct {
	pthread_mutex_t lock;
	char names[BATCH_NAMES * 2][32];
	unsigned int next, count;
	int fd;				/* EFD_SEMAPHORE: one per name */
	int fail;			/* take returns this (-errno) if set */
	unsigned int taken, empty;	/* takes with a name, without */
	unsigned int outstanding, most;	/* taken, not yet sent */
} dev = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

static void unit_dev_reset(void)
{
	pthread_mutex_lock(&dev.lock);
	if (dev.fd >= 0)
		close(dev.fd);
	dev.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE);
	if (dev.fd < 0)
		abort();
	dev.next = dev.count = 0;
	dev.fail = 0;
	dev.taken = dev.empty = dev.outstanding = dev.most = 0;
	pthread_mutex_unlock(&dev.lock);
}

static void unit_dev_add(const char *name)
{
	uint64_t one = 1;

	pthread_mutex_lock(&dev.lock);
	snprintf(dev.names[dev.count++], sizeof(dev.names[0]), "%s", name);
	if (write(dev.fd, &one, sizeof(one)) != sizeof(one))
		abort();
	pthread_mutex_unlock(&dev.lock);
}

/* pool_take_fn: RESOLVER_TAKE stand-in, ids in the order added. */
static int unit_take(void *ctx, struct rdma_addrinfo_resolver_name *name)
{
	uint64_t one;
	int ret = 0;

	(void)ctx;
	pthread_mutex_lock(&dev.lock);
	if (dev.fail) {
		ret = dev.fail;
	} else if (dev.next < dev.count &&
		   read(dev.fd, &one, sizeof(one)) == sizeof(one)) {
		memset(name, 0, sizeof(*name));
		name->id = dev.next;
		snprintf(name->name, sizeof(name->name), "%s",
			 dev.names[dev.next++]);
		dev.taken++;
		if (++dev.outstanding > dev.most)
			dev.most = dev.outstanding;
		ret = 1;
	} else {
		dev.empty++;
	}
	pthread_mutex_unlock(&dev.lock);
	return ret;
}

/* Wait up to @ms for @n answers sent; whether they were. */
static bool unit_wait_answers(unsigned int n, int ms)
{
	unsigned int got;

	for (;;) {
		pthread_mutex_lock(&sent.lock);
		got = sent.answers;
		pthread_mutex_unlock(&sent.lock);
		if (got >= n || ms <= 0)
			return got >= n;
		unit_sleep_ms(10);
		ms -= 10;
	}
}

static struct pool *unit_pool(unsigned int threads, unsigned int capacity)
{
	return pool_create(threads, capacity, dev.fd, unit_take, unit_send,
			   NULL);
}

static void test_pool_batches(void)
{
	unsigned long sends, answers;
	unsigned int i, once = 0;
	struct pool *pool;
	char name[64];

	unit_sent_reset(200);
	unit_dev_reset();
	pool = unit_pool(4, BATCH_NAMES);
	CHECK(pool, "a pool of 4 threads for %d names", BATCH_NAMES);
	if (!pool)
		return;
	for (i = 0; i < BATCH_NAMES; i++) {
		snprintf(name, sizeof(name), "name%u.example", i);
		unit_dev_add(name);
	}
	CHECK(unit_wait_answers(BATCH_NAMES, 10000), "every name answered");
	pool_drain(pool);
	pool_stats(pool, &sends, &answers);
	pool_destroy(pool);
	for (i = 0; i < BATCH_NAMES; i++)
		once += sent.per_id[i] == 1;
	CHECK(once == BATCH_NAMES && sent.answers == BATCH_NAMES && !sent.bad,
	      "every name answered once, with its addresses (%u of %d)",
	      once, BATCH_NAMES);
	CHECK(sent.calls < BATCH_NAMES / 2 && sent.largest > 1,
	      "several answers per call: %u calls, up to %u answers in one",
	      sent.calls, sent.largest);
	CHECK(sends == sent.calls && answers == BATCH_NAMES,
	      "the pool's counts: %lu calls, %lu answers", sends, answers);
}

/* pool_send_fn wrapper: what was taken and is now answered. */
static int unit_send_counted(void *ctx,
			     struct rdma_addrinfo_resolver_answer *a,
			     unsigned int n)
{
	pthread_mutex_lock(&dev.lock);
	dev.outstanding -= n;
	pthread_mutex_unlock(&dev.lock);
	return unit_send(ctx, a, n);
}

static void test_pool_takes_only_what_it_has_room_for(void)
{
	struct pool *pool;
	unsigned int i;

	unit_sent_reset(0);
	unit_dev_reset();
	/* Four threads, room for two: slow names taken two at a time. */
	pool = pool_create(4, 2, dev.fd, unit_take, unit_send_counted, NULL);
	CHECK(pool, "a pool of 4 threads for 2 names");
	if (!pool)
		return;
	for (i = 0; i < 6; i++)
		unit_dev_add("slow.example");
	CHECK(unit_wait_answers(6, 10000), "6 slow names answered");
	pool_destroy(pool);
	CHECK(dev.most == 2, "at most 2 names taken and not answered (%u)",
	      dev.most);
	for (i = 0; i < 6 && sent.per_id[i] == 1; i++)
		;
	CHECK(i == 6, "each answered once");
}

static void test_pool_wakes_one_worker_per_name(void)
{
	unsigned int i, empty;
	struct pool *pool;

	unit_sent_reset(0);
	unit_dev_reset();
	pool = unit_pool(16, 32);
	CHECK(pool, "a pool of 16 threads");
	if (!pool)
		return;
	unit_sleep_ms(200);	/* each has looked once and waits */
	pthread_mutex_lock(&dev.lock);
	empty = dev.empty;
	pthread_mutex_unlock(&dev.lock);
	for (i = 0; i < 20; i++) {
		unit_dev_add("one.example");
		unit_sleep_ms(20);
	}
	CHECK(unit_wait_answers(20, 5000), "20 names, one at a time, answered");
	pool_destroy(pool);
	/*
	 * The thread that answered a name looks once more before it waits;
	 * woken all at once, 16 threads would look 15 times in vain each.
	 */
	CHECK(dev.empty - empty <= 2 * 20,
	      "a name wakes one waiting thread: %u takes found nothing for 20 names",
	      dev.empty - empty);
}

static bool unit_fd_readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

static void test_pool_failure_and_stop(void)
{
	struct pool *pool;
	bool readable;
	int err;

	unit_sent_reset(0);
	unit_dev_reset();
	pool = unit_pool(2, 4);
	CHECK(pool, "a pool of 2 threads");
	if (!pool)
		return;
	CHECK(!unit_fd_readable(pool_failed_fd(pool), 100) &&
	      !pool_failed(pool), "no failure while takes find nothing");
	pthread_mutex_lock(&dev.lock);
	dev.fail = -EIO;
	pthread_mutex_unlock(&dev.lock);
	unit_dev_add("woken.example");	/* wakes a thread, whose take fails */
	readable = unit_fd_readable(pool_failed_fd(pool), 5000);
	err = pool_failed(pool);
	CHECK(readable && err == -EIO, "a failed take is said: %d", err);
	pool_stop(pool);
	pthread_mutex_lock(&dev.lock);
	dev.fail = 0;
	pthread_mutex_unlock(&dev.lock);
	unit_dev_add("after.example");
	unit_sleep_ms(100);
	pool_destroy(pool);
	CHECK(dev.taken == 0 && sent.answers == 0,
	      "stopped: nothing taken (%u), nothing sent (%u)", dev.taken,
	      sent.answers);
}

int main(void)
{
	unlink(UNIT_HOSTS);
	unlink(UNIT_CONF);
	test_answer_lists();
	test_answer_canonical_name();
	test_answer_errors();
	test_files_read_again();
	test_ttl_alongside_getaddrinfo();
	test_say_keeps_errno();
	test_pool_batches();
	test_pool_takes_only_what_it_has_room_for();
	test_pool_wakes_one_worker_per_name();
	test_pool_failure_and_stop();
	return UNIT_SUMMARY();
}
