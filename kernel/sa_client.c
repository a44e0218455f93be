// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: InfiniBand SA queries: MADs sent to a port's SA, their
 * answers (RMPP), time-outs and retries, coalescing of identical queries.
 * The interface and its rules are in sa_client.h; the ports (MAD agents,
 * the SA's address, the cache) in sa_port.c; the wire format in sa_wire.c.
 *
 * Objects:
 *  - rai_sa_op: one MAD exchange (or one cache hit being delivered), shared
 *    by every identical query that arrives while it is in flight;
 *  - rai_sa_query: one caller's handle, a waiter of an op.
 *
 * Locking: rai_sa_rwsem (read, sa_port.h) while a query is started, which
 * keeps its port alive; rai_sa_op_lock (below) for the queries and ops.
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "param.h"
#include "sa_client.h"
#include "sa_port.h"
#include "sa_wire.h"
#include "stats.h"

/* ---- parameters ------------------------------------------------------- */

static unsigned int rai_sa_timeout_ms = 1000;
static unsigned int rai_sa_retries = 3;
static unsigned int rai_sa_max_records = 1024;

RAI_PARAM_RANGE(sa_timeout_ms, 1, 60000);
RAI_PARAM_RANGE(sa_retries, 0, 100);
RAI_PARAM_RANGE(sa_max_records, 1, 1 << 20);

module_param_cb(sa_timeout_ms, &rai_param_ops_sa_timeout_ms,
		&rai_sa_timeout_ms, 0644);
MODULE_PARM_DESC(sa_timeout_ms, "SA MAD timeout per try (default 1000)");
module_param_cb(sa_retries, &rai_param_ops_sa_retries,
		&rai_sa_retries, 0644);
MODULE_PARM_DESC(sa_retries, "SA MAD retries after the first try (default 3)");
module_param_cb(sa_max_records, &rai_param_ops_sa_max_records,
		&rai_sa_max_records, 0644);
__MODULE_PARM_TYPE(sa_max_records, "uint");
MODULE_PARM_DESC(sa_max_records,
		 "Records of one SA answer kept at most, the rest ignored (1-1048576; default 1024)");

void rai_sa_info(struct rdma_addrinfo_info *info)
{
	info->sa_timeout_ms = READ_ONCE(rai_sa_timeout_ms);
	info->sa_retries = READ_ONCE(rai_sa_retries);
}

/* ---- objects ---------------------------------------------------------- */

/*
 * rai_sa_op_lock protects the state of queries, the waiter lists and send
 * buffers of ops, and rai_sa_joinable.  Never taken in interrupt context;
 * a port's cache lock (sa_port.c) may be taken inside it.
 */
static DEFINE_SPINLOCK(rai_sa_op_lock);

/* The ops that a new identical query may join (rai_sa_op.node). */
static LIST_HEAD(rai_sa_joinable);

/* Delivers the answers of ops without a MAD; device removal flushes it. */
static struct workqueue_struct *rai_sa_wq;

/*
 * An op is one request to the SA, keyed by its bytes (struct rai_sa_req),
 * its port and the port's generation.  While its MAD is in flight it is
 * listed in rai_sa_joinable, and an identical query started meanwhile
 * joins it as another waiter instead of sending a MAD of its own
 * (coalescing: N callers asking the same at job start cost one MAD).  It
 * is unlisted when it ends, or when its last waiter is aborted, and is
 * never joined again.
 * An op without a MAD (a cache hit, or a send that failed after others
 * joined) is delivered from rai_sa_wq.
 */
struct rai_sa_op {
	struct rai_sa_port *port;
	struct list_head node;		/* rai_sa_joinable, while listed */
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

/*
 * A query's state, under rai_sa_op_lock (RUNNING to DONE without it):
 *
 *	IDLE -> PENDING		a start joined it to an op
 *	IDLE -> FAILED		a start failed; done() will not be called
 *	IDLE -> CANCELLED	aborted before the start: the start fails
 *				with -ECANCELED
 *	PENDING -> CANCELLED	aborted: off the op's waiters, no done()
 *	PENDING -> FAILED	the op's MAD could not be posted (start)
 *	PENDING -> RUNNING	the op ended: done() is being called
 *	RUNNING -> DONE		done() returned (release; rai_sa_abort()
 *				waits for it with an acquire)
 */
enum rai_sa_state {
	RAI_SA_IDLE,		/* allocated, not started */
	RAI_SA_FAILED,		/* the start failed: no done() */
	RAI_SA_PENDING,		/* a waiter of q->op */
	RAI_SA_RUNNING,		/* done() is being called */
	RAI_SA_DONE,
	RAI_SA_CANCELLED,
};

struct rai_sa_query {
	struct kref ref;	/* the caller's, and the op's while waiting */
	struct list_head node;	/* op->waiters */
	struct rai_sa_op *op;
	int state;		/* enum rai_sa_state, under rai_sa_op_lock */
	struct task_struct *runner;	/* calling done(): may abort itself */
	rai_sa_done_fn done;
	void *ctx;
	gfp_t gfp;
};

static DECLARE_WAIT_QUEUE_HEAD(rai_sa_wait);
static atomic_t rai_sa_tid = ATOMIC_INIT(0);

static void rai_sa_query_release(struct kref *ref)
{
	kfree(container_of(ref, struct rai_sa_query, ref));
}

void rai_sa_query_put(struct rai_sa_query *q)
{
	kref_put(&q->ref, rai_sa_query_release);
}

/* ---- completion ------------------------------------------------------- */

/* Take @op off the list of ops to join. */
static void rai_sa_op_unlist(struct rai_sa_op *op)
{
	lockdep_assert_held(&rai_sa_op_lock);
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
	LIST_HEAD(waiters);
	LIST_HEAD(old);

	/* Only answers of the SA (a cache hit has no AH). */
	if (!status && op->ah)
		ent = rai_sa_cache_ent_alloc(&op->req, res);

	/*
	 * No new waiter from here on, and no abort takes one back: an abort
	 * from another thread waits for DONE, one from done() itself
	 * (runner) returns at once.
	 */
	spin_lock(&rai_sa_op_lock);
	rai_sa_op_unlist(op);
	list_splice_init(&op->waiters, &waiters);
	list_for_each_entry(q, &waiters, node) {
		q->state = RAI_SA_RUNNING;
		q->runner = current;
	}
	if (ent)
		rai_sa_cache_add(port, ent, op->gen, &old);
	spin_unlock(&rai_sa_op_lock);
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

/*
 * Check and copy an answer; never NULL unless out of memory.
 *
 * A multi-packet answer (SubnAdmGetTableResp over RMPP, IBA 13.6) has been
 * reassembled by the MAD layer, which also sent the ACKs: @wc->rmpp_list
 * holds the segments in order, each a whole 256-byte MAD whose SA data
 * (200 bytes) follows the 56 bytes of MAD, RMPP and SA headers, and
 * @wc->mad_len is 56 plus the payload.  ib_coalesce_recv_mad() is not
 * exported, so the segments are handed to sa_wire.c as they are: it checks
 * every header and length against the request and reads the records,
 * AttributeOffset * 8 bytes apart, across segment boundaries.  Records
 * beyond sa_max_records are dropped.
 */
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
	    wc->mad_seg_size != IB_MGMT_MAD_SIZE)
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

/*
 * An answer, matched by the MAD layer to the request it answers (by TID)
 * and given with that request's send buffer, before the send completes;
 * the op ends in rai_sa_send_handler().  Without a send buffer it answers
 * nothing of ours (a late or duplicate response) and is dropped, as is a
 * second answer to one request.
 */
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

/*
 * The status of an op whose MAD came back without an answer (the mapping
 * is rai_sa_send_status(), sa_wire.c): IB_WC_RESP_TIMEOUT_ERR after
 * sa_retries resends, sa_timeout_ms apart (-ETIMEDOUT);
 * IB_WC_WR_FLUSH_ERR when the agent was unregistered by a device removal
 * (-ENODEV) or the MAD cancelled, its last waiter gone; IB_WC_SUCCESS
 * when no response was handed over (-EPROTO); any other error when the
 * MAD could not be sent (-EHOSTUNREACH).
 */
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

/*
 * The MAD layer is done with a request: answered (op->res from the
 * receive handler), or not (rai_sa_send_failed()).  Either way the op
 * ends here, once per MAD, and its waiters are called.
 */
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

	spin_lock(&rai_sa_op_lock);
	op->send_buf = NULL;
	spin_unlock(&rai_sa_op_lock);
	ib_free_send_mad(send_buf);
	rai_sa_op_finish(op);
}

/* ---- starting and cancelling ------------------------------------------ */

/*
 * An identical op in flight on @port: same request bytes, and asked of the
 * same SA (the port's generation @gen).
 */
static struct rai_sa_op *rai_sa_find_op(struct rai_sa_port *port,
					const struct rai_sa_req *req, u32 gen)
{
	struct rai_sa_op *op;

	lockdep_assert_held(&rai_sa_op_lock);
	list_for_each_entry(op, &rai_sa_joinable, node)
		if (op->port == port && op->gen == gen &&
		    !memcmp(&op->req, req, sizeof(*req)))
			return op;
	return NULL;
}

/*
 * Make @q a waiter of @op.  False when the query was aborted before it
 * could be started.
 */
static bool rai_sa_join(struct rai_sa_op *op, struct rai_sa_query *q)
{
	lockdep_assert_held(&rai_sa_op_lock);
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
	spin_lock(&rai_sa_op_lock);
	if (q->state == RAI_SA_CANCELLED)
		ret = -ECANCELED;
	else
		q->state = RAI_SA_FAILED;
	spin_unlock(&rai_sa_op_lock);
	return ret;
}

/*
 * The end of a start that found (or made) @op for @q under rai_sa_op_lock:
 * @q joins it, the lock is dropped and @stat counts the query.  Without
 * @op, or when @q was aborted meanwhile, the start fails with -ECANCELED.
 */
static int rai_sa_join_or_fail(struct rai_sa_op *op, struct rai_sa_query *q,
			       enum rai_sa_stat stat)
	__releases(&rai_sa_op_lock)
{
	bool joined;

	lockdep_assert_held(&rai_sa_op_lock);
	joined = op && rai_sa_join(op, q);
	spin_unlock(&rai_sa_op_lock);
	if (!joined)
		return rai_sa_start_failed(q, -ECANCELED);
	rai_sa_stat_inc(stat);
	return 0;
}

static struct rai_sa_op *rai_sa_op_alloc(struct rai_sa_port *port,
					 const struct rai_sa_req *req, u32 gen,
					 gfp_t gfp)
{
	struct rai_sa_op *op = kzalloc(sizeof(*op), gfp);

	if (!op)
		return NULL;
	op->port = port;
	op->gen = gen;
	op->req = *req;
	INIT_LIST_HEAD(&op->waiters);
	INIT_LIST_HEAD(&op->node);
	INIT_WORK(&op->work, rai_sa_op_work);
	return op;
}

/*
 * A MAD for @op, or an ERR_PTR: one 256-byte MAD to QP1 of the SA, built
 * whole by sa_wire.c.  Requests always fit in one MAD (no RMPP when
 * sending).  The MAD layer resends it sa_retries times, sa_timeout_ms
 * apart, until an answer comes.
 */
static struct ib_mad_send_buf *rai_sa_op_mad(struct rai_sa_op *op, gfp_t gfp)
{
	struct ib_mad_agent *agent = op->port->agent;
	struct ib_mad_send_buf *send_buf;
	u32 tid;

	send_buf = ib_create_send_mad(agent, 1, op->ah->pkey_index, 0,
				      IB_MGMT_SA_HDR, IB_MGMT_SA_DATA, gfp,
				      IB_MGMT_BASE_VERSION);
	if (IS_ERR(send_buf))
		return send_buf;
	/*
	 * The MAD layer routes answers to the agent by the high 32 bits of
	 * the TID (its hi_tid) and matches them to the send by the whole
	 * TID: a counter below makes each request's TID unique.
	 */
	tid = atomic_inc_return(&rai_sa_tid);
	rai_sa_req_to_mad(&op->req, (u64)agent->hi_tid << 32 | tid,
			  send_buf->mad);
	send_buf->ah = op->ah->ah;
	send_buf->timeout_ms = max(READ_ONCE(rai_sa_timeout_ms), 1U);
	send_buf->retries = READ_ONCE(rai_sa_retries);
	send_buf->context[0] = op;
	return send_buf;
}

/*
 * The MAD of @op, which @q joined, could not be posted.  Others may have
 * joined meanwhile: they get the error from rai_sa_wq.  Returns
 * -EHOSTUNREACH, or -ECANCELED when @q was aborted meanwhile (the abort
 * took it back).
 */
static int rai_sa_post_failed(struct rai_sa_query *q, struct rai_sa_op *op,
			      struct ib_mad_send_buf *send_buf)
{
	bool ours = false;

	spin_lock(&rai_sa_op_lock);
	if (q->state == RAI_SA_PENDING) {
		list_del_init(&q->node);
		q->state = RAI_SA_FAILED;
		ours = true;
	}
	op->send_buf = NULL;
	rai_sa_op_unlist(op);
	spin_unlock(&rai_sa_op_lock);
	if (ours)
		rai_sa_query_put(q);	/* the op's */
	ib_free_send_mad(send_buf);
	rai_sa_stat_inc(RAI_SA_STAT_NO_SA);
	op->status = -EHOSTUNREACH;
	queue_work(rai_sa_wq, &op->work);
	return ours ? -EHOSTUNREACH : -ECANCELED;
}

/*
 * Send the MAD of @op, a new op for @q, and list @op to be joined; unless
 * an identical op was started while it was being built (rai_sa_op_lock is
 * dropped to allocate): then @q joins that one.
 */
static int rai_sa_start_mad(struct rai_sa_query *q, struct rai_sa_op *op)
{
	struct ib_mad_send_buf *send_buf;
	struct rai_sa_op *other;
	int ret;

	send_buf = rai_sa_op_mad(op, q->gfp);
	if (IS_ERR(send_buf)) {
		rai_sa_op_free(op);
		return rai_sa_start_failed(q, PTR_ERR(send_buf));
	}

	spin_lock(&rai_sa_op_lock);
	other = rai_sa_find_op(op->port, &op->req, op->gen);
	if (other || q->state != RAI_SA_IDLE) {
		/* Started while we built ours: share it. */
		ret = rai_sa_join_or_fail(other, q, RAI_SA_STAT_COALESCED);
		ib_free_send_mad(send_buf);
		rai_sa_op_free(op);
		return ret;
	}
	op->send_buf = send_buf;
	rai_sa_join(op, q);
	list_add(&op->node, &rai_sa_joinable);
	op->listed = true;
	spin_unlock(&rai_sa_op_lock);

	ret = ib_post_send_mad(send_buf, NULL);
	if (ret)
		return rai_sa_post_failed(q, op, send_buf);
	/* Answered (or failed) already, op may be gone: not touched again. */
	rai_sa_stat_inc(RAI_SA_STAT_MADS);
	return 0;
}

/*
 * rai_sa_start() under rai_sa_rwsem (read), which keeps the port alive.
 * In order: the port and its SA's address (built on first use); the
 * answer from the port's cache, delivered from rai_sa_wq by an op of its
 * own; else an identical op in flight to join; else a new op and its MAD.
 */
static int rai_sa_start_locked(struct rai_sa_query *q, struct net *net,
			       struct ib_device *ibdev, const char *name,
			       u32 port_num, struct rai_sa_req *req,
			       bool default_sgid)
{
	struct rai_sa_result *res;
	struct rai_sa_port *port;
	struct rai_sa_op *op;
	struct rai_sa_ah *ah;
	int ret;
	u32 gen;

	lockdep_assert_held(&rai_sa_rwsem);
	port = rai_sa_find_port(net, ibdev, name, port_num);
	if (IS_ERR(port))
		return rai_sa_start_failed(q, PTR_ERR(port));
	rai_sa_stat_inc(RAI_SA_STAT_QUERIES);
	ah = rai_sa_get_ah(port, &gen);
	if (IS_ERR(ah)) {
		if (PTR_ERR(ah) == -EHOSTUNREACH)
			rai_sa_stat_inc(RAI_SA_STAT_NO_SA);
		return rai_sa_start_failed(q, PTR_ERR(ah));
	}
	/* A PathRecord from "us": the GID the port faces its SA with. */
	if (default_sgid)
		memcpy(req->rec + RAI_SA_PR_OFF_SGID, ah->sgid.raw, 16);

	spin_lock(&rai_sa_op_lock);
	res = rai_sa_cache_get(port, req);
	op = res ? NULL : rai_sa_find_op(port, req, gen);
	if (op) {
		ret = rai_sa_join_or_fail(op, q, RAI_SA_STAT_COALESCED);
		rai_sa_ah_put(ah);
		return ret;
	}
	spin_unlock(&rai_sa_op_lock);

	op = rai_sa_op_alloc(port, req, gen, q->gfp);
	if (!op) {
		rai_sa_ah_put(ah);
		rai_sa_result_put(res);
		return rai_sa_start_failed(q, -ENOMEM);
	}
	if (!res) {
		op->ah = ah;
		return rai_sa_start_mad(q, op);
	}
	rai_sa_ah_put(ah);
	op->res = res;
	spin_lock(&rai_sa_op_lock);
	ret = rai_sa_join_or_fail(op, q, RAI_SA_STAT_CACHE_HITS);
	if (ret)
		rai_sa_op_free(op);
	else
		queue_work(rai_sa_wq, &op->work);
	return ret;
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

	/* No @sgid: filled in with the port's own once the port is known. */
	if (!dgid)
		return rai_sa_start_failed(q, -EINVAL);
	rai_sa_req_path(&req, dgid, sgid ? sgid : zero, pkey);
	return rai_sa_start(q, net, ibdev_name, port_num, &req, !sgid);
}

bool rai_sa_abort(struct rai_sa_query *q)
{
	bool wait = false, dropped = false;
	struct rai_sa_op *op;

	if (IS_ERR_OR_NULL(q))
		return false;
	spin_lock(&rai_sa_op_lock);
	switch (q->state) {
	case RAI_SA_IDLE:
		/* Not started yet: the start will fail with -ECANCELED. */
		q->state = RAI_SA_CANCELLED;
		spin_unlock(&rai_sa_op_lock);
		return true;
	case RAI_SA_PENDING:
		q->state = RAI_SA_CANCELLED;
		list_del_init(&q->node);
		dropped = true;
		op = q->op;
		if (list_empty(&op->waiters)) {
			/*
			 * Nobody wants it any more: no new joiners either.
			 * Its MAD, if still with the MAD layer, completes
			 * flushed and the op ends there with no waiter.
			 */
			rai_sa_op_unlist(op);
			if (op->send_buf)
				ib_cancel_mad(op->send_buf);
		}
		break;
	case RAI_SA_RUNNING:
		/* Too late; wait for done() unless called from it. */
		wait = q->runner != current;
		break;
	default:
		break;
	}
	spin_unlock(&rai_sa_op_lock);

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

static void rai_sa_flush(void)
{
	flush_workqueue(rai_sa_wq);
}

/* The ports below register the MAD handlers of the queries above. */
static const struct rai_sa_port_client rai_sa_port_client_ops = {
	.send_handler = rai_sa_send_handler,
	.recv_handler = rai_sa_recv_handler,
	.flush = rai_sa_flush,
};

int rai_sa_init(void)
{
	int ret;

	rai_sa_wq = alloc_workqueue("rai_sa", WQ_UNBOUND, 0);
	if (!rai_sa_wq)
		return -ENOMEM;
	ret = rai_sa_port_init(&rai_sa_port_client_ops);
	if (ret)
		destroy_workqueue(rai_sa_wq);
	return ret;
}

void rai_sa_exit(void)
{
	/* Every query has completed once the ports are gone. */
	rai_sa_port_exit();
	destroy_workqueue(rai_sa_wq);
}
