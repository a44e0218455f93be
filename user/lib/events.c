// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The wrapped event calls, rdma_get_cm_event() and rdma_ack_cm_event().
 *
 * rdma_get_cm_event() returns the module's ADDRINFO events of a channel
 * together with ucma's, first in, first out as far as order.c can tell.
 * A waiter never blocks on channel->fd alone: it polls
 * channel->fd, the channel's module fd and the channel's kick fd (an eventfd,
 * written when the module fd is opened after the waiter started, or an event
 * becomes ready without a descriptor saying so), and reads channel->fd only
 * when it is readable and no other waiter is reading it, so that it never
 * sleeps in librdmacm's own read while an ADDRINFO event is waiting.  The
 * kick fd exists only while a waiter is blocked, and not at all without the
 * module (no ADDRINFO event can come then): a call that finds an event, on
 * a non-blocking channel or without the module, opens nothing.  poll() is
 * never restarted by the kernel: rai_wait_fds() returns EINTR only when a
 * handler without SA_RESTART ran, as librdmacm's read returns it.  The
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
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include "device.h"
#include "err.h"
#include "events.h"
#include "export.h"
#include "id.h"
#include "order.h"
#include "real.h"
#include "registry.h"
#include "wake.h"

/*
 * The handlers that could interrupt a wait of this thread (installed,
 * signal not blocked in it), those with SA_RESTART in @restart and the
 * others in @other.
 */
static void rai_signal_handlers(sigset_t *restart, sigset_t *other)
{
	struct sigaction sa;
	sigset_t blocked;
	int sig;

	sigemptyset(restart);
	sigemptyset(other);
	pthread_sigmask(SIG_BLOCK, NULL, &blocked);
	for (sig = 1; sig < NSIG; sig++) {
		if (sigismember(&blocked, sig) == 1 ||
		    sigaction(sig, NULL, &sa))
			continue;	/* EINVAL: glibc's own */
		/* Also with SA_SIGINFO (valgrind reports one so for 64). */
		if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(sa.sa_flags & SA_RESTART ? restart : other, sig);
	}
}

/* A wait of rai_poll_mixed(): its signalfd and the mask to restore. */
struct rai_mixed_wait {
	int fd;
	sigset_t mask;
};

/*
 * Also when cancelled: the mask back, and with it the handlers of the
 * signals that came and are still pending.
 */
static void rai_mixed_wait_end(void *arg)
{
	struct rai_mixed_wait *w = arg;

	close(w->fd);
	pthread_sigmask(SIG_SETMASK, &w->mask, NULL);
}

/* Whether a signal of @set is pending for this thread. */
static int rai_signal_pending(const sigset_t *set)
{
	sigset_t pending;

	if (sigpending(&pending))
		return 0;
	sigandset(&pending, &pending, set);
	return !sigisemptyset(&pending);
}

/*
 * Whether a handler without SA_RESTART could have ended a wait that has
 * every handled signal blocked: one installed since, for a signal this
 * thread does not block.  Without one, poll()'s EINTR came from a handler
 * with SA_RESTART installed since, or from no handler at all: the wait
 * goes on, as librdmacm's read would.  (The EINTR seen once under
 * valgrind while only SIGALRMs of an SA_RESTART handler came was the look
 * before the wait: see rai_poll_now().)
 */
static int rai_unblocked_other_handler(void)
{
	sigset_t restart, other;

	rai_signal_handlers(&restart, &other);
	return !sigisemptyset(&other);
}

/*
 * Both kinds of handler could run.  Every handled signal stays blocked for
 * the whole wait, and a signalfd of them wakes poll() when one arrives:
 * one of @other (no SA_RESTART) ends the wait with EINTR, its handler
 * running as the mask is restored; @restart ones have their handlers run
 * (only they are unblocked for that moment) and the wait goes on.  So
 * whenever a signal of @other comes during the wait, the wait ends with
 * EINTR, as a read in the kernel ends.  (Not ppoll() with a mask:
 * valgrind 3.19 fails it with EFAULT.)  Without a descriptor to spare for
 * the signalfd, any EINTR is returned.  Return: as poll() with no timeout.
 */
