// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: module-wide counters in debugfs.
 *
 * <debugfs>/rdma_addrinfo/stats holds one "name value" line per counter,
 * <debugfs>/rdma_addrinfo/sa the same for the SA client's counters.  The
 * counters only grow; tests compare two readings.  After the counters, the
 * stats file lists the gauges (values of now) that other subsystems add;
 * this file includes nobody's header but its own.
 *
 * The request counters are also kept per network namespace (net_generic(),
 * atomics: no lock on the path that counts), which GET_STATS reports to
 * any opener of that namespace, and to nobody else.
 */
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "stats.h"

atomic64_t rai_stats[RAI_STAT_MAX];
atomic64_t rai_sa_stats[RAI_SA_STAT_MAX];

/* rai_stats_gauges, in the order they were added. */
static DEFINE_MUTEX(rai_stats_gauge_lock);
static LIST_HEAD(rai_stats_gauges);

static const char * const rai_stat_names[RAI_STAT_MAX] = {
	[RAI_STAT_REQUESTS] = "requests",
	[RAI_STAT_COMPLETED] = "completed",
	[RAI_STAT_FAILED] = "failed",
	[RAI_STAT_CANCELLED] = "cancelled",
	[RAI_STAT_EVENTS_DROPPED] = "events_dropped",
	[RAI_STAT_NUMERIC] = "numeric",
	[RAI_STAT_DNS_QUERIES] = "dns_queries",
	[RAI_STAT_DNS_FAILURES] = "dns_failures",
	[RAI_STAT_DNS_TIMEOUTS] = "dns_timeouts",
	[RAI_STAT_DNS_THROTTLED] = "dns_throttled",
	[RAI_STAT_DNS_FALLBACKS] = "dns_fallbacks",
	[RAI_STAT_SRC_SELECTED] = "src_selected",
	[RAI_STAT_SRC_FAILED] = "src_failed",
	[RAI_STAT_DNS_KEYS_FULL] = "dns_keys_full",
	[RAI_STAT_DNS_SINGLE] = "dns_single",
	[RAI_STAT_DNS_VIEW_REFUSED] = "dns_view_refused",
	[RAI_STAT_DNS_CACHE_HITS] = "dns_cache_hits",
	[RAI_STAT_DNS_CACHE_MISSES] = "dns_cache_misses",
	[RAI_STAT_DNS_CACHE_EVICTED] = "dns_cache_evicted",
	[RAI_STAT_DNS_BATCHES] = "dns_batches",
	[RAI_STAT_DNS_BATCH_NAMES] = "dns_batched_names",
	[RAI_STAT_DNS_BATCH_REFUSED] = "dns_batch_refused",
	[RAI_STAT_DNS_REFRESHES] = "dns_refreshes",
	[RAI_STAT_DNS_STALE_KEYS] = "dns_stale_keys",
	[RAI_STAT_RESOLVER_REGISTERED] = "resolver_registered",
	[RAI_STAT_RESOLVER_UNREGISTERED] = "resolver_unregistered",
	[RAI_STAT_RESOLVER_NAMES] = "resolver_names",
	[RAI_STAT_RESOLVER_ANSWERS] = "resolver_answers",
	[RAI_STAT_RESOLVER_STALE] = "resolver_stale",
	[RAI_STAT_RESOLVER_MALFORMED] = "resolver_malformed",
	[RAI_STAT_RESOLVER_FALLBACKS] = "resolver_fallbacks",
	[RAI_STAT_RESOLVER_DEADLINES] = "resolver_deadlines",
};

static const char *const rai_sa_stat_names[RAI_SA_STAT_MAX] = {
	[RAI_SA_STAT_QUERIES] = "queries",
	[RAI_SA_STAT_MADS] = "mads_sent",
	[RAI_SA_STAT_COALESCED] = "coalesced",
	[RAI_SA_STAT_CACHE_HITS] = "cache_hits",
	[RAI_SA_STAT_ANSWERS] = "answers",
	[RAI_SA_STAT_NO_RECORDS] = "no_records",
	[RAI_SA_STAT_TIMEOUTS] = "timeouts",
	[RAI_SA_STAT_MALFORMED] = "malformed",
	[RAI_SA_STAT_REMOTE_ERRORS] = "remote_errors",
	[RAI_SA_STAT_NO_SA] = "no_sa",
	[RAI_SA_STAT_CANCELLED] = "cancelled",
	[RAI_SA_STAT_DEV_REMOVED] = "device_removed",
};

