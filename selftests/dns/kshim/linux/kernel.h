/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_DNS_KERNEL_H
#define _KSHIM_DNS_KERNEL_H
#include <stdio.h>
/* min(), min_t() ...: those of selftests/sa/kshim. */
#include "../../../sa/kshim/linux/kernel.h"
#endif
