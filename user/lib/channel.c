// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The wrapped rdma_destroy_event_channel(): what the library knew goes too. */
#include <errno.h>

#include "export.h"
#include "real.h"
#include "registry.h"
#include "wake.h"

RAI_EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	int saved_errno = errno;

	rai_lock();
	rai_channel_forget(channel);
	rai_wake_kick();	/* the watcher holds on to the closed fd */
	rai_unlock();
	errno = saved_errno;	/* as librdmacm's call alone leaves it */
	rai_real()->destroy_event_channel(channel);
}
