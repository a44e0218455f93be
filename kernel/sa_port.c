// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the ports of the SA client: a GSI MAD agent per port of
 * every RDMA device (ib_client add/remove), the address of each port's SA
 * (kept up to date through port events), and the answers cached per port.
 * The queries are in sa_client.c; the interface between the two, and the
 * lock they share, in sa_port.h.
 *
 * Objects: rai_sa_dev/rai_sa_port, one per RDMA device / port, from the
 * ib_client add callback to remove; rai_sa_ah, the SA's address as a port
 * last built it; rai_sa_cache_ent, a cached answer.
 *
 * Where the SA is:
 *  - InfiniBand link layer: the SA lives at the port's SM (PortInfo
 *    SMLID/SMSL), QP1 of that LID; rai_sa_build_ib_ah().  Port, LID,
 *    P_Key, GID, SM change and client-reregister events forget the
 *    address (rai_sa_event()); the next query looks it up again.
 *  - RoCE: there is no SM, hence no SA, unless module parameter sa_gid
 *    names one (an IPv6 address, or an IPv4 address for a RoCEv2/IPv4
 *    GID); it is reached from the RoCEv2 GID of the port that matches it
 *    best; rai_sa_build_roce_ah().  Empty: the port has no SA
 *    (-EHOSTUNREACH).
 *
 * Locking: rai_sa_rwsem as sa_port.h says; rai_sa_port_lock protects the
 * ports' AH pointers, generations, dead flags and caches (never taken in
 * interrupt context; sa_client.c may hold its own lock around it);
 * port->ah_mutex serialises building an address handle.  MAD layer
 * callbacks, event handlers and work items all run in process context.
 */
#include <linux/err.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "param.h"
#include "sa_port.h"
#include "sa_wire.h"

/* ---- parameters ------------------------------------------------------- */

static DEFINE_SPINLOCK(rai_sa_param_lock);
static char rai_sa_gid_str[INET6_ADDRSTRLEN];	/* as written */
static struct in6_addr rai_sa_gid;		/* parsed; zero: none */
static atomic_t rai_sa_gid_gen = ATOMIC_INIT(0);

static unsigned int rai_sa_cache_ttl_ms = 30000;
static unsigned int rai_sa_cache_max = 256;

static int rai_sa_parse_gid(const char *s, struct in6_addr *gid)
{
	const char *end;
	__be32 v4;

	if (in6_pton(s, -1, gid->s6_addr, -1, &end) > 0 && !*end)
		return 0;
	if (in4_pton(s, -1, (u8 *)&v4, -1, &end) > 0 && !*end) {
		ipv6_addr_set_v4mapped(v4, gid);
		return 0;
	}
	return -EINVAL;
}

static int rai_sa_gid_param_set(const char *val, const struct kernel_param *kp)
{
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr gid = {};
	char *s;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	s = strim(buf);
	if (*s && rai_sa_parse_gid(s, &gid))
		return -EINVAL;
	spin_lock(&rai_sa_param_lock);
	strscpy(rai_sa_gid_str, s, sizeof(rai_sa_gid_str));
	rai_sa_gid = gid;
	spin_unlock(&rai_sa_param_lock);
	/* Ports compare generations and rebuild their AH and cache. */
	atomic_inc(&rai_sa_gid_gen);
	return 0;
}

static int rai_sa_gid_param_get(char *buf, const struct kernel_param *kp)
{
	int n;

	spin_lock(&rai_sa_param_lock);
	n = sysfs_emit(buf, "%s\n", rai_sa_gid_str);
	spin_unlock(&rai_sa_param_lock);
	return n;
}

static const struct kernel_param_ops rai_sa_gid_param_ops = {
	.set = rai_sa_gid_param_set,
	.get = rai_sa_gid_param_get,
};

module_param_cb(sa_gid, &rai_sa_gid_param_ops, NULL, 0644);
MODULE_PARM_DESC(sa_gid,
		 "GID (IPv6 or IPv4 address) of the SA for RoCE ports; empty: RoCE ports have no SA (default empty)");
