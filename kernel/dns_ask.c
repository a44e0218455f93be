// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: asking the dns_resolver upcall for names, in an upcall
 * slot's work or in the background.
 *
 * A request given an upcall slot (kernel/dns_slots.c) runs kernel/dns.c's
 * work, which asks here: for its one name (rai_dns_ask_one()), or for the
 * names of the batch it gathered (rai_dns_ask_batch()).  Each answer,
 * parsed once (kernel/dns_answer.c), goes into the module's cache
 * (kernel/dns_cache.c); the caller delivers it to its requests.
 *
 * Batches: the names of a user's waiting requests go to our helper in
 * one upcall (the format: kernel/dns_batch.c), resolved there in
 * parallel; requests for the same name share one answer.  The batch's
 * key is read once and invalidated, and each name's answer is kept in the
 * cache for the TTL the helper read from DNS.  If the helper does not
 * answer a batch (it is older, or key.dns_resolver got the key), every
 * name is asked for on its own, and batches stay off for
 * RAI_DNS_BATCH_BACKOFF_S.
 *
 * Refresh ahead: a helper's answer served from the cache after half its
 * TTL is asked for again here, in the background, as a batch of one name
 * (rai_dns_refresh()), so that a name in use is always answered inside
 * RESOLVE.
 *
 * An upcall cannot be interrupted: while one runs, the module holds a
 * reference on itself (rmmod fails with EBUSY rather than wait).
 *
 * Locking: none of its own.  The counters (upcalls in progress,
 * refreshes running, the batch sequence) are atomic; the workqueue is
 * set once, by rai_dns_ask_init().
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/rdma_addrinfo_upcall.h>

#include "dns_answer.h"
#include "dns_ask.h"
#include "dns_batch.h"
#include "dns_cache.h"
#include "dns_keys.h"
#include "dns_slots.h"
#include "dns_upcall.h"
#include "request.h"
#include "rai_trace.h"
#include "stats.h"

/* Where refreshes run: the DNS workqueue (kernel/dns.c's). */
static struct workqueue_struct *rai_dns_ask_wq;

/* dns_query() calls in progress. */
static atomic_t rai_upcalls_active = ATOMIC_INIT(0);

static u64 rai_dns_upcalls_running(void)
{
	return atomic_read(&rai_upcalls_active);
}

static struct rai_stats_gauge rai_dns_upcalls_gauge = {
	.name = "upcalls_active", .read = rai_dns_upcalls_running,
};

/* ---- one name, one upcall ------------------------------------------------ */

/*
 * One name, one upcall: @answer for @req->node, its addresses parsed
 * (the caller releases them).
 */
void rai_dns_ask_one(struct rai_request *req, bool helper,
		     struct rai_dns_answer *answer)
{
	struct rai_dns_cache_key cache = {};
	bool invalidate = false;
	struct rai_dns_key *key;
	time64_t expiry = 0;
	u64 t0;
	int ret;

	/* The rai: key, and the plain one should our helper be missing. */
	key = rai_dns_key_charge(req->file->net, req->user, req->node,
				 req->node_len, helper ? 2 : 1, &invalidate);
	if (IS_ERR(key)) {
		answer->status = PTR_ERR(key);
		return;
	}
	atomic_inc(&rai_upcalls_active);
	rai_stat_inc(RAI_STAT_DNS_QUERIES);
	t0 = ktime_get_ns();
	/*
	 * An upcall may never return (a helper that hangs): while one runs,
	 * rmmod fails with EBUSY rather than wait for it in rai_dns_exit().
	 * The module going away means every file is closed: skip it.
	 */
	if (try_module_get(THIS_MODULE)) {
		ret = rai_dns_upcall_name(req->file->net, req->node,
					  req->node_len, helper, invalidate,
					  answer, &expiry);
		module_put(THIS_MODULE);
	} else {
		ret = -ESHUTDOWN;
		answer->status = rai_dns_status(ret);
	}
	trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	rai_dns_key_settle(key, ret, expiry, invalidate);
	cache.net = req->file->net;
	cache.helper = helper;
	rai_dns_cache_remember(&cache, req->node, req->node_len, answer);
}

/* ---- batches: many names in one upcall ------------------------------- */

static atomic64_t rai_dns_batch_seq;
static u32 rai_dns_batch_boot;

/*
 * Ask our helper for every name of @batch in one upcall, in @net, on
 * behalf of @req (its first request, holding the slot; NULL for a
 * refresh).  Each name's answer gets its addresses parsed (released by
 * rai_dns_batch_release()) and is kept in the cache.  A helper that does
 * not answer batches turns them off for RAI_DNS_BATCH_BACKOFF_S.
 */
int rai_dns_ask_batch(struct net *net, struct rai_request *req,
		      struct rai_dns_batch *batch)
{
	struct rai_dns_cache_key key = { .net = net, .helper = true };
	time64_t now;
	char *callout, *payload = NULL;
	unsigned int i;
	char desc[32];
	int len, ret;
	u64 t0;

