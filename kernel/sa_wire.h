/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: SA MAD wire format (IBA 15.2): building requests and
 * validating responses.  Pure functions on byte buffers: no locks, no
 * allocation, nothing of the MAD layer, so that they can be unit-tested
 * in user space (selftests/host/sa_wire_unit.c).
 *
 * Nothing here trusts the peer: every length, offset and count of a
 * response is checked before a byte of it is used, and no byte outside
 * the MAD buffers handed in is ever read.
 */
#ifndef _RAI_SA_WIRE_H
#define _RAI_SA_WIRE_H

#include <linux/types.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>

/*
 * The MAD's sizes, versions, class, methods and attributes are the
 * kernel's (IB_MGMT_*, IB_SA_*); the host test has stand-ins of the same
 * names (selftests/host/kshim/rdma/).
 */
#define RAI_SA_SR_LEN		176	/* ServiceRecord */
#define RAI_SA_PR_LEN		64	/* PathRecord */
#define RAI_SA_NAME_LEN		64	/* ServiceRecord.ServiceName */

/*
 * Component mask bits (IBA 15.2.5.14 ServiceRecord, 15.2.5.16 PathRecord),
 * host order: the kernel has no ServiceRecord ones, and its PathRecord
 * ones (IB_SA_PATH_REC_*) are big-endian.
 */
#define RAI_SA_SR_CM_ID		BIT_ULL(0)
#define RAI_SA_SR_CM_NAME	BIT_ULL(6)
#define RAI_SA_PR_CM_DGID	BIT_ULL(2)
#define RAI_SA_PR_CM_SGID	BIT_ULL(3)
#define RAI_SA_PR_CM_REVERSIBLE	BIT_ULL(11)
#define RAI_SA_PR_CM_NUMB_PATH	BIT_ULL(12)
#define RAI_SA_PR_CM_PKEY	BIT_ULL(13)

/* Byte offsets inside an SA MAD and inside the records. */
#define RAI_SA_OFF_BASE_VERSION	0
#define RAI_SA_OFF_CLASS	1
#define RAI_SA_OFF_CLASS_VER	2
#define RAI_SA_OFF_METHOD	3
#define RAI_SA_OFF_STATUS	4
#define RAI_SA_OFF_TID		8
#define RAI_SA_OFF_ATTR_ID	16
#define RAI_SA_OFF_RMPP_VERSION	24
#define RAI_SA_OFF_RMPP_TYPE	25
#define RAI_SA_OFF_RMPP_FLAGS	26
#define RAI_SA_OFF_RMPP_SEG	28
#define RAI_SA_OFF_ATTR_OFFSET	44
#define RAI_SA_OFF_COMP_MASK	48

#define RAI_SA_SR_OFF_ID	0
#define RAI_SA_SR_OFF_GID	8
#define RAI_SA_SR_OFF_PKEY	24
#define RAI_SA_SR_OFF_LEASE	28
#define RAI_SA_SR_OFF_NAME	48
#define RAI_SA_PR_OFF_DGID	8
#define RAI_SA_PR_OFF_SGID	24
#define RAI_SA_PR_OFF_NUMB_PATH	49
#define RAI_SA_PR_OFF_PKEY	50

/* MAD status: class-specific code in bits 8..14 (IBA 15.2.1.1) */
#define RAI_SA_STATUS_NO_RECORDS 3

/**
 * struct rai_sa_req - the variable part of an SA request
 * @attr_id: IB_SA_ATTR_SERVICE_REC or IB_SA_ATTR_PATH_REC
 * @method: IB_MGMT_METHOD_GET or IB_SA_METHOD_GET_TABLE
 * @comp_mask: component mask, host order
 * @rec: the query record (template), wire format
 *
 * Two requests with identical bytes here are the same query (used as the
 * key for coalescing and caching, so unused bytes must be zero).
 */
struct rai_sa_req {
	u16 attr_id;
	u8 method;
	u8 reserved[5];
	u64 comp_mask;
	u8 rec[RAI_SA_SR_LEN];
};

void rai_sa_req_service(struct rai_sa_req *req, u64 service_id, bool by_id,
			const char *name, size_t name_len);
void rai_sa_req_path(struct rai_sa_req *req, const u8 *dgid, const u8 *sgid,
		     u16 pkey);

