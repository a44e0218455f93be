/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef _RAI_EXPORT_H
#define _RAI_EXPORT_H

/* The library is built with -fvisibility=hidden; this marks its API. */
#define RAI_EXPORT __attribute__((visibility("default")))

/*
 * @name at version @ver, its default, and @impl, another implementation,
 * as @name at the older version node @oldver: binaries linked when @name
 * was exported there keep what it did then.
 */
#define RAI_EXPORT_VERSIONS(name, ver, impl, oldver)			\
	extern __typeof__(name) impl					\
		__attribute__((visibility("default")));			\
	__asm__(".symver " #name ", " #name "@@@" #ver);		\
	__asm__(".symver " #impl ", " #name "@" #oldver)

#endif /* _RAI_EXPORT_H */
