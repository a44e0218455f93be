/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _KSHIM_TIME64_H
#define _KSHIM_TIME64_H
#include <stdint.h>
typedef int64_t time64_t;
#endif
