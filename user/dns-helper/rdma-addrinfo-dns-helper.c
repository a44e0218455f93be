// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo-dns-helper: the request-key program for the dns_resolver
 * keys of rdma_addrinfo.ko ("rai:NAME").
 *
 * The kernel's dns_resolver upcall normally runs keyutils' key.dns_resolver,
 * which up to keyutils 1.6.3 rejects every failed lookup with the same
 * error (Documentation/admin-guide.rst), so the module cannot tell a
 * missing name from a name without addresses or an unreachable server.  This helper answers the module's
 * own keys only (request-key.d routes "rai:*" here, everything else keeps
 * key.dns_resolver) and rejects each failure with its own errno:
 *
 *   ENXIO      NXDOMAIN: the name does not exist
 *   ENODATA    the name exists but has no A/AAAA record
 *   EAGAIN     temporary failure (no server answered, SERVFAIL)
 *   EREMOTEIO  permanent failure: every server refused (REFUSED, FORMERR,
 *              NOTIMP)
 *   ENOMEM     out of memory
 *
 * A resolved name instantiates the key with every address, comma-separated
 * (key.dns_resolver's "list" format, which the module parses).  Names come
 * from getaddrinfo(), so /etc/hosts and nsswitch.conf apply as they do for
 * key.dns_resolver; the DNS status of a failed name comes from res_search().
 * The answer is valid as long as the DNS records say (the smallest TTL of
 * the A, or else AAAA, answer), at least 1 s; a name that DNS does not know
 * (/etc/hosts) lives default_ttl.  default_ttl set in key.dns_resolver.conf
 * also caps the records' TTL.  The list ends in ",until=MS": when that TTL
 * ends (ms since the epoch), which the module cuts off and keeps to.  The
 * key itself lives at least KEY_TIMEOUT_MIN_S: key lifetimes count whole
 * seconds, and a key that expires before request-key has returned fails
 * the upcall (-ENOKEY), however valid its answer.
 *
 * Batches: the module asks for the names waiting together in one upcall, a
 * key "rai:@ID" whose callout information is "rai-batch NAME NAME ...".
 * The names are resolved in parallel, 16 at a time, and the key is
 * instantiated with one line per name after the line "rai-batch":
 *
 *   NAME ERRNO TTL LIST
 *
 * ERRNO is 0 or one of the errors above, TTL in seconds, LIST the addresses
 * ("a,b,c") or "-".  A name not answered within BATCH_DEADLINE_S is given
 * as EAGAIN; its thread goes on with the batch's own copy of the name.
 * The module reads the key once and invalidates it.
 *
 * Whom it answers (Documentation/admin-guide.rst, "DNS"): request-key runs
 * it as root for whoever asks for a "rai:" key, so it does for anyone only
 * what key.dns_resolver does, one name: "rai:NAME" is NAME.  Batches are
 * the module's alone: request-key passes the requestor's uid (%u) and
 * thread keyring (%T), and the kernel's dns_query() asks as uid 0 with its
 * keyring ".dns_resolver" as thread keyring, which no process can have
 * (from_module()).  Any other request, or one by a request-key line
 * without %u and %T, is a plain name: "rai:@ID" the name "@ID", which
 * fails.
 *
 * Usage (request-key.conf line):
 *   create dns_resolver rai:* * /usr/sbin/rdma-addrinfo-dns-helper %k %u %T
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <linux/keyctl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_addrinfo_upcall.h>

#define DESC_PREFIX		RDMA_ADDRINFO_UPCALL_DESC_PREFIX
/* Lifetime of a positive answer when no configuration says otherwise. */
#define DEFAULT_TTL_S		5
/* Negative answers: a missing name is cached, a flaky server hardly. */
#define NEGATIVE_TTL_S		5
/* 2: a timeout of 1 s can end within a millisecond (whole seconds). */
#define TEMPORARY_TTL_S		2
/* The least lifetime of a positive key (see above). */
#define KEY_TIMEOUT_MIN_S	5
/* ",until=" and the ms of a 64-bit time, with its NUL. */
#define UNTIL_MAX		32
/* key.dns_resolver's configuration; its default_ttl is honoured here too. */
#define KEYUTILS_CONF		"/etc/keyutils/key.dns_resolver.conf"
#define PAYLOAD_MAX		4096
/* Batches: the module's limit, the addresses of one name, the wait. */
#define BATCH_NAMES_MAX		RDMA_ADDRINFO_UPCALL_BATCH_NAMES_MAX
#define BATCH_LIST_MAX		2048
#ifndef BATCH_DEADLINE_S		/* the unit test's is shorter */
#define BATCH_DEADLINE_S	10
#endif
/*
 * Names resolved at once: a batch of 64 names at once is 128 and more
 * queries in one burst at the server (several batches run side by side),
 * which a server with default socket buffers drops (dnsmasq in the test
 * world did, and the names failed after the resolver's retries).
 */
#define BATCH_THREADS_MAX	16
#define BATCH_MAGIC		RDMA_ADDRINFO_UPCALL_BATCH_MAGIC
#define BATCH_PREFIX		RDMA_ADDRINFO_UPCALL_BATCH_PREFIX
/* A name's line: name, errno, ttl, list, three spaces and the newline. */
#define BATCH_LINE_MAX		(NS_MAXDNAME + 32 + BATCH_LIST_MAX)
/* The fields of a line around its name and list: " ERRNO TTL " and "\n". */
#define BATCH_FIELDS_MAX	24
/*
 * The whole answer: dns_resolver keeps a payload's length in 16 bits, so
 * a longer one would reach the module cut off.  Lists are shortened (at
 * an address boundary) to fit.
 */
#define BATCH_PAYLOAD_MAX	65000
/* KEYCTL_DESCRIBE: "type;uid;gid;perm;description", five fields. */
#define KEY_FIELDS		5
/* The thread keyring of the kernel's dns_query() (net/dns_resolver). */
#define DNS_RESOLVER_KEYRING	RDMA_ADDRINFO_UPCALL_KERNEL_KEYRING

static int verbose;

static void say(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio == LOG_DEBUG && !verbose)
		return;
	va_start(ap, fmt);
	if (isatty(STDERR_FILENO) || verbose) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}

