/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_ERR_H
#define _KSHIM_ERR_H
#define MAX_ERRNO	4095
#endif
