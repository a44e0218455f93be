// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the one place results are built, for every backend: from
 * addresses (numeric literals, DNS answers; IP results, or AF_IB with the
 * service ID librdmacm makes) and from SA service records (AF_IB).
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/rdma_cm.h>

#include "addr.h"
#include "request.h"
#include "result.h"
#include "sa_wire.h"
#include "source.h"

/* librdmacm's RDMA_IB_IP_PORT_MASK: port space and port make the SID. */
#define RAI_IB_IP_PORT_MASK	0xffffULL

static __be64 rai_ib_sid(const struct rai_request *req)
{
	return cpu_to_be64(((u64)req->port_space << 16) | req->port);
}

/* @addr (IP, or AF_IB) as an AF_IB address. */
static void rai_to_ib(const struct rai_request *req,
		      const struct sockaddr *addr, struct sockaddr_ib *sib,
		      bool with_sid)
{
	memset(sib, 0, sizeof(*sib));
	switch (addr->sa_family) {
	case AF_INET:
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)addr)->sin_addr.s_addr,
				       (struct in6_addr *)&sib->sib_addr);
		break;
	case AF_INET6:
		memcpy(&sib->sib_addr,
		       &((const struct sockaddr_in6 *)addr)->sin6_addr,
		       sizeof(sib->sib_addr));
		sib->sib_scope_id =
			((const struct sockaddr_in6 *)addr)->sin6_scope_id;
		break;
	case AF_IB:
		*sib = *(const struct sockaddr_ib *)addr;
		break;
	}
	sib->sib_family = AF_IB;
	sib->sib_pkey = cpu_to_be16(0xffff);
	/* As librdmacm's ucma_set_sid(): the port is masked only if set. */
	if (with_sid) {
		sib->sib_sid = rai_ib_sid(req);
		sib->sib_sid_mask = cpu_to_be64(RDMA_IB_IP_PS_MASK |
						(req->port ?
						 RAI_IB_IP_PORT_MASK : 0));
	}
}

/* Copy @addr into @buf with the request's port; returns the length. */
static u32 rai_put_ip(const struct rai_request *req,
		      const struct sockaddr *addr, u8 *buf, bool with_port)
{
	union rai_sockaddr *out = (union rai_sockaddr *)buf;
	u32 len = rai_sockaddr_len(addr->sa_family);

	memset(buf, 0, RDMA_ADDRINFO_ADDR_SIZE);
	memcpy(buf, addr, len);
	if (addr->sa_family == AF_INET)
		out->in.sin_port = with_port ? htons(req->port) : 0;
	else if (addr->sa_family == AF_INET6)
		out->in6.sin6_port = with_port ? htons(req->port) : 0;
	return len;
}

/**
 * rai_result_fill_ip - fill one result
 * @req: the request (flags, family, port space, port)
 * @res: the result, overwritten
 * @addr: AF_INET or AF_INET6 address (or AF_IB from a GID literal)
 * @origin: RDMA_ADDRINFO_ORIGIN_*
 * @ttl: seconds the answer stays valid, or 0
 *
 * Active results get @addr as destination and a source from
 * rai_source_select() (none with RAI_NOROUTE); passive ones get @addr as
 * source.  When the
 * request asks for AF_IB, IP addresses become GIDs (IPv4-mapped for IPv4,
 * as RoCE does) with the service ID of the port space and port.
 */
void rai_result_fill_ip(struct rai_request *req,
			struct rdma_addrinfo_result *res,
			const struct sockaddr *addr, u32 origin, u32 ttl)
{
	bool ib = rai_request_family(req) == AF_IB ||
		  addr->sa_family == AF_IB;
	struct rai_source src;
	struct sockaddr_ib sib;

	memset(res, 0, sizeof(*res));
	res->port_space = req->port_space;
	res->qp_type = req->qp_type;
	res->origin = origin;
	res->ttl = ttl;
	res->family = ib ? AF_IB : addr->sa_family;

	if (req->ai_flags & RDMA_ADDRINFO_RAI_PASSIVE) {
		res->ai_flags = RDMA_ADDRINFO_RAI_PASSIVE;
		res->src_status = -EOPNOTSUPP;
		if (ib) {
			rai_to_ib(req, addr, &sib, true);
			memcpy(res->src_addr, &sib, sizeof(sib));
			res->src_len = sizeof(sib);
		} else {
			res->src_len = rai_put_ip(req, addr, res->src_addr,
						  true);
		}
		return;
	}

	if (ib) {
		rai_to_ib(req, addr, &sib, true);
		memcpy(res->dst_addr, &sib, sizeof(sib));
		res->dst_len = sizeof(sib);
	} else {
		res->dst_len = rai_put_ip(req, addr, res->dst_addr, true);
	}

	/* RAI_NOROUTE: no routing information asked for, no source. */
	if (req->ai_flags & RDMA_ADDRINFO_RAI_NOROUTE) {
		res->src_status = -EOPNOTSUPP;
		return;
	}
	rai_source_select(req, addr, &src);
	res->src_status = src.status;
	if (src.status)
		return;
	if (ib) {
		memset(&sib, 0, sizeof(sib));
		sib.sib_family = AF_IB;
		sib.sib_pkey = cpu_to_be16(0xffff);
		memcpy(&sib.sib_addr, &src.gid, sizeof(sib.sib_addr));
		memcpy(res->src_addr, &sib, sizeof(sib));
		res->src_len = sizeof(sib);
	} else {
		res->src_len = rai_put_ip(req, &src.src.sa, res->src_addr,
					  false);
	}
	strscpy(res->ibdev_name, src.ibdev_name, sizeof(res->ibdev_name));
	res->port_num = src.port_num;
}

