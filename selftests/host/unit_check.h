/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The host unit tests of kernel code (selftests/host/NAME_unit.c, each
 * built with kernel/NAME.c): CHECK(cond, fmt, ...) counts a
 * pass or prints "not ok FILE:LINE: message" and counts a failure;
 * UNIT_SUMMARY() prints "N passed, N failed" (what selftests/check
 * counts) and is the exit status of main().
 */
#ifndef RAI_UNIT_CHECK_H
#define RAI_UNIT_CHECK_H

#include <stdio.h>

static int unit_pass, unit_fail;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			unit_pass++;					\
		} else {						\
			unit_fail++;					\
			printf("not ok %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

#define UNIT_SUMMARY()							\
	(printf("%d passed, %d failed\n", unit_pass, unit_fail),	\
	 unit_fail ? 1 : 0)

#endif /* RAI_UNIT_CHECK_H */
