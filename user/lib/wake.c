// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Waking the pollers of channel->fd.  ADDRINFO events come from the
 * module's fd of a channel, so a program that polls only channel->fd would
 * never see them.  Where librdmacm has rdma_write_cm_event() (rdma-core 60+)
 * and rdma_ucm takes it (Linux 6.18+), a watcher thread reads each module
 * event ahead as it arrives and writes one RDMA_CM_EVENT_USER wake-up for
 * the event's id into channel->fd's queue.  The wrapped rdma_get_cm_event()
 * swallows the wake-up and returns the ADDRINFO event in its place.
 *
 * One wake-up per event, tagged with a sequence number, and an event read
 * ahead (completed and made ready, events.c) is delivered only when its
 * wake-up is dequeued: no wake-up is ever
 * left in the queue without an event behind it.  Destroying the id drops
 * both (rdma_ucm frees the id's undelivered events), and since a wake-up is
 * acknowledged as soon as it is dequeued, rdma_destroy_id() never waits
 * for one.
 *
 * The thread runs while asynchronous requests are in flight and exits when
 * none is left; the next request starts a new one.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "real.h"
#include "events.h"
#include "registry.h"
#include "wake.h"

/* RDMA_CM_EVENT_USER of rdma-core 60+; older headers lack it. */
#define RAI_CM_EVENT_USER	((enum rdma_cm_event_type)18)

/* The arg of this library's wake-ups ("rai-wake"); status is the seq. */
#define RAI_WAKE_ARG		0x7261692d77616b65ULL

static pthread_once_t rai_wake_once = PTHREAD_ONCE_INIT;
static int rai_wake_ok;

/* The watcher thread; under rai_registry_lock. */
static pthread_t rai_watcher;
static int rai_watcher_running;		/* it watches the registry */
static int rai_watcher_joinable;	/* started and not joined yet */
static int rai_watcher_stop;		/* library unload */
static int rai_kick_fd = -1;		/* eventfd: look at the registry again */
static int rai_wake_seq;

/*
 * Whether rdma_ucm takes rdma_write_cm_event(), tried on a channel and id
 * of its own so that the probe's event never reaches the application.
 */
static int rai_wake_probe(void)
{
	const struct rai_real *real = rai_real();
	struct rdma_event_channel *channel;
	struct rdma_cm_event *event;
	struct rdma_cm_id *id;
	int ok = 0;

	if (!real->write_cm_event)
		return 0;	/* librdmacm before rdma-core 60 */
	channel = rdma_create_event_channel();
	if (!channel)
		return 0;
	if (!real->create_id(channel, &id, NULL, RDMA_PS_TCP)) {
		/* Kernels before 6.18 fail it: EINVAL (unknown command). */
		if (!real->write_cm_event(id, RAI_CM_EVENT_USER, 0,
					  RAI_WAKE_ARG) &&
		    !real->get_cm_event(channel, &event)) {
			ok = event->event == RAI_CM_EVENT_USER;
			real->ack_cm_event(event);
		}
		real->destroy_id(id);
	}
	real->destroy_event_channel(channel);
	return ok;
}

/*
 * fork(): the child has no watcher, whatever the parent had, and leaves
 * the parent's channels (the same open files) to the parent.  The
 * registry's own handlers (registry.c, registered first) hold its lock
 * across the fork, run before this one in the child and mark the
 * channels inherited.
 */
static void rai_wake_child(void)
{
	rai_lock_raw();
	rai_watcher_running = 0;
	rai_watcher_joinable = 0;
	if (rai_kick_fd >= 0) {
		/* The parent's watcher listens on the inherited one. */
		close(rai_kick_fd);
		rai_kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	}
	rai_unlock_raw();
}

static void rai_wake_init(void)
{
	int saved_errno = errno;

	if (!rai_wake_probe())
		goto out;
	rai_kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rai_kick_fd < 0)
		goto out;
	if (pthread_atfork(NULL, NULL, rai_wake_child)) {
		close(rai_kick_fd);
		rai_kick_fd = -1;
		goto out;
	}
	rai_wake_ok = 1;
out:
	errno = saved_errno;
}

int rai_wake_is_ours(const struct rdma_cm_event *event)
{
	uint64_t arg;

	if (event->event != RAI_CM_EVENT_USER)
		return 0;
	/* param.arg in rdma-core 60+: the union's first 8 bytes. */
	memcpy(&arg, &event->param, sizeof(arg));
	return arg == RAI_WAKE_ARG;
}

void rai_wake_kick(void)
{
	uint64_t one = 1;

	if (rai_watcher_running && write(rai_kick_fd, &one, sizeof(one)) < 0)
		return;	/* EAGAIN: a kick is pending anyway */
}

