/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: what the DNS wing keeps in other files' objects, one
 * struct in each: struct rai_user embeds a struct rai_dns_user, struct
 * rai_request a struct rai_dns_request.  Their owners (user.c,
 * request.c, resolve.c) only set them up and check them through the
 * helpers here; each field belongs to one DNS file, under the lock named
 * beside it.
 */
#ifndef _RAI_DNS_STATE_H
#define _RAI_DNS_STATE_H

#include <linux/list.h>
#include <linux/types.h>

/**
 * struct rai_dns_user - what the DNS wing keeps of one user
 * @nr_upcalls: upcall slots the user holds (kernel/dns_slots.c, slot lock)
 * @waiting: the user's requests waiting for a slot, oldest first
 *	(kernel/dns_slots.c, slot lock)
 * @turn: link in the round-robin list of users waiting for a slot
 *	(kernel/dns_slots.c, slot lock)
 * @dispatched: jiffies when the user's last upcall got its slot
 *	(kernel/dns_slots.c, slot lock; read only while @nr_upcalls is not 0)
 * @nr_keys: dns_resolver keys charged to the user (kernel/dns_keys.c,
 *	key lock)
 */
struct rai_dns_user {
	unsigned int nr_upcalls;
	struct list_head waiting;
	struct list_head turn;
	unsigned long dispatched;
	unsigned int nr_keys;
};

/**
 * struct rai_dns_request - what the DNS wing keeps of one request
 * @slot_entry: link in its user's @waiting while waiting for an upcall
 *	slot (kernel/dns_slots.c, slot lock)
 * @slot: holds an upcall slot, given by the slot queue and given back
 *	exactly once (kernel/dns_slots.c, slot lock)
 */
struct rai_dns_request {
	struct list_head slot_entry;
	bool slot;
};

/* A new user's, zeroed. */
static inline void rai_dns_user_init(struct rai_dns_user *du)
{
	INIT_LIST_HEAD(&du->waiting);
	INIT_LIST_HEAD(&du->turn);
}

/* Whether the user's last reference may go: it holds nothing of DNS. */
static inline bool rai_dns_user_idle(const struct rai_dns_user *du)
{
	return list_empty(&du->waiting) && list_empty(&du->turn) &&
	       !du->nr_upcalls && !du->nr_keys;
}

/* A new request's, zeroed. */
static inline void rai_dns_request_init(struct rai_dns_request *dr)
{
	INIT_LIST_HEAD(&dr->slot_entry);
}

#endif /* _RAI_DNS_STATE_H */
