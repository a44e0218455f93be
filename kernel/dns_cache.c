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
 * entries: no cache), and shared between tenants: each network namespace
 * and view (struct rai_dns_tenant) has its own list of entries, least
 * recently used first.  Beyond either bound an entry goes: the storing
 * tenant's own least recently used one when it holds more than
 * dns_cache_share percent of either bound, else the least recently used
 * one of the tenant holding the most (entries, or bytes, whichever bound
 * is passed).  A container's resolver that answers its own names by the
 * thousand thus evicts its own entries, never those of a tenant within
 * its share; a tenant loses entries to others only while it holds as
 * much as any of them.  Entries are charged to the memory cgroup of
 * whoever stored them (the resolver's process for a resident resolver's
 * answers).
 *
 * Entries stored from a resident resolver's answers go with it
 * (rai_dns_cache_forget(), from its release): a resolver that registered
 * for the host's view while its slot was free leaves nothing behind.
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
#include <linux/rbtree.h>
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
#include "param.h"
#include "stats.h"

#define RAI_DNS_CACHE_HASH_BITS	10
#define RAI_DNS_TENANT_HASH_BITS	8

static unsigned int rai_dns_cache_entries = 4096;
static unsigned int rai_dns_cache_bytes = 1 << 20;
static unsigned int rai_dns_cache_negative_ttl = 5;
static unsigned int rai_dns_cache_share = 25;

/**
 * struct rai_dns_tenant - the entries of one network namespace and view
 * @hnode: in rai_dns_tenants, by @net_cookie and @view
 * @by_nr: in rai_dns_tenants_by_nr (most entries first)
 * @by_size: in rai_dns_tenants_by_size (most bytes first)
 * @lru: its entries, least recently used first
 * @net_cookie: the network namespace's cookie
 * @view: the view (struct rai_dns_cache_key)
 * @nr: entries on @lru
 * @size: their bytes
 *
 * Made with its first entry, freed with its last (under
 * rai_dns_cache_lock).
 */
struct rai_dns_tenant {
	struct hlist_node hnode;
	struct rb_node by_nr;
	struct rb_node by_size;
	struct list_head lru;
	u64 net_cookie;
	u64 view;
	unsigned int nr;
	size_t size;
};

struct rai_dns_cached {
	struct hlist_node hnode;
	struct list_head lru;	/* in its tenant's, oldest use first */
	struct rai_dns_tenant *tenant;
	const void *source;	/* the resident resolver that answered */
	refcount_t ref;		/* the cache's, and each reader's */
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
static DEFINE_HASHTABLE(rai_dns_tenants, RAI_DNS_TENANT_HASH_BITS);
static struct rb_root_cached rai_dns_tenants_by_nr = RB_ROOT_CACHED;
static struct rb_root_cached rai_dns_tenants_by_size = RB_ROOT_CACHED;
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

/* ---- tenants: who holds how much ----------------------------------------- */

static bool rai_dns_tenant_more_nr(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct rai_dns_tenant, by_nr)->nr >
	       rb_entry(b, struct rai_dns_tenant, by_nr)->nr;
}

static bool rai_dns_tenant_more_size(struct rb_node *a,
				     const struct rb_node *b)
{
	return rb_entry(a, struct rai_dns_tenant, by_size)->size >
	       rb_entry(b, struct rai_dns_tenant, by_size)->size;
}

/* @t gains (@sign 1) or loses (-1) an entry of @size bytes. */
static void rai_dns_tenant_charge(struct rai_dns_tenant *t, int sign,
				  size_t size)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	rb_erase_cached(&t->by_nr, &rai_dns_tenants_by_nr);
	rb_erase_cached(&t->by_size, &rai_dns_tenants_by_size);
	if (sign > 0) {
		t->nr++;
		t->size += size;
		rai_dns_cache_nr++;
		rai_dns_cache_size += size;
	} else {
		t->nr--;
		t->size -= size;
		rai_dns_cache_nr--;
		rai_dns_cache_size -= size;
	}
	rb_add_cached(&t->by_nr, &rai_dns_tenants_by_nr,
		      rai_dns_tenant_more_nr);
	rb_add_cached(&t->by_size, &rai_dns_tenants_by_size,
		      rai_dns_tenant_more_size);
}

static struct rai_dns_tenant *rai_dns_tenant_find(u64 net_cookie, u64 view)
{
	struct rai_dns_tenant *t;

	lockdep_assert_held(&rai_dns_cache_lock);
	hash_for_each_possible(rai_dns_tenants, t, hnode, net_cookie ^ view)
		if (t->net_cookie == net_cookie && t->view == view)
			return t;
	return NULL;
}

