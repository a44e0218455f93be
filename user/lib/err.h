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

/*
 * @ret of an exported call that returns 0 on success: a success leaves
 * errno as the caller had it (@saved_errno, taken on entry), as
 * librdmacm's calls leave it, whatever the library's own steps on the way
 * set (a device that would not open, an empty eventfd, an interrupted
 * poll()).
 */
static inline int rai_return(int ret, int saved_errno)
{
	if (!ret)
		errno = saved_errno;
	return ret;
}

#endif /* _RAI_ERR_H */
