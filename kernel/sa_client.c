// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: InfiniBand SA client: per-port GSI MAD agents, the SA
 * address of each port, queries with coalescing and a result cache.  The
 * interface and its rules are in sa_client.h; the wire format in sa_wire.c.
 *
 * Objects:
 *  - rai_sa_dev/rai_sa_port: one per RDMA device / port, from the ib_client
 *    add callback to remove;
 *  - rai_sa_op: one MAD exchange (or one cache hit being delivered), shared
 *    by every identical query that arrives while it is in flight;
 *  - rai_sa_query: one caller's handle, a waiter of an op.
 *
 * Locking: rai_sa_rwsem (read) keeps the device list and the ports alive
 * while a query is being started, device removal takes it for writing.
 * rai_sa_lock protects the state of queries, the waiter lists and send
 * buffers of ops, the ops and cache lists and the AH pointer of ports.
 * port->ah_mutex serialises building an address handle.  MAD layer
 * callbacks, event handlers and our work items all run in process
 * context; rai_sa_lock is never taken in interrupt context.
 */
#include <linux/err.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "main.h"
#include "sa_client.h"
#include "sa_wire.h"
#include "stats.h"

/* ---- parameters ------------------------------------------------------- */

static DEFINE_SPINLOCK(rai_sa_param_lock);
static char rai_sa_gid_str[INET6_ADDRSTRLEN];	/* as written */
static struct in6_addr rai_sa_gid;		/* parsed; zero: none */
static atomic_t rai_sa_gid_gen = ATOMIC_INIT(0);

static unsigned int rai_sa_cache_ttl_ms = 30000;
static unsigned int rai_sa_cache_max = 256;
static unsigned int rai_sa_max_records = 1024;

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
module_param_named(sa_cache_ttl_ms, rai_sa_cache_ttl_ms, uint, 0644);
MODULE_PARM_DESC(sa_cache_ttl_ms,
		 "Lifetime of cached SA answers, dropped earlier on SM/port events; 0: no cache (default 30000)");
module_param_named(sa_cache_max, rai_sa_cache_max, uint, 0644);
MODULE_PARM_DESC(sa_cache_max, "Cached SA answers per port at most (default 256)");
module_param_named(sa_max_records, rai_sa_max_records, uint, 0644);
MODULE_PARM_DESC(sa_max_records,
		 "Records of one SA answer kept at most, the rest ignored (default 1024)");

/* ---- objects ---------------------------------------------------------- */

struct rai_sa_ah {
	struct kref ref;
	struct ib_ah *ah;
	u16 pkey_index;
	union ib_gid sgid;	/* our GID facing the SA */
};

struct rai_sa_result {
	struct kref ref;
	int status;
	unsigned int nrec;
	u8 rec[];
};

struct rai_sa_cache_ent {
	struct list_head node;
	unsigned long expires;
	struct rai_sa_result *res;
	struct rai_sa_req req;
};

struct rai_sa_dev;

struct rai_sa_port {
	struct rai_sa_dev *dev;
	u32 port_num;
	struct ib_mad_agent *agent;	/* NULL: no MAD on this port */
	struct mutex ah_mutex;
	struct rai_sa_ah *ah;		/* NULL: to be built */
	int ah_gid_gen;			/* rai_sa_gid_gen it was built for */
	u32 gen;			/* bumped when the SA may differ */
	bool dead;
	struct list_head ops;		/* coalescable ops in flight */
	struct list_head cache;		/* oldest first */
	unsigned int ncache;
};

struct rai_sa_dev {
	struct list_head node;
	struct ib_device *ibdev;
	struct ib_event_handler event_handler;
	u32 start_port;
	u32 end_port;
	struct rai_sa_port port[];
};

struct rai_sa_op {
	struct rai_sa_port *port;
	struct list_head node;		/* port->ops, while listed */
	bool listed;
	struct list_head waiters;
	struct ib_mad_send_buf *send_buf; /* NULL once back from the MAD layer */
	struct rai_sa_ah *ah;
	struct rai_sa_result *res;	/* the answer, or NULL */
	int status;			/* without an answer */
	u32 gen;
	struct work_struct work;	/* delivery without a MAD */
	struct rai_sa_req req;
};

