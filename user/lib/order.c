// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * First in, first out across a channel's two queues: librdmacm hands out
 * a channel's events in the order they arrived, and so must
 * rdma_get_cm_event() with ADDRINFO events among them.
 *
 * Neither queue says when its events arrived, and neither can be read
 * ahead: an event taken off channel->fd or the module fd and kept here
 * would leave both descriptors quiet for a program that polls them.  What
 * the library can know is which queue was empty when it looked.  It looks
 * when a request starts (before its ADDRINFO event can exist), at every
 * step of rdma_get_cm_event() and after handing out an rdma_cm event:
 *
 *  - channel->fd has events while no ADDRINFO event exists (none queued
 *    on the module fd, none read and waiting): every rdma_cm event queued
 *    now is older than every ADDRINFO event to come.  Until channel->fd is
 *    seen empty again, its events go first.
 *  - channel->fd is empty: every rdma_cm event to come is younger than
 *    the ADDRINFO events there are; they go first, as before.
 *
 * What is left: the library cannot count channel->fd's events without
 * reading them.  rdma_cm events that join the queue behind older ones
 * after an ADDRINFO event arrived go before it too, until channel->fd is
 * seen empty; and events of both kinds that arrive between two looks with
 * nothing older queued give the ADDRINFO event first.  With the wake-ups
 * of wake.c (librdmacm 60+ on Linux 6.18+) an ADDRINFO event takes its
 * place in channel->fd when the library's thread reads it, a moment after
 * it arrived.  Exact order needs the kernel: see the man page's table.
 */
#include <poll.h>

#include "events.h"
#include "order.h"

/* Whether @fd has an event queued (a negative fd has none). */
static int rai_order_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return fd >= 0 && rai_poll_now(&pfd, 1) == 1;
}

/* Look at @ch's queues: what goes first from now on. */
void rai_order_look(struct rai_channel *ch)
{
	rai_assert_locked();
	if (!rai_order_readable(ch->channel->fd))
		ch->ucma_first = 0;
	else if (!rai_order_readable(ch->fd) && !rai_id_find_ready(ch))
		ch->ucma_first = 1;
}

/* Whether channel->fd's next event is older than any ADDRINFO event. */
int rai_order_ucma_first(struct rai_channel *ch)
{
	rai_order_look(ch);
	return ch->ucma_first;
}
