// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The wrapped event calls, rdma_get_cm_event() and rdma_ack_cm_event().
 *
 * rdma_get_cm_event() returns the module's ADDRINFO events of a channel
 * together with ucma's.  A waiter never blocks on channel->fd alone: it polls
 * channel->fd, the channel's module fd and the channel's kick fd (an eventfd,
 * written when the module fd is opened after the waiter started, or an event
 * becomes ready without a descriptor saying so), and reads channel->fd only
 * when it is readable and no other waiter is reading it, so that it never
 * sleeps in librdmacm's own read while an ADDRINFO event is waiting.  poll() is
 * never restarted by the kernel: an EINTR is returned only when a handler
 * without SA_RESTART could have run, as librdmacm's read returns it.  The
 * registry lock is taken with cancellation disabled, so a cancelled waiter
 * never holds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "device.h"
#include "err.h"
#include "events.h"
#include "export.h"
#include "real.h"
#include "registry.h"
#include "wake.h"

/*
 * After an EINTR from poll(): whether librdmacm's read would have been
 * restarted, that is whether every handler that could have run (installed,
 * signal not blocked in this thread) has SA_RESTART.
 */
int rai_signal_restarts(void)
{
	int sig, saved = errno, restarts = 1;
	struct sigaction sa;
	sigset_t blocked;

	pthread_sigmask(SIG_BLOCK, NULL, &blocked);
	for (sig = 1; sig < NSIG && restarts; sig++) {
		if (sigismember(&blocked, sig) == 1 ||
		    sigaction(sig, NULL, &sa))
			continue;	/* EINVAL: glibc's own */
		/* Also with SA_SIGINFO (valgrind reports one so for 64). */
		if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
			continue;
		restarts = !!(sa.sa_flags & SA_RESTART);
	}
	errno = saved;
	return restarts;
}

/* @st's request completed with @kev: keep its results (registry locked). */
static void rai_finish(struct rai_id *st, const struct rdma_addrinfo_event *kev)
{
	int status = kev->status;
	int fd = st->ch->fd;

	rai_id_clear_results(st);
	if (!status && rai_fetch_results(fd, kev->handle, &st->results,
					 &st->num_results))
		status = -errno;
	rai_destroy_request(fd, kev->handle);
	free(st->req);
	st->req = NULL;
	st->handle = 0;
	st->wake_seq = 0;
	st->completed = 1;
	st->status = status;
	st->ready = !st->sync;
}

struct rai_id *rai_read_module_event(struct rai_channel *ch)
{
	struct rdma_addrinfo_event kev;
	struct rai_id *st;
	int saved = errno;
	ssize_t n;

	for (;;) {
		n = read(ch->fd, &kev, sizeof(kev));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(kev))
			break;		/* EAGAIN: none queued */
		st = rai_id_find_request(ch, kev.context, kev.handle);
		if (st) {
			rai_finish(st, &kev);
			errno = saved;
			return st;
		}
	}
	errno = saved;
	return NULL;
}

/* Hand out @st's ready event (registry locked). */
static struct rdma_cm_event *rai_deliver(struct rai_id *st)
{
	struct rai_event *ev = st->event;

	st->event = NULL;
	st->ready = 0;
	st->wake_seq = 0;
	ev->event.id = st->id;
	ev->event.event = st->status ? RDMA_CM_EVENT_ADDRINFO_ERROR :
				       RDMA_CM_EVENT_ADDRINFO_RESOLVED;
	ev->event.status = st->status;
	rai_event_hand_out(ev);
	return &ev->event;
}

/* A ready event of @ch, or the next one of its module fd (locked). */
static struct rdma_cm_event *rai_take_ready(struct rai_channel *ch)
{
	struct rai_id *st = rai_id_find_ready(ch);

	while (!st && ch->fd >= 0) {
		st = rai_read_module_event(ch);
		if (!st)
			return NULL;
		if (!st->ready)
			st = NULL;	/* a synchronous id's: done silently */
	}
	return st ? rai_deliver(st) : NULL;
}

