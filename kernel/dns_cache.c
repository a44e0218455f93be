// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the module's cache of DNS answers.
 *
 * A name answered by an upcall is answered again from here, inside the
 * RESOLVE ioctl, until the answer expires: no workqueue, no upcall slot,
 * no keyring search.  An entry is found by the network namespace of the
 * request (its cookie: a namespace freed and another allocated at the
 * same address never share entries), the view it was answered from (the
 * host's, or a resident resolver's: kernel/dns_resident.c), whether our
 * helper or a resolver was asked (their answers list every address,
 * key.dns_resolver's one) and the name.
 *
 * Positive answers live as long as the dns_resolver key they came from
 * (the helper's TTL), so a name answered from here is never older than one
 * answered from the keyring.  A positive answer asked for after half its
 * TTL is refreshed ahead of its expiry (kernel/dns.c): a name in use is
 * always answered from here.  Negative answers (-ENXIO, -ENODATA) live
 * dns_cache_negative_ttl seconds; temporary failures are not cached.
 *
 * The cache is bounded by dns_cache_entries and dns_cache_bytes (0
 * entries: no cache); beyond either the least recently used entries go.
 * <debugfs>/rdma_addrinfo/dns_cache lists the entries ("name netns helper
 * status origin ttl hits view"); writing a name to it flushes that name (in
 * every namespace), writing an empty line flushes everything.
 */
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>

#include "addr.h"
#include "dns_cache.h"
#include "stats.h"

#define RAI_DNS_CACHE_HASH_BITS	10

static unsigned int rai_dns_cache_entries = 4096;
static unsigned int rai_dns_cache_bytes = 1 << 20;
static unsigned int rai_dns_cache_negative_ttl = 5;

struct rai_dns_cached {
	struct hlist_node hnode;
	struct list_head lru;	/* oldest use first */
	refcount_t ref;		/* the cache's, and each reader's */
	u64 net_cookie;
	u64 view;
	bool helper;
	bool refreshing;	/* a refresh was asked for */
	time64_t stored;	/* real time it was stored */
	u32 hits;
	size_t size;		/* charged to dns_cache_bytes */
	struct rai_dns_answer answer;
	u32 len;
	char name[];		/* NUL-terminated; then answer.addrs, canon */
};

static DEFINE_SPINLOCK(rai_dns_cache_lock);
static DEFINE_HASHTABLE(rai_dns_cache, RAI_DNS_CACHE_HASH_BITS);
static LIST_HEAD(rai_dns_cache_lru);
static unsigned int rai_dns_cache_nr;
static size_t rai_dns_cache_size;
static struct dentry *rai_dns_cache_file;

static u32 rai_dns_cache_hash(const struct rai_dns_cache_key *key,
			      const char *name, u32 len)
{
	u64 cookie = key->net->net_cookie ^ key->view;

	return jhash(name, len, (u32)cookie ^ (u32)(cookie >> 32) ^ key->helper);
}

void rai_dns_cache_put(struct rai_dns_cached *entry)
{
	if (entry && refcount_dec_and_test(&entry->ref))
		kfree(entry);
}

/* Out of the cache; readers holding it keep it until they put it. */
static void rai_dns_cache_unlink(struct rai_dns_cached *entry)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	hash_del(&entry->hnode);
	list_del(&entry->lru);
	rai_dns_cache_nr--;
	rai_dns_cache_size -= entry->size;
	if (refcount_dec_and_test(&entry->ref))
		kfree(entry);
}

/* Within the bounds, the least recently used going first. */
static void rai_dns_cache_trim(void)
{
	struct rai_dns_cached *entry;

	lockdep_assert_held(&rai_dns_cache_lock);
	while (!list_empty(&rai_dns_cache_lru) &&
	       (rai_dns_cache_nr > READ_ONCE(rai_dns_cache_entries) ||
		rai_dns_cache_size > READ_ONCE(rai_dns_cache_bytes))) {
		entry = list_first_entry(&rai_dns_cache_lru,
					 struct rai_dns_cached, lru);
		rai_dns_cache_unlink(entry);
		rai_stat_inc(RAI_STAT_DNS_CACHE_EVICTED);
	}
}

static struct rai_dns_cached *
rai_dns_cache_find(const struct rai_dns_cache_key *key, const char *name,
		   u32 len, u32 hash)
{
	struct rai_dns_cached *entry;

	lockdep_assert_held(&rai_dns_cache_lock);
	hash_for_each_possible(rai_dns_cache, entry, hnode, hash)
		if (entry->net_cookie == key->net->net_cookie &&
		    entry->view == key->view && entry->helper == key->helper &&
		    entry->len == len && !memcmp(entry->name, name, len))
			return entry;
	return NULL;
}

/*
 * The live answer for @name, referenced (rai_dns_cache_put() when done
 * with @answer), or NULL.  @count: a request's first look (statistics).
 * @refresh, if set: true for the first look at an answer with addresses
 * that has lived half its TTL (the caller asks for it again, so that a
 * name in use never expires); false otherwise.
 */
struct rai_dns_cached *rai_dns_cache_get(const struct rai_dns_cache_key *key,
					 const char *name, u32 len, bool count,
					 struct rai_dns_answer *answer,
					 bool *refresh)
{
	time64_t now = ktime_get_real_seconds();
	u32 hash = rai_dns_cache_hash(key, name, len);
	struct rai_dns_cached *entry;

	if (refresh)
		*refresh = false;
	spin_lock(&rai_dns_cache_lock);
	entry = rai_dns_cache_find(key, name, len, hash);
	if (entry && entry->answer.expiry <= now) {
		rai_dns_cache_unlink(entry);
		entry = NULL;
	}
	if (entry && refresh && !entry->answer.status && !entry->refreshing &&
	    (entry->answer.expiry - now) * 2 <=
	    entry->answer.expiry - entry->stored) {
		entry->refreshing = true;
		*refresh = true;
	}
	if (entry) {
		entry->hits++;
		list_move_tail(&entry->lru, &rai_dns_cache_lru);
		refcount_inc(&entry->ref);
		*answer = entry->answer;
	}
	spin_unlock(&rai_dns_cache_lock);
	if (count || entry)
		rai_stat_inc(entry ? RAI_STAT_DNS_CACHE_HITS :
			     RAI_STAT_DNS_CACHE_MISSES);
	return entry;
}

/*
 * Keep @answer for @name, replacing what was there: a copy, its addresses
 * after the name (aligned for them) and its canonical name after them, so
 * that one kfree() frees it all.
 */
void rai_dns_cache_store(const struct rai_dns_cache_key *key,
			 const char *name, u32 len,
			 const struct rai_dns_answer *answer)
{
	size_t addrs_off = ALIGN(offsetof(struct rai_dns_cached, name) +
				 len + 1, __alignof__(union rai_sockaddr));
	u32 nr = answer->status ? 0 : answer->nr;
	u32 hash = rai_dns_cache_hash(key, name, len);
	struct rai_dns_cached *entry, *old;
	size_t size, canon_off, canon_len = 0;

	if (!READ_ONCE(rai_dns_cache_entries) ||
	    answer->expiry <= ktime_get_real_seconds())
		return;
	if (nr && answer->canon)
		canon_len = strlen(answer->canon) + 1;
	canon_off = addrs_off + array_size(nr, sizeof(union rai_sockaddr));
	size = size_add(canon_off, canon_len);
	if (size > READ_ONCE(rai_dns_cache_bytes))
		return;
	entry = kmalloc(size, GFP_KERNEL);
	if (!entry)
		return;		/* a cache: the next miss asks again */
	refcount_set(&entry->ref, 1);
	entry->net_cookie = key->net->net_cookie;
	entry->view = key->view;
	entry->helper = key->helper;
	entry->refreshing = false;
	entry->stored = ktime_get_real_seconds();
	entry->hits = 0;
	entry->size = size;
	entry->len = len;
	memcpy(entry->name, name, len);
	entry->name[len] = '\0';
	entry->answer = *answer;
	entry->answer.nr = nr;
	entry->answer.addrs = NULL;
	entry->answer.canon = NULL;
	if (nr) {
		entry->answer.addrs = (void *)entry + addrs_off;
		memcpy(entry->answer.addrs, answer->addrs,
		       nr * sizeof(union rai_sockaddr));
	}
	if (canon_len) {
		entry->answer.canon = (char *)entry + canon_off;
		memcpy(entry->answer.canon, answer->canon, canon_len);
	}

	spin_lock(&rai_dns_cache_lock);
	old = rai_dns_cache_find(key, name, len, hash);
	if (old)
		rai_dns_cache_unlink(old);
	hash_add(rai_dns_cache, &entry->hnode, hash);
	list_add_tail(&entry->lru, &rai_dns_cache_lru);
	rai_dns_cache_nr++;
	rai_dns_cache_size += size;
	rai_dns_cache_trim();
	spin_unlock(&rai_dns_cache_lock);
}

/**
 * rai_dns_cache_remember - keep what a resolver answered for @name
 * @key: whose answer it is
 * @name: the name
 * @len: its length
 * @answer: addresses, or that there are none (-ENXIO, -ENODATA: kept
 *	dns_cache_negative_ttl seconds, whatever TTL came with them);
 *	temporary failures are not kept
 */
void rai_dns_cache_remember(const struct rai_dns_cache_key *key,
			    const char *name, u32 len,
			    const struct rai_dns_answer *answer)
{
	struct rai_dns_answer negative;

	if (answer->status == -ENXIO || answer->status == -ENODATA) {
		negative = *answer;
		negative.expiry = ktime_get_real_seconds() +
				  READ_ONCE(rai_dns_cache_negative_ttl);
		answer = &negative;
	} else if (answer->status) {
		return;
	}
	/* rai_dns_cache_store() keeps nothing without a lifetime left. */
	rai_dns_cache_store(key, name, len, answer);
}

/* Every entry of @name (NULL: every entry), in every namespace. */
static void rai_dns_cache_flush(const char *name, size_t len)
{
	struct rai_dns_cached *entry, *tmp;

	spin_lock(&rai_dns_cache_lock);
	list_for_each_entry_safe(entry, tmp, &rai_dns_cache_lru, lru)
		if (!name || (entry->len == len &&
			      !memcmp(entry->name, name, len)))
			rai_dns_cache_unlink(entry);
	spin_unlock(&rai_dns_cache_lock);
}

/* ---- bounds: lowering one trims at once ---------------------------------- */

static int rai_dns_cache_param_set(const char *val,
				   const struct kernel_param *kp)
{
	int ret = param_set_uint(val, kp);

	if (ret)
		return ret;
	spin_lock(&rai_dns_cache_lock);
	rai_dns_cache_trim();
	spin_unlock(&rai_dns_cache_lock);
	return 0;
}

static const struct kernel_param_ops rai_dns_cache_param_ops = {
	.set = rai_dns_cache_param_set,
	.get = param_get_uint,
};

module_param_cb(dns_cache_entries, &rai_dns_cache_param_ops,
		&rai_dns_cache_entries, 0644);
MODULE_PARM_DESC(dns_cache_entries,
		 "DNS answers the module keeps; 0: none (default 4096)");
module_param_cb(dns_cache_bytes, &rai_dns_cache_param_ops,
		&rai_dns_cache_bytes, 0644);
MODULE_PARM_DESC(dns_cache_bytes,
		 "Kernel memory the kept DNS answers may use (default 1 MiB)");
module_param_named(dns_cache_negative_ttl, rai_dns_cache_negative_ttl, uint,
		   0644);
MODULE_PARM_DESC(dns_cache_negative_ttl,
		 "Seconds a name that does not exist (NXDOMAIN, no address) is answered from the cache; 0: not cached (default 5)");

/* ---- debugfs ---------------------------------------------------------------- */

static int rai_dns_cache_show(struct seq_file *m, void *v)
{
	time64_t now = ktime_get_real_seconds();
	struct rai_dns_cached *entry;

	spin_lock(&rai_dns_cache_lock);
	seq_printf(m, "# %u entries, %zu bytes\n", rai_dns_cache_nr,
		   rai_dns_cache_size);
	list_for_each_entry(entry, &rai_dns_cache_lru, lru) {
		if (entry->answer.expiry <= now)
			continue;	/* dropped by the next look */
		seq_printf(m, "%s %llu %d %d %u %lld %u %llu\n", entry->name,
			   entry->net_cookie, entry->helper,
			   entry->answer.status, entry->answer.origin,
			   entry->answer.expiry - now, entry->hits,
			   entry->view);
	}
	spin_unlock(&rai_dns_cache_lock);
	return 0;
}

static int rai_dns_cache_open(struct inode *inode, struct file *file)
{
	return single_open(file, rai_dns_cache_show, NULL);
}

static ssize_t rai_dns_cache_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	char name[256];
	size_t len = count;

	if (len >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, buf, len))
		return -EFAULT;
	if (len && name[len - 1] == '\n')
		len--;
	rai_dns_cache_flush(len ? name : NULL, len);
	return count;
}

