/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_SYNC_H
#define _RAI_SYNC_H

#include "request.h"

int rai_resolve_sync(int fd, struct rai_request *req,
		     struct rdma_addrinfo **res);
int rai_resolve_sync_sa_ports(int fd, struct rai_request *req,
			      struct rdma_addrinfo **res);

#endif /* _RAI_SYNC_H */
