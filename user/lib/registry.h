/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_REGISTRY_H
#define _RAI_REGISTRY_H

#include <pthread.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

/* An event this library made; rdma_ack_cm_event() frees it. */
struct rai_event {
	struct rdma_cm_event event;
	struct rai_event *next;
};

/* The module fd that belongs to an event channel. */
struct rai_channel {
	struct rdma_event_channel *channel;
	int fd;
	int inherited;			/* from the parent of a fork() */
	struct rai_channel *next;
};

/* Asynchronous resolution state of one rdma_cm_id. */
struct rai_id {
	struct rdma_cm_id *id;
	struct rai_channel *ch;
	__u32 handle;			/* non-zero while in flight */
	int completed;			/* a request completed */
	int status;			/* its status: 0 or -errno */
	struct rdma_addrinfo_result *results;
	unsigned int num_results;
	struct rai_event *event;	/* allocated at start, for its event */
	int sync;			/* created without a channel */
	/* Its module event, read ahead by the wake-up watcher (wake.c). */
	struct rdma_addrinfo_event kev;
	int kev_read;
	int wake_seq;			/* its wake-up is queued; 0: none */
	struct rai_id *next;
};

/* Everything below is called with rai_registry_lock held. */
extern pthread_mutex_t rai_registry_lock;

struct rai_channel *rai_channel_find(struct rdma_event_channel *channel);
struct rai_channel *rai_channel_find_fd(int fd);
struct rai_channel *rai_channel_next_watched(struct rai_channel *ch);
struct rai_channel *rai_channel_get(struct rdma_event_channel *channel);
void rai_channel_forget(struct rdma_event_channel *channel);
void rai_channels_mark_inherited(void);

struct rai_id *rai_id_find(struct rdma_cm_id *id);
struct rai_id *rai_id_find_request(struct rai_channel *ch, __u64 context,
				   __u32 handle);
struct rai_id *rai_id_find_read_ahead(struct rai_channel *ch);
struct rai_id *rai_id_get(struct rdma_cm_id *id, struct rai_channel *ch);
int rai_id_mark_sync(struct rdma_cm_id *id);
void rai_id_clear_results(struct rai_id *st);
void rai_id_forget(struct rdma_cm_id *id);

void rai_event_delivered(struct rai_event *ev);
int rai_event_take_back(struct rdma_cm_event *event);

#endif /* _RAI_REGISTRY_H */
