/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the DNS upcall slots, round-robin between users, and the
 * batches a user's waiting requests gather into (kernel/dns_slots.c).
 */
#ifndef _RAI_DNS_SLOTS_H
#define _RAI_DNS_SLOTS_H

#include <linux/time64.h>
#include <linux/types.h>

struct rai_dns_batch;
struct rai_request;
struct rdma_addrinfo_info;
struct workqueue_struct;

/* A helper that did not answer a batch is not asked for one for a while. */
#define RAI_DNS_BATCH_BACKOFF_S	60

/* max_upcalls: the upcalls at once (read-only once loaded). */
unsigned int rai_dns_slots_max(void);

/* The upcall limits GET_INFO reports: max_upcalls, max_upcalls_per_user. */
void rai_dns_slots_info(struct rdma_addrinfo_info *info);

void rai_dns_slot_wait(struct rai_request *req);
bool rai_dns_slot_unwait(struct rai_request *req);
void rai_dns_slot_release(struct rai_request *req);

struct rai_dns_batch *rai_dns_batch_collect(struct rai_request *req);
void rai_dns_batch_requeue(struct rai_dns_batch *batch);
bool rai_dns_batches_backed_off(void);
void rai_dns_batches_back_off(time64_t now);

void rai_dns_slots_init(struct workqueue_struct *wq,
			struct workqueue_struct *gather_wq);
void rai_dns_slots_stop(void);
void rai_dns_slots_exit(void);

#endif /* _RAI_DNS_SLOTS_H */