static long keyctl4(int op, unsigned long a, unsigned long b, unsigned long c,
		    unsigned long d)
{
	return syscall(SYS_keyctl, op, a, b, c, d);
}

/*
 * What name_ttl() needs from files, read once per process: a batch's
 * threads share it instead of each reading both files again.
 */
static struct {
	pthread_once_t once;
	unsigned int default_ttl;	/* of key.dns_resolver.conf, or 0 */
	char *hosts;	/* /etc/hosts's names, each '\0'-ended; "" ends */
} files = { .once = PTHREAD_ONCE_INIT };

/* default_ttl from key.dns_resolver.conf, or 0 if it sets none. */
static unsigned int read_default_ttl(void)
{
	unsigned int ttl = 0, v;
	char line[256];
	FILE *f = fopen(KEYUTILS_CONF, "re");

	if (!f)
		return ttl;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " default_ttl = %u", &v) == 1 && v > 0)
			ttl = v;
	fclose(f);
	return ttl;
}

/*
 * The host names of /etc/hosts (every field of a line after its
 * address), or NULL if it cannot be read: then no name is taken for one
 * of its names, as before.
 */
static char *read_hosts_names(void)
{
	FILE *f = fopen("/etc/hosts", "re");
	char line[1024], *tok, *save, *names = NULL, *grown;
	size_t len = 0, size = 0, n;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#")] = '\0';
		tok = strtok_r(line, " \t\n", &save);	/* the address */
		while (tok && (tok = strtok_r(NULL, " \t\n", &save))) {
			n = strlen(tok) + 1;
			if (len + n + 1 > size) {
				size = (len + n + 1) * 2;
				grown = realloc(names, size);
				if (!grown) {
					free(names);
					fclose(f);
					return NULL;
				}
				names = grown;
			}
			memcpy(names + len, tok, n);
			len += n;
		}
	}
	fclose(f);
	if (!names)
		names = calloc(1, 1);
	else
		names[len] = '\0';
	return names;
}

static void read_files(void)
{
	files.default_ttl = read_default_ttl();
	files.hosts = read_hosts_names();
}

static unsigned int configured_ttl(void)
{
	pthread_once(&files.once, read_files);
	return files.default_ttl;
}

