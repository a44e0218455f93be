/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_EVENTS_H
#define _RAI_EVENTS_H

#include <rdma/rdma_cma.h>

/* The merged event calls, for use inside the library. */
int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event);
int rai_ack_event(struct rdma_cm_event *event);

#endif /* _RAI_EVENTS_H */
