// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: a DNS answer's addresses, parsed once.
 *
 * An upcall answers with text, "a,b,c" (our helper's single-name key, a
 * batch's line, key.dns_resolver's one address).  It is parsed here, as it
 * enters the module, into sockaddrs: the cache keeps those, and a request
 * answered from the cache copies them into its results without parsing
 * anything again.  Entries that are no address (a newer helper's field,
 * garbage) are skipped, as they always were.
 *
 * One entry may be the name's canonical name, "canon=NAME" (the helpers
 * and resident resolvers that know it; uapi headers): checked against the
 * grammar of the names callers may ask for, so that a resolver can pass
 * nothing else on to the callers.
 */
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <rdma/rdma_addrinfo_abi.h>
#include <rdma/rdma_addrinfo_upcall.h>

#include "addr.h"
#include "charge.h"
#include "dns_answer.h"
#include "numeric.h"
#include "request.h"
#include "result.h"

/* The entry of a list that carries the canonical name (both protocols). */
#define RAI_DNS_CANON		RDMA_ADDRINFO_UPCALL_CANON
#define RAI_DNS_CANON_LEN	(sizeof(RAI_DNS_CANON) - 1)

/**
 * rai_dns_name_valid - may @name be asked for, or passed on as a name?
 * @name: the bytes
 * @len: their number
 *
 * 1..RDMA_ADDRINFO_NAME_MAX bytes of a host name as the ABI header
 * promises resolvers: letters, digits, '-', '_' and '.' (an IDN name in
 * its ASCII form, "xn--...").  Nothing else: a ':' would select a query
 * type of the shared dns_resolver keys (e.g. "afsdb:"), ';', ',', '#',
 * white space and control bytes mean something in key descriptions,
 * callouts and the helpers' answers, and the root helper hands the name
 * to getaddrinfo() (it checks the same rule: user/dns-helper, name_ok()).
 */
bool rai_dns_name_valid(const char *name, u32 len)
{
	u32 i;

	if (!len || len > RDMA_ADDRINFO_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		/* Not isalnum(): the kernel's takes Latin-1 letters too. */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.'))
			return false;
	}
	return true;
}

/*
 * The entry "canon=NAME" (@len bytes at @p) into @answer: 0, or -EPROTO
 * when its name is no host name or a second one comes (the first stays),
 * -ENOMEM.
 */
static int rai_dns_answer_canon(struct rai_dns_answer *answer,
				const char *p, size_t len)
{
	p += RAI_DNS_CANON_LEN;
	len -= RAI_DNS_CANON_LEN;
	if (answer->canon || !rai_dns_name_valid(p, len))
		return -EPROTO;
	answer->canon = kmemdup_nul(p, len, RAI_GFP_CALLER);
	return answer->canon ? 0 : -ENOMEM;
}

/**
 * rai_dns_answer_parse - the addresses of @list into @answer
 * @answer: a positive answer (@status 0) without addresses yet
 * @net: the namespace of the request it answers (IPv6 scope names)
 * @list: comma-separated numeric addresses, and at most one canonical
 *	name ("canon=NAME"), only read
 * @strict: an entry that is no address or a good canonical name makes
 *	the answer -EPROTO (else it is skipped)
 *
 * Sets @answer->addrs, @answer->nr and @answer->canon; or @answer->status
 * to -ENODATA when @list holds no address (-EPROTO if @strict), -ENOMEM
 * when memory cannot be had.
 */
void rai_dns_answer_parse(struct rai_dns_answer *answer, struct net *net,
			  const char *list, bool strict)
{
	const char *p, *end;
	u32 n = 1, nr = 0;
	int ret, err = 0;

	answer->addrs = NULL;
	answer->nr = 0;
	answer->canon = NULL;
	if (!list || !*list) {
		answer->status = strict ? -EPROTO : -ENODATA;
		return;
	}
	for (p = list; *p; p++)
		n += *p == ',';
	answer->addrs = kmalloc_array(n, sizeof(*answer->addrs),
				      RAI_GFP_CALLER);
	if (!answer->addrs) {
		answer->status = -ENOMEM;
		return;
	}
	for (p = list; *p && !err; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (!strncmp(p, RAI_DNS_CANON, RAI_DNS_CANON_LEN)) {
			ret = rai_dns_answer_canon(answer, p, end - p);
			if (ret == -ENOMEM || (ret && strict))
				err = ret;
		} else if (!rai_numeric_parse_ip(net, p, end - p,
						 &answer->addrs[nr])) {
			nr++;
		} else if (strict) {
			err = -EPROTO;
		}
	}
	if (err) {
		rai_dns_answer_release(answer);
		answer->status = err;
		return;
	}
	if (!nr) {
		rai_dns_answer_release(answer);
		answer->status = strict ? -EPROTO : -ENODATA;
		return;
	}
	answer->nr = nr;
}

/* What rai_dns_answer_parse() allocated (none: nothing). */
void rai_dns_answer_release(struct rai_dns_answer *answer)
{
	kfree(answer->addrs);
	kfree(answer->canon);
	answer->addrs = NULL;
	answer->canon = NULL;
	answer->nr = 0;
}

/**
 * rai_dns_answer_complete - @req completed with @answer
 * @req: a DNS request
 * @answer: its answer: results built from its addresses (the memory
 *	charged to @req's creator), or its negative status
 */
void rai_dns_answer_complete(struct rai_request *req,
			     const struct rai_dns_answer *answer)
{
	time64_t now = ktime_get_real_seconds();
	struct mem_cgroup *old_memcg;
	u32 ttl = 0;

	if (answer->status) {
		rai_request_complete(req, answer->status, NULL, 0);
		return;
	}
	if (answer->expiry > now)
		ttl = min_t(time64_t, answer->expiry - now, U32_MAX);
	old_memcg = rai_request_charge_begin(req);
	rai_results_complete_addrs(req, answer->addrs, answer->nr,
				   answer->origin, ttl, answer->canon);
	rai_request_charge_end(old_memcg);
}

/**
 * rai_dns_answer_deliver - the end of a request a DNS queue handed over
 * @req: the request; the queue's reference is dropped
 * @answer: completes @req if it is still pending; NULL: nothing to say
 *
 * The request's time-out (kernel/dns.c's, @req->timeout) is cancelled;
 * a time-out already running completes it and drops its own reference.
 */
void rai_dns_answer_deliver(struct rai_request *req,
			    const struct rai_dns_answer *answer)
{
	if (answer && READ_ONCE(req->state) == RAI_REQ_PENDING)
		rai_dns_answer_complete(req, answer);
	if (cancel_delayed_work(&req->timeout))
		rai_request_put(req);
	rai_request_put(req);
}
