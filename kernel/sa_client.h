/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the module's own InfiniBand SA client (kernels before
 * 6.18 export no ServiceRecord query).
 *
 * One GSI MAD agent (RMPP version 1) per IB-capable port of every RDMA
 * device.  The SA is addressed as follows:
 *  - InfiniBand link layer: the port's SM (sm_lid, sm_sl, default P_Key),
 *    forgotten on port, LID, P_Key, SM change and client-reregister events
 *    and looked up again by the next query;
 *  - RoCE: the GID in module parameter sa_gid ("fd00::2", or an IPv4
 *    address for a RoCEv2/IPv4 GID), reached from the RoCEv2 GID of the
 *    port that best matches it (same kind, longest common prefix).  Empty:
 *    the port has no SA (-EHOSTUNREACH).
 *
 * Identical queries in flight on a port share one MAD; successful answers
 * are cached per port for sa_cache_ttl_ms (0: no cache), and the cache is
 * dropped on every SM/port event and when sa_gid changes.  Counters are in
 * <debugfs>/rdma_addrinfo/sa.
 *
 * Query lifetime
 * --------------
 * rai_sa_query_service() and rai_sa_query_path() start a query and return
 * its handle (or an ERR_PTR, and then @done is never called).  @done is
 * then called exactly once, in process context (a workqueue of the MAD
 * layer or of this module; it may sleep briefly but must not wait for
 * another SA query, starting one is fine), unless rai_sa_cancel() takes it
 * back first.  Records passed to @done are valid only during the call.
 *
 * Every handle must be given back with rai_sa_cancel() exactly once,
 * whether @done has run or not; it may be called from @done itself.  When
 * rai_sa_cancel() returns, @done has either run to completion or will
 * never run.  Called from anywhere but @done, it waits for a @done that is
 * running at that moment, so the caller must not hold a lock @done takes.
 * @done may run before rai_sa_query_*() has returned to its caller (on
 * another CPU), so a caller that keeps the handle in its own object does,
 * with its own lock:
 *
 *	start:	q = rai_sa_query_service(...);
 *		lock; if (obj->sa_over) { unlock; rai_sa_cancel(q); }
 *		else { obj->sa_q = q; unlock; }
 *	done:	use the records; lock; obj->sa_over = true;
 *		q = obj->sa_q; obj->sa_q = NULL; unlock;
 *		if (q) rai_sa_cancel(q);	(no wait: called from @done)
 *	cancel:	lock; obj->sa_over = true; q = obj->sa_q; obj->sa_q = NULL;
 *		unlock; if (q) rai_sa_cancel(q);
 *
 * The counters of <debugfs>/rdma_addrinfo/sa: queries (started on a port),
 * mads_sent, coalesced (joined a MAD in flight), cache_hits, answers,
 * no_records, timeouts, malformed, remote_errors (error MAD status),
 * no_sa, cancelled, device_removed.
 *
 * Completion statuses (those of the ABI header):
 *  0            at least one record (@nrec >= 1)
 *  -ENXIO       no record matches (empty table or SA status NO_RECORDS)
 *  -ETIMEDOUT   no answer after sa_retries retries of sa_timeout_ms
 *  -EHOSTUNREACH the port has no SA (no SM LID, port down, no sa_gid on a
 *               RoCE port, no usable source GID, or the MAD could not be
 *               sent)
 *  -EPROTO      malformed or inconsistent answer
 *  -EREMOTEIO   the SA answered with another error MAD status
 *  -ENODEV      the device went away during the query
 *  -ENOMEM      out of memory
 */
#ifndef _RAI_SA_CLIENT_H
#define _RAI_SA_CLIENT_H

#include <linux/types.h>

struct net;
struct rai_sa_query;

/*
 * @records: @nrec records in SA wire format, RAI_SA_SR_LEN (176) bytes
 * each for ServiceRecords, RAI_SA_PR_LEN (64) for a PathRecord; NULL with
 * nrec 0 when @status is not 0.
 */
typedef void (*rai_sa_done_fn)(void *ctx, int status, const void *records,
			       unsigned int nrec);

int rai_sa_init(void);
void rai_sa_exit(void);

