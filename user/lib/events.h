/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_EVENTS_H
#define _RAI_EVENTS_H

#include <poll.h>
#include <rdma/rdma_cma.h>

#include "registry.h"

/* The merged event calls, for use inside the library. */
int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event);
int rai_ack_event(struct rdma_cm_event *event);

/*
 * The next event of @ch's module fd, its request completed: the id it
 * belongs to (ready unless synchronous), or NULL when none is queued.
 * Registry locked.
 */
struct rai_id *rai_read_module_event(struct rai_channel *ch);

/* The most descriptors rai_wait_fds() waits for. */
#define RAI_WAIT_FDS	3

/* poll(@pfd) without waiting, a signal meanwhile not taken for an answer. */
int rai_poll_now(struct pollfd *pfd, nfds_t nfds);

/* poll(@pfd) with no timeout, ended by signals as librdmacm's read is. */
int rai_wait_fds(struct pollfd *pfd, nfds_t nfds);

#endif /* _RAI_EVENTS_H */
