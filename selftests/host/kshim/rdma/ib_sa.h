/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * User-space stand-in for <rdma/ib_sa.h>: the names kernel/sa_wire.c
 * uses, with the values of the kernel's header (the same in 6.1 to 7.3).
 */
#ifndef _KSHIM_IB_SA_H
#define _KSHIM_IB_SA_H

#include <rdma/ib_mad.h>

enum {
	IB_SA_CLASS_VERSION = 2,
	IB_SA_METHOD_GET_TABLE = 0x12,
};

enum {
	IB_SA_ATTR_SERVICE_REC = 0x31,
	IB_SA_ATTR_PATH_REC = 0x35,
};

#endif
