// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: SA MAD wire format: requests and response validation.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "sa_wire.h"

static u16 rai_sa_get16(const u8 *p)
{
	return (u16)p[0] << 8 | p[1];
}

static u32 rai_sa_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void rai_sa_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void rai_sa_put64(u8 *p, u64 v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = v;
}

void rai_sa_req_service(struct rai_sa_req *req, u64 service_id, bool by_id,
			const char *name, size_t name_len)
{
	memset(req, 0, sizeof(*req));
	req->attr_id = IB_SA_ATTR_SERVICE_REC;
	req->method = IB_SA_METHOD_GET_TABLE;
	if (by_id) {
		req->comp_mask = RAI_SA_SR_CM_ID;
		rai_sa_put64(req->rec + RAI_SA_SR_OFF_ID, service_id);
	} else {
		req->comp_mask = RAI_SA_SR_CM_NAME;
		memcpy(req->rec + RAI_SA_SR_OFF_NAME, name,
		       min_t(size_t, name_len, RAI_SA_NAME_LEN));
	}
}

void rai_sa_req_path(struct rai_sa_req *req, const u8 *dgid, const u8 *sgid,
		     u16 pkey)
{
	memset(req, 0, sizeof(*req));
	req->attr_id = IB_SA_ATTR_PATH_REC;
	req->method = IB_MGMT_METHOD_GET;
	req->comp_mask = RAI_SA_PR_CM_DGID | RAI_SA_PR_CM_SGID |
			 RAI_SA_PR_CM_REVERSIBLE | RAI_SA_PR_CM_NUMB_PATH;
	memcpy(req->rec + RAI_SA_PR_OFF_DGID, dgid, 16);
	memcpy(req->rec + RAI_SA_PR_OFF_SGID, sgid, 16);
	/* Reversible, at most one path. */
	req->rec[RAI_SA_PR_OFF_NUMB_PATH] = 0x80 | 1;
	if (pkey) {
		req->comp_mask |= RAI_SA_PR_CM_PKEY;
		rai_sa_put16(req->rec + RAI_SA_PR_OFF_PKEY, pkey);
	}
}

size_t rai_sa_req_rec_len(const struct rai_sa_req *req)
{
	return req->attr_id == IB_SA_ATTR_SERVICE_REC ? RAI_SA_SR_LEN :
							 RAI_SA_PR_LEN;
}

void rai_sa_req_to_mad(const struct rai_sa_req *req, u64 tid, u8 *mad)
{
	mad[RAI_SA_OFF_BASE_VERSION] = IB_MGMT_BASE_VERSION;
	mad[RAI_SA_OFF_CLASS] = IB_MGMT_CLASS_SUBN_ADM;
	mad[RAI_SA_OFF_CLASS_VER] = IB_SA_CLASS_VERSION;
	rai_sa_put64(mad + RAI_SA_OFF_TID, tid);
	rai_sa_put16(mad + RAI_SA_OFF_ATTR_ID, req->attr_id);
	mad[RAI_SA_OFF_METHOD] = req->method;
	rai_sa_put64(mad + RAI_SA_OFF_COMP_MASK, req->comp_mask);
	memcpy(mad + IB_MGMT_SA_HDR, req->rec, rai_sa_req_rec_len(req));
}

/* Headers every segment of an RMPP response must carry. */
static bool rai_sa_rmpp_seg_ok(const u8 *seg, unsigned int i)
{
	u8 flags = seg[RAI_SA_OFF_RMPP_FLAGS];

	if (seg[RAI_SA_OFF_RMPP_VERSION] != IB_MGMT_RMPP_VERSION ||
	    seg[RAI_SA_OFF_RMPP_TYPE] != IB_MGMT_RMPP_TYPE_DATA ||
	    !(flags & IB_MGMT_RMPP_FLAG_ACTIVE))
		return false;
	if (!i != !!(flags & IB_MGMT_RMPP_FLAG_FIRST))
		return false;
	return rai_sa_get32(seg + RAI_SA_OFF_RMPP_SEG) == i + 1;
}

