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
 *
 * One helper per destination family (rai_source_route4/6/ib) finds the
 * route; rai_source_rdma() turns its interface into device, port and
 * GID: a RoCE port bound to an Ethernet interface, or, for an IPoIB
 * interface, the InfiniBand port whose GID is in the interface's hardware
 * address (source_link.c holds that decision).
 *
 * The kernel may run without IPv6 (ipv6.disable=1: its routing tables
 * are never set up, and a route lookup there oopses).  Every IPv6 routine
 * is called only when ipv6_mod_enabled(), through ipv6_stub where the
 * kernel has one (compat.h); IPv6 destinations then get -EAFNOSUPPORT.
 */
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <rdma/ib_cache.h>

#include "compat.h"
#include "request.h"
#include "source.h"
#include "source_link.h"
#include "stats.h"

/* The local address and interface the kernel would use for @daddr. */
static int rai_route4(struct net *net, __be32 daddr, __be32 saddr,
		      __be32 *src, struct net_device **ndevp)
{
	struct net_device *ndev = NULL;
	struct flowi4 fl4;
	struct rtable *rt;

	memset(&fl4, 0, sizeof(fl4));
	fl4.daddr = daddr;
	fl4.saddr = saddr;
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

/* The interface that owns the local address @addr, held, or NULL. */
static struct net_device *rai_ipv6_dev_hold(struct net *net,
					    const struct in6_addr *addr)
{
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rai_ipv6_dev_find(net, addr);
	if (IS_ERR(ndev))
		ndev = NULL;
	if (ndev)
		dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}

static int rai_route6(struct net *net, const struct in6_addr *daddr,
		      const struct in6_addr *saddr, int oif,
		      struct in6_addr *src, struct net_device **ndevp)
{
	struct net_device *ndev = NULL;
	struct dst_entry *dst;
	struct flowi6 fl6;

	if (!ipv6_mod_enabled())
		return -EAFNOSUPPORT;
	memset(&fl6, 0, sizeof(fl6));
	fl6.daddr = *daddr;
	if (saddr)
		fl6.saddr = *saddr;
	fl6.flowi6_oif = oif;
	dst = rai_ip6_dst_lookup_flow(net, &fl6);
	if (IS_ERR(dst))
		return PTR_ERR(dst) == -EAFNOSUPPORT ? -EAFNOSUPPORT :
						       -ENETUNREACH;
	if (dst->dev->flags & IFF_LOOPBACK)
		ndev = rai_ipv6_dev_hold(net, daddr);
	if (!ndev) {
		ndev = dst->dev;
		dev_hold(ndev);
	}
	*src = fl6.saddr;
	dst_release(dst);
	*ndevp = ndev;
	return 0;
}

/* ---- RDMA devices with InfiniBand ports (for IPoIB interfaces) -------- */

/*
 * The core maps a RoCE port's netdev to its device; an IPoIB interface is
 * not registered with the core that way, so, as rdma_cm does, every
 * device with an InfiniBand port is searched for the interface's GID.
 */
struct rai_source_dev {
	struct list_head node;
	struct ib_device *ibdev;
};

static LIST_HEAD(rai_source_devs);
static DECLARE_RWSEM(rai_source_rwsem);
static struct ib_client rai_source_client;

static bool rai_source_has_ib_port(struct ib_device *ibdev)
{
	u32 p;

	rdma_for_each_port(ibdev, p)
		if (rdma_protocol_ib(ibdev, p))
			return true;
	return false;
}

static int rai_source_add_one(struct ib_device *ibdev)
{
	struct rai_source_dev *dev;

	if (!rai_source_has_ib_port(ibdev))
		return -EOPNOTSUPP;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->ibdev = ibdev;
	ib_set_client_data(ibdev, &rai_source_client, dev);
	down_write(&rai_source_rwsem);
	list_add_tail(&dev->node, &rai_source_devs);
	up_write(&rai_source_rwsem);
	return 0;
}

static void rai_source_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rai_source_dev *dev = client_data;

	down_write(&rai_source_rwsem);
	list_del(&dev->node);
	up_write(&rai_source_rwsem);
	kfree(dev);
}

