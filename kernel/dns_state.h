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
 * @resident_entry: link in the requests of a name a resident resolver is
 *	asked for (kernel/dns_resident_queue.c, its lock)
 * @view: the view of its answers in the cache, 0 for the host's
 *	(kernel/dns.c: set in RESOLVE, and when it goes to the upcall)
 * @upcall_ok: the upcall may answer it (kernel/dns.c, with dns_view.c's
 *	check, made in RESOLVE: a resolver's fallback runs elsewhere)
 * @by_resident: a resident resolver serves it (kernel/dns.c, RESOLVE)
 */
struct rai_dns_request {
	struct list_head slot_entry;
	bool slot;
	struct list_head resident_entry;
	u64 view;
	bool upcall_ok;
	bool by_resident;
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
	INIT_LIST_HEAD(&dr->resident_entry);
}

#endif /* _RAI_DNS_STATE_H */
