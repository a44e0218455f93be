// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * <rdma/rdma_addrinfo.h> compiles cleanly (-Wall -Wextra -Werror, C11 and
 * C++) against librdmacm 44's <rdma/rdma_cma.h> and against a newer one that
 * already defines RAI_SA, RAI_DNS, the ADDRINFO events and the calls, and
 * whether or not <rdma/rdma_cma.h> was included first.  Built by
 * "make check"; a build failure is the test failure.
 */
#ifdef RAI_CMA_FIRST
#include <rdma/rdma_cma.h>
#endif
#include <rdma/rdma_addrinfo.h>

int main(void)
{
	enum rdma_cm_event_type ev = RDMA_CM_EVENT_ADDRINFO_RESOLVED;
	int (*resolve)(struct rdma_cm_id *, const char *, const char *,
		       const struct rdma_addrinfo *) = rdma_resolve_addrinfo;
	int (*query)(struct rdma_cm_id *, struct rdma_addrinfo **) =
		rdma_query_addrinfo;
	struct sockaddr *(*local)(struct rdma_cm_id *) = rdma_get_local_addr;

	return !(ev == 16 && RDMA_CM_EVENT_ADDRINFO_ERROR == 17 &&
		 RAI_SA == 0x10 && RAI_DNS == 0x20 && EAI_QPTYPE < 0 &&
		 resolve && query && local);
}
