// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What the library remembers about librdmacm objects: the module fd and
 * the waiters' kick fd of each event channel, the request of each
 * rdma_cm_id, and the events it handed out that are not acknowledged yet.
 *
 * A channel's descriptors cost the program what librdmacm alone would
 * not: the module fd is opened by the channel's first request (or
 * rdma_addrinfo_channel_fd()), the kick fd only while a thread is blocked
 * waiting on the channel, and closed when the last one stops.  A server
 * whose every connection has a private channel of librdmacm's, waited on
 * by librdmacm itself, has no more descriptors open than with librdmacm.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "convert.h"
#include "device.h"
#include "fallback.h"
#include "registry.h"

pthread_mutex_t rai_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rai_registry_acked = PTHREAD_COND_INITIALIZER;
static __thread int rai_cancel_state;
#ifdef RAI_DEBUG
__thread int rai_registry_held;
#endif

static struct rai_channel *rai_channels;
static unsigned long rai_channel_serial;	/* of the last one added */
static struct rai_id *rai_ids;
static struct rai_event *rai_events_delivered;

/*
 * The lock is never held across a cancellation point with cancellation
 * enabled: read(), close(), open() and pthread_cond_wait() under it would
 * otherwise leave it locked for good when the thread is cancelled there.
 */
void rai_lock(void)
{
	int state;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
	rai_lock_raw();
	rai_cancel_state = state;
}

void rai_unlock(void)
{
	int state = rai_cancel_state;

	rai_unlock_raw();
	pthread_setcancelstate(state, NULL);
}

void rai_registry_wait(void)
{
	rai_assert_locked();
	pthread_cond_wait(&rai_registry_acked, &rai_registry_lock);
}

struct rai_channel *rai_channel_find(struct rdma_event_channel *channel)
{
	struct rai_channel *ch;

	rai_assert_locked();
	for (ch = rai_channels; ch; ch = ch->next)
		if (ch->channel == channel)
			return ch;
	return NULL;
}

struct rai_channel *rai_channel_find_fd(int fd)
{
	struct rai_channel *ch;

	rai_assert_locked();
	for (ch = rai_channels; ch; ch = ch->next)
		if (ch->fd >= 0 && ch->fd == fd)
			return ch;
	return NULL;
}

/* Whether an asynchronous request of @ch is in flight. */
static int rai_channel_awaits_event(struct rai_channel *ch)
{
	struct rai_id *st;

	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && st->handle && !st->sync)
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
	rai_assert_locked();
	for (ch = ch ? ch->next : rai_channels; ch; ch = ch->next)
		if (!ch->inherited && rai_channel_awaits_event(ch))
			return ch;
	return NULL;
}

/*
 * In the child of a fork(): every channel known so far is the parent's,
 * and no thread of the child reads one or waits on it.  A kick fd is the
 * parent's waiters': the child's copy would take kicks meant for them.
 */
static void rai_channels_mark_inherited(void)
{
	struct rai_channel *ch;

	rai_assert_locked();
	for (ch = rai_channels; ch; ch = ch->next) {
		ch->inherited = 1;
		ch->reading = 0;	/* by a thread the child does not have */
		ch->waiters = 0;
		if (ch->kick_fd >= 0)
			close(ch->kick_fd);
		ch->kick_fd = -1;
	}
}

/*
 * fork(): the registry is copied with the lock held by the forking thread,
 * so no other thread is halfway through a change of it, and the child
 * gets it unlocked.  A thread of the parent waiting for an ack stays
 * counted in the condition variable (with glibc 2.36 the child's second
 * round of waiting for an ack then hangs in pthread_cond_broadcast()):
 * the child gets a new one, since it has none of the parent's waiters.
 * Registered at load, whatever else the library does (wake.c adds its
 * watcher's state).
 */
static void rai_registry_prepare(void)
{
	rai_lock_raw();
}

static void rai_registry_parent(void)
{
	rai_unlock_raw();
}

static void rai_registry_child(void)
{
	rai_channels_mark_inherited();
	pthread_cond_init(&rai_registry_acked, NULL);
	rai_unlock_raw();
}

