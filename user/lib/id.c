// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The wrapped id calls: an rdma_cm_id's requests from rdma_create_id() to
 * rdma_destroy_id(), and rai_resolve_id() that starts them.
 *
 * As librdmacm does for its own events, rdma_destroy_id() and
 * rdma_migrate_id() wait until the id's delivered ADDRINFO events are
 * acked; rdma_migrate_id() starts an in-flight request again on the new
 * channel; ids with a private channel (created without one, by
 * rdma_create_ep(), rdma_get_request() or rdma_migrate_id(id, NULL))
 * resolve synchronously and never get an event.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "convert.h"
#include "device.h"
#include "err.h"
#include "events.h"
#include "export.h"
#include "fallback.h"
#include "id.h"
#include "real.h"
#include "order.h"
#include "registry.h"
#include "status.h"
#include "wake.h"

/* Start @req for @st on @ch (registry locked).  Return: 0 or -1, errno. */
static int rai_start(struct rai_id *st, struct rai_channel *ch,
		     struct rai_request *req)
{
	if (!st->event) {
		st->event = calloc(1, sizeof(*st->event));
		if (!st->event)
			return -1;
	}
	if (rai_id_save_request(st, req))
		return -1;
	st->shape = req->shape;
	st->sa = !!(req->cmd.ai_flags & RDMA_ADDRINFO_RAI_SA);
	st->as_60 = req->as_60;
	req->cmd.context = (uintptr_t)st->id;
	req->cmd.flags &= ~RDMA_ADDRINFO_RESOLVE_SYNC;
	if (!st->sync)
		rai_order_look(ch);	/* its event will be younger */
	if (ioctl(ch->fd, RDMA_ADDRINFO_IOC_RESOLVE, &req->cmd))
		return -1;
	st->handle = req->cmd.handle;
	st->ch = ch;
	if (!st->sync)
		rai_wake_watch();	/* for pollers of channel->fd */
	return 0;
}

/*
 * A synchronous id's request on @fd, its channel's module fd: wait for it
 * to complete, as librdmacm's synchronous calls wait for their event.  The
 * request lives on across signals: a handler with SA_RESTART does not end
 * the wait, one without it ends it with EINTR and cancels the request.
 */
static int rai_wait_sync(struct rdma_cm_id *id, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct rai_fallback *fb;
	struct rai_id *st;
	int status = 0, done;

	for (;;) {
		rai_lock();
		st = rai_id_find(id);
		if (st && st->handle)
			while (rai_read_module_event(st->ch))
				;
		/* Its name refused for the caller's view: librdmacm's, here. */
		fb = st && st->fallback && !st->fallback->taken ?
		     st->fallback : NULL;
		if (fb)
			fb->taken = 1;
		done = !st || !st->handle;
		if (done)
			status = st ? st->status : -ECANCELED;
		rai_unlock();
		if (fb) {
			rai_fallback_run(fb);
			rai_lock();
			rai_id_fallback_done(fb);
			rai_unlock();
			continue;
		}
		if (done)
			break;
		if (rai_wait_fds(&pfd, 1) < 0 && errno == EINTR) {
			rai_lock();
			st = rai_id_find(id);
			if (st)
				rai_id_cancel(st);
			rai_unlock();
			return ERR(EINTR);
		}
	}
	if (status)
		return ERR(-status);
	return 0;
}

int rai_resolve_id(struct rdma_cm_id *id, struct rai_request *req,
		   struct rdma_addrinfo *list)
{
	struct rai_channel *ch;
	struct rai_id *st;
	int ret = -1, fd = -1;

	rai_lock();
	ch = rai_channel_get(id->channel);
	st = ch ? rai_id_get(id) : NULL;
	if (!st) {
		/* errno from rai_channel_get() or ENOMEM */
	} else if (st->handle || st->ready) {
		errno = EBUSY;
	} else {
		rai_id_clear_results(st);
		rai_free_list(st->list);
		st->list = list;
		list = NULL;
		st->handed_over = 0;
		st->carried = 0;
		ret = rai_start(st, ch, req);
		if (!ret && st->sync)
			fd = ch->fd;
	}
	rai_unlock();
	rai_free_list(list);	/* not taken */
	if (fd >= 0)
		ret = rai_wait_sync(id, fd);
	return ret;
}

/**
 * rai_id_fall_back - @st's request completed with *@status: if the module
 * refused its name for the caller's view, librdmacm resolves it instead
 * (fallback.c), by a worker for an id with a channel, by the id's own call
 * for a synchronous id (rai_wait_sync()).  The refused request stays as
 * @st's request in flight until then.  Registry locked.
 *
 * Return: 1 when so; 0 when *@status is the outcome (set to the reason
 * when no fallback could be started).
 */
