// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: source selection.
 *
 * For a destination, ask the routing table of the opener's namespace
 * which interface and source address the kernel would use (as rdma_cm's
 * address resolution does), then which RDMA device and port sit on that
 * interface and which GID carries that source address.  A destination
 * that is a local address routes through the loopback device; then the
 * interface that owns the address is used, as rdma_cm does.
 */
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <rdma/ib_cache.h>

#include "compat.h"
#include "request.h"
#include "source.h"
#include "stats.h"

static int rai_route4(struct net *net, __be32 daddr, __be32 saddr, int oif,
		      __be32 *src, struct net_device **ndevp)
{
	struct net_device *ndev = NULL;
	struct flowi4 fl4;
	struct rtable *rt;

	memset(&fl4, 0, sizeof(fl4));
	fl4.daddr = daddr;
	fl4.saddr = saddr;
	fl4.flowi4_oif = oif;
	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return -ENETUNREACH;
	if (rt->dst.dev->flags & IFF_LOOPBACK)
		ndev = ip_dev_find(net, daddr);
	if (!ndev) {
		ndev = rt->dst.dev;
		dev_hold(ndev);
	}
	*src = fl4.saddr;
	ip_rt_put(rt);
	*ndevp = ndev;
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
static int rai_route6(struct net *net, const struct in6_addr *daddr,
		      const struct in6_addr *saddr, int oif,
		      struct in6_addr *src, struct net_device **ndevp)
{
	struct net_device *ndev = NULL;
	struct dst_entry *dst;
	struct flowi6 fl6;

	memset(&fl6, 0, sizeof(fl6));
	fl6.daddr = *daddr;
	if (saddr)
		fl6.saddr = *saddr;
	fl6.flowi6_oif = oif;
	dst = ip6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (IS_ERR(dst))
		return -ENETUNREACH;
	if (dst->dev->flags & IFF_LOOPBACK) {
		rcu_read_lock();
		ndev = ipv6_dev_find(net, daddr, NULL);
		if (ndev)
			dev_hold(ndev);
		rcu_read_unlock();
	}
	if (!ndev) {
		ndev = dst->dev;
		dev_hold(ndev);
	}
	*src = fl6.saddr;
	dst_release(dst);
	*ndevp = ndev;
	return 0;
}
#else
static int rai_route6(struct net *net, const struct in6_addr *daddr,
		      const struct in6_addr *saddr, int oif,
		      struct in6_addr *src, struct net_device **ndevp)
{
	return -ENETUNREACH;
}
#endif

/* The RDMA device and port on @ndev whose GID is @gid. */
static int rai_source_rdma(struct net_device *ndev, const union ib_gid *gid,
			   struct rai_source *out)
{
	const struct ib_gid_attr *attr;
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return -ENODEV;
	attr = rdma_find_gid(ibdev, gid, IB_GID_TYPE_ROCE_UDP_ENCAP, ndev);
	if (IS_ERR(attr))
		attr = rdma_find_gid(ibdev, gid, IB_GID_TYPE_ROCE, ndev);
	if (IS_ERR(attr)) {
		ib_device_put(ibdev);
		return -ENODEV;
	}
	out->port_num = attr->port_num;
	out->gid = attr->gid;
	strscpy(out->ibdev_name, dev_name(&ibdev->dev),
		sizeof(out->ibdev_name));
	rdma_put_gid_attr(attr);
	ib_device_put(ibdev);
	return 0;
}

static int rai_source_route(struct rai_request *req,
			    const struct sockaddr *dst, struct rai_source *out)
{
	const struct sockaddr_in6 *hint6 = NULL;
	struct net *net = req->file->net;
	struct net_device *ndev;
	struct in6_addr daddr6;
	__be32 hint4 = 0;
	union ib_gid gid;
	int oif = 0;
	int ret;

	if (req->src_len && req->src.sa.sa_family == AF_INET)
		hint4 = ((struct sockaddr_in *)&req->src)->sin_addr.s_addr;
	if (req->src_len && req->src.sa.sa_family == AF_INET6) {
		hint6 = (struct sockaddr_in6 *)&req->src;
		oif = hint6->sin6_scope_id;
	}

	switch (dst->sa_family) {
	case AF_INET:
		goto route4;
	case AF_INET6:
		daddr6 = ((const struct sockaddr_in6 *)dst)->sin6_addr;
		if (((const struct sockaddr_in6 *)dst)->sin6_scope_id)
			oif = ((const struct sockaddr_in6 *)dst)->sin6_scope_id;
		break;
	case AF_IB:
		memcpy(&daddr6, &((const struct sockaddr_ib *)dst)->sib_addr,
		       sizeof(daddr6));
		break;
	default:
		return -ENETUNREACH;
	}

	if (ipv6_addr_v4mapped(&daddr6)) {
		hint4 = 0;
		oif = 0;
		out->src.in.sin_family = AF_INET;
		ret = rai_route4(net, daddr6.s6_addr32[3], 0, 0,
				 &out->src.in.sin_addr.s_addr, &ndev);
		goto rdma;
	}
	out->src.in6.sin6_family = AF_INET6;
	ret = rai_route6(net, &daddr6, hint6 ? &hint6->sin6_addr : NULL, oif,
			 &out->src.in6.sin6_addr, &ndev);
	if (!ret && ipv6_addr_type(&out->src.in6.sin6_addr) &
		    IPV6_ADDR_LINKLOCAL)
		out->src.in6.sin6_scope_id = ndev->ifindex;
	goto rdma;

route4:
	out->src.in.sin_family = AF_INET;
	ret = rai_route4(net, ((const struct sockaddr_in *)dst)->sin_addr.s_addr,
			 hint4, 0, &out->src.in.sin_addr.s_addr, &ndev);
rdma:
	if (ret)
		return ret;
	if (out->src.sa.sa_family == AF_INET)
		ipv6_addr_set_v4mapped(out->src.in.sin_addr.s_addr,
				       (struct in6_addr *)gid.raw);
	else
		memcpy(gid.raw, &out->src.in6.sin6_addr, sizeof(gid.raw));
	ret = rai_source_rdma(ndev, &gid, out);
	dev_put(ndev);
	if (ret)
		return ret;
	if (req->ibdev_name[0] &&
	    (strcmp(req->ibdev_name, out->ibdev_name) ||
	     (req->port_num && req->port_num != out->port_num)))
		return -ENODEV;
	return 0;
}

/**
 * rai_source_select - choose the source for @dst
 * @req: the request (namespace, source hint, bound device)
 * @dst: AF_INET, AF_INET6, or AF_IB whose GID is an IP address (RoCE)
 * @out: the outcome; @out->status says whether the rest is valid
 */
void rai_source_select(struct rai_request *req, const struct sockaddr *dst,
		       struct rai_source *out)
{
	memset(out, 0, sizeof(*out));
	out->status = rai_source_route(req, dst, out);
	if (out->status) {
		memset(out, 0, offsetof(struct rai_source, status));
		rai_stat_inc(RAI_STAT_SRC_FAILED);
	} else {
		rai_stat_inc(RAI_STAT_SRC_SELECTED);
	}
}