/*
 * The smallest TTL of the answer records of a DNS response, or -1 if it
 * has none (or cannot be read).
 */
static long answer_ttl(const unsigned char *msg, int len)
{
	const unsigned char *p = msg + HFIXEDSZ, *end = msg + len;
	const HEADER *hdr = (const HEADER *)msg;
	unsigned int qd, an, i;
	long ttl = -1, t;
	int n;

	if (len < HFIXEDSZ)
		return -1;
	qd = ntohs(hdr->qdcount);
	an = ntohs(hdr->ancount);
	for (i = 0; i < qd; i++) {
		n = dn_skipname(p, end);
		if (n < 0 || end - p < n + QFIXEDSZ)
			return -1;
		p += n + QFIXEDSZ;
	}
	for (i = 0; i < an; i++) {
		n = dn_skipname(p, end);
		if (n < 0 || end - p < n + RRFIXEDSZ)
			return ttl;
		p += n;
		t = (long)((uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 |
			   (uint32_t)p[6] << 8 | p[7]);
		if (ttl < 0 || t < ttl)
			ttl = t;
		n = p[8] << 8 | p[9];
		p += RRFIXEDSZ;
		if (end - p < n)
			return ttl;
		p += n;
	}
	return ttl;
}

/* Is @name one of the names of an /etc/hosts line? */
static int in_hosts_file(const char *name)
{
	const char *h;

	pthread_once(&files.once, read_files);
	for (h = files.hosts; h && *h; h += strlen(h) + 1)
		if (!strcasecmp(h, name))
			return 1;
	return 0;
}

/*
 * How long the answer for @name may be kept: the records' TTL (A first,
 * then AAAA) capped by a configured default_ttl, at least 1 s; for a name
 * of /etc/hosts, or one DNS has no record of, default_ttl or DEFAULT_TTL_S.
 */
static unsigned int name_ttl(const char *name)
{
	static const int types[] = { ns_t_a, ns_t_aaaa };
	unsigned int conf = configured_ttl();
	unsigned char answer[1024];
	long ttl = -1;
	unsigned int i;
	int len;

	if (!in_hosts_file(name) && !res_init()) {
		_res.retry = 1;
		_res.retrans = 1;
		for (i = 0; ttl < 0 && i < sizeof(types) / sizeof(types[0]);
		     i++) {
			len = res_search(name, ns_c_in, types[i], answer,
					 sizeof(answer));
			if (len > 0)
				ttl = answer_ttl(answer, len < (int)sizeof(answer) ?
						 len : (int)sizeof(answer));
		}
	}
	if (ttl < 0)
		return conf ? conf : DEFAULT_TTL_S;
	if (conf && ttl > conf)
		ttl = conf;
	return ttl < 1 ? 1 : (unsigned int)ttl;
}

/*
 * Split a KEYCTL_DESCRIBE text "type;uid;gid;perm;DESC" in place into its
 * @field: four fields, each up to its ';', then the description, which is
 * the rest whatever it holds.  Ours is "rai:NAME" and the module allows no
 * ';' in NAME, but a key made from user space may have any: the
 * description is never split at its last ';'.  0 or -EINVAL.
 */
static int split_key_description(char *text, char *field[KEY_FIELDS])
{
	unsigned int i;
	char *end;

	for (i = 0; i < KEY_FIELDS - 1; i++) {
		field[i] = text;
		end = strchr(text, ';');
		if (!end)
			return -EINVAL;
		*end = '\0';
		text = end + 1;
	}
	field[i] = text;
	return 0;
}

/* The name of key @key: its description after "rai:". */
static int key_name(int32_t key, char *name, size_t size)
{
	char desc[512], *field[KEY_FIELDS];
	const char *d;
	long n;

	n = keyctl4(KEYCTL_DESCRIBE, key, (unsigned long)desc, sizeof(desc), 0);
	if (n < 0)
		return -errno;
	if ((size_t)n > sizeof(desc))
		return -ENAMETOOLONG;
	if (split_key_description(desc, field) ||
	    strcmp(field[0], "dns_resolver") ||
	    strncmp(field[4], DESC_PREFIX, strlen(DESC_PREFIX)))
		return -EINVAL;
	d = field[4] + strlen(DESC_PREFIX);
	if (!*d || strlen(d) >= size)
		return -EINVAL;
	strcpy(name, d);
	return 0;
}

/* A request-key argument as request-key writes numbers (decimal), or -1. */
static long long decimal_arg(const char *arg)
{
	long long v;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtoll(arg, &end, 10);
	return errno || *end ? -1 : v;
}

/* KEYCTL_DESCRIBE of @key into @buf: the text's length with its NUL. */
typedef long (*describe_fn)(int32_t key, char *buf, size_t size);

static long describe_key(int32_t key, char *buf, size_t size)
{
	return keyctl4(KEYCTL_DESCRIBE, key, (unsigned long)buf, size, 0);
}

/*
 * Did the module ask, given request-key's %u (@uid) and %T (@keyring)?
 * The kernel's dns_query() asks with the credentials net/dns_resolver made
 * at boot: fsuid 0 and its keyring ".dns_resolver" as thread keyring.  No
 * process has that keyring: keyrings whose description begins with '.'
 * are the kernel's (add_key() and KEYCTL_JOIN_SESSION_KEYRING refuse them
 * with EPERM), and the thread keyring the kernel makes for a process is
 * "_tid".  So uid 0 with a uid-0 keyring ".dns_resolver" is the kernel;
 * missing or malformed arguments, or a keyring we cannot describe, are
 * not.
 */
static int from_module(const char *uid, const char *keyring,
		       describe_fn describe)
{
	long long id = decimal_arg(keyring);
	char text[128], *field[KEY_FIELDS];
	long n;

	if (decimal_arg(uid) != 0 || id <= 0 || id > INT32_MAX)
		return 0;
	n = describe((int32_t)id, text, sizeof(text));
	if (n <= 0 || (size_t)n > sizeof(text))
		return 0;	/* cannot be described, or cut off */
	text[n - 1] = '\0';
	if (split_key_description(text, field))
		return 0;
	return !strcmp(field[0], "keyring") && !strcmp(field[1], "0") &&
	       !strcmp(field[4], DNS_RESOLVER_KEYRING);
}

/*
 * The response code of a failed res_search(): glibc folds REFUSED into
 * TRY_AGAIN, so h_errno alone cannot tell a refusal from a timeout.  The
 * buffer holds the last response received, if any (zeroed before).
 */
static int failed_query_errno(const unsigned char *answer, size_t len)
{
	const HEADER *hdr = (const HEADER *)answer;

	if (len < sizeof(*hdr))
		return EAGAIN;
	switch (hdr->rcode) {
	case ns_r_refused:
	case ns_r_formerr:
	case ns_r_notimpl:
		return EREMOTEIO;	/* every server said no: permanent */
	default:			/* SERVFAIL, or no answer at all */
		return EAGAIN;
	}
}

/*
 * Why getaddrinfo() found nothing, in DNS terms: NXDOMAIN, NODATA (the
 * name exists), a refusal, or no usable answer.  One short try per server:
 * getaddrinfo() has already waited out the resolver's full time-outs.
 */
static int dns_status(const char *name)
{
	static const int types[] = { ns_t_a, ns_t_aaaa };
	unsigned char answer[512];
	int err = ENXIO;
	unsigned int i;

	if (res_init())
		return EAGAIN;
	_res.retry = 1;
	_res.retrans = 1;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(answer, 0, sizeof(answer));
		if (res_search(name, ns_c_in, types[i], answer,
			       sizeof(answer)) >= 0)
			return ENODATA;	/* records, none usable */
		switch (h_errno) {
		case NO_DATA:
			err = ENODATA;
			break;
		case TRY_AGAIN:
			return failed_query_errno(answer, sizeof(answer));
		case NO_RECOVERY:
			return EREMOTEIO;
		default:	/* HOST_NOT_FOUND, NETDB_INTERNAL */
			break;
		}
	}
	return err;
}