int rai_sa_resp_check(const struct rai_sa_req *req, const u8 *const *seg,
		      unsigned int nseg, int mad_len, struct rai_sa_resp *out)
{
	unsigned int rec_len = rai_sa_req_rec_len(req);
	bool table = req->method == IB_SA_METHOD_GET_TABLE;
	unsigned int data_len, stride, i;
	const u8 *mad;
	u16 status;

	memset(out, 0, sizeof(*out));
	if (!nseg || !seg[0])
		return -EPROTO;
	mad = seg[0];
	if (mad[RAI_SA_OFF_BASE_VERSION] != IB_MGMT_BASE_VERSION ||
	    mad[RAI_SA_OFF_CLASS] != IB_MGMT_CLASS_SUBN_ADM ||
	    mad[RAI_SA_OFF_CLASS_VER] != IB_SA_CLASS_VERSION ||
	    mad[RAI_SA_OFF_METHOD] != (req->method | IB_MGMT_METHOD_RESP))
		return -EPROTO;

	/* An error status comes with no data worth looking at. */
	status = rai_sa_get16(mad + RAI_SA_OFF_STATUS);
	if (status)
		return ((status >> 8) & 0x7f) == RAI_SA_STATUS_NO_RECORDS ?
		       -ENXIO : -EREMOTEIO;

	if (rai_sa_get16(mad + RAI_SA_OFF_ATTR_ID) != req->attr_id)
		return -EPROTO;

	stride = rai_sa_get16(mad + RAI_SA_OFF_ATTR_OFFSET) * 8;
	if (!table) {
		/* A single MAD, a single record in its 200 data bytes. */
		if (nseg != 1 || mad_len != IB_MGMT_MAD_SIZE ||
		    (mad[RAI_SA_OFF_RMPP_FLAGS] & IB_MGMT_RMPP_FLAG_ACTIVE))
			return -EPROTO;
		if (stride && (stride < rec_len || stride > IB_MGMT_SA_DATA))
			return -EPROTO;
		out->nrec = 1;
		out->stride = rec_len;
		return 0;
	}

	/*
	 * GetTableResp: RMPP, every segment in order; mad_len counts the
	 * header once and the data of all segments, the last one trimmed to
	 * its payload length.
	 */
	if (mad_len < IB_MGMT_SA_HDR)
		return -EPROTO;
	data_len = mad_len - IB_MGMT_SA_HDR;
	if (nseg != max_t(unsigned int, 1,
			  DIV_ROUND_UP(data_len, IB_MGMT_SA_DATA)))
		return -EPROTO;
	for (i = 0; i < nseg; i++)
		if (!seg[i] || !rai_sa_rmpp_seg_ok(seg[i], i))
			return -EPROTO;
	if (!data_len)
		return -ENXIO;
	if (stride < rec_len || data_len % stride)
		return -EPROTO;
	out->nrec = data_len / stride;
	out->stride = stride;
	return 0;
}

unsigned int rai_sa_resp_copy(const struct rai_sa_req *req,
			      const struct rai_sa_resp *resp,
			      const u8 *const *seg, unsigned int nseg,
			      u8 *dst, unsigned int max)
{
	unsigned int rec_len = rai_sa_req_rec_len(req);
	unsigned int n = min(resp->nrec, max), r;

	for (r = 0; r < n; r++) {
		/* Offset of the record in the concatenated data. */
		size_t off = (size_t)r * resp->stride;
		unsigned int done = 0;

		while (done < rec_len) {
			size_t s = (off + done) / IB_MGMT_SA_DATA;
			size_t in = (off + done) % IB_MGMT_SA_DATA;
			unsigned int chunk;

			if (s >= nseg)
				return r;	/* cannot happen once checked */
			chunk = min_t(unsigned int, rec_len - done,
				      IB_MGMT_SA_DATA - in);
			memcpy(dst + (size_t)r * rec_len + done,
			       seg[s] + IB_MGMT_SA_HDR + in, chunk);
			done += chunk;
		}
	}
	return n;
}

int rai_sa_send_status(enum rai_sa_send_end end, bool dev_gone)
{
	switch (end) {
	case RAI_SA_SEND_NO_ANSWER:
		return -EPROTO;
	case RAI_SA_SEND_TIMEOUT:
		return -ETIMEDOUT;
	case RAI_SA_SEND_FLUSHED:
		/*
		 * Flushed: the agent is unregistered (the device goes) or
		 * the MAD was cancelled, which only happens once it has no
		 * query left.  Never -ECANCELED: the ABI does not report it.
		 */
		return dev_gone ? -ENODEV : -EHOSTUNREACH;
	case RAI_SA_SEND_ERROR:
	default:
		return -EHOSTUNREACH;
	}
}

enum rai_sa_addr_verdict rai_sa_addr_install(struct rai_sa_addr_gen *port,
					     u32 built_gen, int built_gid_gen,
					     int gid_gen_now)
{
	/* Built from the state before an event, or for an old sa_gid. */
	if (port->gen != built_gen || built_gid_gen != gid_gen_now)
		return RAI_SA_ADDR_STALE;
	if (port->gid_gen == built_gid_gen)
		return RAI_SA_ADDR_INSTALL;
	port->gid_gen = built_gid_gen;
	port->gen++;
	return RAI_SA_ADDR_INSTALL_NEW_SA;
}
