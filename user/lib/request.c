// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * From (node, service, hints) to a RESOLVE command: the checks
 * rdma_getaddrinfo(3) documents, done before anything reaches the kernel.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include "literal.h"
#include "request.h"
#include "service.h"
#include "status.h"

socklen_t rai_family_socklen(int family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	default:
		return 0;
	}
}

/*
 * XRC QPs connect like RC ones (librdmacm gives them stream sockets): the
 * kernel is asked for RC, the results carry the caller's type.
 */
static int rai_kernel_qp_type(int qp_type)
{
	if (qp_type == IBV_QPT_XRC_SEND || qp_type == IBV_QPT_XRC_RECV)
		return IBV_QPT_RC;
	return qp_type;
}

/* The QP types the kernel knows (XRC as RC); others are not asked. */
static int rai_qp_type_known(int qp_type)
{
	qp_type = rai_kernel_qp_type(qp_type);
	return qp_type == IBV_QPT_RC || qp_type == IBV_QPT_UC ||
	       qp_type == IBV_QPT_UD;
}

static int rai_port_space_known(int ps)
{
	return ps == RDMA_PS_TCP || ps == RDMA_PS_UDP || ps == RDMA_PS_IB ||
	       ps == RDMA_PS_IPOIB;
}

/*
 * A node that glibc takes for a numeric address.  glibc's error for a
 * name without an address of the family asked is EAI_NODATA, for a
 * literal of the other family EAI_ADDRFAMILY.
 */
static int rai_node_is_literal(const char *node)
{
	/* One socket type: one answer, nothing for glibc to sort. */
	struct addrinfo h = { .ai_flags = AI_NUMERICHOST,
			      .ai_socktype = SOCK_STREAM }, *res;
	unsigned char addr[sizeof(struct in6_addr)];

	/*
	 * Decided without glibc where it is sure: IPv4 as glibc reads it,
	 * the strict IPv6 form glibc takes too, and a character no numeric
	 * form has (a scope is left to glibc).
	 */
	if (rai_ipv4_literal(node, (struct in_addr *)addr) ||
	    inet_pton(AF_INET6, node, addr) == 1)
		return 1;
	if (!strchr(node, '%') &&
	    node[strspn(node, "0123456789abcdefABCDEFxX.: \t\n\v\f\r")])
		return 0;
	if (getaddrinfo(node, NULL, &h, &res))
		return 0;
	freeaddrinfo(res);
	return 1;
}

/**
 * rai_check_hints - the argument checks of rdma_getaddrinfo(3)
 *
 * Flags it does not know are ignored, as librdmacm ignores them; QP types
 * and port spaces are left to rai_map_service() (glibc), as librdmacm
 * leaves them.
 *
 * Return: 0, or EAI_NONAME (nothing to resolve), EAI_BADFLAGS (RAI_SA
 * with RAI_DNS, RAI_SA with a node), EAI_FAMILY (unsupported ai_family or
 * source address family).
 */
int rai_check_hints(const char *node, const char *service,
		    const struct rdma_addrinfo *hints)
{
	if (!node && !service && !hints)
		return EAI_NONAME;
	if (!hints)
		return 0;

	if ((hints->ai_flags & RAI_SA) && (hints->ai_flags & RAI_DNS))
		return EAI_BADFLAGS;
	if ((hints->ai_flags & RAI_SA) && node)
		return EAI_BADFLAGS;
	/*
	 * rdma-core 60+ reads nothing of RAI_SA's hints but the flags: its
	 * results are AF_IB of RDMA_PS_IB whatever family, source, QP type
	 * and port space they name (shape.c).
	 */
	if (hints->ai_flags & RAI_SA)
		return service ? 0 : EAI_NONAME;
	if (hints->ai_family != AF_UNSPEC &&
	    !rai_family_socklen(hints->ai_family))
		return EAI_FAMILY;
	/* Any length, as librdmacm: sizeof(struct sockaddr_storage) often */
	if (hints->ai_src_addr && hints->ai_src_len &&
	    !rai_family_socklen(hints->ai_src_addr->sa_family))
		return EAI_FAMILY;
	if (!node && !service && !(hints->ai_flags & RAI_PASSIVE) &&
	    !(hints->ai_dst_addr && hints->ai_dst_len) &&
	    !(hints->ai_src_addr && hints->ai_src_len))
		return EAI_NONAME;
	return 0;
}

