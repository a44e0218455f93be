/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_MINMAX_H
#define _KSHIM_MINMAX_H
#define clamp_t(t, v, lo, hi)						\
	((t)(v) < (t)(lo) ? (t)(lo) : (t)(v) > (t)(hi) ? (t)(hi) : (t)(v))
#endif
