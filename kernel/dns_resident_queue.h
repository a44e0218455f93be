/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the names a resident resolver is asked for
 * (kernel/dns_resident_queue.c).
 */
#ifndef _RAI_DNS_RESIDENT_QUEUE_H
#define _RAI_DNS_RESIDENT_QUEUE_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <rdma/rdma_addrinfo_abi.h>

struct rai_dns_answer;
struct rai_dns_cache_key;
struct rai_request;
struct rai_user;

/**
 * struct rai_resident_queue - the names of one resolver
 * @users: the users with names here (struct rai_resident_user), by tenant
 * @turns: users whose names wait, in the order they are served
 * @returned: names a TAKE could not hand out: offered first
 * @taken: names taken, in the order taken (of their deadlines)
 * @asked: names not taken, in the order of their wait's deadline
 * @by_id: every name, by @id
 * @by_name: every name, by the name
 * @next_id: the last @id given out
 * @nr_names: names here, waiting or taken
 * @nr_waiting: names not taken (read without the lock by waiters)
 * @closed: takes no new name (its resolver is gone)
 * @lock: protects the queue, its names and their requests' links
 *
 * Everything under @lock (kernel/dns_resident_queue.c).  Its resolver
 * embeds it; its names (struct rai_resident_name) and users are that
 * file's own, allocated and freed there.
 */
struct rai_resident_queue {
	spinlock_t lock;	/* see @lock above */
	DECLARE_HASHTABLE(users, 6);
	struct list_head turns;
	struct list_head returned;
	struct list_head taken;
	struct list_head asked;
	DECLARE_HASHTABLE(by_id, 8);
	DECLARE_HASHTABLE(by_name, 8);
	u64 next_id;
	unsigned int nr_names;
	unsigned int nr_waiting;
	bool closed;
};

/*
 * Names of a queue, and of one user in it, at most (the callers' limits),
 * and the jiffies when a name asked now stops waiting to be taken.
 */
struct rai_resident_limits {
	unsigned int names;
	unsigned int per_user;
	unsigned long wait_until;
};

void rai_resident_queue_init(struct rai_resident_queue *q);
int rai_resident_queue_ask(struct rai_resident_queue *q,
			   const struct rai_resident_limits *max,
			   struct rai_user *user,
			   const char *name, u32 len, struct rai_request *attach);
u32 rai_resident_queue_take(struct rai_resident_queue *q,
			    struct rdma_addrinfo_resolver_name *out, u32 max,
			    unsigned long deadline);
void rai_resident_queue_untake(struct rai_resident_queue *q,
			       const struct rdma_addrinfo_resolver_name *out,
			       u32 nr, unsigned long wait_until);
int rai_resident_queue_answer(struct rai_resident_queue *q, u64 id,
			      const struct rai_dns_answer *answer,
			      const struct rai_dns_cache_key *key);
unsigned int rai_resident_queue_expire(struct rai_resident_queue *q,
				       struct list_head *gone,
				       unsigned long *next);
unsigned int rai_resident_queue_close(struct rai_resident_queue *q,
				      struct list_head *gone);
bool rai_resident_queue_waiting(const struct rai_resident_queue *q);
bool rai_resident_unwait(struct rai_request *req);
void rai_resident_hand_over_all(struct list_head *gone,
				void (*fallback)(struct rai_request *req));

void rai_resident_queue_gauges_init(void);
void rai_resident_queue_gauges_exit(void);

#endif /* _RAI_DNS_RESIDENT_QUEUE_H */