enum rai_sa_state {
	RAI_SA_IDLE,		/* allocated, not started */
	RAI_SA_FAILED,		/* the start failed: no done() */
	RAI_SA_PENDING,
	RAI_SA_RUNNING,		/* done() is being called */
	RAI_SA_DONE,
	RAI_SA_CANCELLED,
};

struct rai_sa_query {
	struct kref ref;	/* the caller's, and the op's while waiting */
	struct list_head node;	/* op->waiters */
	struct rai_sa_op *op;
	int state;		/* enum rai_sa_state, under rai_sa_lock */
	struct task_struct *runner;
	rai_sa_done_fn done;
	void *ctx;
	gfp_t gfp;
};

static DECLARE_RWSEM(rai_sa_rwsem);
static LIST_HEAD(rai_sa_devs);
static DEFINE_SPINLOCK(rai_sa_lock);
static DECLARE_WAIT_QUEUE_HEAD(rai_sa_wait);
static struct workqueue_struct *rai_sa_wq;
static atomic_t rai_sa_tid = ATOMIC_INIT(0);

static void rai_sa_ah_release(struct kref *ref)
{
	struct rai_sa_ah *ah = container_of(ref, struct rai_sa_ah, ref);

	rdma_destroy_ah(ah->ah, 0);
	kfree(ah);
}

static void rai_sa_ah_put(struct rai_sa_ah *ah)
{
	if (ah)
		kref_put(&ah->ref, rai_sa_ah_release);
}

static void rai_sa_result_release(struct kref *ref)
{
	kvfree(container_of(ref, struct rai_sa_result, ref));
}

static void rai_sa_result_put(struct rai_sa_result *res)
{
	if (res)
		kref_put(&res->ref, rai_sa_result_release);
}

static void rai_sa_query_release(struct kref *ref)
{
	kfree(container_of(ref, struct rai_sa_query, ref));
}

void rai_sa_query_put(struct rai_sa_query *q)
{
	kref_put(&q->ref, rai_sa_query_release);
}

/* ---- the cache (under rai_sa_lock) ------------------------------------ */

static void rai_sa_cache_free_list(struct list_head *list)
{
	struct rai_sa_cache_ent *e, *tmp;

	list_for_each_entry_safe(e, tmp, list, node) {
		list_del(&e->node);
		rai_sa_result_put(e->res);
		kfree(e);
	}
}

static struct rai_sa_result *rai_sa_cache_get(struct rai_sa_port *port,
					      const struct rai_sa_req *req)
{
	struct rai_sa_cache_ent *e;

	list_for_each_entry(e, &port->cache, node) {
		if (memcmp(&e->req, req, sizeof(*req)))
			continue;
		if (time_after_eq(jiffies, e->expires))
			return NULL;
		kref_get(&e->res->ref);
		return e->res;
	}
	return NULL;
}

/* Insert @e, moving replaced and evicted entries to @old. */
static void rai_sa_cache_insert(struct rai_sa_port *port,
				struct rai_sa_cache_ent *e,
				struct list_head *old)
{
	struct rai_sa_cache_ent *c, *tmp;

	list_for_each_entry_safe(c, tmp, &port->cache, node) {
		if (memcmp(&c->req, &e->req, sizeof(e->req)) &&
		    time_before(jiffies, c->expires))
			continue;
		list_move(&c->node, old);
		port->ncache--;
	}
	list_add_tail(&e->node, &port->cache);
	port->ncache++;
	while (port->ncache > max(READ_ONCE(rai_sa_cache_max), 1U)) {
		list_move(port->cache.next, old);
		port->ncache--;
	}
}

/* ---- SA address ------------------------------------------------------- */

/* Forget the AH and the cache: the SA may have changed. */
static void rai_sa_port_reset(struct rai_sa_port *port)
{
	struct rai_sa_ah *ah;
	LIST_HEAD(old);

	spin_lock(&rai_sa_lock);
	ah = port->ah;
	port->ah = NULL;
	port->gen++;
	list_splice_init(&port->cache, &old);
	port->ncache = 0;
	spin_unlock(&rai_sa_lock);
	rai_sa_ah_put(ah);
	rai_sa_cache_free_list(&old);
}

