/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_ID_H
#define _RAI_ID_H

#include <rdma/rdma_cma.h>

#include "request.h"

/*
 * rdma_resolve_addrinfo() of @id once @req is checked and built; @list,
 * if not NULL, is taken as the results, whatever the request finds (it is
 * there for its event).
 */
int rai_resolve_id(struct rdma_cm_id *id, struct rai_request *req,
		   struct rdma_addrinfo *list);

struct rai_id;
struct rai_fallback;

/* Registry locked, see id.c. */
int rai_id_fall_back(struct rai_id *st, int *status);
void rai_id_fallback_done(struct rai_fallback *fb);

#endif /* _RAI_ID_H */
