/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* User-space stand-ins for the kernel headers kernel/sa_wire.c uses. */
#ifndef _KSHIM_TYPES_H
#define _KSHIM_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
