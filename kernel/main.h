/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the module-wide workqueue.
 */
#ifndef _RAI_MAIN_H
#define _RAI_MAIN_H

#include <linux/types.h>

struct workqueue_struct;

extern struct workqueue_struct *rai_wq;

#endif /* _RAI_MAIN_H */
