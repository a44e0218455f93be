/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: module-wide counters, exported read-only in debugfs
 * (<debugfs>/rdma_addrinfo/stats, and the SA client's in
 * <debugfs>/rdma_addrinfo/sa); the request counters also per network
 * namespace, for RDMA_ADDRINFO_IOC_GET_STATS.
 */
#ifndef _RAI_STATS_H
#define _RAI_STATS_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/types.h>

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
	RAI_STAT_DNS_STALE_KEYS,	/* helper keys found past their TTL */
	RAI_STAT_RESOLVER_REGISTERED,	/* resident resolvers registered */
	RAI_STAT_RESOLVER_UNREGISTERED,	/* ... gone (their file closed) */
	RAI_STAT_RESOLVER_NAMES,	/* names they took */
	RAI_STAT_RESOLVER_ANSWERS,	/* answers to names outstanding */
	RAI_STAT_RESOLVER_STALE,	/* answers to no name outstanding */
	RAI_STAT_RESOLVER_MALFORMED,	/* answers not well formed: -EPROTO */
	RAI_STAT_RESOLVER_FALLBACKS,	/* requests sent on to the fallback */
	RAI_STAT_RESOLVER_DEADLINES,	/* names unanswered past the deadline */
	RAI_STAT_MAX
};

extern atomic64_t rai_stats[RAI_STAT_MAX];

static inline void rai_stat_inc(enum rai_stat s)
{
	atomic64_inc(&rai_stats[s]);
}

struct net;
struct rdma_addrinfo_stats;

/*
 * The counters that GET_STATS reports per network namespace (the first
 * RAI_NET_STAT_MAX of enum rai_stat): counted module-wide and in @net's.
 */
#define RAI_NET_STAT_MAX	(RAI_STAT_NUMERIC + 1)
void rai_stat_inc_net(const struct net *net, enum rai_stat s);
void rai_stats_net_read(const struct net *net, struct rdma_addrinfo_stats *st);

/* The SA client's (sa_client.c), counted per query started on a port. */
enum rai_sa_stat {
	RAI_SA_STAT_QUERIES,		/* started on a port */
	RAI_SA_STAT_MADS,		/* MADs sent */
	RAI_SA_STAT_COALESCED,		/* joined an identical MAD in flight */
	RAI_SA_STAT_CACHE_HITS,		/* answered from the port's cache */
	RAI_SA_STAT_ANSWERS,		/* MADs answered with records */
	RAI_SA_STAT_NO_RECORDS,		/* ... with none (-ENXIO) */
	RAI_SA_STAT_TIMEOUTS,		/* MADs unanswered after every retry */
	RAI_SA_STAT_MALFORMED,		/* malformed or missing answers */
	RAI_SA_STAT_REMOTE_ERRORS,	/* answers with an error MAD status */
	RAI_SA_STAT_NO_SA,		/* the port had no SA, or no send */
	RAI_SA_STAT_CANCELLED,		/* taken back by rai_sa_abort() */
	RAI_SA_STAT_DEV_REMOVED,	/* MADs flushed by a device removal */
	RAI_SA_STAT_MAX
};

extern atomic64_t rai_sa_stats[RAI_SA_STAT_MAX];

static inline void rai_sa_stat_inc(enum rai_sa_stat s)
{
	atomic64_inc(&rai_sa_stats[s]);
}

/**
 * struct rai_stats_gauge - a value of now, read from its owner
 * @name: its name in <debugfs>/rdma_addrinfo/stats
 * @read: returns the value; called in process context, may sleep
 * @node: in the list of gauges (stats.c)
 *
 * The subsystem that owns a value reports it: stats.c calls nobody's
 * internals.  Added by the owner's init after rai_stats_init(), removed by
 * its exit (and by its init's error path) before rai_stats_exit().
 */
struct rai_stats_gauge {
	const char *name;
	u64 (*read)(void);
	struct list_head node;
};

void rai_stats_gauge_add(struct rai_stats_gauge *gauge);
void rai_stats_gauge_del(struct rai_stats_gauge *gauge);
struct dentry *rai_stats_dir(void);

int rai_stats_init(void);
void rai_stats_exit(void);

#endif /* _RAI_STATS_H */