/*
 * No node but a destination address in the hints: resolve its numeric
 * form (and its port, unless a service is given).
 */
static int rai_node_from_dst(struct rai_request *req, const struct sockaddr *sa,
			     socklen_t len, int want_port)
{
	const struct sockaddr_in *sin = (const void *)sa;
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	unsigned short port = 0;
	size_t n;

	if (sa->sa_family == AF_INET && len >= sizeof(*sin)) {
		inet_ntop(AF_INET, &sin->sin_addr, req->node, sizeof(req->node));
		port = ntohs(sin->sin_port);
	} else if (sa->sa_family == AF_INET6 && len >= sizeof(*sin6)) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, req->node,
			  sizeof(req->node));
		if (sin6->sin6_scope_id) {
			n = strlen(req->node);
			snprintf(req->node + n, sizeof(req->node) - n, "%%%u",
				 sin6->sin6_scope_id);
		}
		port = ntohs(sin6->sin6_port);
	} else {
		return EAI_FAMILY;
	}
	if (want_port && port)
		snprintf(req->service, sizeof(req->service), "%u", port);
	return 0;
}

/*
 * The family the kernel is asked for.  The kernel makes AF_IB results only
 * of IB addresses here (GID literals with RAI_FAMILY and RAI_NUMERICHOST,
 * SA records).  For names and IP literals AF_IB asks for IP results, as
 * librdmacm does: with RAI_FAMILY and RAI_NUMERICHOST the library makes
 * them AF_IB as librdmacm does (rai_wants_ib_from_ip()), whose IPv4 GIDs
 * are not the kernel's IPv4-mapped ones.
 */
static int rai_kernel_family(const char *node, int flags, int family)
{
	struct in6_addr gid;

	if (family != AF_IB || (flags & RAI_SA))
		return family;
	if ((flags & RAI_FAMILY) && (flags & RAI_NUMERICHOST) && node &&
	    inet_pton(AF_INET6, node, &gid) == 1)
		return AF_IB;
	return AF_UNSPEC;
}

/*
 * An IPv4 @node as glibc reads it (literal.c) goes to the module in dotted
 * decimal, the only form it reads as glibc does.  One that glibc takes for
 * a name but the module for a literal (192.168.1.09) is no literal with
 * RAI_NUMERICHOST (EAI_NONAME, as glibc says), else a name that only
 * librdmacm can look up as glibc does (RAI_GLIBC_NAME).
 *
 * Return: 0 (*@node the form to send), EAI_NONAME or RAI_GLIBC_NAME.
 */
static int rai_ipv4_node(struct rai_request *req, const char **node,
			 int flags)
{
	struct in_addr a;

	if (rai_ipv4_literal(*node, &a)) {
		_Static_assert(sizeof(req->node) >= RAI_IPV4_DOTTED_LEN,
			       "room for a dotted IPv4 address");
		rai_ipv4_dotted(&a, req->node);
		*node = req->node;
		return 0;
	}
	if (!rai_ipv4_module_literal(*node))
		return 0;
	return flags & RAI_NUMERICHOST ? EAI_NONAME : RAI_GLIBC_NAME;
}

/*
 * A name glibc's resolver cannot put in a query (ns_name_pton(): an empty
 * label, "a..b" or ".a", or one longer than 63 bytes): glibc answers it
 * from /etc/hosts or with EAI_NONAME, and the module's DNS path would
 * fail it otherwise; librdmacm's own call looks it up (RAI_GLIBC_NAME).
 * "." (the root) and a trailing dot are names.
 */