int rai_id_fall_back(struct rai_id *st, int *status)
{
	struct rai_fallback *fb;

	if (!st->req || st->fallback || !rai_view_refused(*status,
							  st->req->req.ctx))
		return 0;
	fb = rai_fallback_new(st->id, &st->req->req);
	if (!fb) {
		*status = -ENOMEM;
		return 0;
	}
	st->fallback = fb;
	if (st->sync || !rai_fallback_queue(fb))
		return 1;
	st->fallback = NULL;
	free(fb);
	*status = -EAGAIN;	/* no thread to resolve it */
	return 0;
}

/*
 * librdmacm's outcome of @fb for @st, delivered through the module as
 * every other event: a request with nothing to look up (the IPv4 wildcard,
 * as in rai_resolve_hints()) carries it, and events.c takes @st's
 * carried outcome for that request's own.  Without such a request, the
 * event is made ready here and the channel's waiters are woken.
 */
static void rai_id_carry(struct rai_id *st, struct rai_fallback *fb)
{
	const struct rdma_addrinfo wildcard = {
		.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST,
		.ai_family = AF_INET,
	};
	struct rai_channel *ch = st->ch;
	__u32 refused = st->handle;
	struct rai_request req;

	rai_free_list(st->list);
	st->list = fb->list;
	st->carried = 1;
	st->carried_status = fb->status;
	if (!rai_build_request(&req, NULL, "0", &wildcard) &&
	    !rai_start(st, ch, &req)) {
		rai_destroy_request(ch->fd, refused);
		return;
	}
	st->handle = refused;
	rai_id_cancel(st);
	rai_id_clear_results(st);
	st->carried = 0;
	st->completed = 1;
	st->status = fb->status;
	st->ready = 1;
	rai_wake_ready(st, ch);
}

/**
 * rai_id_fallback_done - librdmacm resolved @fb: its id's request
 * completes with that outcome, unless the id no longer waits for it
 * (cancelled, destroyed, migrated).  @fb is freed.  Registry locked.
 */
void rai_id_fallback_done(struct rai_fallback *fb)
{
	struct rai_id *st = fb->cancelled ? NULL : rai_id_find(fb->id);

	if (st && st->fallback == fb) {
		st->fallback = NULL;
		if (st->sync) {
			/* Its own call waits for it, no event */
			rai_id_cancel(st);
			rai_id_clear_results(st);
			rai_free_list(st->list);
			st->list = fb->list;
			st->completed = 1;
			st->status = fb->status;
		} else {
			rai_id_carry(st, fb);
		}
		fb->list = NULL;
	}
	rai_free_list(fb->list);
	free(fb);
}

/* @id has a private channel: its calls complete before they return. */
static int rai_mark_sync(struct rdma_cm_id *id)
{
	int ret;

	rai_lock();
	ret = rai_id_mark_sync(id);
	rai_unlock();
	return ret;
}

/*
 * librdmacm has just made @id, with a private channel if @sync (then
 * marked so).  Whatever the registry holds at their addresses is of an id
 * or a channel that librdmacm freed with a call of its own, which a
 * librdmacm linked with -Bsymbolic-functions keeps from this library's
 * wrappers (issue 26 item 9): it goes, with its module fd.
 */
static int rai_id_new(struct rdma_cm_id *id, int sync)
{
	int stale, ret = 0;

	rai_lock();
	stale = rai_id_find(id) || (sync && rai_channel_find(id->channel));
	if (stale) {
		rai_id_forget(id);
		if (sync)
			rai_channel_forget(id->channel);
		rai_wake_kick();	/* the watcher holds on to closed fds */
	}
	if (sync)
		ret = rai_id_mark_sync(id);
	rai_unlock();
	return ret;
}

RAI_EXPORT int rdma_create_id(struct rdma_event_channel *channel,
			      struct rdma_cm_id **id, void *context,
			      enum rdma_port_space ps)
{
	int ret = rai_real()->create_id(channel, id, context, ps);

	if (!ret && rai_id_new(*id, !channel)) {
		rai_real()->destroy_id(*id);
		ret = ERR(ENOMEM);
	}
	return ret;
}

/* Ids that librdmacm itself makes with a private channel. */
RAI_EXPORT int rdma_create_ep(struct rdma_cm_id **id, struct rdma_addrinfo *res,
			      struct ibv_pd *pd,
			      struct ibv_qp_init_attr *qp_init_attr)
{
	int ret = rai_real()->create_ep(id, res, pd, qp_init_attr);

	if (!ret && rai_id_new(*id, 1)) {
		rai_real()->destroy_ep(*id);
		ret = ERR(ENOMEM);
	}
	return ret;
}

RAI_EXPORT int rdma_get_request(struct rdma_cm_id *listen,
				struct rdma_cm_id **id)
{
	int ret = rai_real()->get_request(listen, id);
	int saved_errno = errno;	/* as librdmacm's call left it */

	/* Out of memory, it would be taken for an asynchronous id. */
	if (!ret)
		rai_mark_sync(*id);
	return rai_return(ret, saved_errno);
}

/* Wait until the id's delivered events are acked (registry locked). */
static struct rai_id *rai_id_wait_acked(struct rdma_cm_id *id)
{
	struct rai_id *st;

