// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_get_local_addr() as an exported function (librdmacm has only a
 * static inline): the id's bound address, all zeroes when unbound.
 */
#include "export.h"
#include <rdma/rdma_addrinfo.h>

RAI_EXPORT struct sockaddr *rdma_get_local_addr(struct rdma_cm_id *id)
{
	return &id->route.addr.src_addr;
}
