/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_REQUEST_H
#define _RAI_REQUEST_H

#include <netinet/in.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "shape.h"

/*
 * The caller's own service and hints, kept with a request for a name: if
 * the module refuses the name for the caller's view, librdmacm is asked
 * with them (fallback.c).  No pointers: requests are copied by value.
 */
struct rai_caller_args {
	int has_hints;
	int flags, family, qp_type, port_space;
	socklen_t src_len;
	__u8 src[sizeof(struct sockaddr_storage)];	/* librdmacm's echo */
	int has_service;
	char service[RDMA_ADDRINFO_SERVICE_MAX + 1];
};

/* A RESOLVE command and the strings its pointers refer to. */
struct rai_request {
	struct rdma_addrinfo_resolve cmd;
	unsigned int ctx;				/* RAI_CTX_* */
	/* the results' QP type and RAI_PASSIVE the hints' (not cmd's) */
	struct rai_shape shape;
	int as_60;		/* an id's, at RDMACM_1.4 (resolve.c) */
	char service[RDMA_ADDRINFO_SERVICE_MAX + 1];
	char node[INET6_ADDRSTRLEN + 16];		/* from ai_dst_addr */
	struct rai_caller_args caller;			/* RAI_CTX_NAME only */
};

/*
 * No EAI_* code (those are negative): the node is a name for glibc that
 * the module would read as an IPv4 literal (192.168.1.09): librdmacm's own
 * call looks it up.  Apart from RAI_VIEW_REFUSED (sync.h).
 */
#define RAI_GLIBC_NAME	2

#define RAI_KNOWN_FLAGS (RAI_PASSIVE | RAI_NUMERICHOST | RAI_NOROUTE | \
			 RAI_FAMILY | RAI_SA | RAI_DNS)

int rai_check_hints(const char *node, const char *service,
		    const struct rdma_addrinfo *hints);
int rai_build_request(struct rai_request *req, const char *node,
		      const char *service, const struct rdma_addrinfo *hints);
socklen_t rai_family_socklen(int family);

#endif /* _RAI_REQUEST_H */