/* Write @st's wake-up.  Return: its sequence number, 0 if none was. */
static int rai_wake_post(struct rai_id *st)
{
	int seq = rai_wake_seq >= INT32_MAX - 1 ? 1 : rai_wake_seq + 1;

	if (rai_real()->write_cm_event(st->id, RAI_CM_EVENT_USER, seq,
				       RAI_WAKE_ARG))
		return 0;	/* rdma_get_cm_event() still returns it */
	rai_wake_seq = seq;
	return seq;
}

/*
 * @st's event is ready on @ch without a wake-up queued for it: its id has
 * moved to @ch (rdma_migrate_id()), and a wake-up posted while librdmacm
 * was moving it went to the old channel, which rdma_ucm refuses.  Post one
 * on the id's channel now, or kick @ch's waiters.
 */
void rai_wake_ready(struct rai_id *st, struct rai_channel *ch)
{
	if (rai_wake_ok && !st->wake_seq)
		st->wake_seq = rai_wake_post(st);
	if (!st->wake_seq)
		rai_channel_kick(ch);
}

/*
 * Read @ch's module events ahead and post a wake-up for each; an event
 * whose wake-up could not be posted is handed out by the channel's
 * waiters, kicked for it.
 */
static void rai_wake_read_ahead(struct rai_channel *ch)
{
	struct rai_id *st;

	while ((st = rai_read_module_event(ch))) {
		if (!st->ready)
			continue;	/* a synchronous id's */
		st->wake_seq = rai_wake_post(st);
		if (!st->wake_seq)
			rai_channel_kick(ch);
	}
}

/* The kick fd and the module fds to watch, in *@pfd (resized). */
static unsigned int rai_wake_poll_set(struct pollfd **pfd, unsigned int *size)
{
	struct rai_channel *ch = NULL;
	unsigned int n = 1;
	struct pollfd *p;

	while ((ch = rai_channel_next_watched(ch)))
		n++;
	if (n == 1)
		return 0;
	if (n > *size) {
		p = realloc(*pfd, n * sizeof(*p));
		if (!p)
			return 0;
		*pfd = p;
		*size = n;
	}
	p = *pfd;
	p[0].fd = rai_kick_fd;
	for (n = 1; (ch = rai_channel_next_watched(ch)); n++)
		p[n].fd = ch->fd;
	for (unsigned int i = 0; i < n; i++) {
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	return n;
}

/*
 * The watcher's poll set, only ever used by the one watcher running
 * (resized under the lock).  Static, and kept from one watcher to the
 * next: a child of fork() has no watcher, and a set on the parent
 * watcher's stack would be memory the child can no longer reach (a
 * definite leak under valgrind).
 */
static struct pollfd *rai_wake_pfd;
static unsigned int rai_wake_pfd_size;

static void *rai_wake_main(void *unused)
{
	struct pollfd *pfd;
	unsigned int i, n;
	uint64_t kicks;
	int ret;

	(void)unused;
	rai_lock_raw();
	while (!rai_watcher_stop) {
		n = rai_wake_poll_set(&rai_wake_pfd, &rai_wake_pfd_size);
		pfd = rai_wake_pfd;
		if (!n)
			break;	/* nothing in flight (or no memory) */
		rai_unlock_raw();
		ret = poll(pfd, n, -1);
		rai_lock_raw();
		if (ret < 0 && errno != EINTR)
			break;
		if (ret <= 0)
			continue;
		if (pfd[0].revents && read(rai_kick_fd, &kicks, sizeof(kicks)) < 0)
			kicks = 0;
		/*
		 * An fd closed meanwhile may have been reused: whatever
		 * channel has it now is the one to read.
		 */
		for (i = 1; i < n; i++) {
			struct rai_channel *ch;

			if (!(pfd[i].revents & POLLIN))
				continue;
			ch = rai_channel_find_fd(pfd[i].fd);
			if (ch)
				rai_wake_read_ahead(ch);
		}
	}
	rai_watcher_running = 0;
	rai_unlock_raw();
	return NULL;
}

/* A request started: have the watcher see it, starting one if needed. */
void rai_wake_watch(void)
{
	sigset_t all, old;

	pthread_once(&rai_wake_once, rai_wake_init);
	if (!rai_wake_ok)
		return;
	if (rai_watcher_running) {
		rai_wake_kick();
		return;
	}
	if (rai_watcher_joinable) {
		/* It has left its loop; only its return is left. */
		pthread_join(rai_watcher, NULL);
		rai_watcher_joinable = 0;
	}
	/* Signals are the application's: none for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!pthread_create(&rai_watcher, NULL, rai_wake_main, NULL)) {
		rai_watcher_running = 1;
		rai_watcher_joinable = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Library unload (or exit): stop and join the watcher. */
__attribute__((destructor)) static void rai_wake_fini(void)
{
	int join;

	rai_lock_raw();
	rai_watcher_stop = 1;
	rai_wake_kick();
	join = rai_watcher_joinable;
	rai_watcher_joinable = 0;
	rai_unlock_raw();
	if (join)
		pthread_join(rai_watcher, NULL);
	if (rai_kick_fd >= 0)
		close(rai_kick_fd);
}