static int rai_name_unencodable(const char *node)
{
	const char *label = node, *dot;
	size_t len;

	if (!strcmp(node, "."))
		return 0;
	for (;;) {
		dot = strchr(label, '.');
		len = dot ? (size_t)(dot - label) : strlen(label);
		if (len > 63 || (!len && dot))
			return 1;
		if (!dot)
			return 0;
		label = dot + 1;
	}
}

/*
 * Whether the hints' source goes to the kernel, which takes the results'
 * family from it when none is asked.  librdmacm asks glibc without it and
 * only echoes it: with ai_family AF_UNSPEC, the source restricts nothing
 * (an IPv4 source, an IPv6 literal or a name with IPv6 addresses; an
 * AF_IB source, IP results).  The kernel still gets it where it can only
 * choose the route: a literal of its own family (after rai_ipv4_node()),
 * an explicit family, RAI_SA.  Without it, active results get the hints'
 * source all the same (getaddrinfo.c echoes it as librdmacm does).
 */
static int rai_src_for_kernel(const char *node, int flags, int family,
			      const struct sockaddr *src)
{
	unsigned char addr[sizeof(struct in6_addr)];
	int literal;

	if (family != AF_UNSPEC || (flags & RAI_SA))
		return 1;
	if (!node)
		return 0;
	if (src->sa_family == AF_INET)
		return inet_pton(AF_INET, node, addr) == 1;
	if (src->sa_family != AF_INET6)
		return 0;
	literal = inet_pton(AF_INET6, node, addr) == 1 ||
		  (strchr(node, '%') && rai_node_is_literal(node));
	return literal;
}

/*
 * librdmacm's AF_IB results of IP addresses: with RAI_FAMILY and
 * RAI_NUMERICHOST it makes glibc's answer AF_IB whatever its family
 * (rai_ib_from_ip()).  A GID literal is the kernel's (rai_kernel_family()).
 */
static int rai_wants_ib_from_ip(const struct rdma_addrinfo *hints,
				int kernel_family)
{
	return hints->ai_family == AF_IB && kernel_family != AF_IB &&
	       (hints->ai_flags & RAI_FAMILY) &&
	       (hints->ai_flags & RAI_NUMERICHOST) &&
	       !(hints->ai_flags & RAI_SA);
}

/*
 * The hints' source for the kernel: its family's address, of a length
 * that may be longer (a struct sockaddr_storage) or, as before, shorter.
 */
static void rai_src_to_cmd(struct rdma_addrinfo_resolve *cmd,
			   const struct sockaddr *src, socklen_t len)
{
	socklen_t family_len = rai_family_socklen(src->sa_family);

	cmd->src_len = len < family_len ? len : family_len;
	memcpy(cmd->src_addr, src, cmd->src_len);
}

/* A name's request keeps the caller's service and hints (request.h). */
static void rai_keep_caller_args(struct rai_caller_args *a,
				 const char *service,
				 const struct rdma_addrinfo *hints)
{
	if (service && strlen(service) < sizeof(a->service)) {
		a->has_service = 1;
		strcpy(a->service, service);
	}
	if (!hints)
		return;
	a->has_hints = 1;
	a->flags = hints->ai_flags;
	a->family = hints->ai_family;
	a->qp_type = hints->ai_qp_type;
	a->port_space = hints->ai_port_space;
	if (hints->ai_src_addr && hints->ai_src_len) {
		a->src_len = hints->ai_src_len < sizeof(a->src) ?
			     hints->ai_src_len : sizeof(a->src);
		memcpy(a->src, hints->ai_src_addr, a->src_len);
	}
}