__attribute__((constructor)) static void rai_registry_init(void)
{
	/* ENOMEM at load: a child then inherits the lock as it finds it. */
	pthread_atfork(rai_registry_prepare, rai_registry_parent,
		       rai_registry_child);
}

/* The channel's state, added without any descriptor if it has none. */
struct rai_channel *rai_channel_add(struct rdma_event_channel *channel)
{
	struct rai_channel *ch = rai_channel_find(channel);

	if (ch)
		return ch;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->channel = channel;
	ch->fd = -1;
	ch->kick_fd = -1;
	ch->serial = ++rai_channel_serial;
	ch->next = rai_channels;
	rai_channels = ch;
	return ch;
}

/* Wake the channel's waiters to look at the registry again. */
void rai_channel_kick(struct rai_channel *ch)
{
	uint64_t one = 1;

	rai_assert_locked();
	if (ch && ch->kick_fd >= 0 && write(ch->kick_fd, &one, sizeof(one)) < 0)
		return;	/* EAGAIN: it is readable anyway */
}

/*
 * A call of rdma_get_cm_event() holds @ch while it waits: a thread may
 * destroy the channel meanwhile (cmtime of rdma-core 44 does so while its
 * event thread waits), and the waiter still looks at @ch when it wakes.
 */
void rai_channel_hold(struct rai_channel *ch)
{
	rai_assert_locked();
	ch->users++;
}

/* A channel out of the list, its module fd closed: the rest goes. */
static void rai_channel_free(struct rai_channel *ch)
{
	if (ch->kick_fd >= 0)
		close(ch->kick_fd);
	free(ch);
}

/* The call is over: the last user of a destroyed channel frees it. */
void rai_channel_release(struct rai_channel *ch)
{
	rai_assert_locked();
	if (--ch->users || !ch->destroyed)
		return;
	rai_channel_free(ch);
}

/**
 * rai_channel_wait_begin - a thread is about to block waiting on @ch
 * @ch: a channel held with rai_channel_hold(), not destroyed
 *
 * The kick fd is in its poll set from now on, so that a request started
 * later (which opens the module fd) or an event made ready without a
 * descriptor saying so wakes it.  Shared by the channel's waiters; each
 * calls rai_channel_wait_end() when its wait is over.
 *
 * Return: @ch, or NULL (no fd to spare).
 */
struct rai_channel *rai_channel_wait_begin(struct rai_channel *ch)
{
	rai_assert_locked();
	if (ch->kick_fd < 0)
		ch->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ch->kick_fd < 0)
		return NULL;
	ch->waiters++;
	return ch;
}

/* A wait of rai_channel_wait_begin() is over: the last closes the fd. */
void rai_channel_wait_end(struct rai_channel *ch)
{
	rai_assert_locked();
	if (ch->waiters && --ch->waiters)
		return;
	if (ch->kick_fd >= 0)
		close(ch->kick_fd);
	ch->kick_fd = -1;
}

/* The channel's state with its module fd, opened on first use. */
struct rai_channel *rai_channel_get(struct rdma_event_channel *channel)
{
	struct rai_channel *ch = rai_channel_add(channel);

	rai_assert_locked();
	if (!ch || ch->fd >= 0)
		return ch;
	ch->fd = rai_open_device(1);
	if (ch->fd < 0)
		return NULL;
	rai_channel_kick(ch);	/* waiters that started without it */
	return ch;
}

static void rai_id_free(struct rai_id *st)
{
	rai_id_cancel(st);
	rai_id_clear_results(st);
	rai_free_list(st->list);
	free(st->event);
	free(st);
}

/*
 * Closing the fd destroys every request of the channel in the kernel.  A
 * channel that calls of rdma_get_cm_event() still hold stays until the
 * last of them lets go; its waiters are kicked to see it destroyed.
 */
void rai_channel_forget(struct rdma_event_channel *channel)
{
	struct rai_channel **pch, *ch;
	struct rai_id **pst, *st;

	rai_assert_locked();
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
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
	if (ch->users) {
		ch->destroyed = 1;
		ch->channel = NULL;
		rai_channel_kick(ch);
		return;
	}
	rai_channel_free(ch);
}

struct rai_id *rai_id_find(struct rdma_cm_id *id)
{
	struct rai_id *st;

	rai_assert_locked();
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

