// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What the library remembers about librdmacm objects: the module fd of
 * each event channel, the request of each rdma_cm_id, and the events it
 * handed out that are not acknowledged yet.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "device.h"
#include "registry.h"

pthread_mutex_t rai_registry_lock = PTHREAD_MUTEX_INITIALIZER;

static struct rai_channel *rai_channels;
static struct rai_id *rai_ids;
static struct rai_event *rai_events_delivered;

struct rai_channel *rai_channel_find(struct rdma_event_channel *channel)
{
	struct rai_channel *ch;

	for (ch = rai_channels; ch; ch = ch->next)
		if (ch->channel == channel)
			return ch;
	return NULL;
}

struct rai_channel *rai_channel_find_fd(int fd)
{
	struct rai_channel *ch;

	for (ch = rai_channels; ch; ch = ch->next)
		if (ch->fd == fd)
			return ch;
	return NULL;
}

/* Whether an asynchronous request of @ch has its event still unread. */
static int rai_channel_awaits_event(struct rai_channel *ch)
{
	struct rai_id *st;

	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && st->handle && !st->kev_read && !st->sync)
			return 1;
	return 0;
}

/*
 * The next channel after @ch (the first if NULL) that awaits an event.
 * Not one inherited through fork(): its events belong to the parent,
 * which reads the same open file.
 */
struct rai_channel *rai_channel_next_watched(struct rai_channel *ch)
{
	for (ch = ch ? ch->next : rai_channels; ch; ch = ch->next)
		if (!ch->inherited && rai_channel_awaits_event(ch))
			return ch;
	return NULL;
}

/* In the child of a fork(): every channel known so far is the parent's. */
void rai_channels_mark_inherited(void)
{
	struct rai_channel *ch;

	for (ch = rai_channels; ch; ch = ch->next)
		ch->inherited = 1;
}

/* The channel's state, opening its module fd on first use. */
struct rai_channel *rai_channel_get(struct rdma_event_channel *channel)
{
	struct rai_channel *ch = rai_channel_find(channel);

	if (ch)
		return ch;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->fd = rai_open_device(1);
	if (ch->fd < 0) {
		free(ch);
		return NULL;
	}
	ch->channel = channel;
	ch->next = rai_channels;
	rai_channels = ch;
	return ch;
}

static void rai_id_free(struct rai_id *st)
{
	if (st->handle)
		rai_destroy_request(st->ch->fd, st->handle);
	rai_id_clear_results(st);
	free(st->event);
	free(st);
}

/* Closing the fd destroys every request of the channel in the kernel. */
void rai_channel_forget(struct rdma_event_channel *channel)
{
	struct rai_channel **pch, *ch;
	struct rai_id **pst, *st;

	for (pch = &rai_channels; *pch; pch = &(*pch)->next)
		if ((*pch)->channel == channel)
			break;
	ch = *pch;
	if (!ch)
		return;
	*pch = ch->next;

	for (pst = &rai_ids; *pst;) {
		st = *pst;
		if (st->ch != ch) {
			pst = &st->next;
			continue;
		}
		*pst = st->next;
		st->handle = 0;		/* close() below destroys it */
		rai_id_free(st);
	}
	close(ch->fd);
	free(ch);
}

struct rai_id *rai_id_find(struct rdma_cm_id *id)
{
	struct rai_id *st;

	for (st = rai_ids; st; st = st->next)
		if (st->id == id)
			return st;
	return NULL;
}

/* The id whose in-flight request an event of @ch reports, if any. */
struct rai_id *rai_id_find_request(struct rai_channel *ch, __u64 context,
				   __u32 handle)
{
	struct rai_id *st;

	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && (uintptr_t)st->id == context &&
		    st->handle == handle)
			return st;
	return NULL;
}

/* An id of @ch whose event was read ahead but no wake-up is queued for. */
struct rai_id *rai_id_find_read_ahead(struct rai_channel *ch)
{
	struct rai_id *st;

	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && st->kev_read && !st->wake_seq)
			return st;
	return NULL;
}

struct rai_id *rai_id_get(struct rdma_cm_id *id, struct rai_channel *ch)
{
	struct rai_id *st = rai_id_find(id);

	if (st) {
		if (ch)
			st->ch = ch;
		return st;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->id = id;
	st->ch = ch;
	st->next = rai_ids;
	rai_ids = st;
	return st;
}

/* @id was created without a channel: its calls complete before returning. */
int rai_id_mark_sync(struct rdma_cm_id *id)
{
	struct rai_id *st = rai_id_get(id, NULL);

	if (!st)
		return -1;
	st->sync = 1;
	return 0;
}

void rai_id_clear_results(struct rai_id *st)
{
	free(st->results);
	st->results = NULL;
	st->num_results = 0;
	st->completed = 0;
	st->status = 0;
}

/* Cancel the id's request, if any, and drop what is known about it. */
void rai_id_forget(struct rdma_cm_id *id)
{
	struct rai_id **pst, *st;

	for (pst = &rai_ids; *pst; pst = &(*pst)->next) {
		st = *pst;
		if (st->id == id) {
			*pst = st->next;
			rai_id_free(st);
			return;
		}
	}
}

void rai_event_delivered(struct rai_event *ev)
{
	ev->next = rai_events_delivered;
	rai_events_delivered = ev;
}

/* Return: 1 if @event was made here (now freed), 0 if it is librdmacm's. */
int rai_event_take_back(struct rdma_cm_event *event)
{
	struct rai_event **pev, *ev;

	for (pev = &rai_events_delivered; *pev; pev = &(*pev)->next) {
		ev = *pev;
		if (&ev->event == event) {
			*pev = ev->next;
			free(ev);
			return 1;
		}
	}
	return 0;
}
