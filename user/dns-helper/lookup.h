/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Resolving one host name as the module's DNS answers want it, shared by
 * the request-key helper (rdma-addrinfo-dns-helper) and the resident
 * resolver (rdma-addrinfo-resolved): getaddrinfo() semantics (NSS:
 * /etc/hosts, nsswitch.conf, resolv.conf), every distinct address as
 * "a,b,c", each failure as one errno the module tells apart, and how long
 * the answer may be kept.
 *
 *   ENXIO      NXDOMAIN: the name does not exist
 *   ENODATA    the name exists but has no A/AAAA record
 *   EAGAIN     temporary failure (no server answered, SERVFAIL)
 *   EREMOTEIO  permanent failure: every server refused (REFUSED, FORMERR,
 *              NOTIMP)
 *   ENOMEM     out of memory
 *
 * A resolved name is valid as long as the DNS records say (the smallest
 * TTL of the A, or else AAAA, answer), at least 1 s; a name that DNS does
 * not know (/etc/hosts) lives default_ttl.  default_ttl set in
 * key.dns_resolver.conf also caps the records' TTL.
 */
#ifndef RAI_LOOKUP_H
#define RAI_LOOKUP_H

#include <stddef.h>

/* Lifetime of a positive answer when no configuration says otherwise. */
#define DEFAULT_TTL_S		5
/* Negative answers: a missing name is cached, a flaky server hardly. */
#define NEGATIVE_TTL_S		5
/* 2: a timeout of 1 s can end within a millisecond (whole seconds). */
#define TEMPORARY_TTL_S		2
/*
 * key.dns_resolver's configuration, whose default_ttl is honoured here
 * too, and the hosts file; read again when they change.  (A unit test
 * gives files of its own.)
 */
#ifndef KEYUTILS_CONF
#define KEYUTILS_CONF		"/etc/keyutils/key.dns_resolver.conf"
#endif
#ifndef LOOKUP_HOSTS_FILE
#define LOOKUP_HOSTS_FILE	"/etc/hosts"
#endif

/*
 * The addresses of @name as "a,b,c" in @list (as many as fit in @size
 * bytes with the NUL), its length, or -errno (above).  With @canon, the
 * canonical name getaddrinfo() gives with AI_CANONNAME (the CNAME target,
 * the first name of an /etc/hosts line, else the name) ends the list as
 * ",canon=NAME" (RDMA_ADDRINFO_UPCALL_CANON) when it is a name the module
 * takes (name_ok(), at most CANON_MAX bytes) and fits.
 */
int resolve(const char *name, char *list, size_t size, int canon);

/* The longest canonical name passed on (RDMA_ADDRINFO_NAME_MAX). */
#define CANON_MAX		255

/* How long the answer for @name, resolved, may be kept (seconds). */
unsigned int name_ttl(const char *name);

/*
 * resolve() and name_ttl() at once, @ttl set when it returns a length:
 * the TTL's query goes out before getaddrinfo() runs and its answer is
 * read after it (ttl_query.h), res_search() asked only when that gives
 * none.
 */
int resolve_ttl(const char *name, char *list, size_t size, int canon,
		unsigned int *ttl);

/* How long the failure @err (a positive errno) of a name may be kept. */
unsigned int failure_ttl(int err);

/*
 * Is @name a host name as the module lets one through?  The grammar of
 * the ABI header and of the module's rai_dns_name_valid(): 1..CANON_MAX
 * letters, digits, '-', '_' and '.'.
 */
int name_ok(const char *name);

#endif /* RAI_LOOKUP_H */