	rai_assert_locked();
	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && (uintptr_t)st->id == context &&
		    st->handle == handle)
			return st;
	return NULL;
}

/* An id of @ch whose event is ready and has no wake-up queued for it. */
struct rai_id *rai_id_find_ready(struct rai_channel *ch)
{
	struct rai_id *st;

	rai_assert_locked();
	for (st = rai_ids; st; st = st->next)
		if (st->ch == ch && st->ready && !st->wake_seq)
			return st;
	return NULL;
}

struct rai_id *rai_id_get(struct rdma_cm_id *id)
{
	struct rai_id *st = rai_id_find(id);

	rai_assert_locked();
	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->id = id;
	st->next = rai_ids;
	rai_ids = st;
	return st;
}

/* @id has a private channel: its calls complete before returning. */
int rai_id_mark_sync(struct rdma_cm_id *id)
{
	struct rai_id *st = rai_id_get(id);

	rai_assert_locked();
	if (!st)
		return -1;
	st->sync = 1;
	return 0;
}

/* Keep a copy of @req (and the strings it points to) in @st. */
int rai_id_save_request(struct rai_id *st, const struct rai_request *req)
{
	const struct rdma_addrinfo_resolve *cmd = &req->cmd;
	struct rai_saved_request *s = st->req;

	rai_assert_locked();
	if (!s) {
		s = malloc(sizeof(*s));
		if (!s)
			return -1;
		st->req = s;
	}
	s->req = *req;
	if (cmd->node_len) {
		memcpy(s->node, (const void *)(uintptr_t)cmd->node,
		       cmd->node_len);
		s->req.cmd.node = (uintptr_t)s->node;
	}
	if (cmd->service_len) {
		memcpy(s->service, (const void *)(uintptr_t)cmd->service,
		       cmd->service_len);
		s->req.cmd.service = (uintptr_t)s->service;
	}
	return 0;
}

void rai_id_clear_results(struct rai_id *st)
{
	rai_assert_locked();
	free(st->results);
	free(st->canonname);
	st->results = NULL;
	st->canonname = NULL;
	st->num_results = 0;
	st->completed = 0;
	st->status = 0;
}

/*
 * Cancel the id's request in flight, and drop its undelivered event.  A
 * fallback of its (fallback.h) is dropped too: one that a thread resolves
 * or a worker has queued is freed there, when it comes back.
 */
void rai_id_cancel(struct rai_id *st)
{
	struct rai_fallback *fb = st->fallback;

	rai_assert_locked();
	if (fb) {
		fb->cancelled = 1;
		if (!fb->taken && !fb->queued)
			free(fb);
		st->fallback = NULL;
	}
	if (st->handle)
		rai_destroy_request(st->ch->fd, st->handle);
	st->handle = 0;
	st->ready = 0;
	st->wake_seq = 0;
	free(st->req);
	st->req = NULL;
}

/* Cancel the id's request, if any, and drop what is known about it. */
void rai_id_forget(struct rdma_cm_id *id)
{
	struct rai_id **pst, *st;

	rai_assert_locked();
	for (pst = &rai_ids; *pst; pst = &(*pst)->next) {
		st = *pst;
		if (st->id == id) {
			*pst = st->next;
			rai_id_free(st);
			return;
		}
	}
}

/* @ev goes to the application, unacked on its id till rai_event_take_back(). */
void rai_event_hand_out(struct rai_event *ev)
{
	struct rai_id *st = rai_id_find(ev->event.id);

	rai_assert_locked();
	if (st)
		st->unacked++;
	ev->next = rai_events_delivered;
	rai_events_delivered = ev;
}

/* Return: 1 if @event was made here (now freed), 0 if it is librdmacm's. */
int rai_event_take_back(struct rdma_cm_event *event)
{
	struct rai_event **pev, *ev;
	struct rai_id *st;

	rai_assert_locked();
	for (pev = &rai_events_delivered; *pev; pev = &(*pev)->next) {
		ev = *pev;
		if (&ev->event != event)
			continue;
		*pev = ev->next;
		st = rai_id_find(ev->event.id);
		if (st && st->unacked && !--st->unacked)
			pthread_cond_broadcast(&rai_registry_acked);
		free(ev);
		return 1;
	}
	return 0;
}
