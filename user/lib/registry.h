/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_REGISTRY_H
#define _RAI_REGISTRY_H

#include <pthread.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "request.h"

struct rai_fallback;

/* An event this library made; rdma_ack_cm_event() frees it. */
struct rai_event {
	struct rdma_cm_event event;
	struct rai_event *next;
};

/* What belongs to an event channel. */
struct rai_channel {
	struct rdma_event_channel *channel;
	int fd;			/* module fd; -1 until the first request */
	int kick_fd;		/* eventfd: its waiters look again; or -1 */
	int waiters;		/* threads blocked with kick_fd in their set */
	int reading;		/* a waiter is in librdmacm's get_cm_event */
	int inherited;		/* from the parent of a fork() */
	int ucma_first;		/* channel->fd's events are older (order.c) */
	int users;		/* rdma_get_cm_event() calls holding it */
	/*
	 * rdma_destroy_event_channel() ran while a call held it: out of the
	 * list, ->channel freed, the last user frees it (registry.c).
	 */
	int destroyed;
	/*
	 * Which entry this is, among all that ever had ->channel's address:
	 * librdmacm may free the channel and make another there with calls
	 * of its own (id.c).
	 */
	unsigned long serial;
	struct rai_channel *next;
};

/* A request kept to be started again on another channel (migration). */
struct rai_saved_request {
	struct rai_request req;
	char node[RDMA_ADDRINFO_NAME_MAX + 1];
	char service[RDMA_ADDRINFO_SERVICE_MAX + 1];
};

/* Resolution state of one rdma_cm_id. */
struct rai_id {
	struct rdma_cm_id *id;
	struct rai_channel *ch;		/* of its request and undelivered event */
	__u32 handle;			/* non-zero while in flight on ch->fd */
	struct rai_saved_request *req;	/* the request in flight */
	int ready;			/* done; its event not handed out yet */
	int wake_seq;			/* its wake-up is queued (wake.c); 0: none */
	int completed;			/* a request completed */
	int status;			/* its status: 0 or -errno */
	struct rai_shape shape;		/* what its results take of the hints */
	int sa;				/* its hints' RAI_SA */
	int as_60;			/* started at RDMACM_1.4 (resolve.c) */
	int handed_over;		/* its results queried (RDMACM_1.4) */
	struct rdma_addrinfo_result *results;
	char *canonname;		/* the module's, for the results */
	struct rdma_addrinfo *list;	/* its results made here, if any */
	unsigned int num_results;
	struct rai_event *event;	/* allocated at start, for its event */
	int sync;			/* synchronous: no events, ever */
	/*
	 * Its name refused for the caller's view: librdmacm resolves it
	 * (fallback.c), the refused request stays as the one in flight.
	 */
	struct rai_fallback *fallback;
	int carried;			/* its request carries the event of: */
	int carried_status;		/* librdmacm's outcome, list in ->list */
	int unacked;			/* events handed out, not acked yet */
	struct rai_id *next;
};

/*
 * Everything below is called with rai_registry_lock held, taken with
 * rai_lock(): no thread is ever cancelled while holding it.  Debug builds
 * (RAI_DEBUG) check it: each thread knows whether it holds the lock.
 */
extern pthread_mutex_t rai_registry_lock;
void rai_lock(void);
void rai_unlock(void);

#ifdef RAI_DEBUG
#include <assert.h>

extern __thread int rai_registry_held;
#define rai_registry_set_held(held)	((void)(rai_registry_held = (held)))
#define rai_assert_locked()		assert(rai_registry_held)
#else
#define rai_registry_set_held(held)	((void)0)
#define rai_assert_locked()		((void)0)
#endif

/*
 * The lock alone, cancellation state untouched: for the watcher thread
 * (wake.c), which blocks every signal and is never cancelled, and the
 * fork() handlers.  A child of fork() gets the lock unlocked, whatever
 * the parent's other threads were doing (registry.c).
 */
static inline void rai_lock_raw(void)
{
	pthread_mutex_lock(&rai_registry_lock);
	rai_registry_set_held(1);
}

static inline void rai_unlock_raw(void)
{
	rai_registry_set_held(0);
	pthread_mutex_unlock(&rai_registry_lock);
}

/* Broadcast when an event is acked; waited on with the lock held. */
void rai_registry_wait(void);

struct rai_channel *rai_channel_find(struct rdma_event_channel *channel);
struct rai_channel *rai_channel_find_fd(int fd);
struct rai_channel *rai_channel_next_watched(struct rai_channel *ch);
struct rai_channel *rai_channel_add(struct rdma_event_channel *channel);
void rai_channel_hold(struct rai_channel *ch);
void rai_channel_release(struct rai_channel *ch);
struct rai_channel *rai_channel_wait_begin(struct rai_channel *ch);
void rai_channel_wait_end(struct rai_channel *ch);
struct rai_channel *rai_channel_get(struct rdma_event_channel *channel);
void rai_channel_kick(struct rai_channel *ch);
void rai_channel_forget(struct rdma_event_channel *channel);

struct rai_id *rai_id_find(struct rdma_cm_id *id);
struct rai_id *rai_id_find_request(struct rai_channel *ch, __u64 context,
				   __u32 handle);
struct rai_id *rai_id_find_ready(struct rai_channel *ch);
struct rai_id *rai_id_get(struct rdma_cm_id *id);
int rai_id_mark_sync(struct rdma_cm_id *id);
int rai_id_save_request(struct rai_id *st, const struct rai_request *req);
void rai_id_clear_results(struct rai_id *st);
void rai_id_cancel(struct rai_id *st);
void rai_id_forget(struct rdma_cm_id *id);

void rai_event_hand_out(struct rai_event *ev);
int rai_event_take_back(struct rdma_cm_event *event);

#endif /* _RAI_REGISTRY_H */