static int rai_poll_mixed(struct pollfd *pfd, nfds_t nfds,
			  const sigset_t *restart, const sigset_t *other)
{
	struct pollfd all[RAI_WAIT_FDS + 1];
	struct rai_mixed_wait w;
	sigset_t handled;
	int n, err;

	if (nfds > RAI_WAIT_FDS)
		return ERR(EINVAL);
	sigorset(&handled, restart, other);
	w.fd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
	if (w.fd < 0)
		return poll(pfd, nfds, -1);
	memcpy(all, pfd, nfds * sizeof(*pfd));
	all[nfds].fd = w.fd;
	all[nfds].events = POLLIN;
	pthread_sigmask(SIG_BLOCK, &handled, &w.mask);
	pthread_cleanup_push(rai_mixed_wait_end, &w);
	for (;;) {
		n = poll(all, nfds + 1, -1);
		if (n < 0 && errno == EINTR && !rai_unblocked_other_handler())
			continue;	/* no handler without SA_RESTART ran */
		if (n < 0 || !all[nfds].revents)
			break;	/* EINTR: a handler installed meanwhile */
		if (rai_signal_pending(other)) {
			n = -1;
			errno = EINTR;
			break;
		}
		pthread_sigmask(SIG_UNBLOCK, restart, NULL);
		pthread_sigmask(SIG_BLOCK, restart, NULL);
		if (--n)
			break;
	}
	err = errno;
	pthread_cleanup_pop(1);
	memcpy(pfd, all, nfds * sizeof(*pfd));
	errno = err;
	return n;
}

/**
 * rai_poll_now - poll(@pfd) without waiting
 * @pfd: the descriptors
 * @nfds: how many
 *
 * poll() with a zero timeout fails with EINTR when a signal came during the
 * call, whatever its handler's flags (the kernel restarts it only for no
 * handler), and then says nothing of the descriptors: they are looked at
 * again, after the handler ran.  A signal before a wait begins does not
 * end librdmacm's read either.
 *
 * Return: as poll() with timeout 0, never EINTR.
 */
int rai_poll_now(struct pollfd *pfd, nfds_t nfds)
{
	int n;

	do
		n = poll(pfd, nfds, 0);
	while (n < 0 && errno == EINTR);
	return n;
}

/**
 * rai_wait_fds - wait for @pfd as librdmacm's blocking read waits
 * @pfd: the descriptors (at most RAI_WAIT_FDS)
 * @nfds: how many
 *
 * poll() is never restarted by the kernel, librdmacm's read is, when the
 * handler that ran has SA_RESTART.  So a signal whose handler has
 * SA_RESTART never ends the wait, one whose handler lacks it ends it with
 * EINTR, whatever other handlers the process has.
 *
 * Return: as poll() with no timeout (never 0).
 */
int rai_wait_fds(struct pollfd *pfd, nfds_t nfds)
{
	sigset_t restart, other;
	int n;

	/* Ready already (the common case): no handlers to look at. */
	n = rai_poll_now(pfd, nfds);
	while (!n) {
		rai_signal_handlers(&restart, &other);
		if (!sigisemptyset(&restart) && !sigisemptyset(&other))
			return rai_poll_mixed(pfd, nfds, &restart, &other);
		n = poll(pfd, nfds, -1);
		if (n < 0 && errno == EINTR && sigisemptyset(&other))
			n = 0;	/* a handler with SA_RESTART ran */
	}
	return n;
}

/*
 * @st's request completed with @kev: keep its results (registry locked).
 * Not yet when the module refused its name for the caller's view (see
 * fallback.c); a request that carries librdmacm's outcome completes with
 * that outcome.
 */
