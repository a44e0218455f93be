/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the module's own InfiniBand SA client (kernels before
 * 6.18 export no ServiceRecord query): SubnAdmGetTable(ServiceRecord) and
 * SubnAdmGet(PathRecord) on one port of an RDMA device, sent to that
 * port's SA (sa_port.c: the SM on InfiniBand, the sa_gid parameter on
 * RoCE; Documentation/admin-guide.rst), with sa_timeout_ms and sa_retries.
 * Identical queries may share one MAD and one answer, and answers may come
 * from a per-port cache (sa_cache_ttl_ms); a caller cannot tell.
 *
 * Query lifetime
 * --------------
 * rai_sa_query_alloc() returns a handle (NULL: out of memory) holding the
 * caller's reference.  The caller publishes it where its cancel path finds
 * it, then starts it with rai_sa_start_service() or rai_sa_start_path().
 * A start returns 0: @done will then be called exactly once, unless
 * rai_sa_abort() takes the query back first; -ECANCELED: rai_sa_abort()
 * came first (it returned true); another error (see the starts): @done
 * will not be called and a concurrent rai_sa_abort() returns false.
 * Either way the handle is still the caller's to put.
 *
 * @done is called in process context (a workqueue of the MAD layer or of
 * this module; it may sleep briefly but must not wait for another SA
 * query, starting one is fine), possibly before the start has returned to
 * its caller (on another CPU).  Records passed to @done are valid only
 * during the call.
 *
 * rai_sa_abort() returns true when it took the query back before @done ran
 * (or before it was started): @done will never run.  Otherwise @done has
 * run, or is running; called from anywhere but @done, rai_sa_abort() then
 * waits for it to return, so the caller must not hold a lock @done takes.
 * rai_sa_query_get() and rai_sa_query_put() take and drop references to
 * the handle; the last put frees it.  sa_backend.c shows the pattern: a
 * slot that whoever empties it (@done or the cancel path) owns.
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
struct rdma_addrinfo_info;

/* The SA parameters GET_INFO reports: sa_timeout_ms, sa_retries. */
void rai_sa_info(struct rdma_addrinfo_info *info);

/*
 * @records: @nrec records in SA wire format, RAI_SA_SR_LEN (176) bytes
 * each for ServiceRecords, RAI_SA_PR_LEN (64) for a PathRecord; NULL with
 * nrec 0 when @status is not 0.
 */
typedef void (*rai_sa_done_fn)(void *ctx, int status, const void *records,
			       unsigned int nrec);

/*
 * rai_sa_init() starts the SA client (call it after rai_stats_init() and
 * before the device is registered: the SA backend, rai_sa_ops, works from
 * then on); rai_sa_exit() stops it (after the device is gone and every
 * request is destroyed, before rai_stats_exit()).
 */
int rai_sa_init(void);
void rai_sa_exit(void);

/*
 * A start's arguments: @net, the network namespace the device must be
 * visible in, or NULL; @ibdev_name, the RDMA device (NUL-terminated);
 * @port_num, its port.
 *
 * rai_sa_start_service(): SubnAdmGetTable(ServiceRecord), matching
 * @service_id when @by_id, else the ServiceName @name (@name_len bytes,
 * 1..63, no NUL inside, none needed at the end).
 *
 * rai_sa_start_path(): SubnAdmGet(PathRecord) of one reversible path from
 * @sgid (or, NULL, the port's own GID: GID 0 on IB, the GID used to reach
 * the SA on RoCE) to @dgid (16 bytes, network order), matching @pkey (0:
 * any); @done receives at most one record.
 *
 * Process context only (may sleep).  Start errors: -EINVAL (bad name, no
 * @dgid), -ENODEV (no such device or port, or not in @net), -EHOSTUNREACH
 * (the port has no SA), -ENOMEM.  @gfp of rai_sa_query_alloc() is
 * GFP_KERNEL or GFP_KERNEL_ACCOUNT.
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
 * @net: network namespace the device must be visible in, or NULL
 * @ibdev_name: the RDMA device, NUL-terminated
 * @port_num: its port
 * @gid: out, 16 bytes: GID 0 on IB, the RoCEv2 GID chosen to reach sa_gid
 *	on RoCE (the SGID of rai_sa_start_path() with @sgid NULL)
 *
 * Process context.  Returns 0, -ENODEV or -EHOSTUNREACH (no SA).
 */
int rai_sa_local_gid(struct net *net, const char *ibdev_name, u32 port_num,
		     u8 *gid);

#endif /* _RAI_SA_CLIENT_H */
