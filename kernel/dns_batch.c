// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: several DNS names in one upcall: the batch a slot holder
 * carries, and the protocol's text both ways.
 *
 * Owns struct rai_dns_batch's contents (which requests, which distinct
 * names, which answer each name got) and the batch protocol's text: the
 * callout the module sends and the helper's answer it parses.  It does
 * not ask (kernel/dns_ask.c sends a batch through dns_query(),
 * kernel/dns_upcall.c), nor choose the requests (kernel/dns_slots.c
 * collects a user's waiting requests, up to dns_batch_names, and hands
 * them back when a batch cannot be asked).
 *
 * Why: each upcall starts two processes (request-key, then our helper),
 * which costs far more than resolving a name.
 *
 * The protocol (uapi/rdma/rdma_addrinfo_upcall.h, which the helper
 * includes too): a batch is the key "rai:@ID", ID "%08x-%llx", a random
 * number of the module's load and a sequence (kernel/dns_ask.c; no host
 * name starts with '@'), whose callout information is
 *
 *	rai-batch NAME NAME ...
 *
 * with at most RDMA_ADDRINFO_UPCALL_BATCH_NAMES_MAX names, each once.
 * Only names of letters, digits, '-', '_' and '.' go in a batch
 * (rai_dns_batch_name_ok()); other names would be asked for one by one,
 * but RESOLVE lets none through (rai_dns_name_valid()).  Our
 * helper resolves the names in parallel and instantiates the key with
 *
 *	rai-batch
 *	NAME ERRNO TTL LIST
 *	...
 *
 * every line ending in a newline: ERRNO 0 or a positive errno of the
 * helper's list, TTL in seconds (kept between 1 s and a day), LIST the
 * addresses "a,b,c" or "-" (with ERRNO 0: -ENODATA).  A name asked for
 * and not answered gets -EAGAIN; a line for a name not asked for is
 * ignored; a payload without the first line, cut off, or with a line
 * that does not parse is no batch answer (-EPROTO: an older helper or
 * key.dns_resolver answered; kernel/dns_ask.c then turns batches off for
 * a while).  The key is read once and invalidated, so batches leave
 * nothing in the keyring that NFS or CIFS could find.
 *
 * Locking: none.  A batch belongs to the slot holder's work that
 * collected it; rai_dns_batch_add() also runs under dns_slots.c's
 * rai_dns_slot_lock, as the collector holds it, and neither sleeps nor
 * allocates.  The parser writes into the payload it is given (the
 * answers point into it until their addresses are parsed).
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <rdma/rdma_addrinfo_upcall.h>

#include "charge.h"
#include "dns_batch.h"

/* An answer is kept at most this long, whatever its TTL says. */
#define RAI_DNS_BATCH_TTL_MAX	86400

/*
 * May @name go in a batch?  Letters, digits, '-', '_' and '.' only: the
 * names of the callout and of the helper's lines are separated by spaces
 * and newlines, and dns_resolver takes a '#' in a key's payload for the
 * start of its options.  Other names are asked for one by one.
 */
bool rai_dns_batch_name_ok(const char *name, u32 len)
{
	u32 i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.'))
			return false;
	}
	return true;
}

/*
 * Add @req, which asks for @name (@len bytes, kept by @req), to @batch,
 * with its name unless an earlier request has the same; false if the
 * batch is full.
 */
bool rai_dns_batch_add(struct rai_dns_batch *batch, struct rai_request *req,
		       const char *name, u32 len)
{
	unsigned int i;

	if (batch->nr_reqs == RAI_DNS_BATCH_MAX)
		return false;
	for (i = 0; i < batch->nr_names; i++)
		if (batch->names[i].len == len &&
		    !memcmp(batch->names[i].name, name, len))
			break;
	if (i == batch->nr_names) {
		batch->names[i].name = name;
		batch->names[i].len = len;
		batch->nr_names++;
	}
	batch->name_of[batch->nr_reqs] = i;
	batch->reqs[batch->nr_reqs++] = req;
	return true;
}

/* "rai-batch NAME NAME ...", kmalloc'ed, or NULL. */
char *rai_dns_batch_callout(const struct rai_dns_batch *batch)
{
	size_t len = sizeof(RDMA_ADDRINFO_UPCALL_BATCH_MAGIC);
	unsigned int i;
	char *callout, *p;

	for (i = 0; i < batch->nr_names; i++)
		len += 1 + batch->names[i].len;
	callout = kmalloc(len, RAI_GFP_CALLER);
	if (!callout)
		return NULL;
	p = callout + sprintf(callout, RDMA_ADDRINFO_UPCALL_BATCH_MAGIC);
	for (i = 0; i < batch->nr_names; i++) {
		*p++ = ' ';
		memcpy(p, batch->names[i].name, batch->names[i].len);
		p += batch->names[i].len;
	}
	*p = '\0';
	return callout;
}

static struct rai_dns_batch_name *rai_dns_batch_find(struct rai_dns_batch *b,
						     const char *name)
{
	size_t len = strlen(name);
	unsigned int i;

	for (i = 0; i < b->nr_names; i++)
		if (b->names[i].len == len && !memcmp(b->names[i].name, name, len))
			return &b->names[i];
	return NULL;
}

/* One "NAME ERRNO TTL LIST" line into its name's answer. */
static int rai_dns_batch_line(struct rai_dns_batch *batch, char *line,
			      time64_t now)
{
	char *name, *err, *ttl, *list;
	struct rai_dns_batch_name *bn;
	unsigned int secs;
	int errnum;

	name = strsep(&line, " ");
	err = strsep(&line, " ");
	ttl = strsep(&line, " ");
	list = line;
	if (!err || !ttl || !list || kstrtoint(err, 10, &errnum) ||
	    kstrtouint(ttl, 10, &secs) || errnum < 0 || errnum > MAX_ERRNO)
		return -EPROTO;
	bn = rai_dns_batch_find(batch, name);
	if (!bn)
		return 0;	/* not asked for: ignored */
	if (!errnum && (!*list || !strcmp(list, "-")))
		errnum = ENODATA;
	bn->answer.status = -errnum;
	bn->list = errnum ? NULL : list;
	bn->answer.expiry = now + clamp_t(unsigned int, secs, 1,
					  RAI_DNS_BATCH_TTL_MAX);
	return 0;
}

/*
 * Fill in each name's answer from the helper's @payload (modified: the
 * answers point into it), all but its origin.  A name the helper did not
 * answer gets -EAGAIN.
 * -EPROTO if @payload is no batch answer (an older helper, or another
 * program, answered the key), or was cut off.
 */
int rai_dns_batch_parse(struct rai_dns_batch *batch, char *payload,
			time64_t now)
{
	char *line, *p = payload;
	unsigned int i;
	int ret;

	for (i = 0; i < batch->nr_names; i++) {
		batch->names[i].answer.status = -EAGAIN;
		batch->names[i].list = NULL;
		batch->names[i].answer.expiry = 0;
	}
	/* Every line ends with a newline: none was cut off. */
	if (!*payload || payload[strlen(payload) - 1] != '\n')
		return -EPROTO;
	line = strsep(&p, "\n");
	if (!line || strcmp(line, RDMA_ADDRINFO_UPCALL_BATCH_MAGIC))
		return -EPROTO;
	while ((line = strsep(&p, "\n"))) {
		if (!*line)
			continue;
		ret = rai_dns_batch_line(batch, line, now);
		if (ret)
			return ret;
	}
	return 0;
}
