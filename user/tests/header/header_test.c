// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * <rdma/rdma_addrinfo.h> compiles cleanly (-Wall -Wextra -Werror, C11 and
 * C++) against librdmacm 44's <rdma/rdma_cma.h> and against a newer one that
 * already defines RAI_SA, RAI_DNS, the ADDRINFO events and the calls, and
 * whether or not <rdma/rdma_cma.h> was included first; a switch over enum
 * rdma_cm_event_type names the ADDRINFO events wherever the enum can have
 * them (not after librdmacm 44's own header).  Built by
 * "make check"; a build failure is the test failure.
 */
#ifdef RAI_CMA_FIRST
#include <rdma/rdma_cma.h>
#ifdef RAI_SA
#define RAI_ENUM_HAS_ADDRINFO	/* librdmacm 60+: its own enum has them */
#endif
#else
#define RAI_ENUM_HAS_ADDRINFO	/* this header, first, adds them */
#endif
#include <rdma/rdma_addrinfo.h>

#ifdef RAI_ENUM_HAS_ADDRINFO
/* A switch over the enum naming the ADDRINFO events: clean under -Wswitch. */
static int handled(enum rdma_cm_event_type ev)
{
	switch (ev) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ADDRINFO_RESOLVED:
		return 1;
	case RDMA_CM_EVENT_ADDRINFO_ERROR:
		return 2;
	default:
		return 0;
	}
}
#else
static int handled(enum rdma_cm_event_type ev)
{
	return ev == RDMA_CM_EVENT_ADDRINFO_RESOLVED ? 1 :
	       ev == RDMA_CM_EVENT_ADDRINFO_ERROR ? 2 : 0;
}
#endif

int main(void)
{
	enum rdma_cm_event_type ev = RDMA_CM_EVENT_ADDRINFO_RESOLVED;
	int (*resolve)(struct rdma_cm_id *, const char *, const char *,
		       const struct rdma_addrinfo *) = rdma_resolve_addrinfo;
	int (*query)(struct rdma_cm_id *, struct rdma_addrinfo **) =
		rdma_query_addrinfo;
	struct sockaddr *(*local)(struct rdma_cm_id *) = rdma_get_local_addr;

	const char *(*str)(enum rdma_cm_event_type) = rdma_event_str;

	return !(ev == 16 && RDMA_CM_EVENT_ADDRINFO_ERROR == 17 &&
		 handled(ev) == 1 && str &&
		 RAI_SA == 0x10 && RAI_DNS == 0x20 && EAI_QPTYPE < 0 &&
		 resolve && query && local);
}
