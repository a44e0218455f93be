/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_EXPORT_H
#define _RAI_EXPORT_H

/* The library is built with -fvisibility=hidden; this marks its API. */
#define RAI_EXPORT __attribute__((visibility("default")))

/*
 * @name at version @ver (its default) and also at an older version node
 * @oldver, for binaries linked when it was exported there.
 */
#define RAI_EXPORT_COMPAT(name, ver, oldver)				\
	extern __typeof__(name) name##_compat				\
		__attribute__((alias(#name), visibility("default")));	\
	__asm__(".symver " #name ", " #name "@@@" #ver);		\
	__asm__(".symver " #name "_compat, " #name "@" #oldver)

#endif /* _RAI_EXPORT_H */
