// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The resident resolver's workers and the batching of answers (pool.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "answer.h"
#include "pool.h"
#include "say.h"

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t idle;		/* held fell, a send ended, or stopping */
	unsigned int capacity;
	unsigned int held;		/* taken (or being taken), not yet sent */
	/* Answers waiting to be sent, and the sender's own array. */
	struct rdma_addrinfo_resolver_answer *pending, *sending;
	unsigned int npending;
	int sender;			/* a worker is sending */
	int stopping;
	int wait_fd;			/* the caller's: readable, names wait */
	int stop_fd;			/* eventfd: written once, by pool_stop() */
	int failed_fd;			/* eventfd: written when a take failed */
	int error;			/* the first take's -errno, or 0 */
	pool_take_fn take;
	pool_send_fn send;
	void *ctx;
	unsigned long sends, answers;
	unsigned int nthreads;
	pthread_t *threads;
};

/* @n names left the pool: wake whoever waits for room (locked). */
static void pool_release(struct pool *pool, unsigned int n)
{
	pool->held -= n;
	pthread_cond_broadcast(&pool->idle);
}

/* A take failed with @err: the first says why and tells the caller. */
static void pool_fail(struct pool *pool, int err)
{
	uint64_t one = 1;

	if (pool->error)
		return;
	pool->error = err;
	say(LOG_ERR, "take: %s", strerror(-err));
	if (write(pool->failed_fd, &one, sizeof(one)) < 0)
		say(LOG_ERR, "failed eventfd: %m");
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

/*
 * The worker's own epoll set: the caller's wait_fd, exclusively (a name
 * wakes one waiting worker), and the stop eventfd (it wakes them all).
 */
static int pool_worker_epoll(struct pool *pool)
{
	struct epoll_event names = { .events = EPOLLIN | EPOLLEXCLUSIVE };
	struct epoll_event stop = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return -errno;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, pool->wait_fd, &names) ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, pool->stop_fd, &stop)) {
		int err = -errno;

		close(ep);
		return err;
	}
	return ep;
}

/*
 * Take a name when there is room for it: 1 with *@name, 0 if none was
 * waiting, -1 when the worker is to end (locked, dropped around @take).
 */
static int pool_take_one(struct pool *pool,
			 struct rdma_addrinfo_resolver_name *name)
{
	int ret;

	while (pool->held >= pool->capacity && !pool->stopping)
		pthread_cond_wait(&pool->idle, &pool->lock);
	if (pool->stopping || pool->error)
		return -1;
	pool->held++;		/* room for the name it takes */
	pthread_mutex_unlock(&pool->lock);
	ret = pool->take(pool->ctx, name);
	pthread_mutex_lock(&pool->lock);
	if (ret > 0)
		return 1;
	pool_release(pool, 1);
	if (!ret)
		return 0;
	pool_fail(pool, ret);
	return -1;
}

static void *pool_worker(void *arg)
{
	struct rdma_addrinfo_resolver_answer ans;
	struct rdma_addrinfo_resolver_name name;
	struct pool *pool = arg;
	struct epoll_event ev;
	int ep, ret;

	ep = pool_worker_epoll(pool);
	pthread_mutex_lock(&pool->lock);
	if (ep < 0)
		pool_fail(pool, ep);
	while (ep >= 0) {
		ret = pool_take_one(pool, &name);
		if (ret < 0)
			break;
		if (!ret) {
			pthread_mutex_unlock(&pool->lock);
			ret = epoll_wait(ep, &ev, 1, -1);
			pthread_mutex_lock(&pool->lock);
			if (ret < 0 && errno != EINTR)
				pool_fail(pool, -errno);
			continue;
		}
		pthread_mutex_unlock(&pool->lock);
		name.name[sizeof(name.name) - 1] = '\0';
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
	if (ep >= 0)
		close(ep);
	return NULL;
}

static void pool_free(struct pool *pool)
{
	if (pool->stop_fd >= 0)
		close(pool->stop_fd);
	if (pool->failed_fd >= 0)
		close(pool->failed_fd);
	pthread_cond_destroy(&pool->idle);
	pthread_mutex_destroy(&pool->lock);
	free(pool->threads);
	free(pool->sending);
	free(pool->pending);
	free(pool);
}

/* pool.h */
struct pool *pool_create(unsigned int threads, unsigned int capacity,
			 int wait_fd, pool_take_fn take, pool_send_fn send,
			 void *ctx)
{
	struct pool *pool;
	int err;

	if (!threads || !capacity || wait_fd < 0) {
		errno = EINVAL;
		return NULL;
	}
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->idle, NULL);
	pool->capacity = capacity;
	pool->wait_fd = wait_fd;
	pool->take = take;
	pool->send = send;
	pool->ctx = ctx;
	pool->pending = calloc(capacity, sizeof(*pool->pending));
	pool->sending = calloc(capacity, sizeof(*pool->sending));
	pool->threads = calloc(threads, sizeof(*pool->threads));
	pool->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pool->failed_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!pool->pending || !pool->sending || !pool->threads ||
	    pool->stop_fd < 0 || pool->failed_fd < 0) {
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
int pool_failed_fd(const struct pool *pool)
{
	return pool->failed_fd;
}

/* pool.h */
int pool_failed(struct pool *pool)
{
	int err;

	pthread_mutex_lock(&pool->lock);
	err = pool->error;
	pthread_mutex_unlock(&pool->lock);
	return err;
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
	uint64_t one = 1;

	pthread_mutex_lock(&pool->lock);
	if (!pool->stopping && write(pool->stop_fd, &one, sizeof(one)) < 0)
		say(LOG_ERR, "stop eventfd: %m");
	pool->stopping = 1;
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
