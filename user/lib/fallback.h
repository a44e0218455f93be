/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_FALLBACK_H
#define _RAI_FALLBACK_H

#include <rdma/rdma_addrinfo.h>

#include "request.h"

/*
 * A request of an rdma_cm_id whose DNS name the module refused for the
 * caller's view, to be resolved by librdmacm in this process.
 */
struct rai_fallback {
	struct rdma_cm_id *id;
	char node[RDMA_ADDRINFO_NAME_MAX + 1];
	char mapped_service[RDMA_ADDRINFO_SERVICE_MAX + 1];
	struct rai_caller_args caller;
	int cancelled;			/* its id no longer waits for it */
	int queued;			/* given to the workers */
	int taken;			/* a thread is resolving it */
	struct rdma_addrinfo *list;	/* librdmacm's results */
	int status;			/* 0, or librdmacm's error as a status */
	struct rai_fallback *next;	/* in the queue of the workers */
};

void rai_fallback_say(void);
struct rai_fallback *rai_fallback_new(struct rdma_cm_id *id,
				      const struct rai_request *req);
void rai_fallback_run(struct rai_fallback *fb);
int rai_fallback_queue(struct rai_fallback *fb);

#endif /* _RAI_FALLBACK_H */