static struct dentry *rai_debugfs_dir;

/**
 * struct rai_stats_net - a network namespace's counters
 * @c: the first RAI_NET_STAT_MAX counters of enum rai_stat
 */
struct rai_stats_net {
	atomic64_t c[RAI_NET_STAT_MAX];
};

static unsigned int rai_stats_net_id;

static struct pernet_operations rai_stats_net_ops = {
	.id = &rai_stats_net_id,
	.size = sizeof(struct rai_stats_net),
};

void rai_stat_inc_net(const struct net *net, enum rai_stat s)
{
	struct rai_stats_net *sn = net_generic(net, rai_stats_net_id);

	BUILD_BUG_ON(RAI_NET_STAT_MAX > RAI_STAT_MAX);
	rai_stat_inc(s);
	if (!WARN_ON_ONCE(s >= RAI_NET_STAT_MAX))
		atomic64_inc(&sn->c[s]);
}

/* @net's counters into @st (its other fields are the caller's). */
void rai_stats_net_read(const struct net *net, struct rdma_addrinfo_stats *st)
{
	struct rai_stats_net *sn = net_generic(net, rai_stats_net_id);

	st->requests = atomic64_read(&sn->c[RAI_STAT_REQUESTS]);
	st->completed = atomic64_read(&sn->c[RAI_STAT_COMPLETED]);
	st->failed = atomic64_read(&sn->c[RAI_STAT_FAILED]);
	st->cancelled = atomic64_read(&sn->c[RAI_STAT_CANCELLED]);
	st->events_dropped = atomic64_read(&sn->c[RAI_STAT_EVENTS_DROPPED]);
	st->numeric = atomic64_read(&sn->c[RAI_STAT_NUMERIC]);
}

void rai_stats_gauge_add(struct rai_stats_gauge *gauge)
{
	mutex_lock(&rai_stats_gauge_lock);
	list_add_tail(&gauge->node, &rai_stats_gauges);
	mutex_unlock(&rai_stats_gauge_lock);
}

/* After this returns, no reader calls @gauge->read any more. */
void rai_stats_gauge_del(struct rai_stats_gauge *gauge)
{
	mutex_lock(&rai_stats_gauge_lock);
	list_del(&gauge->node);
	mutex_unlock(&rai_stats_gauge_lock);
}

/* The module's debugfs directory, for a subsystem's own files (or NULL). */
struct dentry *rai_stats_dir(void)
{
	return rai_debugfs_dir;
}

static int rai_stats_show(struct seq_file *m, void *v)
{
	struct rai_stats_gauge *gauge;
	int i;

	for (i = 0; i < RAI_STAT_MAX; i++)
		seq_printf(m, "%s %lld\n", rai_stat_names[i],
			   (long long)atomic64_read(&rai_stats[i]));
	mutex_lock(&rai_stats_gauge_lock);
	list_for_each_entry(gauge, &rai_stats_gauges, node)
		seq_printf(m, "%s %llu\n", gauge->name,
			   (unsigned long long)gauge->read());
	mutex_unlock(&rai_stats_gauge_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rai_stats);

static int rai_sa_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < RAI_SA_STAT_MAX; i++)
		seq_printf(m, "%s %lld\n", rai_sa_stat_names[i],
			   (long long)atomic64_read(&rai_sa_stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rai_sa_stats);

int rai_stats_init(void)
{
	int ret;

	ret = register_pernet_subsys(&rai_stats_net_ops);
	if (ret)
		return ret;
	/* debugfs is optional: errors are not fatal and need no check. */
	rai_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0444, rai_debugfs_dir, NULL,
			    &rai_stats_fops);
	debugfs_create_file("sa", 0444, rai_debugfs_dir, NULL,
			    &rai_sa_stats_fops);
	return 0;
}

/* Every gauge is removed by now. */
void rai_stats_exit(void)
{
	WARN_ON(!list_empty(&rai_stats_gauges));
	debugfs_remove_recursive(rai_debugfs_dir);
	unregister_pernet_subsys(&rai_stats_net_ops);
}
