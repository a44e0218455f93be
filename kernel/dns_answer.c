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
 */
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "addr.h"
#include "dns_answer.h"
#include "numeric.h"

/**
 * rai_dns_answer_parse - the addresses of @list into @answer
 * @answer: a positive answer (@status 0) without addresses yet
 * @net: the namespace of the request it answers (IPv6 scope names)
 * @list: comma-separated numeric addresses, only read
 *
 * Sets @answer->addrs and @answer->nr; or @answer->status to -ENODATA
 * when @list holds no address, -ENOMEM when the array cannot be had.
 */
void rai_dns_answer_parse(struct rai_dns_answer *answer, struct net *net,
			  const char *list)
{
	const char *p, *end;
	u32 n = 1, nr = 0;

	answer->addrs = NULL;
	answer->nr = 0;
	if (!list || !*list) {
		answer->status = -ENODATA;
		return;
	}
	for (p = list; *p; p++)
		n += *p == ',';
	answer->addrs = kmalloc_array(n, sizeof(*answer->addrs), GFP_KERNEL);
	if (!answer->addrs) {
		answer->status = -ENOMEM;
		return;
	}
	for (p = list; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		if (!rai_numeric_parse_ip(net, p, end - p, &answer->addrs[nr]))
			nr++;
	}
	if (!nr) {
		rai_dns_answer_release(answer);
		answer->status = -ENODATA;
		return;
	}
	answer->nr = nr;
}

/* The addresses rai_dns_answer_parse() allocated (none: nothing). */
void rai_dns_answer_release(struct rai_dns_answer *answer)
{
	kfree(answer->addrs);
	answer->addrs = NULL;
	answer->nr = 0;
}