/* Size of the records answering @req (176 or 64). */
size_t rai_sa_req_rec_len(const struct rai_sa_req *req);

/*
 * Write the whole MAD of @req into a zeroed @mad (IB_MGMT_MAD_SIZE bytes):
 * the common MAD header (SubnAdm class, with transaction ID @tid), the SA
 * header and the query record.
 */
void rai_sa_req_to_mad(const struct rai_sa_req *req, u64 tid, u8 *mad);

/**
 * struct rai_sa_resp - what rai_sa_resp_check() found in a response
 * @nrec: number of records
 * @stride: distance between records in the data (AttributeOffset * 8)
 */
struct rai_sa_resp {
	unsigned int nrec;
	unsigned int stride;
};

/**
 * rai_sa_resp_check() - validate the headers of a response to @req
 * @req: the request
 * @seg: the segments of the response, each IB_MGMT_MAD_SIZE bytes, in
 *	order (one for a non-RMPP response)
 * @nseg: number of segments
 * @mad_len: the MAD layer's length of the response (header + data)
 * @out: on success, the number of records and their stride
 *
 * Return: 0 (at least one record), -ENXIO (no record), -EREMOTEIO (the SA
 * answered with another error status), -EPROTO (malformed: wrong version,
 * class, method or attribute, bad RMPP header, lengths or counts that do
 * not add up).
 */
int rai_sa_resp_check(const struct rai_sa_req *req, const u8 *const *seg,
		      unsigned int nseg, int mad_len, struct rai_sa_resp *out);

/*
 * Copy the first @max records of a response checked by rai_sa_resp_check()
 * to @dst, rec_len bytes each (the record's size, whatever the stride).
 * Returns the number copied.
 */
unsigned int rai_sa_resp_copy(const struct rai_sa_req *req,
			      const struct rai_sa_resp *resp,
			      const u8 *const *seg, unsigned int nseg,
			      u8 *dst, unsigned int max);

/*
 * Decisions of the SA client (sa_client.c, sa_port.c), pure functions
 * here for the same reason: the cases the VM cannot produce on demand (a
 * MAD flushed without the device going, a port event in the middle of
 * building the SA address) are unit-tested on the host.
 */

/* How the MAD layer gave a send back without an answer. */
enum rai_sa_send_end {
	RAI_SA_SEND_NO_ANSWER,	/* completed, but no answer was handed over */
	RAI_SA_SEND_TIMEOUT,	/* no answer after every retry */
	RAI_SA_SEND_FLUSHED,	/* cancelled, or the agent was unregistered */
	RAI_SA_SEND_ERROR,	/* the MAD could not be sent */
};

/*
 * The status of the queries of a MAD that ended so (sa_client.h lists the
 * statuses); @dev_gone: the device is being removed.
 */
int rai_sa_send_status(enum rai_sa_send_end end, bool dev_gone);

/**
 * struct rai_sa_addr_gen - generations of a port's SA address
 * @gen: the port's generation: bumped by every port event after which the
 *	SA may differ (SM, LID, P_Key, GID change, port up or down) and by
 *	a new sa_gid.  Queries and cached answers carry it.
 * @gid_gen: the sa_gid generation the installed address was built for
 */
struct rai_sa_addr_gen {
	u32 gen;
	int gid_gen;
};

/*
 * INSTALL: install it, @gen unchanged; INSTALL_NEW_SA: install it, it is
 * for a new sa_gid: a new @gen, the cache is dropped; STALE: do not
 * install it, build it again.
 */
enum rai_sa_addr_verdict {
	RAI_SA_ADDR_INSTALL,
	RAI_SA_ADDR_INSTALL_NEW_SA,
	RAI_SA_ADDR_STALE,
};

/*
 * An SA address was built from the port's state while the port was at
 * generation @built_gen, for sa_gid generation @built_gid_gen; sa_gid is
 * now at @gid_gen_now.  May it be installed into @port (updated if so)?
 */
enum rai_sa_addr_verdict rai_sa_addr_install(struct rai_sa_addr_gen *port,
					     u32 built_gen, int built_gid_gen,
					     int gid_gen_now);

#endif /* _RAI_SA_WIRE_H */
