// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The resident resolver's workers and the batching of answers (pool.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "pool.h"
#include "say.h"

/* A name waiting for a worker. */
struct pool_name {
	__u64 id;
	struct timespec added;		/* CLOCK_MONOTONIC */
	char name[RDMA_ADDRINFO_NAME_MAX + 1];
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a name queued, or stopping */
	pthread_cond_t idle;		/* held fell, or a send ended */
	unsigned int capacity, deadline_ms;
	unsigned int held;		/* queued, resolving, pending, sending */
	/* The queue: a ring of @capacity names. */
	struct pool_name *queue;
	unsigned int head, queued;
	/* Answers waiting to be sent, and the sender's own array. */
	struct rdma_addrinfo_resolver_answer *pending, *sending;
	unsigned int npending;
	int sender;			/* a worker is sending */
	int stopping, full;		/* pool_room() said 0 */
	int room_fd;
	pool_send_fn send;
	void *ctx;
	unsigned long sends, answers;
	unsigned int nthreads;
	pthread_t *threads;
};

static long pool_ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L +
	       (now.tv_nsec - t->tv_nsec) / 1000000L;
}

/* @n names left the pool: wake whoever waits for room (locked). */
static void pool_release(struct pool *pool, unsigned int n)
{
	uint64_t one = 1;

	pool->held -= n;
	if (pool->full && n) {
		pool->full = 0;
		if (write(pool->room_fd, &one, sizeof(one)) < 0)
			say(LOG_ERR, "room eventfd: %m");
	}
	pthread_cond_broadcast(&pool->idle);
}

/*
 * Send every pending answer, again while more arrive (locked; the lock is
 * dropped around @send).  Only one worker sends at a time.
 */
static void pool_flush(struct pool *pool)
{
	struct rdma_addrinfo_resolver_answer *batch;
	unsigned int n;
	int ret;

	pool->sender = 1;
	while (pool->npending && !pool->stopping) {
		batch = pool->pending;
		n = pool->npending;
		pool->pending = pool->sending;
		pool->sending = batch;
		pool->npending = 0;
		pthread_mutex_unlock(&pool->lock);
		ret = pool->send(pool->ctx, batch, n);
		if (ret)
			say(LOG_ERR, "answering %u names: %s", n,
			    strerror(-ret));
		pthread_mutex_lock(&pool->lock);
		pool->sends++;
		pool->answers += n;
		pool_release(pool, n);
	}
	pool->sender = 0;
	pthread_cond_broadcast(&pool->idle);
}

static void *pool_worker(void *arg)
{
	struct rdma_addrinfo_resolver_answer ans;
	struct pool *pool = arg;
	struct pool_name name;

	pthread_mutex_lock(&pool->lock);
	for (;;) {
		while (!pool->queued && !pool->stopping)
			pthread_cond_wait(&pool->work, &pool->lock);
		if (pool->stopping)
			break;
		name = pool->queue[pool->head];
		pool->head = (pool->head + 1) % pool->capacity;
		pool->queued--;
		if (pool->deadline_ms &&
		    pool_ms_since(&name.added) >= pool->deadline_ms) {
			say(LOG_DEBUG, "%s: past its deadline, left to the module",
			    name.name);
			pool_release(pool, 1);
			continue;
		}
		pthread_mutex_unlock(&pool->lock);
		answer_build(&ans, name.id, name.name);
		pthread_mutex_lock(&pool->lock);
		if (pool->stopping) {
			pool_release(pool, 1);
			break;
		}
		pool->pending[pool->npending++] = ans;
		if (!pool->sender)
			pool_flush(pool);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

static void pool_free(struct pool *pool)
{
	if (pool->room_fd >= 0)
		close(pool->room_fd);
	pthread_cond_destroy(&pool->idle);
	pthread_cond_destroy(&pool->work);
	pthread_mutex_destroy(&pool->lock);
	free(pool->threads);
	free(pool->sending);
	free(pool->pending);
	free(pool->queue);
	free(pool);
}

/* pool.h */
struct pool *pool_create(unsigned int threads, unsigned int capacity,
			 unsigned int deadline_ms, pool_send_fn send,
			 void *ctx)
{
	struct pool *pool;
	int err;

	if (!threads || !capacity) {
		errno = EINVAL;
		return NULL;
	}
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->idle, NULL);
	pool->capacity = capacity;
	pool->deadline_ms = deadline_ms;
	pool->send = send;
	pool->ctx = ctx;
	pool->queue = calloc(capacity, sizeof(*pool->queue));
	pool->pending = calloc(capacity, sizeof(*pool->pending));
	pool->sending = calloc(capacity, sizeof(*pool->sending));
	pool->threads = calloc(threads, sizeof(*pool->threads));
	pool->room_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!pool->queue || !pool->pending || !pool->sending ||
	    !pool->threads || pool->room_fd < 0) {
		err = errno;
		pool_free(pool);
		errno = err;
		return NULL;
	}
	for (; pool->nthreads < threads; pool->nthreads++) {
		err = pthread_create(&pool->threads[pool->nthreads], NULL,
				     pool_worker, pool);
		if (err) {
			pool_destroy(pool);
			errno = err;
			return NULL;
		}
	}
	return pool;
}

/* pool.h */
unsigned int pool_room(struct pool *pool)
{
	unsigned int room;

	pthread_mutex_lock(&pool->lock);
	room = pool->capacity - pool->held;
	pool->full = !room;
	pthread_mutex_unlock(&pool->lock);
	return room;
}

/* pool.h */
int pool_room_fd(const struct pool *pool)
{
	return pool->room_fd;
}

/* pool.h */
int pool_add(struct pool *pool, __u64 id, const char *name)
{
	struct pool_name *slot;

	pthread_mutex_lock(&pool->lock);
	if (pool->held == pool->capacity || pool->stopping) {
		pthread_mutex_unlock(&pool->lock);
		return -ENOSPC;
	}
	/* held >= queued: the ring has room. */
	slot = &pool->queue[(pool->head + pool->queued) % pool->capacity];
	slot->id = id;
	clock_gettime(CLOCK_MONOTONIC, &slot->added);
	strncpy(slot->name, name, sizeof(slot->name) - 1);
	slot->name[sizeof(slot->name) - 1] = '\0';
	pool->queued++;
	pool->held++;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	return 0;
}

/* pool.h */
void pool_drain(struct pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	while (pool->held && !pool->stopping)
		pthread_cond_wait(&pool->idle, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
}

/* pool.h */
void pool_stop(struct pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->stopping = 1;
	pthread_cond_broadcast(&pool->work);
	pthread_cond_broadcast(&pool->idle);
	while (pool->sender)
		pthread_cond_wait(&pool->idle, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
}

/* pool.h */
void pool_destroy(struct pool *pool)
{
	unsigned int i;

	pool_stop(pool);
	for (i = 0; i < pool->nthreads; i++)
		pthread_join(pool->threads[i], NULL);
	pool_free(pool);
}

/* pool.h */
void pool_stats(struct pool *pool, unsigned long *sends,
		unsigned long *answers)
{
	pthread_mutex_lock(&pool->lock);
	*sends = pool->sends;
	*answers = pool->answers;
	pthread_mutex_unlock(&pool->lock);
}