/* errno for a failed getaddrinfo() of @name. */
static int lookup_errno(const char *name, int eai)
{
	switch (eai) {
	case EAI_NONAME:
#ifdef EAI_NODATA
	case EAI_NODATA:
#endif
#ifdef EAI_ADDRFAMILY
	case EAI_ADDRFAMILY:
#endif
	case EAI_AGAIN:		/* a timeout, or a refusal glibc calls one */
		return dns_status(name);
	case EAI_FAIL:
		return EREMOTEIO;
	case EAI_MEMORY:
		return ENOMEM;
	default:	/* EAI_SYSTEM, ... */
		return EAGAIN;
	}
}

/* Is @host one of the comma-separated entries of @list? */
static int list_has(const char *list, const char *host)
{
	size_t n = strlen(host);
	const char *p = list, *e;

	while (*p) {
		e = strchrnul(p, ',');
		if ((size_t)(e - p) == n && !strncmp(p, host, n))
			return 1;
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* Write each distinct address of @ai to @buf as "a,b,c"; its length. */
static int format_list(const struct addrinfo *ai, char *buf, size_t size)
{
	char host[NI_MAXHOST];
	size_t len = 0, n;

	buf[0] = '\0';
	for (; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host),
				NULL, 0, NI_NUMERICHOST))
			continue;
		if (list_has(buf, host))
			continue;
		n = strlen(host);
		if (len + !!len + n + 1 > size)
			break;	/* the rest does not fit in one key */
		if (len)
			buf[len++] = ',';
		memcpy(buf + len, host, n + 1);
		len += n;
	}
	return len ? (int)len : -ENODATA;
}