/* @fresh (zeroed) becomes the tenant of @net_cookie and @view. */
static void rai_dns_tenant_add(struct rai_dns_tenant *fresh, u64 net_cookie,
			       u64 view)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	fresh->net_cookie = net_cookie;
	fresh->view = view;
	INIT_LIST_HEAD(&fresh->lru);
	hash_add(rai_dns_tenants, &fresh->hnode, net_cookie ^ view);
	rb_add_cached(&fresh->by_nr, &rai_dns_tenants_by_nr,
		      rai_dns_tenant_more_nr);
	rb_add_cached(&fresh->by_size, &rai_dns_tenants_by_size,
		      rai_dns_tenant_more_size);
}

/* A tenant without entries goes. */
static void rai_dns_tenant_drop_empty(struct rai_dns_tenant *t)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	if (t->nr)
		return;
	hash_del(&t->hnode);
	rb_erase_cached(&t->by_nr, &rai_dns_tenants_by_nr);
	rb_erase_cached(&t->by_size, &rai_dns_tenants_by_size);
	kfree(t);
}

/* Does @t hold more than dns_cache_share percent of either bound? */
static bool rai_dns_tenant_over_share(const struct rai_dns_tenant *t)
{
	u64 share = READ_ONCE(rai_dns_cache_share);

	return (u64)t->nr * 100 > READ_ONCE(rai_dns_cache_entries) * share ||
	       (u64)t->size * 100 > READ_ONCE(rai_dns_cache_bytes) * share;
}

/* ---- entries ------------------------------------------------------------- */

/*
 * Out of the cache; readers holding it keep it until they put it.  Its
 * tenant stays, even empty: the caller drops it (rai_dns_tenant_drop_empty()).
 */
static void rai_dns_cache_unlink(struct rai_dns_cached *entry)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	hash_del(&entry->hnode);
	list_del(&entry->lru);
	rai_dns_tenant_charge(entry->tenant, -1, entry->size);
	if (refcount_dec_and_test(&entry->ref))
		kfree(entry);
}

/* Out of the cache, and its tenant too if it was its last entry. */
static void rai_dns_cache_drop(struct rai_dns_cached *entry)
{
	struct rai_dns_tenant *t = entry->tenant;

	rai_dns_cache_unlink(entry);
	rai_dns_tenant_drop_empty(t);
}

static bool rai_dns_cache_over(void)
{
	return rai_dns_cache_nr > READ_ONCE(rai_dns_cache_entries) ||
	       rai_dns_cache_size > READ_ONCE(rai_dns_cache_bytes);
}

/*
 * Whose entry goes while the cache is past a bound: @mine's (the tenant
 * that stores, or NULL) when it is past its share, else the tenant's that
 * holds the most of what is past its bound (entries first).
 */
static struct rai_dns_tenant *rai_dns_cache_victim(struct rai_dns_tenant *mine)
{
	lockdep_assert_held(&rai_dns_cache_lock);
	if (mine && mine->nr && rai_dns_tenant_over_share(mine))
		return mine;
	if (rai_dns_cache_nr > READ_ONCE(rai_dns_cache_entries))
		return rb_entry(rb_first_cached(&rai_dns_tenants_by_nr),
				struct rai_dns_tenant, by_nr);
	return rb_entry(rb_first_cached(&rai_dns_tenants_by_size),
			struct rai_dns_tenant, by_size);
}

/*
 * Within the bounds, each tenant's least recently used entries going
 * first (rai_dns_cache_victim() says whose).  @mine: the tenant that
 * stores, if any; it may lose even the entry it stores.
 */