static void rai_finish(struct rai_id *st, const struct rdma_addrinfo_event *kev)
{
	int status = kev->status;
	int fd = st->ch->fd;

	if (!st->carried && rai_id_fall_back(st, &status))
		return;
	rai_id_clear_results(st);
	if (st->carried)
		status = st->carried_status;
	else if (!status && rai_fetch_results(fd, kev->handle, &st->results,
					      &st->num_results,
					      &st->canonname))
		status = -errno;
	/* No SA record: rdma-core 60+'s status (its kernel's -ENOENT) */
	if (st->sa && st->as_60 && status == -ENXIO)
		status = -ENOENT;
	st->carried = 0;
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
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	struct rdma_event_channel copy;
	struct rdma_cm_event *ev;
	volatile int ret = 1;	/* set between pthread_cleanup_push/pop */
	int busy, cancel;

	/*
	 * @channel is read only while it is known not destroyed, and
	 * librdmacm reads a copy (it uses nothing but its fd): a thread may
	 * destroy it, and free it, from here on.
	 */
	rai_lock();
	busy = ch->reading || ch->destroyed;	/* destroyed: look again */
	if (!busy) {
		ch->reading = 1;
		copy = *channel;
		pfd.fd = copy.fd;
	}
	rai_unlock();
	if (busy) {
		sched_yield();	/* it takes what is queued, then we look */
		return 1;
	}
	pthread_cleanup_push(rai_reading_done, ch);
	if (rai_poll_now(&pfd, 1) == 1) {
		/*
		 * librdmacm allocates the event before its write(), a
		 * cancellation point: a thread cancelled there leaks it.
		 * The event is queued (we are its only reader), so the
		 * read does not block and need not be cancellable.
		 */
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
		ret = rai_real()->get_cm_event(&copy, event);
		pthread_setcancelstate(cancel, NULL);
		if (ret && errno == EAGAIN)
			ret = 1;	/* O_NONBLOCK: taken meanwhile */
	}
	pthread_cleanup_pop(1);
	if (!ret) {
		rai_lock();
		if (!ch->destroyed)
			rai_order_look(ch);	/* the next: older than ADDRINFO? */
		rai_unlock();
	}
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

/* A call of rdma_get_cm_event() on a channel. */
struct rai_wait {
	struct rdma_event_channel *channel;
	struct rai_channel *ch;
	int blocking;		/* channel->fd is not O_NONBLOCK */
	int holds_kick;		/* it blocks with ch's kick fd in its set */
	int tried_kick;
};

/*
 * About to block: take the channel's kick fd into the wait, where an
 * ADDRINFO event can come at all, i.e. the channel has a module fd or
 * the module is there to give it one.  Return: whether to look again
 * first (the kick fd was taken, or the channel destroyed meanwhile).
 */
static int rai_wait_take_kick(struct rai_wait *w)
{
	int again;

	w->tried_kick = 1;
	rai_lock();
	if (!w->ch->destroyed && (w->ch->fd >= 0 || rai_module_present()))
		w->holds_kick = !!rai_channel_wait_begin(w->ch);
	again = w->holds_kick || w->ch->destroyed;
	rai_unlock();
	return again;
}

/* The waiter leaves the kick fd (locked). */
static void rai_wait_leave_kick(struct rai_wait *w)
{
	if (w->holds_kick)
		rai_channel_wait_end(w->ch);
	w->holds_kick = 0;
}

/* Also when the waiter is cancelled: it leaves the kick fd and the channel. */
static void rai_wait_end(void *arg)
{
	struct rai_wait *w = arg;

	rai_lock();
	rai_wait_leave_kick(w);
	rai_channel_release(w->ch);
	rai_unlock();
}

/*
 * The channel was destroyed while this call waited on it.  librdmacm's
 * waiter, blocked in read(), keeps the closed channel's file and sleeps on
 * for good (a program such as cmtime of rdma-core 44 exits with it there):
 * so does this one, without a descriptor, until a signal whose handler
 * lacks SA_RESTART ends it with EINTR or the thread is cancelled.  On a
 * non-blocking channel: EAGAIN, as its read would give.
 */
static int rai_wait_destroyed(struct rai_wait *w)
{
	struct pollfd none;

	rai_lock();
	rai_wait_leave_kick(w);
	rai_unlock();
	if (!w->blocking)
		return ERR(EAGAIN);
	while (rai_wait_fds(&none, 0) >= 0)
		;
	return -1;
}

/*
 * The descriptors to look at, *@event a ready event if there is one.
 * Return: 0, or 1 when the channel was destroyed meanwhile.
 */
static int rai_wait_look(struct rai_wait *w, struct pollfd *pfd,
			 struct rdma_cm_event **event)
{
	struct rai_channel *ch = w->ch;
	uint64_t kicks;
	int i;

	rai_lock();
	if (ch->destroyed) {
		rai_unlock();
		return 1;
	}
	/* First in, first out across both queues (order.c). */
	*event = rai_order_ucma_first(ch) ? NULL : rai_take_ready(ch);
	/* Reset by those it wakes: another caller would take their kicks. */
	if (!*event && w->holds_kick &&
	    read(ch->kick_fd, &kicks, sizeof(kicks)) < 0)
		kicks = 0;	/* not kicked: nothing to reset */
	pfd[0].fd = w->channel->fd;
	pfd[1].fd = w->holds_kick ? ch->kick_fd : -1;
	pfd[2].fd = ch->fd;
	rai_unlock();
	for (i = 0; i < RAI_WAIT_FDS; i++) {
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	return 0;
}

static int rai_wait_for_event(struct rai_wait *w, struct rdma_cm_event **event)
{
	struct pollfd pfd[RAI_WAIT_FDS];
	int n, ret;

	for (;;) {
		if (rai_wait_look(w, pfd, event))
			return rai_wait_destroyed(w);
		if (*event)
			return 0;
		/* Negative fds (none yet) are left out by poll(). */
		n = rai_poll_now(pfd, RAI_WAIT_FDS);
		if (!n && w->blocking) {
			/* An event ready before the kick fd was there? */
			if (!w->tried_kick && rai_wait_take_kick(w))
				continue;
			n = rai_wait_fds(pfd, RAI_WAIT_FDS);
		}
		if (n < 0)
			return -1;	/* EINTR: as librdmacm's read */
		if (pfd[0].revents) {
			ret = rai_get_ucma_event(w->ch, w->channel, event);
			if (ret <= 0)
				return ret;
		} else if (!n) {
			return ERR(EAGAIN);
		}
	}
}

int rai_get_event(struct rdma_event_channel *channel,
		  struct rdma_cm_event **event)
{
	struct rai_wait w = { .channel = channel };
	volatile int ret;	/* set between pthread_cleanup_push/pop */
	int flags;

	flags = channel && event ? fcntl(channel->fd, F_GETFL) : -1;
	if (flags < 0)
		return rai_real()->get_cm_event(channel, event);
	w.blocking = !(flags & O_NONBLOCK);
	rai_lock();
	w.ch = rai_channel_add(channel);
	if (w.ch)
		rai_channel_hold(w.ch);
	rai_unlock();
	if (!w.ch)	/* no memory for it: ucma's events only */
		return rai_real()->get_cm_event(channel, event);
	pthread_cleanup_push(rai_wait_end, &w);
	ret = rai_wait_for_event(&w, event);
	pthread_cleanup_pop(1);
	return ret;
}

/*
 * errno after success is the caller's: the wait's own steps (an empty
 * kick fd, a poll() interrupted by an SA_RESTART handler) leave theirs.
 */
RAI_EXPORT int rdma_get_cm_event(struct rdma_event_channel *channel,
				 struct rdma_cm_event **event)
{
	int saved_errno = errno;

	return rai_return(rai_get_event(channel, event), saved_errno);
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
	int saved_errno = errno;

	return rai_return(rai_ack_event(event), saved_errno);
}