/* The addresses of @name as "a,b,c" in @payload, its length, or -errno. */
static int resolve(const char *name, char *payload, size_t size)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *res;
	int eai, len;

	eai = getaddrinfo(name, NULL, &hints, &res);
	if (eai) {
		say(LOG_DEBUG, "%s: %s", name, gai_strerror(eai));
		return -lookup_errno(name, eai);
	}
	len = format_list(res, payload, size);
	freeaddrinfo(res);
	return len;
}

static int answer(int32_t key, const char *name)
{
	char payload[PAYLOAD_MAX];
	unsigned int ttl, timeout;
	struct timespec now;
	int len;

	len = resolve(name, payload, sizeof(payload) - UNTIL_MAX);
	if (len < 0) {
		ttl = len == -EAGAIN || len == -ENOMEM ? TEMPORARY_TTL_S :
							 NEGATIVE_TTL_S;
		say(LOG_DEBUG, "%s: reject %s for %u s", name, strerror(-len),
		    ttl);
		if (keyctl4(KEYCTL_REJECT, key, ttl, -len, 0) < 0)
			return -errno;
		return 0;
	}
	ttl = name_ttl(name);
	say(LOG_DEBUG, "%s: %s for %u s", name, payload, ttl);
	clock_gettime(CLOCK_REALTIME, &now);
	len += snprintf(payload + len, UNTIL_MAX, "," RDMA_ADDRINFO_UPCALL_UNTIL "%lld",
			(long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 +
			ttl * 1000LL);
	timeout = ttl > KEY_TIMEOUT_MIN_S ? ttl : KEY_TIMEOUT_MIN_S;
	/* The timeout first: the key is ours to change until instantiated. */
	if (keyctl4(KEYCTL_SET_TIMEOUT, key, timeout, 0, 0) < 0)
		return -errno;
	/* The payload is a string; dns_resolver wants its NUL too. */
	if (keyctl4(KEYCTL_INSTANTIATE, key, (unsigned long)payload, len + 1,
		    0) < 0)
		return -errno;
	return 0;
}

/* ---- batches ---------------------------------------------------------- */

/*
 * A name of the batch, with its own copy of the name: a thread slower than
 * BATCH_DEADLINE_S reads it after batch_answer() has returned, when the
 * buffer it came from is gone.
 */
struct batch_name {
	char name[NS_MAXDNAME];
	int err;		/* errno, once done */
	unsigned int ttl;
	int done;
	char list[BATCH_LIST_MAX];
};

/*
 * One batch per process: the names, the next one no thread has taken, and
 * the threads' answers, under its lock.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int nr, next, left;
	struct batch_name names[BATCH_NAMES_MAX];
} batch = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

/* A thread of the batch: resolves the next name until none is left. */
static void *batch_worker(void *arg)
{
	char list[BATCH_LIST_MAX];
	struct batch_name *bn;
	unsigned int ttl;
	int len;

	(void)arg;
	pthread_mutex_lock(&batch.lock);
	while (batch.next < batch.nr) {
		bn = &batch.names[batch.next++];
		pthread_mutex_unlock(&batch.lock);
		len = resolve(bn->name, list, sizeof(list));
		ttl = len > 0 ? name_ttl(bn->name) : 0;
		pthread_mutex_lock(&batch.lock);
		if (len > 0)
			memcpy(bn->list, list, (size_t)len + 1);
		bn->err = len > 0 ? 0 : -len;
		bn->ttl = len > 0 ? ttl : len == -EAGAIN || len == -ENOMEM ?
			  TEMPORARY_TTL_S : NEGATIVE_TTL_S;
		bn->done = 1;
		if (!--batch.left)
			pthread_cond_signal(&batch.cond);
	}
	pthread_mutex_unlock(&batch.lock);
	return NULL;
}

/* Is @name a host name as the module lets one through? */
static int name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < NS_MAXDNAME &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._") == n;
}

