// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One host name resolved for the module's DNS answers (lookup.h): shared
 * by the request-key helper and the resident resolver.  Names come from
 * getaddrinfo(); the DNS status of a failed name comes from res_search(),
 * the records' TTL from a query sent alongside getaddrinfo() (ttl_query.c)
 * or else from res_search().
 */
#include <arpa/nameser.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <rdma/rdma_addrinfo_upcall.h>

#include "dns_ttl.h"
#include "lookup.h"
#include "say.h"
#include "ttl_query.h"

/* A file as stat(2) sees it: when it differs, the file changed. */
struct file_stamp {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

/*
 * What name_ttl() needs from files, shared by the threads of a batch or
 * of the resident resolver instead of each reading both files again, and
 * read again when either changed (the resolver runs for months).
 */
static struct {
	pthread_rwlock_t lock;
	int read;			/* the fields below hold the files */
	struct file_stamp hosts_stamp, conf_stamp;
	unsigned int default_ttl;	/* of key.dns_resolver.conf, or 0 */
	char *hosts;	/* /etc/hosts's names, each '\0'-ended; "" ends */
} files = { .lock = PTHREAD_RWLOCK_INITIALIZER };

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
	FILE *f = fopen(LOOKUP_HOSTS_FILE, "re");
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

/* @path's stamp; all zero if it cannot be stat'ed (missing). */
static void stamp_file(const char *path, struct file_stamp *stamp)
{
	struct stat st;

	memset(stamp, 0, sizeof(*stamp));
	if (stat(path, &st))
		return;
	stamp->dev = st.st_dev;
	stamp->ino = st.st_ino;
	stamp->size = st.st_size;
	stamp->mtime = st.st_mtim;
}

static int same_stamp(const struct file_stamp *a, const struct file_stamp *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/*
 * Take the files' read lock, having read them first if they were never
 * read or either changed since.
 */
static void files_lock(void)
{
	struct file_stamp hosts, conf;

	stamp_file(LOOKUP_HOSTS_FILE, &hosts);
	stamp_file(KEYUTILS_CONF, &conf);
	pthread_rwlock_rdlock(&files.lock);
	if (files.read && same_stamp(&hosts, &files.hosts_stamp) &&
	    same_stamp(&conf, &files.conf_stamp))
		return;
	pthread_rwlock_unlock(&files.lock);
	pthread_rwlock_wrlock(&files.lock);
	if (!files.read || !same_stamp(&hosts, &files.hosts_stamp) ||
	    !same_stamp(&conf, &files.conf_stamp)) {
		free(files.hosts);
		files.default_ttl = read_default_ttl();
		files.hosts = read_hosts_names();
		files.hosts_stamp = hosts;
		files.conf_stamp = conf;
		files.read = 1;
	}
	pthread_rwlock_unlock(&files.lock);
	pthread_rwlock_rdlock(&files.lock);
}

static void files_unlock(void)
{
	pthread_rwlock_unlock(&files.lock);
}

/* Is @name one of the names of an /etc/hosts line?  (files_lock()) */
static int in_hosts_file(const char *name)
{
	const char *h;

	for (h = files.hosts; h && *h; h += strlen(h) + 1)
		if (!strcasecmp(h, name))
			return 1;
	return 0;
}

/*
 * The smallest TTL of @name's A records, else of its AAAA records, as
 * res_search() finds them, or -1.
 */
static long searched_ttl(const char *name)
{
	static const int types[] = { ns_t_a, ns_t_aaaa };
	unsigned char answer[1024];
	long ttl = -1;
	unsigned int i;
	int len;

	if (res_init())
		return -1;
	_res.retry = 1;
	_res.retrans = 1;
	for (i = 0; ttl < 0 && i < sizeof(types) / sizeof(types[0]); i++) {
		len = res_search(name, ns_c_in, types[i], answer,
				 sizeof(answer));
		if (len > 0)
			ttl = dns_answer_ttl(answer,
					     len < (int)sizeof(answer) ?
					     len : (int)sizeof(answer));
	}
	return ttl;
}

/*
 * How long an answer with records of TTL @ttl (-1: none) may be kept: the
 * TTL capped by a configured default_ttl @conf, at least 1 s; without
 * records, default_ttl or DEFAULT_TTL_S.
 */
static unsigned int kept_for(long ttl, unsigned int conf)
{
	if (ttl < 0)
		return conf ? conf : DEFAULT_TTL_S;
	if (conf && ttl > conf)
		ttl = conf;
	return ttl < 1 ? 1 : (unsigned int)ttl;
}

/* Is @name in /etc/hosts (then DNS is not asked)?  @conf: default_ttl. */
static int hosts_file_has(const char *name, unsigned int *conf)
{
	int hosts;

	files_lock();
	*conf = files.default_ttl;
	hosts = in_hosts_file(name);
	files_unlock();
	return hosts;
}

/*
 * How long the answer for @name may be kept: the records' TTL (A first,
 * then AAAA) capped by a configured default_ttl, at least 1 s; for a name
 * of /etc/hosts, or one DNS has no record of, default_ttl or DEFAULT_TTL_S.
 */
unsigned int name_ttl(const char *name)
{
	unsigned int conf;

	if (hosts_file_has(name, &conf))
		return kept_for(-1, conf);
	return kept_for(searched_ttl(name), conf);
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

/*
 * ",canon=@canon" after the @len bytes of the list in @buf, if @canon is
 * a name the module takes and it fits: the new length.
 */
static int add_canon(char *buf, size_t size, int len, const char *canon)
{
	size_t n;

	if (!canon || strlen(canon) > CANON_MAX || !name_ok(canon))
		return len;
	n = strlen(RDMA_ADDRINFO_UPCALL_CANON) + strlen(canon);
	if ((size_t)len + 1 + n + 1 > size)
		return len;
	return len + snprintf(buf + len, size - len, ",%s%s",
			      RDMA_ADDRINFO_UPCALL_CANON, canon);
}

/* lookup.h */
int resolve(const char *name, char *list, size_t size, int canon)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = canon ? AI_CANONNAME : 0,
	};
	struct addrinfo *res;
	int eai, len;

	eai = getaddrinfo(name, NULL, &hints, &res);
	if (eai) {
		say(LOG_DEBUG, "%s: %s", name, gai_strerror(eai));
		return -lookup_errno(name, eai);
	}
	len = format_list(res, list, size);
	if (len > 0 && canon)
		len = add_canon(list, size, len, res->ai_canonname);
	freeaddrinfo(res);
	return len;
}

/* lookup.h */
int resolve_ttl(const char *name, char *list, size_t size, int canon,
		unsigned int *ttl)
{
	struct ttl_query q = { .fd = -1 };
	unsigned int conf;
	long records = -1;
	int hosts, len;

	hosts = hosts_file_has(name, &conf);
	if (!hosts)
		ttl_query_send(name, &q);
	len = resolve(name, list, size, canon);
	if (len <= 0)
		return len;	/* a late answer is dropped by the next */
	if (!hosts) {
		records = ttl_query_recv(name, &q, TTL_QUERY_WAIT_MS);
		if (records < 0)
			records = searched_ttl(name);
	}
	*ttl = kept_for(records, conf);
	return len;
}

/* lookup.h */
unsigned int failure_ttl(int err)
{
	return err == EAGAIN || err == ENOMEM ? TEMPORARY_TTL_S : NEGATIVE_TTL_S;
}

/* lookup.h */
int name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n <= CANON_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._") == n;
}
