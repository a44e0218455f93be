// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The wrapped librdmacm calls.  Event merging: rdma_get_cm_event() returns
 * the module's ADDRINFO events of a channel together with ucma's;
 * rdma_ack_cm_event() frees the ones made here.  Lifecycle: ids created
 * without a channel are remembered as synchronous; destroying an id or a
 * channel cancels its requests first.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "device.h"
#include "events.h"
#include "export.h"
#include "real.h"
#include "registry.h"

/* Turn a module event into the id's rdma_cm event (registry locked). */
static struct rai_event *rai_complete(struct rai_channel *ch,
				      const struct rdma_addrinfo_event *kev)
{
	struct rai_id *st;
	struct rai_event *ev;
	int status = kev->status;

	st = rai_id_find_request(ch, kev->context, kev->handle);
	if (!st)
		return NULL;	/* not a request of ours: cannot happen */

	if (!status && rai_fetch_results(ch->fd, kev->handle, &st->results,
					 &st->num_results))
		status = -errno;
	rai_destroy_request(ch->fd, kev->handle);
	st->handle = 0;
	st->completed = 1;
	st->status = status;

	ev = st->event;
	st->event = NULL;
	ev->event.id = st->id;
	ev->event.event = status ? RDMA_CM_EVENT_ADDRINFO_ERROR :
				   RDMA_CM_EVENT_ADDRINFO_RESOLVED;
	ev->event.status = status;
	rai_event_delivered(ev);
	return ev;
}

/*
 * Return: 1 with *@out set when the module had an event for @channel,
 * 0 when it had none, -1 with errno on error.  *@fd is the channel's module
 * fd, or -1 when the channel has none.
 */
static int rai_take_event(struct rdma_event_channel *channel,
			  struct rdma_cm_event **out, int *fd)
{
	struct rdma_addrinfo_event kev;
	struct rai_channel *ch;
	struct rai_event *ev;
	ssize_t n;
	int ret = 0;

	pthread_mutex_lock(&rai_registry_lock);
	ch = rai_channel_find(channel);
	*fd = ch ? ch->fd : -1;
	while (ch) {
		n = read(ch->fd, &kev, sizeof(kev));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = errno == EAGAIN ? 0 : -1;
			break;
		}
		if (n != sizeof(kev)) {
			errno = EPROTO;
			ret = -1;
			break;
		}
		ev = rai_complete(ch, &kev);
		if (ev) {
			*out = &ev->event;
			ret = 1;
			break;
		}
	}
	pthread_mutex_unlock(&rai_registry_lock);
	return ret;
}

int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event)
{
	struct pollfd pfd[2];
	int fd, nonblock, ret;

	if (!channel || !event)
		return rai_real()->get_cm_event(channel, event);

	for (;;) {
		ret = rai_take_event(channel, event, &fd);
		if (fd < 0)
			return rai_real()->get_cm_event(channel, event);
		if (ret)
			return ret > 0 ? 0 : -1;

		nonblock = fcntl(channel->fd, F_GETFL) & O_NONBLOCK;
		pfd[0].fd = channel->fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = fd;
		pfd[1].events = POLLIN;
		ret = poll(pfd, 2, nonblock ? 0 : -1);
		if (ret < 0)
			return -1;
		if (pfd[0].revents)
			return rai_real()->get_cm_event(channel, event);
		if (!ret) {
			errno = EAGAIN;
			return -1;
		}
	}
}

RAI_EXPORT int rdma_get_cm_event(struct rdma_event_channel *channel,
				 struct rdma_cm_event **event)
{
	return rai_get_event(channel, event);
}

int rai_ack_event(struct rdma_cm_event *event)
{
	int ours;

	pthread_mutex_lock(&rai_registry_lock);
	ours = rai_event_take_back(event);
	pthread_mutex_unlock(&rai_registry_lock);
	if (ours)
		return 0;
	return rai_real()->ack_cm_event(event);
}

RAI_EXPORT int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	return rai_ack_event(event);
}

RAI_EXPORT int rdma_create_id(struct rdma_event_channel *channel,
			      struct rdma_cm_id **id, void *context,
			      enum rdma_port_space ps)
{
	int ret = rai_real()->create_id(channel, id, context, ps);

	if (ret || channel)
		return ret;
	pthread_mutex_lock(&rai_registry_lock);
	ret = rai_id_mark_sync(*id);
	pthread_mutex_unlock(&rai_registry_lock);
	if (ret) {
		rai_real()->destroy_id(*id);
		errno = ENOMEM;
	}
	return ret;
}

RAI_EXPORT int rdma_destroy_id(struct rdma_cm_id *id)
{
	pthread_mutex_lock(&rai_registry_lock);
	rai_id_forget(id);
	pthread_mutex_unlock(&rai_registry_lock);
	return rai_real()->destroy_id(id);
}

RAI_EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	pthread_mutex_lock(&rai_registry_lock);
	rai_channel_forget(channel);
	pthread_mutex_unlock(&rai_registry_lock);
	rai_real()->destroy_event_channel(channel);
}
