/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The resident resolver's workers: each takes the module's names itself,
 * one at a time, resolves it (answer_build()) and adds its answer to the
 * ones to send, which go back several at a time.
 *
 * Taking: a worker with nothing to do waits in epoll for @wait_fd (the
 * device) with EPOLLEXCLUSIVE, so that a name wakes one worker and not
 * every one; it then takes a name with @take, which never blocks.  No
 * thread stands between the module and the worker that resolves a name,
 * and no name waits in this process for a thread: the module holds the
 * names nobody has taken, and hands them out round-robin between users.
 *
 * Batching: a worker with an answer adds it to the pending answers; when
 * no other worker is sending, it sends every pending answer in one call
 * of @send, and again while more came meanwhile.  So one name alone is
 * answered at once, and names resolved while a send is under way go
 * together in the next.  A worker takes no name while @capacity names
 * are taken and not yet sent.
 */
#ifndef RAI_RESOLVED_POOL_H
#define RAI_RESOLVED_POOL_H

#include <rdma/rdma_addrinfo_abi.h>

struct pool;

/*
 * Take one name without blocking: 1 with *@name filled, 0 when none is
 * waiting, or -errno (the device failed: the pool stops taking and
 * pool_failed_fd() becomes readable).
 */
typedef int (*pool_take_fn)(void *ctx,
			    struct rdma_addrinfo_resolver_name *name);

/*
 * Send @n answers to the module (RESOLVER_ANSWER); 0 or -errno, which is
 * logged.  Called by one worker at a time.
 */
typedef int (*pool_send_fn)(void *ctx,
			    struct rdma_addrinfo_resolver_answer *answers,
			    unsigned int n);

/*
 * @threads workers waiting on @wait_fd (readable while names wait), at
 * most @capacity names taken and not yet answered.  NULL with errno set
 * on failure.
 */
struct pool *pool_create(unsigned int threads, unsigned int capacity,
			 int wait_fd, pool_take_fn take, pool_send_fn send,
			 void *ctx);

/*
 * Readable once a take failed (the worker said why): the caller should
 * stop.  The error is pool_failed()'s.
 */
int pool_failed_fd(const struct pool *pool);
int pool_failed(struct pool *pool);

/* Wait until every name taken so far is answered (for tests). */
void pool_drain(struct pool *pool);

/*
 * Stop taking and sending: once it returns, @send is not called again (a
 * send under way has ended), so the caller may close the file it sends
 * to.  Answers not sent are discarded.
 */
void pool_stop(struct pool *pool);

/* Stop, wait for the threads (a lookup under way ends first), free. */
void pool_destroy(struct pool *pool);

/* Calls of @send and answers sent so far. */
void pool_stats(struct pool *pool, unsigned long *sends,
		unsigned long *answers);

#endif /* RAI_RESOLVED_POOL_H */