/*
 * Resolve the space-separated @names (modified), BATCH_THREADS_MAX at a
 * time, and write the batch answer to @out (allocated); its length, or
 * -errno.  A name not done within BATCH_DEADLINE_S is answered EAGAIN;
 * its thread goes on until the process exits.
 */
/*
 * How much of the list @list fits in @avail bytes: all of it, or up to
 * the comma that ends the last address that fits; 0 if none does.
 */
static size_t list_fit(const char *list, long avail)
{
	size_t n = strlen(list);
	const char *comma;

	if (avail <= 0)
		return 0;
	if (n <= (size_t)avail)
		return n;
	comma = memrchr(list, ',', (size_t)avail + 1);
	return comma ? (size_t)(comma - list) : 0;
}

static long batch_answer(char *names, char **out)
{
	struct timespec deadline;
	pthread_attr_t attr;
	size_t size, len, reserve;
	unsigned int i, started;
	pthread_t t;
	char *tok, *save = NULL, *buf;

	for (tok = strtok_r(names, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (batch.nr == BATCH_NAMES_MAX || !name_ok(tok))
			return -EINVAL;
		/* name_ok(): shorter than NS_MAXDNAME. */
		memcpy(batch.names[batch.nr++].name, tok, strlen(tok) + 1);
	}
	if (!batch.nr)
		return -EINVAL;
	size = sizeof(BATCH_MAGIC "\n") + (size_t)batch.nr * BATCH_LINE_MAX;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += BATCH_DEADLINE_S;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_mutex_lock(&batch.lock);
	batch.left = batch.nr;
	for (i = 0, started = 0; i < batch.nr && i < BATCH_THREADS_MAX; i++)
		started += !pthread_create(&t, &attr, batch_worker, NULL);
	pthread_attr_destroy(&attr);
	if (!started)
		batch.left = 0;	/* every name is "not done": EAGAIN */
	while (batch.left &&
	       pthread_cond_timedwait(&batch.cond, &batch.lock, &deadline) == 0)
		;

	/* What the lines of the names after each one need at least. */
	for (i = 0, reserve = 0; i < batch.nr; i++)
		reserve += strlen(batch.names[i].name) + BATCH_FIELDS_MAX + 1;
	len = (size_t)snprintf(buf, size, "%s\n", BATCH_MAGIC);
	for (i = 0; i < batch.nr; i++) {
		const struct batch_name *bn = &batch.names[i];
		int done = bn->done, err = done ? bn->err : EAGAIN;
		size_t fit = 0;

		reserve -= strlen(bn->name) + BATCH_FIELDS_MAX + 1;
		if (!err) {
			fit = list_fit(bn->list, BATCH_PAYLOAD_MAX - len - reserve -
				       strlen(bn->name) - BATCH_FIELDS_MAX);
			if (!fit)
				err = EAGAIN;	/* not one address fits */
		}
		len += (size_t)snprintf(buf + len, size - len, "%s %d %u %.*s\n",
					bn->name, err,
					done && err == bn->err ? bn->ttl :
					TEMPORARY_TTL_S,
					err ? 1 : (int)fit,
					err ? "-" : bn->list);
		say(LOG_DEBUG, "%s: %s", bn->name,
		    done ? (bn->err ? strerror(bn->err) : bn->list) :
		    "no answer in time");
	}
	pthread_mutex_unlock(&batch.lock);
	*out = buf;
	return (long)len;
}

/*
 * Answer the batch key @key ("rai:@ID"): its callout information holds
 * the names.  A description of that form without a batch callout is a
 * name like any other (@name).
 */
static int answer_batch(int32_t key, const char *name)
{
	char callout[BATCH_NAMES_MAX * NS_MAXDNAME + sizeof(BATCH_MAGIC) + 1];
	char *payload = NULL;
	long n;

	n = keyctl4(KEYCTL_READ, KEY_SPEC_REQKEY_AUTH_KEY,
		    (unsigned long)callout, sizeof(callout) - 1, 0);
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(callout))
		return -E2BIG;
	callout[n] = '\0';
	if (strncmp(callout, BATCH_MAGIC " ", strlen(BATCH_MAGIC " ")))
		return answer(key, name);
	n = batch_answer(callout + strlen(BATCH_MAGIC " "), &payload);
	if (n < 0)
		return (int)n;
	/* Read once by the module, which invalidates it. */
	if (keyctl4(KEYCTL_SET_TIMEOUT, key, DEFAULT_TTL_S, 0, 0) < 0 ||
	    keyctl4(KEYCTL_INSTANTIATE, key, (unsigned long)payload,
		    (unsigned long)n + 1, 0) < 0) {
		n = -errno;
		free(payload);
		return (int)n;
	}
	free(payload);
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: rdma-addrinfo-dns-helper [-v] KEY [UID THREAD-KEYRING]\n"
	      "       rdma-addrinfo-dns-helper -n NAME   (test: resolve, print)\n"
	      "       rdma-addrinfo-dns-helper -b 'NAME...'"
	      "   (test: resolve as a batch, print its answer)\n"
	      "request-key program for rdma_addrinfo's dns_resolver keys"
	      " (rai:NAME);\n"
	      "request-key.d line: create dns_resolver rai:* * PATH %k %u %T\n",
	      f);
}

