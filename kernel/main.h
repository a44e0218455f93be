/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: module parameters and the module-wide workqueue.
 */
#ifndef _RAI_MAIN_H
#define _RAI_MAIN_H

#include <linux/types.h>

struct workqueue_struct;

extern unsigned int rai_max_requests_per_fd;
extern unsigned int rai_max_requests;
extern unsigned int rai_max_results;
extern unsigned int rai_max_upcalls;
extern unsigned int rai_dns_timeout_ms;
extern unsigned int rai_sa_timeout_ms;
extern unsigned int rai_sa_retries;
extern unsigned int rai_max_requests_per_user;
extern unsigned int rai_max_upcalls_per_user;
extern unsigned int rai_dns_max_keys;
extern unsigned int rai_dns_max_keys_per_user;

extern struct workqueue_struct *rai_wq;

#endif /* _RAI_MAIN_H */
