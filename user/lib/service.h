/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_SERVICE_H
#define _RAI_SERVICE_H

#include <stddef.h>
#include <rdma/rdma_addrinfo.h>

int rai_map_service(const char *service, const struct rdma_addrinfo *hints,
		    char *out, size_t out_size, int *qp_type);

#endif /* _RAI_SERVICE_H */
