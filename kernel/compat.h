/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: differences between the kernels the module builds for
 * (Debian 6.1, 6.12, 7.3).  This is the only file with version checks.
 */
#ifndef _RAI_COMPAT_H
#define _RAI_COMPAT_H

#include <linux/version.h>

#endif /* _RAI_COMPAT_H */
