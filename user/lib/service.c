// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Service strings: what RESOLVE gets in its service field.  DNS and numeric
 * requests take a decimal port.  librdmacm hands the service to glibc's
 * getaddrinfo() with a socket type and protocol made from the hints' QP
 * type and port space, and takes the QP type and port space the hints
 * leave open from the first answer; so does this, by asking glibc the same
 * question without a node (no name is looked up).  glibc decides what a
 * service is: a name of either protocol, a number cast to 16 bits, leading
 * blanks.  An SA request takes the service ID or name as is.
 */
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "service.h"

/* The socket type librdmacm asks getaddrinfo() for; 0: any. */
static int rai_socktype(int qp_type)
{
	switch (qp_type) {
	case IBV_QPT_RC:
	case IBV_QPT_UC:
	case IBV_QPT_XRC_SEND:
	case IBV_QPT_XRC_RECV:
		return SOCK_STREAM;
	case IBV_QPT_UD:
		return SOCK_DGRAM;
	default:		/* RAW_PACKET, types librdmacm does not know */
		return 0;
	}
}

/* The protocol librdmacm asks getaddrinfo() for; 0: any. */
static int rai_protocol(int port_space, int socktype)
{
	switch (port_space) {
	case RDMA_PS_TCP:
		return IPPROTO_TCP;
	case RDMA_PS_UDP:
	case RDMA_PS_IPOIB:
		return IPPROTO_UDP;
	case RDMA_PS_IB:
		if (socktype == SOCK_STREAM)
			return IPPROTO_TCP;
		return socktype == SOCK_DGRAM ? IPPROTO_UDP : 0;
	default:
		return 0;
	}
}

/* The SA's service ID or name, passed on as is. */
static int rai_sa_service(const char *service, char *out, size_t out_size)
{
	size_t len = service ? strlen(service) : 0;

	if (!service)
		return 0;
	if (!len || len > RDMA_ADDRINFO_SERVICE_MAX || len >= out_size)
		return EAI_SERVICE;
	memcpy(out, service, len + 1);
	return 0;
}

/*
 * glibc's answer for a service of decimal digits depends on the digits,
 * the socket type and the protocol alone (no file is read): the last one
 * is kept per thread, as a program usually names one port on every call.
 */
struct rai_service_memo {
	char service[8];	/* the digits; "" when nothing is kept */
	int socktype;
	int protocol;
	int ret;		/* getaddrinfo()'s */
	int qp_type;
	char port[8];		/* decimal */
};

static __thread struct rai_service_memo rai_service_memo;

/* Is @s one to five decimal digits (a service kept in the memo)? */
static int rai_service_digits(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && n <= 5 && !s[n];
}

/**
 * rai_map_service - the service bytes to pass to RESOLVE, and the QP type
 *	that librdmacm's getaddrinfo() call gives
 * @service: the caller's service string, or NULL
 * @hints: the caller's hints, or NULL
 * @out: receives a NUL-terminated string of at most
 *	RDMA_ADDRINFO_SERVICE_MAX bytes: the decimal port ("" without a
 *	service), or with RAI_SA the service as given
 * @out_size: size of @out
 * @qp_type: receives the QP type of glibc's first answer: IBV_QPT_UD for
 *	a datagram socket, else IBV_QPT_RC (0 with RAI_SA)
 *
 * Return: 0, or getaddrinfo()'s error: EAI_SERVICE for a service unknown
 * for the socket type, EAI_SOCKTYPE for a QP type and port space that
 * disagree (UD with RDMA_PS_TCP); with RAI_SA, EAI_SERVICE for a string
 * empty or too long.
 */
int rai_map_service(const char *service, const struct rdma_addrinfo *hints,
		    char *out, size_t out_size, int *qp_type)
{
	/* Kept when of digits; any other service is asked each time. */
	struct rai_service_memo *memo = &rai_service_memo, fresh;
	struct addrinfo h = { .ai_family = AF_INET }, *res;
	/* Without a service: the socket type alone ("0" fits every one). */
	const char *asked = service ? service : "0";
	const struct sockaddr_in *sin;
	int digits;

	*out = '\0';
	*qp_type = 0;
	if (hints && (hints->ai_flags & RAI_SA))
		return rai_sa_service(service, out, out_size);

	if (hints) {
		h.ai_socktype = rai_socktype(hints->ai_qp_type);
		h.ai_protocol = rai_protocol(hints->ai_port_space,
					     h.ai_socktype);
	}
	digits = rai_service_digits(asked);
	if (!digits || strcmp(memo->service, asked) ||
	    memo->socktype != h.ai_socktype ||
	    memo->protocol != h.ai_protocol) {
		memo = digits ? memo : &fresh;
		memo->ret = getaddrinfo(NULL, asked, &h, &res);
		if (!memo->ret) {
			memo->qp_type = res->ai_socktype == SOCK_DGRAM ?
					IBV_QPT_UD : IBV_QPT_RC;
			sin = (const struct sockaddr_in *)res->ai_addr;
			snprintf(memo->port, sizeof(memo->port), "%u",
				 ntohs(sin->sin_port));
			freeaddrinfo(res);
		}
		snprintf(memo->service, sizeof(memo->service), "%s", asked);
		memo->socktype = h.ai_socktype;
		memo->protocol = h.ai_protocol;
	}
	if (memo->ret)
		return memo->ret;
	*qp_type = memo->qp_type;
	if (service) {
		/* Each call: a copy, not an snprintf(). */
		size_t n = strnlen(memo->port, out_size - 1);

		memcpy(out, memo->port, n);
		out[n] = '\0';
	}
	return 0;
}