/* Only the AH (after a timeout or a send error; neighbours move). */
static void rai_sa_port_forget_ah(struct rai_sa_port *port,
				  struct rai_sa_ah *bad)
{
	struct rai_sa_ah *ah = NULL;

	spin_lock(&rai_sa_lock);
	if (port->ah == bad) {
		ah = port->ah;
		port->ah = NULL;
	}
	spin_unlock(&rai_sa_lock);
	rai_sa_ah_put(ah);
}

static int rai_sa_build_ib_ah(struct rai_sa_port *port, struct rai_sa_ah *ah)
{
	struct ib_device *ibdev = port->dev->ibdev;
	struct ib_port_attr attr;
	struct rdma_ah_attr ah_attr = {};
	int ret;

	ret = ib_query_port(ibdev, port->port_num, &attr);
	if (ret)
		return ret;
	if (attr.state != IB_PORT_ACTIVE || !attr.sm_lid ||
	    attr.sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return -EHOSTUNREACH;
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

/* Builds of an SA address undone by port events before one is kept. */
#define RAI_SA_AH_TRIES		3

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
 * The port's state is read while building without rai_sa_lock: a port
 * event in between makes the new address stale, and it is built again
 * (rai_sa_addr_install()).  Should events keep coming, the last one built
 * serves this query only, under the generation it was built for, so that
 * its answer is never cached under a newer one.
 */
static struct rai_sa_ah *rai_sa_get_ah(struct rai_sa_port *port, u32 *gen)
{
	enum rai_sa_addr_verdict verdict;
	struct rai_sa_ah *ah, *old = NULL;
	struct rai_sa_addr_gen st;
	int gid_gen, tries, ret;
	LIST_HEAD(stale);
	u32 built_gen;

	mutex_lock(&port->ah_mutex);
	for (tries = 1; ; tries++) {
		gid_gen = atomic_read(&rai_sa_gid_gen);
		spin_lock(&rai_sa_lock);
		ah = port->ah;
		if (ah && port->ah_gid_gen == gid_gen) {
			kref_get(&ah->ref);
			*gen = port->gen;
			spin_unlock(&rai_sa_lock);
			ret = 0;
			goto out;
		}
		built_gen = port->gen;
		spin_unlock(&rai_sa_lock);

		ret = rai_sa_build_ah(port, &ah);
		if (ret)
			goto out;

		spin_lock(&rai_sa_lock);
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
			spin_unlock(&rai_sa_lock);
			break;
		}
		spin_unlock(&rai_sa_lock);
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

/* ---- completion ------------------------------------------------------- */

static void rai_sa_op_unlist(struct rai_sa_op *op)
{
	if (op->listed) {
		list_del(&op->node);
		op->listed = false;
	}
}

static void rai_sa_op_free(struct rai_sa_op *op)
{
	rai_sa_ah_put(op->ah);
	rai_sa_result_put(op->res);
	kfree(op);
}

/*
 * The op is over (answered, failed, or a cache hit): cache a good answer,
 * call every waiter's done() and free the op.
 */
static void rai_sa_op_finish(struct rai_sa_op *op)
{
	struct rai_sa_port *port = op->port;
	struct rai_sa_result *res = op->res;
	int status = res ? res->status : op->status;
	struct rai_sa_cache_ent *ent = NULL;
	struct rai_sa_query *q, *tmp;
	unsigned int ttl;
	LIST_HEAD(waiters);
	LIST_HEAD(old);

	ttl = READ_ONCE(rai_sa_cache_ttl_ms);
	/* Only answers of the SA (a cache hit has no AH). */
	if (!status && ttl && op->ah) {
		ent = kmalloc(sizeof(*ent), GFP_KERNEL);
		if (ent) {
			ent->req = op->req;
			ent->res = res;
			kref_get(&res->ref);
			ent->expires = jiffies + msecs_to_jiffies(ttl);
		}
	}

	spin_lock(&rai_sa_lock);
	rai_sa_op_unlist(op);
	list_splice_init(&op->waiters, &waiters);
	list_for_each_entry(q, &waiters, node) {
		q->state = RAI_SA_RUNNING;
		q->runner = current;
	}
	if (ent) {
		if (op->gen == port->gen && !port->dead)
			rai_sa_cache_insert(port, ent, &old);
		else
			list_add(&ent->node, &old);
	}
	spin_unlock(&rai_sa_lock);
	rai_sa_cache_free_list(&old);

	list_for_each_entry_safe(q, tmp, &waiters, node) {
		list_del_init(&q->node);
		if (status)
			q->done(q->ctx, status, NULL, 0);
		else
			q->done(q->ctx, 0, res->rec, res->nrec);
		/* Pairs with smp_load_acquire() in rai_sa_abort(). */
		smp_store_release(&q->state, RAI_SA_DONE);
		wake_up_all(&rai_sa_wait);
		rai_sa_query_put(q);
	}
	rai_sa_op_free(op);
}

static void rai_sa_op_work(struct work_struct *work)
{
	rai_sa_op_finish(container_of(work, struct rai_sa_op, work));
}

static struct rai_sa_result *rai_sa_result_err(int status)
{
	struct rai_sa_result *res = kvzalloc(sizeof(*res), GFP_KERNEL);

	if (res) {
		kref_init(&res->ref);
		res->status = status;
	}
	return res;
}

/* Check and copy an answer; never NULL unless out of memory. */
static struct rai_sa_result *rai_sa_parse(struct rai_sa_op *op,
					  struct ib_mad_recv_wc *wc)
{
	size_t rec_len = rai_sa_req_rec_len(&op->req);
	struct rai_sa_result *res;
	struct ib_mad_recv_buf *buf;
	struct rai_sa_resp resp;
	unsigned int nseg = 0, n;
	const u8 **seg;
	int ret;

	if (wc->wc->status != IB_WC_SUCCESS ||
	    wc->mad_seg_size != RAI_SA_MAD_SIZE)
		return rai_sa_result_err(-EPROTO);
	list_for_each_entry(buf, &wc->rmpp_list, list)
		nseg++;
	seg = kvmalloc_array(max(nseg, 1U), sizeof(*seg), GFP_KERNEL);
	if (!seg)
		return NULL;
	nseg = 0;
	list_for_each_entry(buf, &wc->rmpp_list, list)
		seg[nseg++] = (const u8 *)buf->mad;

	ret = rai_sa_resp_check(&op->req, seg, nseg, wc->mad_len, &resp);
	if (ret) {
		res = rai_sa_result_err(ret);
		goto out;
	}
	n = min(resp.nrec, max(READ_ONCE(rai_sa_max_records), 1U));
	res = kvzalloc(struct_size(res, rec, n * rec_len), GFP_KERNEL);
	if (!res)
		goto out;
	kref_init(&res->ref);
	res->nrec = rai_sa_resp_copy(&op->req, &resp, seg, nseg, res->rec, n);
out:
	kvfree(seg);
	return res;
}

static void rai_sa_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *wc)
{
	struct rai_sa_op *op;

	if (send_buf) {
		op = send_buf->context[0];
		if (!op->res) {
			op->res = rai_sa_parse(op, wc);
			if (!op->res)
				op->status = -ENOMEM;
		}
	}
	ib_free_recv_mad(wc);
}

/* The status of an op whose MAD came back without an answer. */
static void rai_sa_send_failed(struct rai_sa_op *op, enum ib_wc_status wc)
{
	struct rai_sa_port *port = op->port;
	enum rai_sa_send_end end;

	switch (wc) {
	case IB_WC_RESP_TIMEOUT_ERR:
		end = RAI_SA_SEND_TIMEOUT;
		rai_sa_stat_inc(RAI_SA_STAT_TIMEOUTS);
		break;
	case IB_WC_WR_FLUSH_ERR:
		end = RAI_SA_SEND_FLUSHED;
		if (READ_ONCE(port->dead))
			rai_sa_stat_inc(RAI_SA_STAT_DEV_REMOVED);
		break;
	case IB_WC_SUCCESS:
		end = RAI_SA_SEND_NO_ANSWER;
		rai_sa_stat_inc(RAI_SA_STAT_MALFORMED);
		break;
	default:
		end = RAI_SA_SEND_ERROR;
		rai_sa_stat_inc(RAI_SA_STAT_NO_SA);
		break;
	}
	op->status = rai_sa_send_status(end, READ_ONCE(port->dead));
	/* Neighbours move: the next query builds the address again. */
	if (end == RAI_SA_SEND_TIMEOUT || end == RAI_SA_SEND_ERROR)
		rai_sa_port_forget_ah(port, op->ah);
}

static void rai_sa_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	struct ib_mad_send_buf *send_buf = wc->send_buf;
	struct rai_sa_op *op = send_buf->context[0];

	if (op->res) {
		switch (op->res->status) {
		case 0:
			rai_sa_stat_inc(RAI_SA_STAT_ANSWERS);
			break;
		case -ENXIO:
			rai_sa_stat_inc(RAI_SA_STAT_NO_RECORDS);
			break;
		case -EREMOTEIO:
			rai_sa_stat_inc(RAI_SA_STAT_REMOTE_ERRORS);
			break;
		default:
			rai_sa_stat_inc(RAI_SA_STAT_MALFORMED);
			break;
		}
	} else if (op->status) {
		/* -ENOMEM from the receive handler */
	} else {
		rai_sa_send_failed(op, wc->status);
	}

	spin_lock(&rai_sa_lock);
	op->send_buf = NULL;
	spin_unlock(&rai_sa_lock);
	ib_free_send_mad(send_buf);
	rai_sa_op_finish(op);
}

/* ---- starting and cancelling ------------------------------------------ */

/*
 * The device named @name, referenced, or NULL; looked up before
 * rai_sa_rwsem is taken.  The RDMA core compares names under its
 * devices_rwsem, which ib_register_device() holds while it calls
 * rai_sa_add_one(), which takes rai_sa_rwsem: looked up under
 * rai_sa_rwsem, the two would nest both ways (lockdep, debug kernel).
 */
static struct ib_device *rai_sa_device_get(const char *name)
{
	return rai_ib_device_get_by_name(name);
}

static void rai_sa_device_put(struct ib_device *ibdev)
{
	if (ibdev)
		ib_device_put(ibdev);
}

/*
 * The port @port_num of @ibdev, from rai_sa_device_get(@name) (under
 * rai_sa_rwsem).  A rename frees the old name: names are compared by the
 * RDMA core, never through dev_name() here.
 */
static struct rai_sa_port *rai_sa_find_port(struct net *net,
					    struct ib_device *ibdev,
					    const char *name, u32 port_num)
{
	struct rai_sa_port *port = ERR_PTR(-ENODEV);
	struct ib_device *found = NULL;
	struct rai_sa_dev *dev;

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

/* An identical op in flight on @port (under rai_sa_lock). */
static struct rai_sa_op *rai_sa_find_op(struct rai_sa_port *port,
					const struct rai_sa_req *req, u32 gen)
{
	struct rai_sa_op *op;

	list_for_each_entry(op, &port->ops, node)
		if (op->gen == gen && !memcmp(&op->req, req, sizeof(*req)))
			return op;
	return NULL;
}

/*
 * Make @q a waiter of @op (under rai_sa_lock).  False when the query was
 * aborted before it could be started.
 */
static bool rai_sa_join(struct rai_sa_op *op, struct rai_sa_query *q)
{
	if (q->state != RAI_SA_IDLE)
		return false;
	q->state = RAI_SA_PENDING;
	q->op = op;
	kref_get(&q->ref);		/* the op's */
	list_add_tail(&q->node, &op->waiters);
	return true;
}

/* A start that did not join an op: -ECANCELED if aborted meanwhile. */
static int rai_sa_start_failed(struct rai_sa_query *q, int ret)
{
	spin_lock(&rai_sa_lock);
	if (q->state == RAI_SA_CANCELLED)
		ret = -ECANCELED;
	else
		q->state = RAI_SA_FAILED;
	spin_unlock(&rai_sa_lock);
	return ret;
}

static struct rai_sa_op *rai_sa_op_alloc(struct rai_sa_port *port,
					 const struct rai_sa_req *req,
					 gfp_t gfp)
{
	struct rai_sa_op *op = kzalloc(sizeof(*op), gfp);

	if (!op)
		return NULL;
	op->port = port;
	op->req = *req;
	INIT_LIST_HEAD(&op->waiters);
	INIT_LIST_HEAD(&op->node);
	INIT_WORK(&op->work, rai_sa_op_work);
	return op;
}

/* A MAD for @op, or an ERR_PTR. */
static struct ib_mad_send_buf *rai_sa_op_mad(struct rai_sa_op *op, gfp_t gfp)
{
	struct ib_mad_agent *agent = op->port->agent;
	struct ib_mad_send_buf *send_buf;
	struct ib_mad_hdr *hdr;
	u32 tid;

	send_buf = ib_create_send_mad(agent, 1, op->ah->pkey_index, 0,
				      IB_MGMT_SA_HDR, IB_MGMT_SA_DATA, gfp,
				      IB_MGMT_BASE_VERSION);
	if (IS_ERR(send_buf))
		return send_buf;
	hdr = send_buf->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	hdr->class_version = IB_SA_CLASS_VERSION;
	/* Answers are routed to the agent by the high 32 bits. */
	tid = atomic_inc_return(&rai_sa_tid);
	hdr->tid = cpu_to_be64((u64)agent->hi_tid << 32 | tid);
	rai_sa_req_to_mad(&op->req, send_buf->mad);
	send_buf->ah = op->ah->ah;
	send_buf->timeout_ms = max(READ_ONCE(rai_sa_timeout_ms), 1U);
	send_buf->retries = READ_ONCE(rai_sa_retries);
	send_buf->context[0] = op;
	return send_buf;
}

/* rai_sa_start() under rai_sa_rwsem (read). */
static int rai_sa_start_locked(struct rai_sa_query *q, struct net *net,
			       struct ib_device *ibdev, const char *name,
			       u32 port_num, struct rai_sa_req *req,
			       bool default_sgid)
{
	struct ib_mad_send_buf *send_buf;
	struct rai_sa_result *res = NULL;
	struct rai_sa_op *op, *other;
	struct rai_sa_port *port;
	struct rai_sa_ah *ah;
	bool joined;
	int ret;
	u32 gen;

	lockdep_assert_held(&rai_sa_rwsem);
	port = rai_sa_find_port(net, ibdev, name, port_num);
	if (IS_ERR(port)) {
		ret = PTR_ERR(port);
		goto err;
	}
	rai_sa_stat_inc(RAI_SA_STAT_QUERIES);
	ah = rai_sa_get_ah(port, &gen);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		if (ret == -EHOSTUNREACH)
			rai_sa_stat_inc(RAI_SA_STAT_NO_SA);
		goto err;
	}
	if (default_sgid)
		memcpy(req->rec + RAI_SA_PR_OFF_SGID, ah->sgid.raw, 16);

	spin_lock(&rai_sa_lock);
	if (READ_ONCE(rai_sa_cache_ttl_ms))
		res = rai_sa_cache_get(port, req);
	if (!res) {
		other = rai_sa_find_op(port, req, gen);
		if (other) {
			joined = rai_sa_join(other, q);
			spin_unlock(&rai_sa_lock);
			rai_sa_ah_put(ah);
			ret = -ECANCELED;
			if (!joined)
				goto err;
			rai_sa_stat_inc(RAI_SA_STAT_COALESCED);
			return 0;
		}
	}
	spin_unlock(&rai_sa_lock);

	ret = -ENOMEM;
	op = rai_sa_op_alloc(port, req, q->gfp);
	if (!op)
		goto err_ah;
	op->gen = gen;
	if (res) {
		/* A cache hit, delivered from our workqueue. */
		rai_sa_ah_put(ah);
		op->res = res;
		spin_lock(&rai_sa_lock);
		joined = rai_sa_join(op, q);
		spin_unlock(&rai_sa_lock);
		if (!joined) {
			rai_sa_op_free(op);
			ret = -ECANCELED;
			goto err;
		}
		queue_work(rai_sa_wq, &op->work);
		rai_sa_stat_inc(RAI_SA_STAT_CACHE_HITS);
		return 0;
	}
	op->ah = ah;
	send_buf = rai_sa_op_mad(op, q->gfp);
	if (IS_ERR(send_buf)) {
		ret = PTR_ERR(send_buf);
		rai_sa_op_free(op);
		goto err;
	}

	spin_lock(&rai_sa_lock);
	other = rai_sa_find_op(port, req, gen);
	if (other || q->state != RAI_SA_IDLE) {
		/* Started while we built ours: share it. */
		joined = other && rai_sa_join(other, q);
		spin_unlock(&rai_sa_lock);
		ib_free_send_mad(send_buf);
		rai_sa_op_free(op);
		ret = -ECANCELED;
		if (!joined)
			goto err;
		rai_sa_stat_inc(RAI_SA_STAT_COALESCED);
		return 0;
	}
	op->send_buf = send_buf;
	rai_sa_join(op, q);
	list_add(&op->node, &port->ops);
	op->listed = true;
	spin_unlock(&rai_sa_lock);

	ret = ib_post_send_mad(send_buf, NULL);
	if (ret) {
		/* Others may have joined: they get the error from a work. */
		bool ours = false;

		spin_lock(&rai_sa_lock);
		if (q->state == RAI_SA_PENDING) {
			list_del_init(&q->node);
			q->state = RAI_SA_FAILED;
			ours = true;
		}
		op->send_buf = NULL;
		rai_sa_op_unlist(op);
		spin_unlock(&rai_sa_lock);
		if (ours)
			rai_sa_query_put(q);	/* the op's */
		ib_free_send_mad(send_buf);
		rai_sa_stat_inc(RAI_SA_STAT_NO_SA);
		op->status = -EHOSTUNREACH;
		queue_work(rai_sa_wq, &op->work);
		/* Aborted meanwhile: the abort took it, report that. */
		return ours ? -EHOSTUNREACH : -ECANCELED;
	}
	/* op may be gone already: not touched again. */
	rai_sa_stat_inc(RAI_SA_STAT_MADS);
	return 0;

err_ah:
	rai_sa_ah_put(ah);
	rai_sa_result_put(res);
err:
	return rai_sa_start_failed(q, ret);
}

static int rai_sa_start(struct rai_sa_query *q, struct net *net,
			const char *name, u32 port_num, struct rai_sa_req *req,
			bool default_sgid)
{
	struct ib_device *ibdev = rai_sa_device_get(name);
	int ret;

	down_read(&rai_sa_rwsem);
	ret = rai_sa_start_locked(q, net, ibdev, name, port_num, req,
				  default_sgid);
	up_read(&rai_sa_rwsem);
	rai_sa_device_put(ibdev);
	return ret;
}

struct rai_sa_query *rai_sa_query_alloc(rai_sa_done_fn done, void *ctx,
					gfp_t gfp)
{
	struct rai_sa_query *q = kzalloc(sizeof(*q), gfp);

	if (!q)
		return NULL;
	kref_init(&q->ref);
	INIT_LIST_HEAD(&q->node);
	q->done = done;
	q->ctx = ctx;
	q->gfp = gfp;
	q->state = RAI_SA_IDLE;
	return q;
}

void *rai_sa_query_ctx(const struct rai_sa_query *q)
{
	return q->ctx;
}

void rai_sa_query_get(struct rai_sa_query *q)
{
	kref_get(&q->ref);
}

int rai_sa_start_service(struct rai_sa_query *q, struct net *net,
			 const char *ibdev_name, u32 port_num, u64 service_id,
			 bool by_id, const char *name, size_t name_len)
{
	struct rai_sa_req req;

	if (!by_id && (!name || !name_len || name_len >= RAI_SA_NAME_LEN ||
		       memchr(name, 0, name_len)))
		return rai_sa_start_failed(q, -EINVAL);
	rai_sa_req_service(&req, service_id, by_id, name, name_len);
	return rai_sa_start(q, net, ibdev_name, port_num, &req, false);
}

int rai_sa_start_path(struct rai_sa_query *q, struct net *net,
		      const char *ibdev_name, u32 port_num, const u8 *dgid,
		      const u8 *sgid, u16 pkey)
{
	static const u8 zero[16];
	struct rai_sa_req req;

	if (!dgid)
		return rai_sa_start_failed(q, -EINVAL);
	rai_sa_req_path(&req, dgid, sgid ? sgid : zero, pkey);
	return rai_sa_start(q, net, ibdev_name, port_num, &req, !sgid);
}

int rai_sa_local_gid(struct net *net, const char *ibdev_name, u32 port_num,
		     u8 *gid)
{
	struct ib_device *ibdev = rai_sa_device_get(ibdev_name);
	struct rai_sa_port *port;
	struct rai_sa_ah *ah;
	u32 gen;
	int ret = 0;

	down_read(&rai_sa_rwsem);
	port = rai_sa_find_port(net, ibdev, ibdev_name, port_num);
	if (IS_ERR(port)) {
		ret = PTR_ERR(port);
		goto out;
	}
	ah = rai_sa_get_ah(port, &gen);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	memcpy(gid, ah->sgid.raw, sizeof(ah->sgid.raw));
	rai_sa_ah_put(ah);
out:
	up_read(&rai_sa_rwsem);
	rai_sa_device_put(ibdev);
	return ret;
}

bool rai_sa_abort(struct rai_sa_query *q)
{
	bool wait = false, dropped = false;
	struct rai_sa_op *op;

	if (IS_ERR_OR_NULL(q))
		return false;
	spin_lock(&rai_sa_lock);
	switch (q->state) {
	case RAI_SA_IDLE:
		/* Not started yet: the start will fail with -ECANCELED. */
		q->state = RAI_SA_CANCELLED;
		spin_unlock(&rai_sa_lock);
		return true;
	case RAI_SA_PENDING:
		q->state = RAI_SA_CANCELLED;
		list_del_init(&q->node);
		dropped = true;
		op = q->op;
		if (list_empty(&op->waiters)) {
			/* Nobody wants it any more: no new joiners either. */
			rai_sa_op_unlist(op);
			if (op->send_buf)
				ib_cancel_mad(op->send_buf);
		}
		break;
	case RAI_SA_RUNNING:
		wait = q->runner != current;
		break;
	default:
		break;
	}
	spin_unlock(&rai_sa_lock);

	if (wait) {
		/* Pairs with smp_store_release() in rai_sa_op_finish(). */
		wait_event(rai_sa_wait, smp_load_acquire(&q->state) == RAI_SA_DONE);
	}
	if (dropped) {
		rai_sa_stat_inc(RAI_SA_STAT_CANCELLED);
		rai_sa_query_put(q);	/* the op's */
	}
	return dropped;
}

/* ---- devices ---------------------------------------------------------- */

static void rai_sa_event(struct ib_event_handler *handler,
			 struct ib_event *event)
{
	struct rai_sa_dev *dev =
		container_of(handler, struct rai_sa_dev, event_handler);
	u32 p = event->element.port_num;

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
		INIT_LIST_HEAD(&port->ops);
		INIT_LIST_HEAD(&port->cache);
		if (!rdma_cap_ib_mad(ibdev, p))
			continue;
		agent = ib_register_mad_agent(ibdev, p, IB_QPT_GSI, NULL,
					      IB_MGMT_RMPP_VERSION,
					      rai_sa_send_handler,
					      rai_sa_recv_handler, port, 0);
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
	spin_lock(&rai_sa_lock);
	for (i = 0; i < nports; i++)
		dev->port[i].dead = true;
	spin_unlock(&rai_sa_lock);
	up_write(&rai_sa_rwsem);

	/* Flushes every MAD in flight: their queries end with -ENODEV. */
	for (i = 0; i < nports; i++)
		if (dev->port[i].agent)
			ib_unregister_mad_agent(dev->port[i].agent);
	/* Cache hits being delivered still point at the ports. */
	flush_workqueue(rai_sa_wq);
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

int rai_sa_init(void)
{
	int ret;

	rai_sa_wq = alloc_workqueue("rai_sa", WQ_UNBOUND, 0);
	if (!rai_sa_wq)
		return -ENOMEM;
	ret = ib_register_client(&rai_sa_client);
	if (ret) {
		destroy_workqueue(rai_sa_wq);
		return ret;
	}
	return 0;
}

void rai_sa_exit(void)
{
	/* Removes every device: every query has completed after this. */
	ib_unregister_client(&rai_sa_client);
	destroy_workqueue(rai_sa_wq);
}