static struct ib_client rai_source_client = {
	.name = "rdma_addrinfo_source",
	.add = rai_source_add_one,
	.remove = rai_source_remove_one,
};

/*
 * The name of @ibdev into @buf.  Not dev_name(): a rename frees the
 * device's kobject name without a grace period.  ib_device.name is an
 * array inside the device that the RDMA core rewrites in place (under
 * its own lock, which is not exported) and never frees; a copy that
 * races a rename may mix both names, so the name is read until two
 * copies agree.  A mixed name matches no device: at worst the request's
 * own device check fails with -ENODEV, as it would one moment later.
 */
static void rai_source_ibdev_name(const struct ib_device *ibdev, char *buf,
				  size_t size)
{
	char again[IB_DEVICE_NAME_MAX];
	int tries;

	strscpy(buf, ibdev->name, size);
	for (tries = 0; tries < 3; tries++) {
		strscpy(again, ibdev->name, sizeof(again));
		if (!strncmp(buf, again, size))
			return;
		strscpy(buf, again, size);
	}
}

/* @attr as the outcome: its device, port and GID. */
static void rai_source_set(struct rai_source *out,
			   const struct ib_gid_attr *attr)
{
	out->port_num = attr->port_num;
	out->gid = attr->gid;
	rai_source_ibdev_name(attr->device, out->ibdev_name,
			      sizeof(out->ibdev_name));
}

/* A port of @ibdev that fits @key and has its GID. */
static int rai_source_find_port(struct ib_device *ibdev,
				const struct rai_source_key *key,
				struct net_device *ndev,
				struct rai_source *out)
{
	const struct ib_gid_attr *attr;
	u32 p;
	u8 i;

	rdma_for_each_port(ibdev, p) {
		if (!rai_source_port_fits(key, rdma_protocol_ib(ibdev, p)))
			continue;
		for (i = 0; i < key->n_gid_types; i++) {
			attr = rdma_find_gid_by_port(ibdev,
						     (const union ib_gid *)key->gid,
						     key->gid_types[i], p, ndev);
			if (IS_ERR(attr))
				continue;
			rai_source_set(out, attr);
			rdma_put_gid_attr(attr);
			return 0;
		}
	}
	return -ENODEV;
}

/* IPoIB: the InfiniBand port, visible in @net, whose GID is @key's. */
static int rai_source_ib(struct net *net, const struct rai_source_key *key,
			 struct rai_source *out)
{
	struct rai_source_dev *dev;
	int ret = -ENODEV;

	down_read(&rai_source_rwsem);
	list_for_each_entry(dev, &rai_source_devs, node) {
		if (!rdma_dev_access_netns(dev->ibdev, net))
			continue;
		ret = rai_source_find_port(dev->ibdev, key, NULL, out);
		if (!ret)
			break;
	}
	up_read(&rai_source_rwsem);
	return ret;
}

/* RoCE: the device on @ndev with a GID entry of @key bound to @ndev. */
static int rai_source_roce(struct net_device *ndev,
			   const struct rai_source_key *key,
			   struct rai_source *out)
{
	struct ib_device *ibdev;
	int ret;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return -ENODEV;
	ret = rai_source_find_port(ibdev, key, ndev, out);
	ib_device_put(ibdev);
	return ret;
}

/* The RDMA device, port and GID behind @ndev and the source in @out. */
static int rai_source_rdma(struct net *net, struct net_device *ndev,
			   struct rai_source *out)
{
	bool v4 = out->src.sa.sa_family == AF_INET;
	struct rai_source_key key;
	const void *ip;
	int ret;

	ip = v4 ? (const void *)&out->src.in.sin_addr :
		  (const void *)&out->src.in6.sin6_addr;
	ret = rai_source_key(ndev->type, ndev->dev_addr, ndev->addr_len, v4,
			     ip, &key);
	if (ret)
		return ret;
	if (key.ib)
		return rai_source_ib(net, &key, out);
	return rai_source_roce(ndev, &key, out);
}

