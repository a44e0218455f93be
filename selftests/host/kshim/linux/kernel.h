/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_KERNEL_H
#define _KSHIM_KERNEL_H
#include <stdio.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
