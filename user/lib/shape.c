// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The module's results in the form librdmacm's rdma_getaddrinfo() gives:
 * glibc's order of families without a node, the hints' QP type, port space
 * and source, AF_IB made of IP addresses, rdma-core 60+'s fields for RAI_SA.
 * rdma_getaddrinfo() and rdma_query_addrinfo() (RDMACM_1.4) shape their
 * lists alike: rdma-core 60+ gives rdma_getaddrinfo()'s list to both.
 */
#include <endian.h>
#include <netdb.h>
#include <string.h>
#include <rdma/rdma_cma.h>

#include "convert.h"
#include "shape.h"

/**
 * rai_shape_from_hints - what @node and @hints give the results
 *
 * ib_from_ip is the request's to set (it depends on the family the
 * kernel is asked for, request.c).
 */
void rai_shape_from_hints(struct rai_shape *s, const char *node,
			  const struct rdma_addrinfo *hints)
{
	memset(s, 0, sizeof(*s));
	s->no_node = !node;
	if (!hints)
		return;
	s->qp_type = hints->ai_qp_type;
	s->port_space = hints->ai_port_space;
	s->passive = !!(hints->ai_flags & RAI_PASSIVE);
	s->sa = !!(hints->ai_flags & RAI_SA);
	if (hints->ai_src_addr && hints->ai_src_len) {
		s->src_len = hints->ai_src_len < sizeof(s->src) ?
			     hints->ai_src_len : sizeof(s->src);
		memcpy(s->src, hints->ai_src_addr, s->src_len);
	}
}

/*
 * No node: the wildcard (RAI_PASSIVE) or loopback addresses, ordered by
 * family as glibc's getaddrinfo() orders them (librdmacm's one result is
 * glibc's first).  glibc is asked without a node: no name is looked up.
 */
static void rai_order_like_glibc(struct rdma_addrinfo **res, int passive)
{
	struct addrinfo h = { .ai_flags = AI_NUMERICSERV |
					  (passive ? AI_PASSIVE : 0),
			      .ai_socktype = SOCK_STREAM }, *g, *a;
	struct rdma_addrinfo *head = NULL, **tail = &head, **pp, *ai;

	if (getaddrinfo(NULL, "0", &h, &g))
		return;
	for (a = g; a; a = a->ai_next) {
		for (pp = res; *pp;) {
			ai = *pp;
			if (ai->ai_family != a->ai_family) {
				pp = &ai->ai_next;
				continue;
			}
			*pp = ai->ai_next;
			ai->ai_next = NULL;
			*tail = ai;
			tail = &ai->ai_next;
		}
	}
	*tail = *res;		/* families glibc does not give, as they were */
	*res = head;
	freeaddrinfo(g);
}

/*
 * RAI_SA results as rdma-core 60+'s ucma_convert_service_recs() and
 * resolve_sa_on_gid() make them: ai_flags RAI_SA, QP type 0, RDMA_PS_IB
 * whatever the hints said; the source (the port's GID) with the service ID
 * of RDMA_PS_IB and port 0 and the record's P_Key.  The destination is
 * the record's already (the kernel's).
 */
static void rai_shape_sa(struct rdma_addrinfo *list)
{
	const struct sockaddr_ib *dst;
	struct sockaddr_ib *src;

	for (; list; list = list->ai_next) {
		list->ai_flags = RAI_SA;
		list->ai_qp_type = 0;
		list->ai_port_space = RDMA_PS_IB;
		dst = (const void *)list->ai_dst_addr;
		src = (void *)list->ai_src_addr;
		if (!src || list->ai_src_len != sizeof(*src) ||
		    src->sib_family != AF_IB)
			continue;
		src->sib_sid = htobe64((uint64_t)RDMA_PS_IB << 16);
		src->sib_sid_mask = htobe64(RDMA_IB_IP_PS_MASK);
		if (dst && list->ai_dst_len == sizeof(*dst))
			src->sib_pkey = dst->sib_pkey;
	}
}

/*
 * The fields librdmacm takes from the hints: the caller's QP type and port
 * space (XRC types too), and the caller's source for an active result.
 */
static int rai_fields_from_hints(struct rdma_addrinfo *list,
				 const struct rai_shape *s)
{
	struct rdma_addrinfo *ai;

	if (s->qp_type)
		rai_set_qp_type(list, s->qp_type);
	for (ai = list; ai; ai = ai->ai_next) {
		if (s->port_space)
			ai->ai_port_space = s->port_space;
		if (!(ai->ai_flags & RAI_PASSIVE) && s->src_len &&
		    rai_copy_addr(&ai->ai_src_addr, &ai->ai_src_len, s->src,
				  s->src_len))
			return EAI_MEMORY;
	}
	return 0;
}

/**
 * rai_shape_list - the module's results @list as librdmacm gives them
 * @list: the converted results (rai_convert_results()), in the kernel's
 *	order
 * @s: what the caller's arguments give them
 *
 * Return: 0, or EAI_MEMORY (@list still valid, partly shaped).
 */
int rai_shape_list(struct rdma_addrinfo **list, const struct rai_shape *s)
{
	struct rdma_addrinfo *ai;
	int ret;

	if (s->sa) {
		rai_shape_sa(*list);
		return 0;
	}
	if (s->no_node)
		rai_order_like_glibc(list, s->passive);
	rai_set_passive(*list, s->passive);
	/* after the order: librdmacm's result is glibc's first, made AF_IB */
	if (s->ib_from_ip) {
		/* the service ID is of the port space the results get */
		if (s->port_space)
			for (ai = *list; ai; ai = ai->ai_next)
				ai->ai_port_space = s->port_space;
		ret = rai_ib_from_ip(list);
		if (ret)
			return ret;
	}
	return rai_fields_from_hints(*list, s);
}
