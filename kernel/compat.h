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

/*
 * IPv6 routines: through ipv6_stub where the kernel has one (6.1, 6.12;
 * its defaults answer -EAFNOSUPPORT while IPv6 is a module not loaded),
 * directly where IPv6 is always built in and the stub is gone (7.x).
 * Either way the caller checks ipv6_mod_enabled() first: with
 * ipv6.disable=1 IPv6 is present but never initialised.  Kbuild probes
 * for the stub's header (RAI_HAVE_IPV6_STUB).
 */
#ifdef RAI_HAVE_IPV6_STUB
#include <net/ipv6_stubs.h>
#define rai_ip6_dst_lookup_flow(net, fl6) \
	ipv6_stub->ipv6_dst_lookup_flow(net, NULL, fl6, NULL)
#define rai_ipv6_dev_find(net, addr)	ipv6_stub->ipv6_dev_find(net, addr, NULL)
#else
#include <net/addrconf.h>
#include <net/ipv6.h>
#define rai_ip6_dst_lookup_flow(net, fl6) \
	ip6_dst_lookup_flow(net, NULL, fl6, NULL)
#define rai_ipv6_dev_find(net, addr)	ipv6_dev_find(net, addr, NULL)
#endif

/*
 * ib_device_get_by_name() compares names under the RDMA core's lock; 7.x
 * no longer exports it.  There the caller compares ib_device->name, an
 * array the core rewrites in place on a rename and never frees: a lookup
 * racing a rename may miss, but never reads freed memory.
 */
#ifdef RAI_HAVE_IB_DEVICE_GET_BY_NAME
#define rai_ib_device_get_by_name(name) \
	ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN)
#else
#define rai_ib_device_get_by_name(name) NULL
#define RAI_IB_DEVICE_NAME_IN_PLACE
#endif

#endif /* _RAI_COMPAT_H */