/* Does @req take a result for @addr?  A GID literal is AF_IB's own. */
static bool rai_result_wanted(const struct rai_request *req,
			      const union rai_sockaddr *addr)
{
	return addr->sa.sa_family == AF_IB ||
	       rai_request_wants(req, addr->sa.sa_family);
}

/**
 * rai_results_complete_addrs - complete @req with a result per address
 * @req: the request; its memory cgroup is the caller's business
 * @addrs: @n addresses (IP, or AF_IB from a GID literal), in order
 * @n: entries of @addrs
 * @origin: RDMA_ADDRINFO_ORIGIN_* of the results
 * @ttl: seconds the answer stays valid, or 0
 * @canon: the canonical name of the destination (checked), or NULL; the
 *	request keeps a copy with its results
 *
 * One result for each address of a family @req takes, in order, at most
 * max_results.  The status: 0; -ENODATA without an address; -EADDRNOTAVAIL
 * when none is of a family @req takes; -ENOMEM.
 */
void rai_results_complete_addrs(struct rai_request *req,
				const union rai_sockaddr *addrs, u32 n,
				u32 origin, u32 ttl, const char *canon)
{
	u32 max = rai_request_max_results(), i, nr = 0;
	struct rdma_addrinfo_result *results;
	char *name = NULL;

	for (i = 0; i < n; i++)
		nr += rai_result_wanted(req, &addrs[i]);
	if (!nr) {
		rai_request_complete(req, n ? -EADDRNOTAVAIL : -ENODATA,
				     NULL, 0);
		return;
	}
	results = rai_results_alloc(req, min(nr, max));
	if (canon)
		name = rai_canonname_dup(req, canon);
	if (!results || (canon && !name)) {
		rai_results_free(results);
		kfree(name);
		rai_request_complete(req, -ENOMEM, NULL, 0);
		return;
	}
	for (i = 0, nr = 0; i < n && nr < max; i++)
		if (rai_result_wanted(req, &addrs[i]))
			rai_result_fill_ip(req, &results[nr++], &addrs[i].sa,
					   origin, ttl);
	rai_request_complete_named(req, 0, results, nr, name);
}

/**
 * rai_result_fill_service_record - fill one result from an SA ServiceRecord
 * @req: the request (port space, QP type, device and port)
 * @res: the result, overwritten
 * @rec: the record, RAI_SA_SR_LEN bytes as the SA sent them
 * @src_gid: the GID of @req's port, or NULL when it is not known
 *
 * The destination is the record's GID, P_Key and service ID (all its 64
 * bits); the TTL its lease.  The record itself goes with the result.
 */
void rai_result_fill_service_record(struct rai_request *req,
				    struct rdma_addrinfo_result *res,
				    const u8 *rec, const u8 *src_gid)
{
	struct sockaddr_ib sib = {};
	__be32 lease;

	memset(res, 0, sizeof(*res));
	res->family = AF_IB;
	res->port_space = req->port_space ? req->port_space :
					    RDMA_ADDRINFO_PS_IB;
	res->qp_type = req->qp_type ? req->qp_type : RDMA_ADDRINFO_QPT_RC;
	res->origin = RDMA_ADDRINFO_ORIGIN_SA;

	sib.sib_family = AF_IB;
	memcpy(&sib.sib_pkey, rec + RAI_SA_SR_OFF_PKEY, sizeof(sib.sib_pkey));
	memcpy(&sib.sib_addr, rec + RAI_SA_SR_OFF_GID, sizeof(sib.sib_addr));
	memcpy(&sib.sib_sid, rec + RAI_SA_SR_OFF_ID, sizeof(sib.sib_sid));
	sib.sib_sid_mask = cpu_to_be64(~0ULL);
	memcpy(res->dst_addr, &sib, sizeof(sib));
	res->dst_len = sizeof(sib);

	if (src_gid) {
		memset(&sib, 0, sizeof(sib));
		sib.sib_family = AF_IB;
		sib.sib_pkey = cpu_to_be16(0xffff);
		memcpy(&sib.sib_addr, src_gid, sizeof(sib.sib_addr));
		memcpy(res->src_addr, &sib, sizeof(sib));
		res->src_len = sizeof(sib);
		strscpy(res->ibdev_name, req->ibdev_name,
			sizeof(res->ibdev_name));
		res->port_num = req->port_num;
	} else {
		res->src_status = -ENODEV;
	}

	memcpy(res->service_record, rec, RAI_SA_SR_LEN);
	res->service_record_len = RAI_SA_SR_LEN;
	memcpy(&lease, rec + RAI_SA_SR_OFF_LEASE, sizeof(lease));
	res->ttl = be32_to_cpu(lease);
}
