/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* User-space stand-ins for the kernel headers kernel/dns_batch.c uses. */
#ifndef _KSHIM_SLAB_H
#define _KSHIM_SLAB_H
#include <stdlib.h>
#define GFP_KERNEL	0
#define GFP_KERNEL_ACCOUNT	0
#define __GFP_RETRY_MAYFAIL	0
#define kmalloc(size, gfp)	malloc(size)
#define kfree(p)	free(p)
#endif
