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
struct rai_request;
struct rai_resident_user;
struct rai_user;

/**
 * struct rai_resident_name - a name a resolver is asked for
 * @id_node: in its queue's @by_id
 * @name_node: in its queue's @by_name
 * @entry: in its user's @names, the queue's @returned, (taken) the
 *	queue's @taken, or once out of the queue a list of names to hand over
 * @user: the tenant who asked first (struct rai_resident_user)
 * @share: the share of kernel/user.c it is charged to, referenced
 * @queue: the queue it is in (it leaves that queue once; the last request
 *	that leaves a name not yet taken takes the name out)
 * @reqs: the requests waiting for it (their @dns.resident_entry); they stay
 *	here when the name leaves its queue, until it is handed over
 * @id: what the resolver is told, and answers with
 * @age: in the queue's @asked while not taken
 * @deadline: jiffies when the name goes to the fallback: taken, its
 *	answer's deadline; not taken, the end of its wait (resolver_wait_ms)
 * @taken: taken by the resolver, not yet answered
 * @len: bytes of @name
 * @name: the name, NUL-terminated
 */
struct rai_resident_name {
	struct hlist_node id_node;
	struct hlist_node name_node;
	struct list_head entry;
	struct rai_resident_user *user;
	struct rai_user *share;
	struct rai_resident_queue *queue;
	struct list_head reqs;
	struct list_head age;
	u64 id;
	unsigned long deadline;
	bool taken;
	u32 len;
	char name[];
};

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
 * Everything under @lock (kernel/dns_resident_queue.c).
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
struct rai_resident_name *rai_resident_queue_claim(struct rai_resident_queue *q,
						   u64 id);
unsigned int rai_resident_queue_expire(struct rai_resident_queue *q,
				       struct list_head *gone,
				       unsigned long *next);
unsigned int rai_resident_queue_close(struct rai_resident_queue *q,
				      struct list_head *gone);
bool rai_resident_queue_waiting(const struct rai_resident_queue *q);
bool rai_resident_unwait(struct rai_request *req);
void rai_resident_hand_over(struct rai_resident_name *n,
			    const struct rai_dns_answer *answer,
			    void (*fallback)(struct rai_request *req));
void rai_resident_hand_over_all(struct list_head *gone,
				void (*fallback)(struct rai_request *req));

void rai_resident_queue_gauges_init(void);
void rai_resident_queue_gauges_exit(void);

#endif /* _RAI_DNS_RESIDENT_QUEUE_H */
