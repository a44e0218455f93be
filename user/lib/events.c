// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The wrapped librdmacm calls.  Event merging: rdma_get_cm_event() returns
 * the module's ADDRINFO events of a channel together with ucma's;
 * rdma_ack_cm_event() frees the ones made here; the wake-ups of wake.c are
 * swallowed and replaced by the event they stand for.  Lifecycle: ids
 * created without a channel are remembered as synchronous; destroying an
 * id or a channel cancels its requests first.
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
#include "wake.h"

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
	st->kev_read = 0;
	st->wake_seq = 0;
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
	struct rai_id *st;
	ssize_t n;
	int ret = 0;

	pthread_mutex_lock(&rai_registry_lock);
	ch = rai_channel_find(channel);
	*fd = ch ? ch->fd : -1;
	/* Read ahead, but its wake-up could not be posted. */
	st = ch ? rai_id_find_read_ahead(ch) : NULL;
	if (st) {
		kev = st->kev;
		ev = rai_complete(ch, &kev);
		if (ev) {
			*out = &ev->event;
			ret = 1;
		}
		ch = NULL;
	}
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

/*
 * @wake, one of ours, came out of channel->fd: the event read ahead that
 * it stands for, unless its id was destroyed meanwhile.
 */
static struct rai_event *rai_wake_event(const struct rdma_cm_event *wake)
{
	struct rdma_addrinfo_event kev;
	struct rai_event *ev = NULL;
	struct rai_id *st;

	pthread_mutex_lock(&rai_registry_lock);
	st = rai_id_find(wake->id);
	if (st && st->ch && st->kev_read && st->wake_seq == wake->status) {
		kev = st->kev;
		ev = rai_complete(st->ch, &kev);
	}
	pthread_mutex_unlock(&rai_registry_lock);
	return ev;
}

/* An event of channel->fd, wake-ups replaced by their events. */
static int rai_get_ucma_event(struct rdma_event_channel *channel,
			      struct rdma_cm_event **event, int *swallowed)
{
	struct rai_event *ev;

	*swallowed = 0;
	if (rai_real()->get_cm_event(channel, event))
		return -1;
	if (!rai_wake_is_ours(*event))
		return 0;
	ev = rai_wake_event(*event);
	/* Acknowledged at once: rdma_destroy_id() waits for that. */
	rai_real()->ack_cm_event(*event);
	if (ev) {
		*event = &ev->event;
		return 0;
	}
	*swallowed = 1;
	return 0;
}

int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event)
{
	struct pollfd pfd[2];
	int fd, nonblock, ret, swallowed;

	if (!channel || !event)
		return rai_real()->get_cm_event(channel, event);

	for (;;) {
		ret = rai_take_event(channel, event, &fd);
		if (ret)
			return ret > 0 ? 0 : -1;
		if (fd < 0) {
			/*
			 * A channel not used here yet: only ucma's events,
			 * and the wake-up of another thread's first request.
			 */
			ret = rai_get_ucma_event(channel, event, &swallowed);
			if (ret || !swallowed)
				return ret;
			continue;
		}

		nonblock = fcntl(channel->fd, F_GETFL) & O_NONBLOCK;
		pfd[0].fd = channel->fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = fd;
		pfd[1].events = POLLIN;
		ret = poll(pfd, 2, nonblock ? 0 : -1);
		if (ret < 0)
			return -1;
		if (pfd[0].revents) {
			ret = rai_get_ucma_event(channel, event, &swallowed);
			if (ret || !swallowed)
				return ret;
			continue;
		}
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
	/* rdma_ucm drops the id's queued wake-up with it. */
	pthread_mutex_lock(&rai_registry_lock);
	rai_id_forget(id);
	rai_wake_kick();
	pthread_mutex_unlock(&rai_registry_lock);
	return rai_real()->destroy_id(id);
}

RAI_EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	pthread_mutex_lock(&rai_registry_lock);
	rai_channel_forget(channel);
	rai_wake_kick();	/* the watcher holds on to the closed fd */
	pthread_mutex_unlock(&rai_registry_lock);
	rai_real()->destroy_event_channel(channel);
}
