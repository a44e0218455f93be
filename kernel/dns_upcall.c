// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the dns_resolver upcall, and which helper answers it.
 *
 * dns_query() runs request-key, which starts a process per key: a name
 * is a "rai:NAME" key for our helper (rdma-addrinfo-dns-helper, with
 * dns_helper set) and, when that helper is not installed, a plain key for
 * key.dns_resolver, asked as NFS and CIFS ask.  A batch is one "rai:@ID"
 * key whose callout carries the names (uapi/rdma/rdma_addrinfo_upcall.h).
 * What comes back for a name is parsed here into the answer type, once.
 *
 * Which helper answers: with dns_helper set (the default), names are asked
 * for as "rai:NAME", which request-key hands to our own helper
 * (rdma-addrinfo-dns-helper, through /etc/request-key.d/rdma-addrinfo.conf):
 * it rejects each failure with its own errno, which passes through as the
 * request's status:
 *
 *  -ENXIO      NXDOMAIN
 *  -ENODATA    the name exists without an A/AAAA record
 *  -EAGAIN     temporary failure (no server answered, SERVFAIL)
 *  -EREMOTEIO  permanent failure (REFUSED, FORMERR, NOTIMP)
 *
 * Any other failure of a "rai:" key means that our helper is not installed
 * (request-key found no program, or gave the key to key.dns_resolver,
 * which does not know the type): the name is asked for again as a plain
 * dns_resolver key, answered by key.dns_resolver, and the fallback is
 * counted (dns_fallbacks).
 *
 * The keyring is shared: NFS, CIFS and Ceph ask dns_query() for plain
 * names without options and read one address; a key is found by its
 * description "[type:]name" only, whatever options created it.  A plain
 * name is therefore asked for exactly as they ask (no options): one IPv4
 * address, results with origin RDMA_ADDRINFO_ORIGIN_DNS_SINGLE, counted
 * (dns_single) and said once in the kernel log.  Our own "rai:" keys hold
 * every address.  dns_query() (6.1 to 7.3) refuses names shorter than
 * 3 bytes but checks the name only: for a short name the whole description
 * ("rai:db", or "a:db" for key.dns_resolver, its legacy one-address form)
 * is passed as the name.  Names were checked against host name syntax
 * before (resolve.c): no ':' can select another query type.
 *
 * How key.dns_resolver (keyutils) reports failures, and what we make of
 * them:
 *
 *  - keyutils up to 1.6.3 rejects every failure alike, seen here as
 *    -EINTR (Documentation/admin-guide.rst tells why): -ENXIO.
 *  - Later keyutils: -ENODATA, -EAGAIN, -ECONNREFUSED (as -EREMOTEIO).
 *  - A helper that failed without instantiating the key, or that is not
 *    configured, leaves a negative key: -ENOKEY.  Expired or revoked keys
 *    give -EKEYEXPIRED/-EKEYREVOKED.
 *  - A helper may answer "#dnserror=N" (dns_resolver's own convention);
 *    dns_query() returns -N.  Statuses of our ABI pass through as they are.
 *
 * No state of its own besides the dns_helper parameter: every call sleeps
 * in dns_query(), on the DNS workqueue.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
/* After time64_t: 6.1's header does not include its definition. */
#include <linux/dns_resolver.h>
#include <rdma/rdma_addrinfo_abi.h>
#include <rdma/rdma_addrinfo_upcall.h>

#include "dns_answer.h"
#include "dns_upcall.h"
#include "stats.h"

/* dns_query() attempts when the key expires under it. */
#define RAI_DNS_EXPIRED_TRIES	3
/* Reads of a helper's key that outlived its records (see below). */
#define RAI_DNS_STALE_TRIES	3
/*
 * The helper's answer ends in ",until=MS"; "rai:" keys are routed to the
 * helper: the upcall protocol (uapi/rdma/rdma_addrinfo_upcall.h).
 */
#define RAI_DNS_UNTIL		RDMA_ADDRINFO_UPCALL_UNTIL
#define RAI_DNS_HELPER_TYPE	RDMA_ADDRINFO_UPCALL_TYPE
/* key.dns_resolver's A/AAAA query type: only for names dns_query() refuses. */
#define RAI_DNS_SHORT_TYPE	"a"
/* dns_query() refuses names shorter than this (6.1 to 7.3). */
#define RAI_DNS_NAME_MIN	3

static bool rai_dns_helper = true;
module_param_named(dns_helper, rai_dns_helper, bool, 0644);
MODULE_PARM_DESC(dns_helper,
		 "Ask rdma-addrinfo-dns-helper first (\"rai:NAME\" keys), key.dns_resolver if it is not installed (default Y)");

/* Is our helper asked first (dns_helper)? */
bool rai_dns_helper_enabled(void)
{
	return READ_ONCE(rai_dns_helper);
}

/**
 * rai_dns_status - a request's status for dns_query()'s failure @ret
 * @ret: a negative errno of dns_query() (or of the upcall's callers)
 *
 * Return: -ENXIO, -ENODATA, -EADDRNOTAVAIL, -EAGAIN, -ETIMEDOUT, -ENOMEM
 * or -EREMOTEIO (the ABI's DNS statuses).
 */
int rai_dns_status(int ret)
{
	switch (ret) {
	case -ENXIO:
	case -ENODATA:
	case -EADDRNOTAVAIL:
	case -EAGAIN:
	case -ETIMEDOUT:
	case -ENOMEM:
		return ret;
	case -EINTR:		/* keyutils <= 1.6.3: any getaddrinfo() failure */
	case -EKEYREJECTED:
	case -EINVAL:		/* dns_query() refused the name */
		return -ENXIO;
	case -EREMOTEIO:
	case -ECONNREFUSED:	/* keyutils: NO_RECOVERY */
		return -EREMOTEIO;
	case -ENOKEY:		/* no helper, or it failed */
	case -EKEYEXPIRED:
	case -EKEYREVOKED:
	default:
		return -EAGAIN;
	}
}

/* Did our own helper answer a "rai:" key with this error? */
bool rai_dns_helper_answered(int ret)
{
	switch (ret) {
	case -ENXIO:
	case -ENODATA:
	case -EAGAIN:
	case -EREMOTEIO:
	case -ENOMEM:
		return true;
	default:
		return false;
	}
}

/* dns_query() of the key "type:name" (type set) or "name", short or not. */
static int rai_dns_query_type(struct net *net, const char *type,
			      const char *name, size_t len,
			      const char *options, char **list,
			      time64_t *expiry, bool invalidate)
{
	char desc[sizeof(RAI_DNS_HELPER_TYPE) + RAI_DNS_NAME_MIN];
	int tries, ret = -EKEYEXPIRED;

	/* The same description, passed whole as a name long enough. */
	if (len < RAI_DNS_NAME_MIN && type) {
		len = snprintf(desc, sizeof(desc), "%s:%s", type, name);
		name = desc;
		type = NULL;
	}

	/*
	 * A cached key can expire between the keyring finding it and
	 * dns_query() checking it, or be invalidated by another reader
	 * (a stale key of our helper, read once more to drop it): that is
	 * -ENOKEY, as for a negative key.  Asking again makes a fresh upcall,
	 * or finds the negative key again at once.
	 */
	for (tries = 0; tries < RAI_DNS_EXPIRED_TRIES; tries++) {
		ret = dns_query(net, type, name, len, options, list, expiry,
				invalidate);
		if (ret != -EKEYEXPIRED && ret != -EKEYREVOKED &&
		    ret != -ENOKEY)
			break;
	}
	return ret;
}

/*
 * When the records of our helper's answer @list expire: it ends in
 * ",until=MS" (ms since the epoch, CLOCK_REALTIME), which is cut off.
 * 0: no such end (an older helper), the key's own expiry counts.
 */
static s64 rai_dns_take_until(char *list)
{
	char *end = strrchr(list, ',');
	s64 ms;

	if (!end || strncmp(end + 1, RAI_DNS_UNTIL, strlen(RAI_DNS_UNTIL)) ||
	    kstrtos64(end + 1 + strlen(RAI_DNS_UNTIL), 10, &ms) || ms <= 0)
		return 0;
	*end = '\0';
	return ms;
}

/*
 * Our helper's key "rai:NAME".  The key lives at least the helper's
 * floor (a key that expires before request-key has returned fails the
 * upcall with -ENOKEY), so a key found in the keyring may have outlived
 * its records (@list's until): such a key is read once more to
 * invalidate it, and the name asked for again.  An answer that is past
 * its records' TTL even so (a helper slower than the TTL) is used as it
 * is, kept nowhere: *@valid 0 then.  *@expiry: the key's own.
 */
static int rai_dns_helper_query(struct net *net, const char *name, u32 len,
				char **list, time64_t *expiry, time64_t *valid,
				bool invalidate)
{
	int tries, ret;
	s64 until;

	for (tries = 0; tries < RAI_DNS_STALE_TRIES; tries++) {
		ret = rai_dns_query_type(net, RAI_DNS_HELPER_TYPE, name, len,
					 "list", list, expiry,
					 invalidate || tries == 1);
		if (ret < 0) {
			/* Another reader invalidated the stale key first. */
			if (tries == 1 && ret == -ENOKEY)
				continue;
			return ret;
		}
		*valid = *expiry;
		until = rai_dns_take_until(*list);
		if (!until)
			return ret;
		if (until > ktime_to_ms(ktime_get_real())) {
			until = div_s64(until, MSEC_PER_SEC);
			if (!*valid || until < *valid)
				*valid = until;
			return ret;
		}
		if (tries == RAI_DNS_STALE_TRIES - 1)
			break;
		if (!tries)
			rai_stat_inc(RAI_STAT_DNS_STALE_KEYS);
		kfree(*list);
		*list = NULL;
	}
	*valid = 0;
	return ret;
}

/*
 * Our helper first when enabled; key.dns_resolver if it is not there,
 * asked as NFS and CIFS ask (no options: one address).
 */
static int rai_dns_query(struct net *net, const char *name, u32 len,
			 bool helper, char **list, time64_t *expiry,
			 time64_t *valid, u32 *origin, bool invalidate)
{
	int ret;

	*origin = RDMA_ADDRINFO_ORIGIN_DNS;
	if (helper) {
		ret = rai_dns_helper_query(net, name, len, list, expiry, valid,
					   invalidate);
		if (ret >= 0 || rai_dns_helper_answered(ret))
			return ret;
		rai_stat_inc(RAI_STAT_DNS_FALLBACKS);
		pr_debug("no helper for %s:%.*s (%d)\n", RAI_DNS_HELPER_TYPE,
			 (int)len, name, ret);
	}
	*origin = RDMA_ADDRINFO_ORIGIN_DNS_SINGLE;
	rai_stat_inc(RAI_STAT_DNS_SINGLE);
	pr_notice_once("rdma-addrinfo-dns-helper not used: DNS names resolve to one IPv4 address each, as for NFS and CIFS (the dns_resolver keys are shared)\n");
	ret = rai_dns_query_type(net, len < RAI_DNS_NAME_MIN ?
				 RAI_DNS_SHORT_TYPE : NULL, name, len, NULL,
				 list, expiry, invalidate);
	*valid = *expiry;
	return ret;
}

/**
 * rai_dns_upcall_name - ask the upcall for one name
 * @net: the namespace it is asked in
 * @name: the name, @len bytes (checked: a host name)
 * @len: its length
 * @helper: our helper first (dns_helper, read once by the caller)
 * @invalidate: invalidate the key once read (the key budget says)
 * @answer: filled: status (rai_dns_status()), origin, expiry of the
 *	records (0: keep it nowhere), the addresses parsed
 *	(rai_dns_answer_release() when done)
 * @key_expiry: the key's own expiry (the key budget's record)
 *
 * Sleeps until request-key has answered.
 * Return: dns_query()'s result (the key budget settles its record on it).
 */
int rai_dns_upcall_name(struct net *net, const char *name, u32 len,
			bool helper, bool invalidate,
			struct rai_dns_answer *answer, time64_t *key_expiry)
{
	time64_t valid = 0;
	char *list = NULL;
	u32 origin = 0;
	int ret;

	ret = rai_dns_query(net, name, len, helper, &list, key_expiry, &valid,
			    &origin, invalidate);
	if (ret < 0) {
		rai_stat_inc(RAI_STAT_DNS_FAILURES);
		pr_debug("dns_query(%.*s): %d\n", (int)len, name, ret);
	}
	answer->status = ret < 0 ? rai_dns_status(ret) : 0;
	answer->origin = origin;
	answer->expiry = valid;
	if (!answer->status)
		rai_dns_answer_parse(answer, net, list, false);
	kfree(list);
	return ret;
}

/*
 * A batch key (@desc, @len bytes: "@ID") with its names in @callout, read
 * once (invalidated: nothing is left in the keyring).  *@payload: the
 * helper's answer (kfree()), parsed by the caller.
 */
int rai_dns_upcall_batch(struct net *net, const char *desc, u32 len,
			 const char *callout, char **payload)
{
	time64_t expiry = 0;

	return rai_dns_query_type(net, RAI_DNS_HELPER_TYPE, desc, len, callout,
				  payload, &expiry, true);
}