static const struct file_operations rai_dns_cache_fops = {
	.owner = THIS_MODULE,
	.open = rai_dns_cache_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = rai_dns_cache_write,
};

/* Entries and bytes kept now (the stats file's gauges). */
static u64 rai_dns_cache_entries_now(void)
{
	return READ_ONCE(rai_dns_cache_nr);
}

static u64 rai_dns_cache_bytes_now(void)
{
	return READ_ONCE(rai_dns_cache_size);
}

static struct rai_stats_gauge rai_dns_cache_gauges[] = {
	{ .name = "dns_cache_entries", .read = rai_dns_cache_entries_now },
	{ .name = "dns_cache_bytes", .read = rai_dns_cache_bytes_now },
};

/* After rai_stats_init(): the file goes beside the counters. */
void rai_dns_cache_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rai_dns_cache_gauges); i++)
		rai_stats_gauge_add(&rai_dns_cache_gauges[i]);
	rai_dns_cache_file = debugfs_create_file("dns_cache", 0600,
						 rai_stats_dir(), NULL,
						 &rai_dns_cache_fops);
}

/* No request is left: nobody holds an entry. */
void rai_dns_cache_exit(void)
{
	unsigned int i;

	debugfs_remove(rai_dns_cache_file);
	for (i = 0; i < ARRAY_SIZE(rai_dns_cache_gauges); i++)
		rai_stats_gauge_del(&rai_dns_cache_gauges[i]);
	rai_dns_cache_flush(NULL, 0);
}
