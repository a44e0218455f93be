// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the budget of dns_resolver keys the module leaves behind.
 *
 * Every upcall creates dns_resolver keys as root, charged to root's key
 * quota (/proc/key-users), which NFS, CIFS and root's own keys share.
 * They are reaped as soon as they expire (KEY_TYPE_INSTANT_REAP, no
 * key_gc_delay): a positive key after its TTL (our helper's: at least
 * 5 s, see rai_dns_helper_query()), a negative one after the
 * helper's rejection timeout (at most RAI_DNS_NEG_KEY_S assumed: request-
 * key's own and keyutils' is 60 s).  The module keeps a record of each
 * name it asked for that may have left a key, charged to the requesting
 * user until that key expires (a record of a name still being asked for
 * does not expire): at most dns_max_keys in all, of which the last
 * dns_max_keys_host_reserve (at most a quarter) are for the host's
 * callers only, and dns_max_keys_per_user per user and per share above
 * it (a user namespace's as a whole: kernel/user.c).  A name with a live record is answered
 * from the keyring (no new key); a new name beyond a budget fails with
 * -EAGAIN without an upcall; beyond half a budget a positive answer's key
 * is invalidated once read, so it is reaped at once and costs nothing.
 *
 * Locking: rai_dns_key_lock (a spinlock) protects the records (hash,
 * list), rai_dns_nr_keys, rai_dns_key_next_expiry and every share's
 * dns.nr_keys.
 */
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "charge.h"
#include "dns_keys.h"
#include "param.h"
#include "stats.h"
#include "user.h"

static unsigned int rai_dns_max_keys = 1024;
static unsigned int rai_dns_max_keys_per_user = 256;
static unsigned int rai_dns_max_keys_host_reserve = 256;

RAI_PARAM_RANGE(dns_max_keys, 1, 1 << 20);
RAI_PARAM_RANGE(dns_max_keys_per_user, 1, 1 << 20);
RAI_PARAM_RANGE(dns_max_keys_host_reserve, 0, 1 << 20);

module_param_cb(dns_max_keys, &rai_param_ops_dns_max_keys,
		&rai_dns_max_keys, 0644);
MODULE_PARM_DESC(dns_max_keys,
		 "dns_resolver keys (root's key quota) the module may leave behind; beyond: new names fail with EAGAIN (default 1024)");
module_param_cb(dns_max_keys_per_user, &rai_param_ops_dns_max_keys_per_user,
		&rai_dns_max_keys_per_user, 0644);
MODULE_PARM_DESC(dns_max_keys_per_user,
		 "dns_resolver keys one user's requests may leave behind (default 256)");
module_param_cb(dns_max_keys_host_reserve,
		&rai_param_ops_dns_max_keys_host_reserve,
		&rai_dns_max_keys_host_reserve, 0644);
MODULE_PARM_DESC(dns_max_keys_host_reserve,
		 "Of dns_max_keys, how many only callers of the initial user namespace (the host, not its containers) may leave behind, at most dns_max_keys/4 (the lower applies): containers' new names fail with EAGAIN once dns_max_keys minus that many are held (default 256)");

#define RAI_DNS_NEG_KEY_S	60
#define RAI_DNS_KEY_HASH_BITS	8

struct rai_dns_key {
	struct hlist_node hnode;
	struct list_head entry;
	struct rai_user *user;
	const struct net *net;	/* compared, never dereferenced */
	time64_t expiry;
	unsigned int nr;
	u32 len;
	char name[];
};

static DEFINE_SPINLOCK(rai_dns_key_lock);
static DEFINE_HASHTABLE(rai_dns_keys, RAI_DNS_KEY_HASH_BITS);
static LIST_HEAD(rai_dns_key_list);
static unsigned int rai_dns_nr_keys;
static time64_t rai_dns_key_next_expiry;

static void rai_dns_key_drop(struct rai_dns_key *key)
{
	struct rai_user *u;

	lockdep_assert_held(&rai_dns_key_lock);
	hash_del(&key->hnode);
	list_del(&key->entry);
	rai_dns_nr_keys -= key->nr;
	for (u = key->user; u; u = u->parent)
		u->dns.nr_keys -= key->nr;
	rai_user_put(key->user);
	kfree(key);
}

static void rai_dns_key_reap(time64_t now)
{
	struct rai_dns_key *key, *tmp;
	time64_t next = TIME64_MAX;

	lockdep_assert_held(&rai_dns_key_lock);
	if (now < rai_dns_key_next_expiry)
		return;
	list_for_each_entry_safe(key, tmp, &rai_dns_key_list, entry) {
		if (key->expiry <= now)
			rai_dns_key_drop(key);
		else
			next = min(next, key->expiry);
	}
	rai_dns_key_next_expiry = next;
}

static u32 rai_dns_key_hash(const struct net *net, const char *name, u32 len)
{
	return jhash(name, len, (u32)(unsigned long)net);
}

/**
 * rai_dns_key_charge - a record for the keys an upcall of @name may leave
 * @net: the namespace the name is asked in (compared, not referenced)
 * @user: whom the keys are charged to (a reference is taken)
 * @name: the name, @len bytes
 * @len: its length
 * @nr: keys one upcall of it may create
 * @invalidate: set when beyond half a budget (the key is invalidated once
 *	read)
 *
 * Return: NULL when a live record of the name exists (the keyring has its
 * key), else a new record for rai_dns_key_settle(), or ERR_PTR(-EAGAIN)
 * when a budget is spent (-ENOMEM).
 */
struct rai_dns_key *rai_dns_key_charge(const struct net *net,
				       struct rai_user *user, const char *name,
				       u32 len, unsigned int nr,
				       bool *invalidate)
{
	unsigned int max = READ_ONCE(rai_dns_max_keys);
	unsigned int umax = READ_ONCE(rai_dns_max_keys_per_user);
	/* The host's reserve: the last keys are not a container's. */
	unsigned int top = max - (rai_user_in_host(user) ? 0 :
		rai_host_reserve(READ_ONCE(rai_dns_max_keys_host_reserve), max));
	time64_t now = ktime_get_real_seconds();
	u32 hash = rai_dns_key_hash(net, name, len);
	struct rai_dns_key *key, *new;
	bool over = false, half = false;
	struct rai_user *u;

	/* The charge to its requester lasts as long as the record. */
	new = kmalloc(struct_size(new, name, len), RAI_GFP_CALLER);
	if (!new)
		return ERR_PTR(-ENOMEM);
	spin_lock(&rai_dns_key_lock);
	rai_dns_key_reap(now);
	hash_for_each_possible(rai_dns_keys, key, hnode, hash) {
		if (key->net == net && key->len == len &&
		    !memcmp(key->name, name, len) &&
		    key->expiry > now) {
			spin_unlock(&rai_dns_key_lock);
			kfree(new);
			return NULL;
		}
	}
	/* The user's share and every share above it (kernel/user.c). */
	for (u = user; u; u = u->parent) {
		over |= u->dns.nr_keys + nr > umax;
		half |= u->dns.nr_keys + nr > umax / 2;
	}
	if (rai_dns_nr_keys + nr > top || over) {
		spin_unlock(&rai_dns_key_lock);
		kfree(new);
		rai_stat_inc(RAI_STAT_DNS_KEYS_FULL);
		return ERR_PTR(-EAGAIN);
	}
	*invalidate = rai_dns_nr_keys + nr > max / 2 || half;
	new->net = net;
	new->len = len;
	memcpy(new->name, name, len);
	new->nr = nr;
	/*
	 * Never reaped while its upcall runs, however long: the upcall
	 * settles (or drops) this record when it ends.
	 */
	new->expiry = TIME64_MAX;
	refcount_inc(&user->ref);
	new->user = user;
	for (u = user; u; u = u->parent)
		u->dns.nr_keys += nr;
	rai_dns_nr_keys += nr;
	hash_add(rai_dns_keys, &new->hnode, hash);
	list_add_tail(&new->entry, &rai_dns_key_list);
	spin_unlock(&rai_dns_key_lock);
	return new;
}

/*
 * After the upcall of @key's name returned @ret: the record lives as long
 * as the key it stands for (@expiry, the key's; a failure's negative key
 * RAI_DNS_NEG_KEY_S), or goes now when no key was left behind.  @key NULL:
 * nothing to do.
 */
void rai_dns_key_settle(struct rai_dns_key *key, int ret, time64_t expiry,
			bool invalidated)
{
	if (!key)
		return;
	spin_lock(&rai_dns_key_lock);
	if (ret == -EINVAL || (ret >= 0 && invalidated)) {
		rai_dns_key_drop(key);		/* no key left behind */
	} else {
		if (ret < 0)
			expiry = ktime_get_real_seconds() + RAI_DNS_NEG_KEY_S;
		else if (!expiry)
			expiry = TIME64_MAX;	/* a key that never expires */
		key->expiry = expiry;
		rai_dns_key_next_expiry = min(rai_dns_key_next_expiry,
					      key->expiry);
	}
	spin_unlock(&rai_dns_key_lock);
}

/* Keys the records stand for now. */
static u64 rai_dns_keys_charged(void)
{
	return READ_ONCE(rai_dns_nr_keys);
}

static struct rai_stats_gauge rai_dns_keys_gauge = {
	.name = "dns_keys",
	.read = rai_dns_keys_charged,
};

void rai_dns_keys_init(void)
{
	rai_dns_key_next_expiry = TIME64_MAX;
	rai_stats_gauge_add(&rai_dns_keys_gauge);
}

/* No upcall runs any more: every record goes. */
void rai_dns_keys_exit(void)
{
	struct rai_dns_key *key, *tmp;

	spin_lock(&rai_dns_key_lock);
	list_for_each_entry_safe(key, tmp, &rai_dns_key_list, entry)
		rai_dns_key_drop(key);
	spin_unlock(&rai_dns_key_lock);
	rai_stats_gauge_del(&rai_dns_keys_gauge);
}