	while ((st = rai_id_find(id)) && st->unacked)
		rai_registry_wait();
	return st;
}

/*
 * @st's id is on @channel now: its request in flight starts again there,
 * its ready event is handed out there (registry locked).  Return: the
 * module fd of a synchronous id whose request is to be waited for, or -1.
 */
static int rai_id_follow(struct rai_id *st, struct rdma_event_channel *channel)
{
	struct rai_channel *ch = st->handle ? rai_channel_get(channel) : NULL;
	struct rai_saved_request *saved = NULL;

	if (!ch)
		ch = rai_channel_add(channel);
	if (st->handle && st->req) {
		saved = st->req;
		st->req = NULL;
		rai_id_cancel(st);
		if (!ch || ch->fd < 0 || rai_start(st, ch, &saved->req)) {
			/* It cannot start there: it ends with the reason. */
			st->completed = 1;
			st->status = -(errno ? errno : ENOMEM);
			st->ready = !st->sync;
		}
		free(saved);
	}
	st->ch = ch;
	if (st->ready && st->sync) {
		/*
		 * Read ahead before the id became synchronous: it is simply
		 * complete now (a wake-up queued for it is swallowed).
		 */
		st->ready = 0;
		st->wake_seq = 0;
	} else if (st->ready && !st->wake_seq) {
		rai_wake_ready(st, ch);
	}
	return st->handle && st->sync ? ch->fd : -1;
}

/*
 * The serial of the registry's entry for @id's private channel (0: none),
 * which librdmacm frees when it moves @id to another channel.
 */
static unsigned long rai_id_private_channel(struct rdma_cm_id *id)
{
	struct rai_id *st;
	struct rai_channel *ch;
	unsigned long serial = 0;

	rai_lock();
	st = rai_id_find(id);
	ch = st && st->sync ? rai_channel_find(id->channel) : NULL;
	if (ch)
		serial = ch->serial;
	rai_unlock();
	return serial;
}

/*
 * librdmacm freed @channel, @id's private channel, with a call of its own
 * that -Bsymbolic-functions keeps from this library (issue 26 item 9): its
 * entry goes, if it is still the one of @serial (registry locked).
 */
static void rai_id_private_channel_gone(struct rdma_event_channel *channel,
					unsigned long serial)
{
	struct rai_channel *ch = rai_channel_find(channel);

	if (!ch || ch->serial != serial)
		return;	/* gone through the wrapper, or another one's now */
	rai_channel_forget(channel);
	rai_wake_kick();	/* the watcher holds on to the closed fd */
}

RAI_EXPORT int rdma_migrate_id(struct rdma_cm_id *id,
			       struct rdma_event_channel *channel)
{
	struct rdma_event_channel *old = id->channel;
	unsigned long old_serial = rai_id_private_channel(id);
	struct rai_id *st;
	int saved_errno, ret, fd = -1;

	ret = rai_real()->migrate_id(id, channel);
	if (ret)
		return ret;
	saved_errno = errno;	/* as librdmacm's call left it */
	rai_lock();
	if (!channel)
		rai_id_mark_sync(id);
	st = rai_id_wait_acked(id);
	if (st) {
		if (channel)
			st->sync = 0;
		fd = rai_id_follow(st, id->channel);
	}
	if (old_serial && old != id->channel)
		rai_id_private_channel_gone(old, old_serial);
	rai_unlock();
	/* Synchronous now: what was in flight completes before it returns. */
	if (fd >= 0)
		rai_wait_sync(id, fd);
	return rai_return(0, saved_errno);
}

/*
 * @id is about to be destroyed: what is known of it goes, and of its
 * private channel if it has one, which librdmacm frees inside
 * rdma_destroy_id() with a call of its own: -Bsymbolic-functions keeps
 * that call from rdma_destroy_event_channel()'s wrapper (issue 26 item 9).
 * errno is left as it was.
 */
static void rai_id_destroying(struct rdma_cm_id *id)
{
	int saved_errno = errno, sync;
	struct rai_id *st;

	rai_lock();
	st = rai_id_find(id);
	if (st) {
		/* No event comes any more; wait for the acks of those given. */
		rai_id_cancel(st);
		st = rai_id_wait_acked(id);
	}
	sync = st && st->sync;
	rai_id_forget(id);
	if (sync)
		rai_channel_forget(id->channel);
	rai_wake_kick();
	rai_unlock();
	errno = saved_errno;
}

RAI_EXPORT int rdma_destroy_id(struct rdma_cm_id *id)
{
	rai_id_destroying(id);
	/* rdma_ucm drops the id's queued wake-up with it. */
	return rai_real()->destroy_id(id);
}

/*
 * librdmacm's rdma_destroy_ep() calls rdma_destroy_id(), which a
 * librdmacm linked with -Bsymbolic-functions keeps to itself.
 */
RAI_EXPORT void rdma_destroy_ep(struct rdma_cm_id *id)
{
	rai_id_destroying(id);
	rai_real()->destroy_ep(id);
}