static void rai_dns_cache_trim(struct rai_dns_tenant *mine)
{
	struct rai_dns_tenant *victim;
	struct rai_dns_cached *entry;

	lockdep_assert_held(&rai_dns_cache_lock);
	while (rai_dns_cache_nr && rai_dns_cache_over()) {
		victim = rai_dns_cache_victim(mine);
		entry = list_first_entry(&victim->lru, struct rai_dns_cached,
					 lru);
		rai_dns_cache_unlink(entry);
		if (!victim->nr && victim == mine)
			mine = NULL;
		rai_dns_tenant_drop_empty(victim);
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
		if (entry->tenant->net_cookie == key->net->net_cookie &&
		    entry->tenant->view == key->view &&
		    entry->helper == key->helper &&
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
		rai_dns_cache_drop(entry);
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
		list_move_tail(&entry->lru, &entry->tenant->lru);
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
	struct rai_dns_tenant *tenant, *fresh = NULL;
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
	/* Charged to whoever stores: a resident resolver's process. */
	entry = kmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!entry)
		return;		/* a cache: the next miss asks again */
	refcount_set(&entry->ref, 1);
	entry->source = key->source;
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
	tenant = rai_dns_tenant_find(key->net->net_cookie, key->view);
	if (!tenant) {
		/* Its first entry: the tenant is made outside the lock. */
		spin_unlock(&rai_dns_cache_lock);
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
		if (!fresh) {
			kfree(entry);
			return;
		}
		spin_lock(&rai_dns_cache_lock);
		tenant = rai_dns_tenant_find(key->net->net_cookie, key->view);
		if (!tenant) {
			tenant = fresh;
			fresh = NULL;
			rai_dns_tenant_add(tenant, key->net->net_cookie,
					   key->view);
		}
	}
	/* The old answer goes after the new one came: the tenant stays. */
	old = rai_dns_cache_find(key, name, len, hash);
	entry->tenant = tenant;
	hash_add(rai_dns_cache, &entry->hnode, hash);
	list_add_tail(&entry->lru, &tenant->lru);
	rai_dns_tenant_charge(tenant, 1, size);
	if (old)
		rai_dns_cache_unlink(old);
	rai_dns_cache_trim(tenant);
	spin_unlock(&rai_dns_cache_lock);
	kfree(fresh);
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
	struct rai_dns_tenant *t;
	struct hlist_node *next;
	unsigned int bkt;

	spin_lock(&rai_dns_cache_lock);
	hash_for_each_safe(rai_dns_tenants, bkt, next, t, hnode) {
		list_for_each_entry_safe(entry, tmp, &t->lru, lru)
			if (!name || (entry->len == len &&
				      !memcmp(entry->name, name, len)))
				rai_dns_cache_unlink(entry);
		rai_dns_tenant_drop_empty(t);
	}
	spin_unlock(&rai_dns_cache_lock);
}

/**
 * rai_dns_cache_forget - drop the answers a resident resolver gave
 * @net: the network namespace it served
 * @view: its view (struct rai_dns_cache_key)
 * @source: the resolver (the @source of its answers' keys)
 *
 * For its release: what it answered is not served after it is gone (in
 * the host's view, its entries would otherwise answer the host's callers
 * for up to a day; in its own view, nothing could find them any more).
 */
void rai_dns_cache_forget(const struct net *net, u64 view, const void *source)
{
	struct rai_dns_cached *entry, *tmp;
	struct rai_dns_tenant *t;

	spin_lock(&rai_dns_cache_lock);
	t = rai_dns_tenant_find(net->net_cookie, view);
	if (t) {
		list_for_each_entry_safe(entry, tmp, &t->lru, lru)
			if (entry->source == source)
				rai_dns_cache_unlink(entry);
		rai_dns_tenant_drop_empty(t);
	}
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
	rai_dns_cache_trim(NULL);
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
RAI_PARAM_RANGE(dns_cache_share, 1, 100);
module_param_cb(dns_cache_share, &rai_param_ops_dns_cache_share,
		&rai_dns_cache_share, 0644);
MODULE_PARM_DESC(dns_cache_share,
		 "Percent of dns_cache_entries and dns_cache_bytes one network namespace and view keeps when others need room; past it its own oldest entries go first (default 25)");
module_param_named(dns_cache_negative_ttl, rai_dns_cache_negative_ttl, uint,
		   0644);
MODULE_PARM_DESC(dns_cache_negative_ttl,
		 "Seconds a name that does not exist (NXDOMAIN, no address) is answered from the cache; 0: not cached (default 5)");

/* ---- debugfs ---------------------------------------------------------------- */

static int rai_dns_cache_show(struct seq_file *m, void *v)
{
	time64_t now = ktime_get_real_seconds();
	struct rai_dns_cached *entry;
	struct rai_dns_tenant *t;
	unsigned int bkt;

	spin_lock(&rai_dns_cache_lock);
	seq_printf(m, "# %u entries, %zu bytes\n", rai_dns_cache_nr,
		   rai_dns_cache_size);
	hash_for_each(rai_dns_tenants, bkt, t, hnode) {
		list_for_each_entry(entry, &t->lru, lru) {
			if (entry->answer.expiry <= now)
				continue;	/* dropped by the next look */
			seq_printf(m, "%s %llu %d %d %u %lld %u %llu\n",
				   entry->name, t->net_cookie, entry->helper,
				   entry->answer.status, entry->answer.origin,
				   entry->answer.expiry - now, entry->hits,
				   t->view);
		}
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