RAI_PARAM_RANGE(sa_cache_ttl_ms, 0, 86400000);
RAI_PARAM_RANGE(sa_cache_max, 1, 1 << 20);

module_param_cb(sa_cache_ttl_ms, &rai_param_ops_sa_cache_ttl_ms,
		&rai_sa_cache_ttl_ms, 0644);
__MODULE_PARM_TYPE(sa_cache_ttl_ms, "uint");
MODULE_PARM_DESC(sa_cache_ttl_ms,
		 "Lifetime of cached SA answers, dropped earlier on SM/port events; 0: no cache (0-86400000; default 30000)");
module_param_cb(sa_cache_max, &rai_param_ops_sa_cache_max,
		&rai_sa_cache_max, 0644);
__MODULE_PARM_TYPE(sa_cache_max, "uint");
MODULE_PARM_DESC(sa_cache_max,
		 "Cached SA answers per port at most (1-1048576; default 256)");

/* ---- objects ---------------------------------------------------------- */

struct rai_sa_cache_ent {
	struct list_head node;
	unsigned long expires;
	struct rai_sa_result *res;
	struct rai_sa_req req;
};

struct rai_sa_dev {
	struct list_head node;
	struct ib_device *ibdev;
	struct ib_event_handler event_handler;
	u32 start_port;
	u32 end_port;
	struct rai_sa_port port[];
};

DECLARE_RWSEM(rai_sa_rwsem);
static LIST_HEAD(rai_sa_devs);
static DEFINE_SPINLOCK(rai_sa_port_lock);
static const struct rai_sa_port_client *rai_sa_port_client;

static void rai_sa_ah_release(struct kref *ref)
{
	struct rai_sa_ah *ah = container_of(ref, struct rai_sa_ah, ref);

	rdma_destroy_ah(ah->ah, 0);
	kfree(ah);
}

void rai_sa_ah_put(struct rai_sa_ah *ah)
{
	if (ah)
		kref_put(&ah->ref, rai_sa_ah_release);
}

static void rai_sa_result_release(struct kref *ref)
{
	kvfree(container_of(ref, struct rai_sa_result, ref));
}

void rai_sa_result_put(struct rai_sa_result *res)
{
	if (res)
		kref_put(&res->ref, rai_sa_result_release);
}

/* ---- the cache -------------------------------------------------------- */

/*
 * Each port keeps the successful answers of its SA for sa_cache_ttl_ms
 * (0: no cache), at most sa_cache_max of them, oldest first.  The key is
 * the request's bytes (struct rai_sa_req): a query with the same bytes on
 * the same port gets the same records.  Only answers that came from the
 * SA are cached (never errors, never a cache hit again), and only under
 * the generation of the port they were asked in: every port event that
 * may change the SA, and a new sa_gid, drop the whole cache
 * (rai_sa_port_reset(), rai_sa_get_ah()).  Entries are taken off the list
 * under rai_sa_port_lock and freed after it (rai_sa_cache_free_list()).
 */

void rai_sa_cache_free_list(struct list_head *list)
{
	struct rai_sa_cache_ent *e, *tmp;

	list_for_each_entry_safe(e, tmp, list, node) {
		list_del(&e->node);
		rai_sa_result_put(e->res);
		kfree(e);
	}
}

/* A cached answer to @req, referenced, or NULL. */
struct rai_sa_result *rai_sa_cache_get(struct rai_sa_port *port,
				       const struct rai_sa_req *req)
{
	struct rai_sa_result *res = NULL;
	struct rai_sa_cache_ent *e;

	if (!READ_ONCE(rai_sa_cache_ttl_ms))
		return NULL;
	spin_lock(&rai_sa_port_lock);
	list_for_each_entry(e, &port->cache, node) {
		if (memcmp(&e->req, req, sizeof(*req)))
			continue;
		/* Expired: left for the next insertion to drop. */
		if (time_before(jiffies, e->expires)) {
			res = e->res;
			kref_get(&res->ref);
		}
		break;
	}
	spin_unlock(&rai_sa_port_lock);
	return res;
}

