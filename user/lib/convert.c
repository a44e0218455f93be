// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * From the kernel's struct rdma_addrinfo_result to librdmacm's struct
 * rdma_addrinfo.  Every member is a separate allocation, as librdmacm makes
 * them, so either library's rdma_freeaddrinfo() frees either's lists.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/sa.h>
#include <rdma/rdma_cma.h>

#include "convert.h"
#include "request.h"

/* A socket address of the kernel: its family must match its length. */
static int rai_addr_valid(const __u8 *bytes, __u32 len)
{
	struct sockaddr sa;

	if (len < sizeof(sa.sa_family) || len > RDMA_ADDRINFO_ADDR_SIZE)
		return 0;
	memcpy(&sa.sa_family, bytes, sizeof(sa.sa_family));
	return rai_family_socklen(sa.sa_family) == len;
}

/**
 * rai_copy_addr - *@dst and *@dst_len become a copy of @len bytes at @src
 *
 * Whatever *@dst held is freed.  Return: 0, or EAI_MEMORY with *@dst
 * unchanged.
 */
int rai_copy_addr(struct sockaddr **dst, socklen_t *dst_len, const void *src,
		  socklen_t len)
{
	void *sa = malloc(len);

	if (!sa)
		return EAI_MEMORY;
	memcpy(sa, src, len);
	free(*dst);
	*dst = sa;
	*dst_len = len;
	return 0;
}

/* ai_route: one struct ibv_path_data around the PathRecord. */
static struct ibv_path_data *rai_route_from_record(const __u8 *record)
{
	struct ibv_path_data *path = calloc(1, sizeof(*path));

	if (!path)
		return NULL;
	path->flags = IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY |
		      IBV_PATH_FLAG_BIDIRECTIONAL;
	memcpy(&path->path, record, sizeof(path->path));
	return path;
}

/**
 * rai_convert_result - one kernel result as a new struct rdma_addrinfo
 *
 * Return: 0, EAI_MEMORY, or EAI_FAIL (errno EPROTO) for a result whose
 * lengths or families do not add up.
 */
int rai_convert_result(const struct rdma_addrinfo_result *r,
		       struct rdma_addrinfo **out)
{
	struct rdma_addrinfo *ai;

	_Static_assert(sizeof(struct ibv_path_record) ==
		       RDMA_ADDRINFO_PATH_RECORD_SIZE, "PathRecord size");

	if ((r->src_len && !rai_addr_valid(r->src_addr, r->src_len)) ||
	    (r->dst_len && !rai_addr_valid(r->dst_addr, r->dst_len)) ||
	    (r->route_len && r->route_len != RDMA_ADDRINFO_PATH_RECORD_SIZE) ||
	    !rai_family_socklen(r->family)) {
		errno = EPROTO;
		return EAI_FAIL;
	}

	ai = calloc(1, sizeof(*ai));
	if (!ai)
		return EAI_MEMORY;
	ai->ai_flags = r->ai_flags & RAI_PASSIVE;
	ai->ai_family = r->family;
	ai->ai_qp_type = r->qp_type;
	ai->ai_port_space = r->port_space;
	if ((r->src_len && rai_copy_addr(&ai->ai_src_addr, &ai->ai_src_len,
					 r->src_addr, r->src_len)) ||
	    (r->dst_len && rai_copy_addr(&ai->ai_dst_addr, &ai->ai_dst_len,
					 r->dst_addr, r->dst_len)))
		goto err_free;
	if (r->route_len) {
		ai->ai_route = rai_route_from_record(r->route);
		if (!ai->ai_route)
			goto err_free;
		ai->ai_route_len = sizeof(struct ibv_path_data);
	}
	*out = ai;
	return 0;

err_free:
	rai_free_list(ai);
	return EAI_MEMORY;
}

/*
 * The host's name, read again at most once a second per thread: a
 * gethostname() is a system call (uname) each time, and every active
 * result list with a source asks for it.  "" when it cannot be read.
 */
