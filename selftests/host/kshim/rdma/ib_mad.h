/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * User-space stand-in for <rdma/ib_mad.h>: the names kernel/sa_wire.c
 * uses, with the values of the kernel's header (the same in 6.1 to 7.3).
 */
#ifndef _KSHIM_IB_MAD_H
#define _KSHIM_IB_MAD_H

#define IB_MGMT_BASE_VERSION		1
#define IB_MGMT_CLASS_SUBN_ADM		0x03
#define IB_MGMT_METHOD_GET		0x01
#define IB_MGMT_METHOD_RESP		0x80

#define IB_MGMT_RMPP_VERSION		1
#define IB_MGMT_RMPP_TYPE_DATA		1
#define IB_MGMT_RMPP_FLAG_ACTIVE	1
#define IB_MGMT_RMPP_FLAG_FIRST		(1 << 1)

enum {
	IB_MGMT_SA_HDR = 56,
	IB_MGMT_SA_DATA = 200,
	IB_MGMT_MAD_SIZE = 256,
};

#endif
