// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The wrapped rdma_destroy_event_channel(): what the library knew goes too. */
#include "export.h"
#include "real.h"
#include "registry.h"
#include "wake.h"

RAI_EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	rai_lock();
	rai_channel_forget(channel);
	rai_wake_kick();	/* the watcher holds on to the closed fd */
	rai_unlock();
	rai_real()->destroy_event_channel(channel);
}
