/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_EXPORT_H
#define _RAI_EXPORT_H

/* The library is built with -fvisibility=hidden; this marks its API. */
#define RAI_EXPORT __attribute__((visibility("default")))

#endif /* _RAI_EXPORT_H */