int main(int argc, char **argv)
{
	char name[NS_MAXDNAME], payload[PAYLOAD_MAX], *text;
	int32_t key;
	char *end;
	int opt, ret, module;
	long n;

	openlog("rdma-addrinfo-dns-helper", LOG_PID, LOG_DAEMON);
	while ((opt = getopt(argc, argv, "vn:b:h")) != -1) {
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		case 'n':	/* resolve without a key: for people and tests */
			ret = resolve(optarg, payload, sizeof(payload));
			if (ret < 0) {
				printf("error %s\n", strerror(-ret));
				return 2;
			}
			printf("%s\n", payload);
			return 0;
		case 'b':	/* a batch without a key: for people and tests */
			n = batch_answer(optarg, &text);
			if (n < 0) {
				printf("error %s\n", strerror((int)-n));
				return 2;
			}
			fputs(text, stdout);
			free(text);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	/* KEY, or KEY UID THREAD-KEYRING (request-key's %k %u %T). */
	if (optind != argc - 1 && optind != argc - 3) {
		usage(stderr);
		return 1;
	}
	errno = 0;
	key = strtol(argv[optind], &end, 0);
	if (errno || *end || key <= 0) {
		say(LOG_ERR, "bad key id '%s'", argv[optind]);
		return 1;
	}
	/* request-key hands us the authority to instantiate the key. */
	if (keyctl4(KEYCTL_ASSUME_AUTHORITY, key, 0, 0, 0) < 0) {
		say(LOG_ERR, "key %d: cannot assume authority: %m", key);
		return 1;
	}
	module = optind == argc - 3 &&
		 from_module(argv[optind + 1], argv[optind + 2], describe_key);
	ret = key_name(key, name, sizeof(name));
	if (!ret && module && !strncmp(name, BATCH_PREFIX, strlen(BATCH_PREFIX)))
		ret = answer_batch(key, name);
	else if (!ret)
		ret = answer(key, name);	/* anyone's: one name */
	else
		keyctl4(KEYCTL_REJECT, key, TEMPORARY_TTL_S, -ret, 0);
	if (ret) {
		say(LOG_ERR, "key %d: %s", key, strerror(-ret));
		return 1;
	}
	return 0;
}