/*
 * Insert @e, moving replaced and evicted entries to @old (under
 * rai_sa_port_lock).
 */
static void rai_sa_cache_insert(struct rai_sa_port *port,
				struct rai_sa_cache_ent *e,
				struct list_head *old)
{
	struct rai_sa_cache_ent *c, *tmp;

	lockdep_assert_held(&rai_sa_port_lock);
	/* The answer @e replaces, and every expired one, go. */
	list_for_each_entry_safe(c, tmp, &port->cache, node) {
		if (memcmp(&c->req, &e->req, sizeof(e->req)) &&
		    time_before(jiffies, c->expires))
			continue;
		list_move(&c->node, old);
		port->ncache--;
	}
	list_add_tail(&e->node, &port->cache);
	port->ncache++;
	/* Over sa_cache_max (read once per call, at least 1): oldest first. */
	while (port->ncache > max(READ_ONCE(rai_sa_cache_max), 1U)) {
		list_move(port->cache.next, old);
		port->ncache--;
	}
}

/* An entry for @res, the answer to @req; NULL: no cache (or no memory). */
struct rai_sa_cache_ent *rai_sa_cache_ent_alloc(const struct rai_sa_req *req,
						struct rai_sa_result *res)
{
	unsigned int ttl = READ_ONCE(rai_sa_cache_ttl_ms);
	struct rai_sa_cache_ent *ent;

	if (!ttl)
		return NULL;
	ent = kmalloc(sizeof(*ent), GFP_KERNEL);
	if (ent) {
		ent->req = *req;
		ent->res = res;
		kref_get(&res->ref);
		ent->expires = jiffies + msecs_to_jiffies(ttl);
	}
	return ent;
}

/*
 * Cache @ent, an answer of generation @gen, unless the port has moved on
 * (or is going): then, and for entries it replaces or evicts, moved to
 * @old for rai_sa_cache_free_list().
 */
void rai_sa_cache_add(struct rai_sa_port *port, struct rai_sa_cache_ent *ent,
		      u32 gen, struct list_head *old)
{
	spin_lock(&rai_sa_port_lock);
	if (gen == port->gen && !port->dead)
		rai_sa_cache_insert(port, ent, old);
	else
		list_add(&ent->node, old);
	spin_unlock(&rai_sa_port_lock);
}

/* ---- SA address ------------------------------------------------------- */

/*
 * Forget the AH and the cache: the SA may have changed.  The new
 * generation also keeps ops in flight from being joined by new queries
 * (sa_client.c compares it) and their answers out of the cache.
 */
static void rai_sa_port_reset(struct rai_sa_port *port)
{
	struct rai_sa_ah *ah;
	LIST_HEAD(old);

	spin_lock(&rai_sa_port_lock);
	ah = port->ah;
	port->ah = NULL;
	port->gen++;
	list_splice_init(&port->cache, &old);
	port->ncache = 0;
	spin_unlock(&rai_sa_port_lock);
	rai_sa_ah_put(ah);
	rai_sa_cache_free_list(&old);
}

/* Only the AH (after a timeout or a send error; neighbours move). */
void rai_sa_port_forget_ah(struct rai_sa_port *port, struct rai_sa_ah *bad)
{
	struct rai_sa_ah *ah = NULL;

	spin_lock(&rai_sa_port_lock);
	if (port->ah == bad) {
		ah = port->ah;
		port->ah = NULL;
	}
	spin_unlock(&rai_sa_port_lock);
	rai_sa_ah_put(ah);
}