	callout = rai_dns_batch_callout(batch);
	if (!callout)
		return -ENOMEM;
	len = snprintf(desc, sizeof(desc),
		       RDMA_ADDRINFO_UPCALL_BATCH_PREFIX "%08x-%llx", rai_dns_batch_boot,
		       (unsigned long long)atomic64_inc_return(&rai_dns_batch_seq));
	atomic_inc(&rai_upcalls_active);
	rai_stat_inc(RAI_STAT_DNS_QUERIES);
	t0 = ktime_get_ns();
	if (try_module_get(THIS_MODULE)) {
		/* Read once: invalidated, nothing is left in the keyring. */
		ret = rai_dns_upcall_batch(net, desc, len, callout, &payload);
		module_put(THIS_MODULE);
	} else {
		ret = -ESHUTDOWN;
	}
	if (req)
		trace_rai_dns_query(req, ret, ktime_get_ns() - t0);
	atomic_dec(&rai_upcalls_active);
	kfree(callout);

	now = ktime_get_real_seconds();
	if (ret >= 0)
		ret = rai_dns_batch_parse(batch, payload, now);
	if (ret < 0) {
		kfree(payload);
		rai_stat_inc(RAI_STAT_DNS_BATCH_REFUSED);
		if (ret != -ENOMEM && ret != -ESHUTDOWN) {
			rai_dns_batches_back_off(now);
			pr_notice_ratelimited("DNS helper did not answer a batch of names (%d): one name per upcall for %d s\n",
					      ret, RAI_DNS_BATCH_BACKOFF_S);
		}
		return ret;
	}
	/* A refresh (no @req) counts as dns_refreshes, by its caller. */
	if (req)
		rai_stat_inc(RAI_STAT_DNS_BATCHES);
	for (i = 0; i < batch->nr_names; i++) {
		struct rai_dns_batch_name *bn = &batch->names[i];
		int status = bn->answer.status;

		bn->answer.origin = RDMA_ADDRINFO_ORIGIN_DNS;
		if (req)
			rai_stat_inc(RAI_STAT_DNS_BATCH_NAMES);
		if (status) {
			rai_stat_inc(RAI_STAT_DNS_FAILURES);
			if (!rai_dns_helper_answered(status))
				bn->answer.status = -EAGAIN;
		} else {
			rai_dns_answer_parse(&bn->answer, net, bn->list, false);
		}
		bn->list = NULL;
		rai_dns_cache_remember(&key, bn->name, bn->len, &bn->answer);
	}
	kfree(payload);
	return 0;
}

/* The addresses of @batch's answers (rai_dns_ask_batch()). */
void rai_dns_batch_release(struct rai_dns_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr_names; i++)
		rai_dns_answer_release(&batch->names[i].answer);
}

/* ---- refresh ahead: a name in use never expires from the cache -------- */

/*
 * A helper's answer asked for after half its TTL is asked for again in the
 * background, as a batch of one name (a fresh key, whatever the keyring
 * holds), so that the requests that follow are still answered from the
 * cache.  At most RAI_DNS_REFRESH_MAX at once (dns_ask.h), beside the
 * upcall slots;
 * each answer is refreshed once (the new answer may be again).
 */
static atomic_t rai_dns_refreshing = ATOMIC_INIT(0);

struct rai_dns_refresh {
	struct work_struct work;
	struct net *net;
	struct rai_dns_batch batch;
	char name[];
};

static void rai_dns_refresh_work(struct work_struct *work)
{
	struct rai_dns_refresh *r = container_of(work, struct rai_dns_refresh,
						 work);

	if (!rai_dns_ask_batch(r->net, NULL, &r->batch) &&
	    !r->batch.names[0].answer.status)
		rai_stat_inc(RAI_STAT_DNS_REFRESHES);
	rai_dns_batch_release(&r->batch);
	put_net(r->net);
	kfree(r);
	atomic_dec(&rai_dns_refreshing);
}

void rai_dns_refresh(struct net *net, const char *name, u32 len)
{
	struct rai_dns_refresh *r;

	if (rai_dns_batches_backed_off() ||
	    !rai_dns_batch_name_ok(name, len))
		return;		/* the helper answers no batch, or not of it */
	if (atomic_inc_return(&rai_dns_refreshing) > RAI_DNS_REFRESH_MAX)
		goto out;
	/* The shared cache's, not the caller's: RAI_DNS_REFRESH_MAX bound it. */
	r = kzalloc(struct_size(r, name, len + 1), GFP_KERNEL);
	if (!r)
		goto out;
	memcpy(r->name, name, len);
	r->batch.names[0].name = r->name;
	r->batch.names[0].len = len;
	r->batch.nr_names = 1;
	r->net = get_net(net);
	INIT_WORK(&r->work, rai_dns_refresh_work);
	queue_work(rai_dns_ask_wq, &r->work);
	return;
out:
	atomic_dec(&rai_dns_refreshing);
}

/* Before any request: refreshes run on @wq, the DNS workqueue. */
void rai_dns_ask_init(struct workqueue_struct *wq)
{
	rai_dns_ask_wq = wq;
	rai_dns_batch_boot = get_random_u32();
	rai_stats_gauge_add(&rai_dns_upcalls_gauge);
}

/* After the DNS workqueue is gone: no upcall is left. */
void rai_dns_ask_exit(void)
{
	rai_stats_gauge_del(&rai_dns_upcalls_gauge);
}
