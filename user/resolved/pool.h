/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The resident resolver's workers: names the module handed over are
 * queued, resolved by a bounded set of threads (answer_build()), and
 * their answers sent back several at a time.
 *
 * Batching: a worker with an answer adds it to the pending answers; when
 * no other worker is sending, it sends every pending answer in one call
 * of @send, and again while more came meanwhile.  So one name alone is
 * answered at once, and names resolved while a send is under way go
 * together in the next.
 *
 * A name not yet taken by a worker when its deadline has passed is
 * dropped unresolved: the module has given it to its fallback already.
 */
#ifndef RAI_RESOLVED_POOL_H
#define RAI_RESOLVED_POOL_H

#include <rdma/rdma_addrinfo_abi.h>

struct pool;

/*
 * Send @n answers to the module (RESOLVER_ANSWER); 0 or -errno, which is
 * logged.  Called by one worker at a time.
 */
typedef int (*pool_send_fn)(void *ctx,
			    struct rdma_addrinfo_resolver_answer *answers,
			    unsigned int n);

/*
 * @threads workers, at most @capacity names held (queued, being resolved
 * or answered), each dropped when not started within @deadline_ms (0: no
 * deadline).  NULL with errno set on failure.
 */
struct pool *pool_create(unsigned int threads, unsigned int capacity,
			 unsigned int deadline_ms, pool_send_fn send,
			 void *ctx);

/* How many more names the pool takes now. */
unsigned int pool_room(struct pool *pool);

/*
 * A file descriptor that becomes readable when room was made after
 * pool_room() said 0; read (8 bytes) to clear it.
 */
int pool_room_fd(const struct pool *pool);

/* Queue the name @name (of the module's @id); -ENOSPC without room. */
int pool_add(struct pool *pool, __u64 id, const char *name);

/* Wait until every name added is answered or dropped (for tests). */
void pool_drain(struct pool *pool);

/*
 * Stop sending: once it returns, @send is not called again (a send under
 * way has ended), so the caller may close the file it sends to.  Names
 * not started are dropped, answers not sent discarded.
 */
void pool_stop(struct pool *pool);

/* Stop, wait for the threads (a lookup under way ends first), free. */
void pool_destroy(struct pool *pool);

/* Calls of @send and answers sent so far. */
void pool_stats(struct pool *pool, unsigned long *sends,
		unsigned long *answers);

#endif /* RAI_RESOLVED_POOL_H */