/* The SA of an InfiniBand port: QP1 at the SM's LID, with the SM's SL. */
static int rai_sa_build_ib_ah(struct rai_sa_port *port, struct rai_sa_ah *ah)
{
	struct ib_device *ibdev = port->dev->ibdev;
	struct ib_port_attr attr;
	struct rdma_ah_attr ah_attr = {};
	int ret;

	ret = ib_query_port(ibdev, port->port_num, &attr);
	if (ret)
		return ret;
	/* No SM yet (LID 0), or a multicast LID: there is no SA to ask. */
	if (attr.state != IB_PORT_ACTIVE || !attr.sm_lid ||
	    attr.sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return -EHOSTUNREACH;
	/*
	 * SA MADs go out with the full default P_Key (0xffff, IBA 15.4.2),
	 * index 0 if the table lacks it; the GSI Q_Key and QP1 are the MAD
	 * layer's.  Our GID facing the SA is GID 0 of the port.
	 */
	if (ib_find_pkey(ibdev, port->port_num, IB_DEFAULT_PKEY_FULL,
			 &ah->pkey_index))
		ah->pkey_index = 0;
	ret = rdma_query_gid(ibdev, port->port_num, 0, &ah->sgid);
	if (ret)
		return ret;
	ah_attr.type = rdma_ah_find_type(ibdev, port->port_num);
	rdma_ah_set_dlid(&ah_attr, attr.sm_lid);
	rdma_ah_set_sl(&ah_attr, attr.sm_sl);
	rdma_ah_set_port_num(&ah_attr, port->port_num);
	/* Where the port requires a GRH: to the SA's well-known GUID. */
	if (rdma_is_grh_required(ibdev, port->port_num)) {
		rdma_ah_set_ah_flags(&ah_attr, IB_AH_GRH);
		rdma_ah_set_subnet_prefix(&ah_attr,
					  cpu_to_be64(attr.subnet_prefix));
		rdma_ah_set_interface_id(&ah_attr,
					 cpu_to_be64(IB_SA_WELL_KNOWN_GUID));
	}
	ah->ah = rdma_create_ah(port->agent->qp->pd, &ah_attr,
				RDMA_CREATE_AH_SLEEPABLE);
	return PTR_ERR_OR_ZERO(ah->ah);
}

/*
 * The RoCEv2 GID of the port to reach @sa from: same kind (IPv4-mapped or
 * not), the longest prefix in common, link-local only for a link-local SA.
 */
static int rai_sa_pick_sgid(struct rai_sa_port *port,
			    const struct in6_addr *sa, union ib_gid *sgid)
{
	struct ib_device *ibdev = port->dev->ibdev;
	bool sa_v4 = ipv6_addr_v4mapped(sa);
	bool sa_ll = ipv6_addr_type(sa) & IPV6_ADDR_LINKLOCAL;
	struct ib_port_attr attr;
	int best = -1, best_score = -1, i;

	if (ib_query_port(ibdev, port->port_num, &attr))
		return -EHOSTUNREACH;
	for (i = 0; i < attr.gid_tbl_len; i++) {
		const struct ib_gid_attr *ga;
		const struct in6_addr *g;
		int score;

		ga = rdma_get_gid_attr(ibdev, port->port_num, i);
		if (IS_ERR(ga))
			continue;
		g = (const struct in6_addr *)ga->gid.raw;
		if (ga->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
		    ipv6_addr_v4mapped(g) != sa_v4 ||
		    !!(ipv6_addr_type(g) & IPV6_ADDR_LINKLOCAL) != sa_ll) {
			rdma_put_gid_attr(ga);
			continue;
		}
		score = ipv6_addr_diff(g, sa);
		if (score > best_score) {
			best = i;
			best_score = score;
			*sgid = ga->gid;
		}
		rdma_put_gid_attr(ga);
	}
	return best;
}

/*
 * The SA of a RoCE port: sa_gid, reached with a GRH (hop limit 64, flow
 * label and traffic class 0) from the port's RoCEv2 GID that matches it
 * best, P_Key index 0.  Prefer IPv6 GIDs: with IPv4-mapped ones the MAD
 * layer of 6.1 drops the responses (rcv_has_same_gid() compares the raw
 * GRH area, which RoCEv2/IPv4 leaves partly undefined).
 */
static int rai_sa_build_roce_ah(struct rai_sa_port *port,
				struct rai_sa_ah *ah)
{
	struct ib_device *ibdev = port->dev->ibdev;
	struct rdma_ah_attr ah_attr = {};
	union ib_gid dgid;
	struct in6_addr sa;
	int idx;

	spin_lock(&rai_sa_param_lock);
	sa = rai_sa_gid;
	spin_unlock(&rai_sa_param_lock);
	if (ipv6_addr_any(&sa))
		return -EHOSTUNREACH;
	idx = rai_sa_pick_sgid(port, &sa, &ah->sgid);
	if (idx < 0)
		return -EHOSTUNREACH;
	memcpy(dgid.raw, sa.s6_addr, sizeof(dgid.raw));
	ah->pkey_index = 0;
	ah_attr.type = rdma_ah_find_type(ibdev, port->port_num);
	rdma_ah_set_port_num(&ah_attr, port->port_num);
	rdma_ah_set_grh(&ah_attr, &dgid, 0, idx, 64, 0);
	/* Resolves the destination MAC, which rdma_create_ah() does not. */
	ah->ah = rdma_create_user_ah(port->agent->qp->pd, &ah_attr, NULL);
	return PTR_ERR_OR_ZERO(ah->ah);
}

/*
 * Builds of an SA address undone by port events before one is kept
 * (rai_sa_get_ah()).
 */
#define RAI_SA_AH_TRIES		3

/* A new address of the port's SA, by the port's link layer. */
static int rai_sa_build_ah(struct rai_sa_port *port, struct rai_sa_ah **ahp)
{
	struct rai_sa_ah *ah;
	int ret;

	ah = kzalloc(sizeof(*ah), GFP_KERNEL);
	if (!ah)
		return -ENOMEM;
	kref_init(&ah->ref);
	if (rdma_cap_ib_sa(port->dev->ibdev, port->port_num))
		ret = rai_sa_build_ib_ah(port, ah);
	else if (rdma_protocol_roce(port->dev->ibdev, port->port_num))
		ret = rai_sa_build_roce_ah(port, ah);
	else
		ret = -EHOSTUNREACH;
	if (ret) {
		kfree(ah);
		/* No SA on this port; EHOSTUNREACH for any failure. */
		return ret == -ENOMEM ? ret : -EHOSTUNREACH;
	}
	*ahp = ah;
	return 0;
}

/*
 * A reference to the port's current SA address handle, built if needed.
 * The port's state is read while building without rai_sa_port_lock: a port
 * event in between makes the new address stale, and it is built again
 * (rai_sa_addr_install()).  Should events keep coming, the last one built
 * serves this query only, under the generation it was built for, so that
 * its answer is never cached under a newer one.  Under rai_sa_rwsem (read),
 * which keeps @port alive.
 */
struct rai_sa_ah *rai_sa_get_ah(struct rai_sa_port *port, u32 *gen)
{
	enum rai_sa_addr_verdict verdict;
	struct rai_sa_ah *ah, *old = NULL;
	struct rai_sa_addr_gen st;
	int gid_gen, tries, ret;
	LIST_HEAD(stale);
	u32 built_gen;

	lockdep_assert_held(&rai_sa_rwsem);
	mutex_lock(&port->ah_mutex);
	for (tries = 1; ; tries++) {
		gid_gen = atomic_read(&rai_sa_gid_gen);
		spin_lock(&rai_sa_port_lock);
		ah = port->ah;
		if (ah && port->ah_gid_gen == gid_gen) {
			kref_get(&ah->ref);
			*gen = port->gen;
			spin_unlock(&rai_sa_port_lock);
			ret = 0;
			goto out;
		}
		built_gen = port->gen;
		spin_unlock(&rai_sa_port_lock);

		ret = rai_sa_build_ah(port, &ah);
		if (ret)
			goto out;

		spin_lock(&rai_sa_port_lock);
		st.gen = port->gen;
		st.gid_gen = port->ah_gid_gen;
		verdict = rai_sa_addr_install(&st, built_gen, gid_gen,
					      atomic_read(&rai_sa_gid_gen));
		if (verdict != RAI_SA_ADDR_STALE) {
			old = port->ah;
			port->ah = ah;
			kref_get(&ah->ref);
			port->ah_gid_gen = st.gid_gen;
			if (verdict == RAI_SA_ADDR_INSTALL_NEW_SA) {
				/* What was cached came from another SA. */
				port->gen = st.gen;
				list_splice_init(&port->cache, &stale);
				port->ncache = 0;
			}
			*gen = port->gen;
			spin_unlock(&rai_sa_port_lock);
			break;
		}
		spin_unlock(&rai_sa_port_lock);
		if (tries == RAI_SA_AH_TRIES) {
			*gen = built_gen;
			break;
		}
		rai_sa_ah_put(ah);
	}
out:
	mutex_unlock(&port->ah_mutex);
	rai_sa_ah_put(old);
	rai_sa_cache_free_list(&stale);
	return ret ? ERR_PTR(ret) : ah;
}

/* ---- devices and ports ------------------------------------------------ */
/*
 * The device named @name, referenced, or NULL; looked up before
 * rai_sa_rwsem is taken.  The RDMA core compares names under its
 * devices_rwsem, which ib_register_device() holds while it calls
 * rai_sa_add_one(), which takes rai_sa_rwsem: looked up under
 * rai_sa_rwsem, the two would nest both ways (lockdep, debug kernel).
 */
struct ib_device *rai_sa_device_get(const char *name)
{
	return rai_ib_device_get_by_name(name);
}

void rai_sa_device_put(struct ib_device *ibdev)
{
	if (ibdev)
		ib_device_put(ibdev);
}

/*
 * The port @port_num of @ibdev, from rai_sa_device_get(@name) (under
 * rai_sa_rwsem).  A rename frees the old name: names are compared by the
 * RDMA core, never through dev_name() here.
 */
struct rai_sa_port *rai_sa_find_port(struct net *net, struct ib_device *ibdev,
				     const char *name, u32 port_num)
{
	struct rai_sa_port *port = ERR_PTR(-ENODEV);
	struct ib_device *found = NULL;
	struct rai_sa_dev *dev;

	lockdep_assert_held(&rai_sa_rwsem);
#ifdef RAI_IB_DEVICE_NAME_IN_PLACE
	list_for_each_entry(dev, &rai_sa_devs, node)
		if (!strncmp(dev->ibdev->name, name, IB_DEVICE_NAME_MAX) &&
		    ib_device_try_get(dev->ibdev)) {
			found = dev->ibdev;
			ibdev = found;
			break;
		}
#endif
	if (!ibdev)
		return port;
	list_for_each_entry(dev, &rai_sa_devs, node) {
		if (dev->ibdev != ibdev)
			continue;
		if (net && !rdma_dev_access_netns(ibdev, net))
			break;
		if (port_num < dev->start_port || port_num > dev->end_port)
			break;
		port = &dev->port[port_num - dev->start_port];
		if (!port->agent)
			port = ERR_PTR(-EHOSTUNREACH);
		break;
	}
	rai_sa_device_put(found);
	return port;
}

static void rai_sa_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct rai_sa_dev *dev =
		container_of(handler, struct rai_sa_dev, event_handler);
	u32 p = event->element.port_num;

	/* The events after which the SA, or our way to it, may differ. */
	switch (event->event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		break;
	default:
		return;
	}
	if (p < dev->start_port || p > dev->end_port)
		return;
	rai_sa_port_reset(&dev->port[p - dev->start_port]);
}