static const char *rai_host_name(void)
{
	static __thread char host[RDMA_ADDRINFO_NAME_MAX + 1];
	static __thread struct timespec read_at;
	static __thread int read_once;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (read_once && now.tv_sec == read_at.tv_sec)
		return host;
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	read_at = now;
	read_once = 1;
	return host;
}

/*
 * The canonical names of the list's first entry, which librdmacm never
 * fills (rdma_getaddrinfo(3)): the destination's as the module reported
 * it (@canonname: the CNAME target, the first name of its /etc/hosts
 * line, else the name; none for a literal), the source's the local
 * host's name (gethostname()) where a source was selected for an active
 * result.  0 or EAI_MEMORY.
 */
static int rai_set_canonnames(struct rdma_addrinfo *ai, const char *canonname)
{
	const char *host;

	if (canonname) {
		ai->ai_dst_canonname = strdup(canonname);
		if (!ai->ai_dst_canonname)
			return EAI_MEMORY;
	}
	if (!ai->ai_src_addr || (ai->ai_flags & RAI_PASSIVE))
		return 0;
	host = rai_host_name();
	if (!host[0])
		return 0;
	ai->ai_src_canonname = strdup(host);
	return ai->ai_src_canonname ? 0 : EAI_MEMORY;
}

/**
 * rai_convert_results - @n kernel results as an ai_next chain, in order
 * @r: the results
 * @n: their number
 * @canonname: the request's canonical name (the module's), or NULL
 * @list: the chain; its first entry gets the canonical names
 *	(rai_set_canonnames())
 *
 * Return: 0 (*@list is NULL when @n is 0) or the error of
 * rai_convert_result(), with nothing allocated.
 */
int rai_convert_results(const struct rdma_addrinfo_result *r, unsigned int n,
			const char *canonname, struct rdma_addrinfo **list)
{
	struct rdma_addrinfo *head = NULL, **tail = &head;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rai_convert_result(&r[i], tail);
		if (ret) {
			rai_free_list(head);
			return ret;
		}
		tail = &(*tail)->ai_next;
	}
	if (head) {
		ret = rai_set_canonnames(head, canonname);
		if (ret) {
			rai_free_list(head);
			return ret;
		}
	}
	*list = head;
	return 0;
}

/*
 * Hints alone (no node, no service): nothing to resolve.  librdmacm answers
 * with the hints themselves (flags, family, QP type, port space, both
 * addresses as given, whatever their family: AF_IB, multicast groups), and
 * rdma_resolve_route() and multicast clients rely on it.  So does this
 * library (rdma_getaddrinfo(), rdma_resolve_addrinfo() at RDMACM_1.4).
 * Return: 0 or EAI_MEMORY.
 */
int rai_list_from_hints(const struct rdma_addrinfo *hints,
			struct rdma_addrinfo **res)
{
	struct rdma_addrinfo *ai = calloc(1, sizeof(*ai));

	if (!ai)
		return EAI_MEMORY;
	ai->ai_flags = hints->ai_flags;
	ai->ai_family = hints->ai_family;
	ai->ai_qp_type = hints->ai_qp_type;
	ai->ai_port_space = hints->ai_port_space;
	if ((hints->ai_dst_addr && hints->ai_dst_len &&
	     rai_copy_addr(&ai->ai_dst_addr, &ai->ai_dst_len,
			   hints->ai_dst_addr, hints->ai_dst_len)) ||
	    (hints->ai_src_addr && hints->ai_src_len &&
	     rai_copy_addr(&ai->ai_src_addr, &ai->ai_src_len,
			   hints->ai_src_addr, hints->ai_src_len))) {
		rai_free_list(ai);
		return EAI_MEMORY;
	}
	*res = ai;
	return 0;
}

/*
 * An IP address as librdmacm's ucma_convert_in6() makes an AF_IB one of
 * it: it reads the address as a sockaddr_in6 whatever its family.  Of an
 * IPv4 address, that makes sib_flowinfo the address itself and the GID's
 * first half sin_zero (zeros); its second half and sib_scope_id lie past
 * glibc's sockaddr_in, in librdmacm's heap, and are 0 here: the wildcard
 * 0.0.0.0 is the wildcard GID, as librdmacm's servers listen on it.  The
 * service ID is ucma_set_sid()'s, from @ps and the address's port.
 */