/**
 * rai_build_request - fill @req for RESOLVE
 *
 * Return: 0 or an EAI_* code (see rai_check_hints(), rai_map_service()),
 * or RAI_GLIBC_NAME (rai_ipv4_node(), rai_name_unencodable()).  The
 * context, flags, src_addr and ibdev_name of an rdma_cm_id are the
 * caller's to add; req->shape is what the results take from the hints.
 */
int rai_build_request(struct rai_request *req, const char *node,
		      const char *service, const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo_resolve *cmd = &req->cmd;
	int flags = hints ? hints->ai_flags & RAI_KNOWN_FLAGS : 0;
	int qp_type = hints ? hints->ai_qp_type : 0;
	int ps = hints ? hints->ai_port_space : 0;
	int first_qp_type;
	size_t len;
	int ret;

	memset(req, 0, sizeof(*req));
	ret = rai_check_hints(node, service, hints);
	if (ret)
		return ret;

	ret = rai_map_service(service, hints, req->service,
			      sizeof(req->service), &first_qp_type);
	if (ret)
		return ret;
	if (node) {
		ret = rai_ipv4_node(req, &node, flags);
		if (ret)
			return ret;
	}
	rai_shape_from_hints(&req->shape, node, hints);
	if (node && !rai_node_is_literal(node)) {
		if (!(flags & RAI_NUMERICHOST) && rai_name_unencodable(node))
			return RAI_GLIBC_NAME;
		req->ctx |= RAI_CTX_NAME;
		rai_keep_caller_args(&req->caller, service, hints);
	}
	if (!node && hints && hints->ai_dst_addr && hints->ai_dst_len &&
	    !(flags & RAI_SA)) {
		ret = rai_node_from_dst(req, hints->ai_dst_addr,
					hints->ai_dst_len, !service);
		if (ret)
			return ret;
		node = req->node;
		flags |= RAI_NUMERICHOST;
	} else if (!node && !service && hints && hints->ai_src_addr &&
		   hints->ai_src_len && !(flags & (RAI_SA | RAI_PASSIVE))) {
		/*
		 * A source alone (a multicast group as source): librdmacm
		 * answers with the hints themselves; here it is the source's
		 * numeric form, resolved passively.
		 */
		ret = rai_node_from_dst(req, hints->ai_src_addr,
					hints->ai_src_len, 1);
		if (ret)
			return ret;
		node = req->node;
		flags |= RAI_NUMERICHOST | RAI_PASSIVE;
	}

	if (node) {
		len = strlen(node);
		if (!len || len > RDMA_ADDRINFO_NAME_MAX)
			return EAI_NONAME;
		cmd->node = (uintptr_t)node;
		cmd->node_len = len;
	}
	if (req->service[0]) {
		cmd->service = (uintptr_t)req->service;
		cmd->service_len = strlen(req->service);
	}
	cmd->ai_flags = flags;
	if (flags & RAI_SA)
		return 0;	/* the hints' flags alone, as rdma-core 60+ */
	/*
	 * The kernel is asked for the QP type and port space it knows;
	 * otherwise for glibc's first answer's QP type and that type's port
	 * space.  The results get the caller's, as librdmacm's do.
	 */
	cmd->qp_type = rai_qp_type_known(qp_type) ? rai_kernel_qp_type(qp_type) :
						    first_qp_type;
	if (hints) {
		cmd->family = rai_kernel_family(node, flags, hints->ai_family);
		cmd->port_space = rai_port_space_known(ps) ? ps : 0;
		if (qp_type && ps)
			req->ctx |= RAI_CTX_QP_PS;
		req->shape.ib_from_ip = rai_wants_ib_from_ip(hints,
							     cmd->family);
		if (hints->ai_src_addr && hints->ai_src_len &&
		    rai_src_for_kernel(node, flags, hints->ai_family,
				       hints->ai_src_addr))
			rai_src_to_cmd(cmd, hints->ai_src_addr,
				       hints->ai_src_len);
	}
	return 0;
}
