/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: module-wide counters, exported read-only in debugfs
 * (<debugfs>/rdma_addrinfo/stats).
 */
#ifndef _RAI_STATS_H
#define _RAI_STATS_H

#include <linux/atomic.h>

enum rai_stat {
	RAI_STAT_REQUESTS,		/* RESOLVE calls that created a request */
	RAI_STAT_COMPLETED,		/* requests completed (any status) */
	RAI_STAT_FAILED,		/* ... with a non-zero status */
	RAI_STAT_CANCELLED,		/* destroyed while in flight */
	RAI_STAT_EVENTS_DROPPED,	/* queued events dropped by DESTROY */
	RAI_STAT_NUMERIC,		/* requests resolved as literals */
	RAI_STAT_DNS_QUERIES,		/* dns_query() calls */
	RAI_STAT_DNS_FAILURES,		/* ... that failed */
	RAI_STAT_DNS_TIMEOUTS,		/* requests failed by dns_timeout_ms */
	RAI_STAT_DNS_THROTTLED,		/* waited for a free upcall slot */
	RAI_STAT_DNS_FALLBACKS,		/* our helper missing: key.dns_resolver */
	RAI_STAT_SRC_SELECTED,		/* results with a source address */
	RAI_STAT_SRC_FAILED,		/* results without one */
	RAI_STAT_DNS_KEYS_FULL,		/* new names refused: key budget spent */
	RAI_STAT_DNS_SINGLE,		/* plain-name queries, one address */
	RAI_STAT_DNS_VIEW_REFUSED,	/* DNS refused: a container's view */
	RAI_STAT_DNS_CACHE_HITS,	/* DNS requests answered by the cache */
	RAI_STAT_DNS_CACHE_MISSES,	/* ... that the cache could not answer */
	RAI_STAT_DNS_CACHE_EVICTED,	/* answers dropped for the bounds */
	RAI_STAT_DNS_BATCHES,		/* upcalls that carried several names */
	RAI_STAT_DNS_BATCH_NAMES,	/* ... the names they carried */
	RAI_STAT_DNS_BATCH_REFUSED,	/* ... not answered as a batch */
	RAI_STAT_DNS_REFRESHES,		/* cached answers refreshed ahead */
	RAI_STAT_MAX
};

extern atomic64_t rai_stats[RAI_STAT_MAX];

static inline void rai_stat_inc(enum rai_stat s)
{
	atomic64_inc(&rai_stats[s]);
}

extern atomic_t rai_requests_total;	/* live request objects */
extern atomic_t rai_upcalls_active;	/* dns_query() calls in progress */

void rai_stats_init(void);
void rai_stats_exit(void);

#endif /* _RAI_STATS_H */
