// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: building results from IP (or GID) addresses, shared by
 * the numeric and DNS backends.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/rdma_cm.h>

#include "addr.h"
#include "request.h"
#include "result.h"
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
