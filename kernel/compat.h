/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: differences between the kernels the module builds for
 * (Debian 6.1, 6.12, 7.3).  This is the only file with version checks.
 */
#ifndef _RAI_COMPAT_H
#define _RAI_COMPAT_H

/*
 * 6.10 dropped the source argument of __assign_str() in TRACE_EVENT;
 * Kbuild probes the kernel's header for it (RAI_HAVE_ASSIGN_STR_1).
 */
#ifdef RAI_HAVE_ASSIGN_STR_1
#define rai_assign_str(dst, src)	__assign_str(dst)
#else
#define rai_assign_str(dst, src)	__assign_str(dst, src)
#endif

#endif /* _RAI_COMPAT_H */
