/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the misc device /dev/infiniband/rdma_addrinfo.
 */
#ifndef _RAI_DEVICE_H
#define _RAI_DEVICE_H

int rai_device_init(void);
void rai_device_exit(void);

#endif /* _RAI_DEVICE_H */
