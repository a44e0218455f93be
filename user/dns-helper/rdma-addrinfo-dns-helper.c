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
 * also caps the records' TTL.  The name's canonical name (getaddrinfo()'s
 * AI_CANONNAME: the CNAME target, or the first name of its /etc/hosts
 * line) follows the addresses as ",canon=NAME" when it is a host name
 * the module takes; modules that predate it skip it as they skip any
 * entry that is no address.  The list ends in ",until=MS": when that TTL
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
 * ("a,b,c", and ",canon=NAME" as above) or "-".  A name not answered within BATCH_DEADLINE_S is given
 * as EAGAIN; its thread goes on with the batch's own copy of the name.
 * The module reads the key once and invalidates it.
 *
 * Whom it answers (Documentation/admin-guide.rst, "DNS"): request-key runs
 * it as root for whoever asks for a "rai:" key, so it does for anyone only
 * what key.dns_resolver does, one name: "rai:NAME" is NAME, looked up only
 * when it is a host name as the module asks for them (name_ok(): letters,
 * digits, '-', '_', '.'), else rejected with EINVAL.  Batches are
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

#include "lookup.h"
#include "say.h"

#define DESC_PREFIX		RDMA_ADDRINFO_UPCALL_DESC_PREFIX
/* The least lifetime of a positive key (see above). */
#define KEY_TIMEOUT_MIN_S	5
/* ",until=" and the ms of a 64-bit time, with its NUL. */
#define UNTIL_MAX		32
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

static long keyctl4(int op, unsigned long a, unsigned long b, unsigned long c,
		    unsigned long d)
{
	return syscall(SYS_keyctl, op, a, b, c, d);
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
 * The list of the one name of a "rai:NAME" key, anyone's: getaddrinfo()
 * runs as root on it, so only on a host name of the module's grammar
 * (name_ok()).  Its length (@ttl set), or -errno: -EINVAL for a
 * description that is no host name.
 */
static int resolve_single(const char *name, char *list, size_t size,
			  unsigned int *ttl)
{
	if (!name_ok(name))
		return -EINVAL;
	return resolve_ttl(name, list, size, 1, ttl);
}

static int answer(int32_t key, const char *name)
{
	char payload[PAYLOAD_MAX];
	unsigned int ttl, timeout;
	struct timespec now;
	int len;

	len = resolve_single(name, payload, sizeof(payload) - UNTIL_MAX, &ttl);
	if (len < 0) {
		ttl = failure_ttl(-len);
		say(LOG_DEBUG, "%s: reject %s for %u s", name, strerror(-len),
		    ttl);
		if (keyctl4(KEYCTL_REJECT, key, ttl, -len, 0) < 0)
			return -errno;
		return 0;
	}
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
	unsigned int ttl = 0;
	int len;

	(void)arg;
	pthread_mutex_lock(&batch.lock);
	while (batch.next < batch.nr) {
		bn = &batch.names[batch.next++];
		pthread_mutex_unlock(&batch.lock);
		len = resolve_ttl(bn->name, list, sizeof(list), 1, &ttl);
		pthread_mutex_lock(&batch.lock);
		if (len > 0)
			memcpy(bn->list, list, (size_t)len + 1);
		bn->err = len > 0 ? 0 : -len;
		bn->ttl = len > 0 ? ttl : failure_ttl(-len);
		bn->done = 1;
		if (!--batch.left)
			pthread_cond_signal(&batch.cond);
	}
	pthread_mutex_unlock(&batch.lock);
	return NULL;
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
			say_verbose = 1;
			break;
		case 'n':	/* resolve without a key: for people and tests */
			ret = name_ok(optarg) ?
			      resolve(optarg, payload, sizeof(payload), 1) :
			      -EINVAL;
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