/* ---- one helper per destination family -------------------------------- */

/* The request's bound source address of @family, or NULL. */
static const void *rai_source_hint(const struct rai_request *req, u16 family)
{
	if (req->src_len && req->src.sa.sa_family == family)
		return &req->src;
	return NULL;
}

static int rai_source_route4(struct rai_request *req, __be32 daddr,
			     bool use_hint, struct rai_source *out)
{
	const struct sockaddr_in *hint = rai_source_hint(req, AF_INET);
	struct net *net = req->file->net;
	struct net_device *ndev;
	int ret;

	out->src.in.sin_family = AF_INET;
	ret = rai_route4(net, daddr,
			 hint && use_hint ? hint->sin_addr.s_addr : 0,
			 &out->src.in.sin_addr.s_addr, &ndev);
	if (ret)
		return ret;
	ret = rai_source_rdma(net, ndev, out);
	dev_put(ndev);
	return ret;
}

static int rai_source_route6(struct rai_request *req,
			     const struct in6_addr *daddr, u32 scope_id,
			     struct rai_source *out)
{
	const struct sockaddr_in6 *hint = rai_source_hint(req, AF_INET6);
	struct net *net = req->file->net;
	struct net_device *ndev;
	int oif = hint ? hint->sin6_scope_id : 0;
	int ret;

	if (scope_id)
		oif = scope_id;
	out->src.in6.sin6_family = AF_INET6;
	ret = rai_route6(net, daddr, hint ? &hint->sin6_addr : NULL, oif,
			 &out->src.in6.sin6_addr, &ndev);
	if (ret)
		return ret;
	if (ipv6_addr_type(&out->src.in6.sin6_addr) & IPV6_ADDR_LINKLOCAL)
		out->src.in6.sin6_scope_id = ndev->ifindex;
	ret = rai_source_rdma(net, ndev, out);
	dev_put(ndev);
	return ret;
}

/*
 * An IPv6 destination or an AF_IB one whose GID is an IP address (RoCE):
 * IPv4-mapped addresses route as IPv4 (without the request's IPv4
 * source: the request asked for IPv6 or a GID), the others as IPv6.
 */
static int rai_source_route_mapped(struct rai_request *req,
				   const struct in6_addr *daddr, u32 scope_id,
				   struct rai_source *out)
{
	if (ipv6_addr_v4mapped(daddr))
		return rai_source_route4(req, daddr->s6_addr32[3], false, out);
	return rai_source_route6(req, daddr, scope_id, out);
}

static int rai_source_route_ib(struct rai_request *req,
			       const struct sockaddr_ib *sib,
			       struct rai_source *out)
{
	return rai_source_route_mapped(req,
				       (const struct in6_addr *)&sib->sib_addr,
				       0, out);
}

static int rai_source_route(struct rai_request *req,
			    const struct sockaddr *dst, struct rai_source *out)
{
	const struct sockaddr_in6 *sin6;
	int ret;

	switch (dst->sa_family) {
	case AF_INET:
		ret = rai_source_route4(req,
					((const struct sockaddr_in *)dst)->sin_addr.s_addr,
					true, out);
		break;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)dst;
		ret = rai_source_route_mapped(req, &sin6->sin6_addr,
					      sin6->sin6_scope_id, out);
		break;
	case AF_IB:
		ret = rai_source_route_ib(req, (const struct sockaddr_ib *)dst,
					  out);
		break;
	default:
		return -ENETUNREACH;
	}
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

int rai_source_init(void)
{
	BUILD_BUG_ON((int)RAI_GID_TYPE_IB != (int)IB_GID_TYPE_IB);
	BUILD_BUG_ON((int)RAI_GID_TYPE_ROCE != (int)IB_GID_TYPE_ROCE);
	BUILD_BUG_ON((int)RAI_GID_TYPE_ROCE_UDP_ENCAP !=
		     (int)IB_GID_TYPE_ROCE_UDP_ENCAP);
	return ib_register_client(&rai_source_client);
}

void rai_source_exit(void)
{
	ib_unregister_client(&rai_source_client);
}
