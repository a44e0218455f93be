/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_WAKE_H
#define _RAI_WAKE_H

#include <rdma/rdma_cma.h>

/*
 * Wake-ups in channel->fd for the ADDRINFO events of the module's fd
 * (librdmacm with rdma_write_cm_event() on Linux 6.18+).  All but
 * rai_wake_is_ours() are called with rai_registry_lock held.
 */
void rai_wake_watch(void);
void rai_wake_kick(void);
struct rai_id;
struct rai_channel;
void rai_wake_ready(struct rai_id *st, struct rai_channel *ch);
int rai_wake_is_ours(const struct rdma_cm_event *event);

#endif /* _RAI_WAKE_H */
