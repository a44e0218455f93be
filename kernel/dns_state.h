/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: what the DNS wing keeps in other files' objects, one
 * struct in each: struct rai_user embeds a struct rai_dns_user, struct
 * rai_request a struct rai_dns_request, struct rai_file a struct
 * rai_dns_file.  Their owners (user.c, request.c) only set them up and check them through the
 * helpers here; each field belongs to one DNS file, under the lock named
 * beside it.
 */
#ifndef _RAI_DNS_STATE_H
#define _RAI_DNS_STATE_H

#include <linux/list.h>
#include <linux/types.h>

struct rai_resident;
struct rai_resident_queue;

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
 * struct rai_dns_file - what the DNS wing keeps of one open file
 * @resident: the resident resolver the file registered, or NULL
 *	(kernel/dns_resident.c: set once under rai_resident_lock, cleared
 *	only by the file's release; read with READ_ONCE() by the ioctls)
 */
struct rai_dns_file {
	struct rai_resident *resident;
};

/**
 * struct rai_dns_route - who may answer a DNS request, decided once in its
 *	RESOLVE ioctl, where the caller's view can be read (kernel/dns.c)
 * @resident: the caller's resident resolver, referenced, until the
 *	request's start takes it (only between answer_now and start)
 * @upcall_ok: the upcall may answer it (dns_view.c's check: a resolver's
 *	fallback runs elsewhere, in no caller's context)
 * @known: decided; a RESOLVE_RESULTS whose answer_now missed hands its
 *	route to the request it starts (rai_dns_route_pass(), in the
 *	backend's carry())
 */
struct rai_dns_route {
	struct rai_resident *resident;
	bool upcall_ok;
	bool known;
};

/**
 * struct rai_dns_request - what the DNS wing keeps of one request
 * @slot_entry: link in its user's @waiting while waiting for an upcall
 *	slot (kernel/dns_slots.c, slot lock)
 * @slot: holds an upcall slot, given by the slot queue and given back
 *	exactly once (kernel/dns_slots.c, slot lock)
 * @resident_entry: link in the requests of a name a resident resolver is
 *	asked for (kernel/dns_resident_queue.c, its queue's lock)
 * @resident_queue: the queue of that name while linked, else NULL
 *	(kernel/dns_resident_queue.c: written under its lock, read under RCU)
 * @view: the view of its answers in the cache, 0 for the host's
 *	(kernel/dns.c: set in RESOLVE, and when it goes to the upcall)
 * @route: who may answer it (kernel/dns.c, decided once in RESOLVE)
 * @by_resident: a resident resolver serves it (kernel/dns.c, RESOLVE)
 * @looked: its RESOLVE looked in the cache already and missed (a
 *	RESOLVE_RESULTS: answer_now), so that its start does not look again
 *	(kernel/dns.c, RESOLVE)
 */
struct rai_dns_request {
	struct list_head slot_entry;
	struct list_head resident_entry;
	struct rai_resident_queue *resident_queue;
	u64 view;
	struct rai_dns_route route;
	bool slot;
	bool by_resident;
	bool looked;
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

/*
 * The route that answer_now decided for an on-stack request, taken out of
 * it (@from) into @to: the request started next, in the same ioctl.
 * A route that no start takes is given back by the backend's drop()
 * (kernel/dns.c).
 */
static inline void rai_dns_route_pass(struct rai_dns_route *to,
				      struct rai_dns_route *from)
{
	*to = *from;
	*from = (struct rai_dns_route){};
}

#endif /* _RAI_DNS_STATE_H */
