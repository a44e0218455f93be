/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_DEVICE_H
#define _RAI_DEVICE_H

#include <linux/types.h>
#include <rdma/rdma_addrinfo_abi.h>

int rai_open_device(int nonblock);
int rai_user_space(int err);
int rai_module_present(void);
int rai_fetch_results(int fd, __u32 handle,
		      struct rdma_addrinfo_result **results, unsigned int *n,
		      char **canonname);
int rai_module_canonname(void);
char *rai_canonname_take(const struct rdma_addrinfo_canonname *c);
void rai_destroy_request(int fd, __u32 handle);
unsigned int rai_sync_results_max(void);

#endif /* _RAI_DEVICE_H */