/*
 * @wake, one of ours, came out of channel->fd: the ready event it stands
 * for, unless its id was destroyed meanwhile.
 */
static struct rdma_cm_event *rai_wake_event(const struct rdma_cm_event *wake)
{
	struct rdma_cm_event *ev = NULL;
	struct rai_id *st;

	rai_lock();
	st = rai_id_find(wake->id);
	if (st && st->ready && st->wake_seq == wake->status)
		ev = rai_deliver(st);
	rai_unlock();
	return ev;
}

static void rai_reading_done(void *arg)
{
	struct rai_channel *ch = arg;

	rai_lock();
	ch->reading = 0;
	rai_unlock();
}

/*
 * An event of channel->fd, read by one waiter at a time and only while
 * one is queued; wake-ups are replaced by their events.  Return: 0 with
 * *@event, 1 when there was none to take, -1 with errno.
 */
static int rai_get_ucma_event(struct rai_channel *ch,
			      struct rdma_event_channel *channel,
			      struct rdma_cm_event **event)
{
	struct pollfd pfd = { .fd = channel->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	volatile int ret = 1;	/* set between pthread_cleanup_push/pop */
	int busy, cancel;

	rai_lock();
	busy = ch->reading;
	ch->reading = 1;
	rai_unlock();
	if (busy) {
		sched_yield();	/* it takes what is queued, then we look */
		return 1;
	}
	pthread_cleanup_push(rai_reading_done, ch);
	if (poll(&pfd, 1, 0) == 1) {
		/*
		 * librdmacm allocates the event before its write(), a
		 * cancellation point: a thread cancelled there leaks it.
		 * The event is queued (we are its only reader), so the
		 * read does not block and need not be cancellable.
		 */
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
		ret = rai_real()->get_cm_event(channel, event);
		pthread_setcancelstate(cancel, NULL);
		if (ret && errno == EAGAIN)
			ret = 1;	/* O_NONBLOCK: taken meanwhile */
	}
	pthread_cleanup_pop(1);
	if (ret || !rai_wake_is_ours(*event))
		return ret;
	ev = rai_wake_event(*event);
	/* Acknowledged at once: rdma_destroy_id() waits for that. */
	rai_real()->ack_cm_event(*event);
	if (!ev)
		return 1;
	*event = ev;
	return 0;
}

int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event)
{
	struct pollfd pfd[3];
	struct rai_channel *ch;
	uint64_t kicks;
	int flags, n, ret;

	flags = channel && event ? fcntl(channel->fd, F_GETFL) : -1;
	if (flags < 0)
		return rai_real()->get_cm_event(channel, event);
	rai_lock();
	ch = rai_channel_waiter(channel);
	rai_unlock();
	if (!ch)	/* no memory for it: ucma's events only */
		return rai_real()->get_cm_event(channel, event);

	for (;;) {
		rai_lock();
		*event = rai_take_ready(ch);
		if (!*event && read(ch->kick_fd, &kicks, sizeof(kicks)) < 0)
			kicks = 0;	/* not kicked: nothing to reset */
		pfd[0].fd = channel->fd;
		pfd[1].fd = ch->kick_fd;
		pfd[2].fd = ch->fd;
		rai_unlock();
		if (*event)
			return 0;
		pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
		n = poll(pfd, pfd[2].fd >= 0 ? 3 : 2,
			 flags & O_NONBLOCK ? 0 : -1);
		if (n < 0) {
			if (errno == EINTR && rai_signal_restarts())
				continue;
			return -1;
		}
		if (pfd[0].revents) {
			ret = rai_get_ucma_event(ch, channel, event);
			if (ret <= 0)
				return ret;
		} else if (!n) {
			return ERR(EAGAIN);
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

	rai_lock();
	ours = rai_event_take_back(event);
	rai_unlock();
	if (ours)
		return 0;
	return rai_real()->ack_cm_event(event);
}

RAI_EXPORT int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	return rai_ack_event(event);
}