static void rai_ib_of_ip(const struct sockaddr *sa, int ps,
			 struct sockaddr_ib *sib)
{
	const struct sockaddr_in *sin = (const void *)sa;
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	uint16_t port;

	memset(sib, 0, sizeof(*sib));
	sib->sib_family = AF_IB;
	sib->sib_pkey = htons(0xffff);
	if (sa->sa_family == AF_INET) {
		memcpy(&sib->sib_flowinfo, &sin->sin_addr,
		       sizeof(sib->sib_flowinfo));
		port = ntohs(sin->sin_port);
	} else {
		sib->sib_flowinfo = sin6->sin6_flowinfo;
		memcpy(&sib->sib_addr, &sin6->sin6_addr, sizeof(sib->sib_addr));
		sib->sib_scope_id = sin6->sin6_scope_id;
		port = ntohs(sin6->sin6_port);
	}
	sib->sib_sid = htobe64(((uint64_t)ps << 16) + port);
	if (ps)
		sib->sib_sid_mask = htobe64(RDMA_IB_IP_PS_MASK);
	if (port)
		sib->sib_sid_mask |= htobe64(RDMA_IB_IP_PORT_MASK);
}

/* The AF_IB address of @ai that rai_ib_of_ip() sets, or NULL. */
static const struct sockaddr *rai_ib_addr(const struct rdma_addrinfo *ai)
{
	int passive = ai->ai_flags & RAI_PASSIVE;

	if (ai->ai_family != AF_IB ||
	    (passive ? ai->ai_src_len : ai->ai_dst_len) !=
	    sizeof(struct sockaddr_ib))
		return NULL;
	return passive ? ai->ai_src_addr : ai->ai_dst_addr;
}

/* Whether @a and @b are AF_IB results of the same address. */
static int rai_same_ib(const struct rdma_addrinfo *a,
		       const struct rdma_addrinfo *b)
{
	const struct sockaddr *x = rai_ib_addr(a), *y = rai_ib_addr(b);

	return x && y && (a->ai_flags & RAI_PASSIVE) ==
			 (b->ai_flags & RAI_PASSIVE) &&
	       !memcmp(x, y, sizeof(struct sockaddr_ib));
}

/**
 * rai_ib_from_ip - the IP results of @list as AF_IB ones, as librdmacm
 * makes them with AF_IB, RAI_FAMILY and RAI_NUMERICHOST
 * @list: results with their final port space (that of their service ID)
 *
 * The address (the source of a passive result, else the destination)
 * becomes an AF_IB one (rai_ib_of_ip()); an active result loses the IP
 * source the kernel chose (librdmacm has none; the hints' is echoed
 * after).  Results that become an earlier one's address go (0.0.0.0 and
 * :: are both the wildcard GID).  AF_IB results stay as they are.
 *
 * Return: 0, or EAI_MEMORY (@list as valid as before, partly converted).
 */
int rai_ib_from_ip(struct rdma_addrinfo **list)
{
	struct rdma_addrinfo **pp, *ai, *prev;
	struct sockaddr **addr;
	struct sockaddr_ib sib;
	socklen_t *len;

	for (pp = list; (ai = *pp);) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) {
			pp = &ai->ai_next;
			continue;
		}
		addr = ai->ai_flags & RAI_PASSIVE ? &ai->ai_src_addr :
						    &ai->ai_dst_addr;
		len = ai->ai_flags & RAI_PASSIVE ? &ai->ai_src_len :
						   &ai->ai_dst_len;
		if (!*addr || (*addr)->sa_family != ai->ai_family) {
			pp = &ai->ai_next;
			continue;
		}
		rai_ib_of_ip(*addr, ai->ai_port_space, &sib);
		if (rai_copy_addr(addr, len, &sib, sizeof(sib)))
			return EAI_MEMORY;
		ai->ai_family = AF_IB;
		if (!(ai->ai_flags & RAI_PASSIVE)) {
			free(ai->ai_src_addr);
			free(ai->ai_src_canonname);
			ai->ai_src_addr = NULL;
			ai->ai_src_len = 0;
			ai->ai_src_canonname = NULL;
		}
		for (prev = *list; prev != ai && !rai_same_ib(prev, ai);)
			prev = prev->ai_next;
		if (prev != ai) {
			*pp = ai->ai_next;
			ai->ai_next = NULL;
			rai_free_list(ai);
			continue;
		}
		pp = &ai->ai_next;
	}
	return 0;
}