static struct ib_client rai_sa_client;

/*
 * A new RDMA device: one GSI MAD agent per port that speaks IB MADs (IB
 * and RoCE), registered for RMPP version 1 so that the MAD layer
 * reassembles multi-segment answers (SubnAdmGetTableResp) and sends the
 * RMPP ACKs.  Registered without a method mask, the agent gets only the
 * responses to its own requests, which the MAD layer finds by the high
 * 32 bits of their TID (rai_sa_op_mad()).  A device
 * without any agent is not ours (-EOPNOTSUPP); a port without one has no
 * SA (-EHOSTUNREACH).
 */
static int rai_sa_add_one(struct ib_device *ibdev)
{
	u32 start = rdma_start_port(ibdev), end = rdma_end_port(ibdev), p;
	struct rai_sa_dev *dev;
	unsigned int agents = 0;

	dev = kzalloc(struct_size(dev, port, end - start + 1), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->ibdev = ibdev;
	dev->start_port = start;
	dev->end_port = end;
	rdma_for_each_port(ibdev, p) {
		struct rai_sa_port *port = &dev->port[p - start];
		struct ib_mad_agent *agent;

		port->dev = dev;
		port->port_num = p;
		mutex_init(&port->ah_mutex);
		INIT_LIST_HEAD(&port->cache);
		if (!rdma_cap_ib_mad(ibdev, p))
			continue;
		agent = ib_register_mad_agent(ibdev, p, IB_QPT_GSI, NULL,
					      IB_MGMT_RMPP_VERSION,
					      rai_sa_port_client->send_handler,
					      rai_sa_port_client->recv_handler,
					      port, 0);
		if (IS_ERR(agent)) {
			pr_warn("%s port %u: no MAD agent (%ld)\n",
				dev_name(&ibdev->dev), p, PTR_ERR(agent));
			continue;
		}
		port->agent = agent;
		agents++;
	}
	if (!agents) {
		kfree(dev);
		return -EOPNOTSUPP;
	}
	INIT_IB_EVENT_HANDLER(&dev->event_handler, ibdev, rai_sa_event);
	ib_register_event_handler(&dev->event_handler);
	ib_set_client_data(ibdev, &rai_sa_client, dev);
	down_write(&rai_sa_rwsem);
	list_add_tail(&dev->node, &rai_sa_devs);
	up_write(&rai_sa_rwsem);
	return 0;
}

static void rai_sa_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rai_sa_dev *dev = client_data;
	u32 i, nports = dev->end_port - dev->start_port + 1;

	ib_unregister_event_handler(&dev->event_handler);

	/* No new query finds the device once this returns. */
	down_write(&rai_sa_rwsem);
	list_del(&dev->node);
	spin_lock(&rai_sa_port_lock);
	for (i = 0; i < nports; i++)
		dev->port[i].dead = true;
	spin_unlock(&rai_sa_port_lock);
	up_write(&rai_sa_rwsem);

	/* Flushes every MAD in flight: their queries end with -ENODEV. */
	for (i = 0; i < nports; i++)
		if (dev->port[i].agent)
			ib_unregister_mad_agent(dev->port[i].agent);
	/* Cache hits being delivered still point at the ports. */
	rai_sa_port_client->flush();
	for (i = 0; i < nports; i++) {
		rai_sa_port_reset(&dev->port[i]);
		mutex_destroy(&dev->port[i].ah_mutex);
	}
	kfree(dev);
}

static struct ib_client rai_sa_client = {
	.name = "rdma_addrinfo_sa",
	.add = rai_sa_add_one,
	.remove = rai_sa_remove_one,
};

int rai_sa_port_init(const struct rai_sa_port_client *client)
{
	rai_sa_port_client = client;
	return ib_register_client(&rai_sa_client);
}

void rai_sa_port_exit(void)
{
	/* Removes every device: every query has completed after this. */
	ib_unregister_client(&rai_sa_client);
}
