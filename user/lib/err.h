/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_ERR_H
#define _RAI_ERR_H

#include <errno.h>

/* A failure as librdmacm returns it (its cma.h ERR()): -1, errno @err. */
static inline int ERR(int err)
{
	errno = err;
	return -1;
}

#endif /* _RAI_ERR_H */