/* Every result of @list gets the caller's @qp_type (XRC types as asked). */
void rai_set_qp_type(struct rdma_addrinfo *list, int qp_type)
{
	for (; list; list = list->ai_next)
		list->ai_qp_type = qp_type;
}

/* RAI_PASSIVE in each result's ai_flags as the hints had it. */
void rai_set_passive(struct rdma_addrinfo *list, int passive)
{
	for (; list; list = list->ai_next)
		list->ai_flags = (list->ai_flags & ~RAI_PASSIVE) |
				 (passive ? RAI_PASSIVE : 0);
}

/* A new copy of @len bytes at @p in *@to (NULL for none).  Return: 0, -1. */
static int rai_dup_bytes(void *to, const void *p, size_t len)
{
	void *copy = NULL;

	if (p && len) {
		copy = malloc(len);
		if (!copy)
			return -1;
		memcpy(copy, p, len);
	}
	memcpy(to, &copy, sizeof(copy));
	return 0;
}

/* A copy of one element, ai_next NULL.  Return: NULL without memory. */
static struct rdma_addrinfo *rai_copy_one(const struct rdma_addrinfo *ai)
{
	struct rdma_addrinfo *c = malloc(sizeof(*c));
	const char *src_name = ai->ai_src_canonname;
	const char *dst_name = ai->ai_dst_canonname;
	int err;

	if (!c)
		return NULL;
	*c = *ai;
	c->ai_next = NULL;
	/* Each pointer copied below; none of @ai's is freed on a failure. */
	c->ai_src_addr = c->ai_dst_addr = NULL;
	c->ai_src_canonname = c->ai_dst_canonname = NULL;
	c->ai_route = c->ai_connect = NULL;
	err = rai_dup_bytes(&c->ai_src_addr, ai->ai_src_addr, ai->ai_src_len);
	err |= rai_dup_bytes(&c->ai_dst_addr, ai->ai_dst_addr, ai->ai_dst_len);
	err |= rai_dup_bytes(&c->ai_src_canonname, src_name,
			     src_name ? strlen(src_name) + 1 : 0);
	err |= rai_dup_bytes(&c->ai_dst_canonname, dst_name,
			     dst_name ? strlen(dst_name) + 1 : 0);
	err |= rai_dup_bytes(&c->ai_route, ai->ai_route, ai->ai_route_len);
	err |= rai_dup_bytes(&c->ai_connect, ai->ai_connect,
			     ai->ai_connect_len);
	if (err) {
		rai_free_list(c);
		return NULL;
	}
	return c;
}

/**
 * rai_copy_list - a copy of @list, every member allocated apart
 *
 * Return: 0, or -1 (no memory) with nothing allocated.
 */
int rai_copy_list(const struct rdma_addrinfo *list, struct rdma_addrinfo **out)
{
	struct rdma_addrinfo *head = NULL, **tail = &head;

	for (; list; list = list->ai_next) {
		*tail = rai_copy_one(list);
		if (!*tail) {
			rai_free_list(head);
			return -1;
		}
		tail = &(*tail)->ai_next;
	}
	*out = head;
	return 0;
}

void rai_free_list(struct rdma_addrinfo *list)
{
	struct rdma_addrinfo *next;

	for (; list; list = next) {
		next = list->ai_next;
		free(list->ai_src_addr);
		free(list->ai_dst_addr);
		free(list->ai_src_canonname);
		free(list->ai_dst_canonname);
		free(list->ai_route);
		free(list->ai_connect);
		free(list);
	}
}
