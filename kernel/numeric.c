// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the numeric backend.
 *
 * IPv4 dotted quads, IPv6 literals with an optional "%scope" (interface
 * name or index) and, for AF_IB with RAI_FAMILY, IB GIDs written as IPv6
 * literals are parsed here, in the ioctl's context: no upcall, no
 * workqueue.  Requests without a node (passive or loopback addresses)
 * are served here too.
 */
#include <linux/ctype.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/socket.h>
#include <linux/string.h>

#include "backend.h"
#include "numeric.h"
#include "request.h"
#include "result.h"
#include "stats.h"

static int rai_numeric_scope(struct net *net, const char *scope, size_t len,
			     u32 *scope_id)
{
	char name[IFNAMSIZ];
	struct net_device *dev;
	size_t i;

	if (!len || len >= IFNAMSIZ)
		return -EINVAL;
	memcpy(name, scope, len);
	name[len] = '\0';

	for (i = 0; i < len && isdigit(name[i]); i++)
		;
	if (i == len)
		return kstrtou32(name, 10, scope_id);

	dev = dev_get_by_name(net, name);
	if (!dev)
		return -ENODEV;
	*scope_id = dev->ifindex;
	dev_put(dev);
	return 0;
}

/**
 * rai_numeric_parse_ip - parse an IPv4 or IPv6 literal
 * @net: namespace for interface names in a scope
 * @str: the literal (need not be NUL-terminated)
 * @len: its length
 * @addr: filled with family and address, port 0
 *
 * Return: 0, or -EINVAL when @str is not a literal (-ENODEV: unknown
 * scope interface).
 */
int rai_numeric_parse_ip(struct net *net, const char *str, size_t len,
			 union rai_sockaddr *addr)
{
	const char *end, *pct;
	size_t alen;
	u32 scope_id = 0;
	int ret;

	memset(addr, 0, sizeof(*addr));
	if (!len || len > INT_MAX)
		return -EINVAL;

	if (in4_pton(str, len, (u8 *)&addr->in.sin_addr.s_addr, -1, &end) &&
	    end == str + len) {
		addr->in.sin_family = AF_INET;
		return 0;
	}

	pct = memchr(str, '%', len);
	alen = pct ? pct - str : len;
	if (!alen || !in6_pton(str, alen, addr->in6.sin6_addr.s6_addr, -1,
			       &end) || end != str + alen)
		goto err_inval;
	if (pct) {
		ret = rai_numeric_scope(net, pct + 1, len - alen - 1,
					&scope_id);
		if (ret)
			goto err;
	}
	addr->in6.sin6_family = AF_INET6;
	addr->in6.sin6_scope_id = scope_id;
	return 0;

err_inval:
	ret = -EINVAL;
err:
	memset(addr, 0, sizeof(*addr));
	return ret;
}

/* An IB GID in IPv6 notation, as an AF_IB address with no service ID. */
int rai_numeric_parse_gid(const char *str, size_t len,
			  union rai_sockaddr *addr)
{
	const char *end;

	memset(addr, 0, sizeof(*addr));
	if (!len || len > INT_MAX ||
	    !in6_pton(str, len, addr->ib.sib_addr.sib_raw, -1, &end) ||
	    end != str + len) {
		memset(addr, 0, sizeof(*addr));
		return -EINVAL;
	}
	addr->ib.sib_family = AF_IB;
	addr->ib.sib_pkey = cpu_to_be16(0xffff);
	return 0;
}

/**
 * rai_numeric_parse_node - parse the node of a RESOLVE as a literal
 * @net: namespace for interface names in an IPv6 scope
 * @node: the node (need not be NUL-terminated)
 * @len: its length
 * @family: resolve.family
 * @ai_flags: resolve.ai_flags
 * @addr: filled with the address, port 0; all zero (AF_UNSPEC) on error
 *
 * AF_IB with RAI_FAMILY takes a GID, or else an IP literal (RoCE).  Called
 * once per RESOLVE, to choose the backend; the numeric backend then takes
 * the address from the request (rai_request.literal).
 *
 * Return: 0 when @node is a literal, else -EINVAL (-ENODEV: unknown scope
 * interface).
 */
int rai_numeric_parse_node(struct net *net, const char *node, size_t len,
			   u16 family, u32 ai_flags, union rai_sockaddr *addr)
{
	if ((ai_flags & RDMA_ADDRINFO_RAI_FAMILY) && family == AF_IB &&
	    !rai_numeric_parse_gid(node, len, addr))
		return 0;
	return rai_numeric_parse_ip(net, node, len, addr);
}

/* No node: wildcard (RAI_PASSIVE) or loopback addresses. */
static void rai_numeric_no_node(struct rai_request *req)
{
	bool passive = req->ai_flags & RDMA_ADDRINFO_RAI_PASSIVE;
	union rai_sockaddr addr[2];
	u32 n = 0;

	memset(addr, 0, sizeof(addr));
	if (rai_request_wants(req, AF_INET)) {
		addr[n].in.sin_family = AF_INET;
		if (!passive)
			addr[n].in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		n++;
	}
	if (rai_request_wants(req, AF_INET6)) {
		addr[n].in6.sin6_family = AF_INET6;
		if (!passive)
			addr[n].in6.sin6_addr = in6addr_loopback;
		n++;
	}
	/* AF_IB without a node: one wildcard (or loopback GID) address. */
	if (rai_request_family(req) == AF_IB && n == 2)
		n = 1;
	if (!n) {
		rai_request_complete(req, -EADDRNOTAVAIL, NULL, 0);
		return;
	}
	rai_results_complete_addrs(req, addr, n,
				   passive ? RDMA_ADDRINFO_ORIGIN_PASSIVE :
					     RDMA_ADDRINFO_ORIGIN_NUMERIC, 0,
				   NULL);
}

static void rai_numeric_start(struct rai_request *req)
{
	const union rai_sockaddr *addr = &req->literal;

	rai_stat_inc_net(req->file->net, RAI_STAT_NUMERIC);
	if (!req->node) {
		rai_numeric_no_node(req);
		return;
	}

	/* Parsed when RESOLVE chose the backend (rai_numeric_parse_node()). */
	if (addr->sa.sa_family == AF_UNSPEC) {
		/* RAI_NUMERICHOST with a name: EAI_NONAME */
		rai_request_complete(req, -ENXIO, NULL, 0);
		return;
	}
	/* A literal is no name: no canonical name (librdmacm gives none). */
	rai_results_complete_addrs(req, addr, 1, RDMA_ADDRINFO_ORIGIN_NUMERIC,
				   0, NULL);
}

/* The literal RESOLVE parsed when it chose this backend. */
static void rai_numeric_init(struct rai_request *req,
			     const struct rai_names *n)
{
	req->literal = n->literal;
}

/* A literal (or no node) never waits: always answered at once. */
static bool rai_numeric_answer_now(struct rai_request *req)
{
	rai_numeric_start(req);
	return true;
}

const struct rai_backend_ops rai_numeric_ops = {
	.name = "numeric",
	.feature = RDMA_ADDRINFO_FEATURE_NUMERIC,
	.init = rai_numeric_init,
	.start = rai_numeric_start,
	.answer_now = rai_numeric_answer_now,
};
