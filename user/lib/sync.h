/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_SYNC_H
#define _RAI_SYNC_H

#include "request.h"

/*
 * No EAI_* code (those are negative): the module refused a DNS name for the
 * caller's view (status.c, rai_view_refused()).
 */
#define RAI_VIEW_REFUSED	1

int rai_resolve_sync(int fd, struct rai_request *req,
		     struct rdma_addrinfo **res);
int rai_resolve_sync_sa_ports(int fd, struct rai_request *req,
			      struct rdma_addrinfo **res);

#endif /* _RAI_SYNC_H */
