/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: RDMA_ADDRINFO_IOC_RESOLVE.
 */
#ifndef _RAI_RESOLVE_H
#define _RAI_RESOLVE_H

#include <linux/compiler_types.h>

struct rai_file;

#define RAI_AI_FLAGS_SUPPORTED						\
	(RDMA_ADDRINFO_RAI_PASSIVE | RDMA_ADDRINFO_RAI_NUMERICHOST |	\
	 RDMA_ADDRINFO_RAI_NOROUTE | RDMA_ADDRINFO_RAI_FAMILY |		\
	 RDMA_ADDRINFO_RAI_SA | RDMA_ADDRINFO_RAI_DNS)
#define RAI_RESOLVE_FLAGS_SUPPORTED					\
	(RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS |	\
	 RDMA_ADDRINFO_RESOLVE_CANONNAME)

long rai_ioctl_resolve(struct rai_file *file, void __user *arg);

#endif /* _RAI_RESOLVE_H */