/**
 * rai_sa_query_service() - SubnAdmGetTable(ServiceRecord)
 * @net: network namespace the device must be visible in, or NULL
 * @ibdev_name: RDMA device, NUL-terminated
 * @port_num: its port
 * @service_id: ServiceID to match when @by_id
 * @by_id: match by @service_id, else by @name
 * @name: ServiceName bytes (no NUL needed), 1..63 bytes, no NUL inside
 * @name_len: length of @name
 * @done: completion callback (see above)
 * @ctx: its argument
 * @gfp: allocation flags (GFP_KERNEL or GFP_KERNEL_ACCOUNT)
 *
 * Process context only (may sleep).  Errors: -EINVAL (bad name, bad port),
 * -ENODEV (no such device or port, or not in @net), -EHOSTUNREACH (the
 * port has no SA), -ENOMEM.
 */
struct rai_sa_query *rai_sa_query_service(struct net *net,
					  const char *ibdev_name, u32 port_num,
					  u64 service_id, bool by_id,
					  const char *name, size_t name_len,
					  rai_sa_done_fn done, void *ctx,
					  gfp_t gfp);

/**
 * rai_sa_query_path() - SubnAdmGet(PathRecord) from @sgid to @dgid
 * @net, @ibdev_name, @port_num, @done, @ctx, @gfp: as above
 * @dgid: destination GID, 16 bytes, network order
 * @sgid: source GID, or NULL for the port's own GID (GID 0 on IB, the GID
 *	used to reach the SA on RoCE)
 * @pkey: P_Key to match, or 0 for any
 *
 * Asks for one reversible path; @done receives at most one record.
 */
struct rai_sa_query *rai_sa_query_path(struct net *net,
				       const char *ibdev_name, u32 port_num,
				       const u8 *dgid, const u8 *sgid, u16 pkey,
				       rai_sa_done_fn done, void *ctx,
				       gfp_t gfp);

/*
 * Two-step form, for callers that must publish the handle before @done can
 * possibly run: rai_sa_query_alloc() (NULL: out of memory), publish it,
 * then rai_sa_start_service() / rai_sa_start_path() with the arguments
 * above.  A start returns 0 (then @done will be called unless aborted),
 * -ECANCELED when rai_sa_abort() came first (it returned true), or
 * another error (as above; @done will not be called and a concurrent
 * rai_sa_abort() returns false).  Either way the handle is still the
 * caller's to put.
 *
 * rai_sa_abort() is rai_sa_cancel() without the release: true when it took
 * the query back before @done ran (or before it was started); it waits
 * for a running @done like rai_sa_cancel().  rai_sa_query_get() and
 * rai_sa_query_put() take and drop references to the handle; the last put
 * frees it.  rai_sa_cancel(q) is rai_sa_abort(q) then rai_sa_query_put(q).
 */
struct rai_sa_query *rai_sa_query_alloc(rai_sa_done_fn done, void *ctx,
					gfp_t gfp);
int rai_sa_start_service(struct rai_sa_query *q, struct net *net,
			 const char *ibdev_name, u32 port_num, u64 service_id,
			 bool by_id, const char *name, size_t name_len);
int rai_sa_start_path(struct rai_sa_query *q, struct net *net,
		      const char *ibdev_name, u32 port_num, const u8 *dgid,
		      const u8 *sgid, u16 pkey);
bool rai_sa_abort(struct rai_sa_query *q);
void *rai_sa_query_ctx(const struct rai_sa_query *q);	/* its @ctx */
void rai_sa_query_get(struct rai_sa_query *q);
void rai_sa_query_put(struct rai_sa_query *q);

/**
 * rai_sa_local_gid() - the port's own GID facing its SA
 * @net, @ibdev_name, @port_num: as above
 * @gid: out, 16 bytes: GID 0 on IB, the RoCEv2 GID chosen to reach sa_gid
 *	on RoCE (the SGID of rai_sa_query_path() with @sgid NULL)
 *
 * Process context.  Returns 0, -ENODEV or -EHOSTUNREACH (no SA).
 */
int rai_sa_local_gid(struct net *net, const char *ibdev_name, u32 port_num,
		     u8 *gid);

/*
 * Cancel (if still in flight) and release a query; see above.  Returns
 * true when this call took the query back before @done ran (@done will
 * never be called), false when @done has run (or the handle was an
 * ERR_PTR or NULL).
 */
bool rai_sa_cancel(struct rai_sa_query *q);

#endif /* _RAI_SA_CLIENT_H */
