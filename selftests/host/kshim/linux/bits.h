/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_BITS_H
#define _KSHIM_BITS_H
#define BIT_ULL(n) (1ULL << (n))
#endif
