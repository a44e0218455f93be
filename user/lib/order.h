/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_ORDER_H
#define _RAI_ORDER_H

#include "registry.h"

/*
 * Which of a channel's two queues, channel->fd's rdma_cm events or its
 * ADDRINFO events, holds the older event (order.c).  Registry locked.
 */
void rai_order_look(struct rai_channel *ch);
int rai_order_ucma_first(struct rai_channel *ch);

#endif /* _RAI_ORDER_H */
