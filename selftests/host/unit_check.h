/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The host unit tests of kernel code (selftests/host/NAME_unit.c, each
 * built with kernel/NAME.c) print KTAP, as the kselftest harness programs
 * do: CHECK(cond, fmt, ...) is one test case, "ok N - FILE:LINE: message"
 * or "not ok N - ...", the first one preceded by the version line;
 * UNIT_SUMMARY() prints the plan (at the end: the number of checks depends
 * on the loops that ran) and the "# Totals:" line that selftests/check
 * counts, and is the exit status of main().
 */
#ifndef RAI_UNIT_CHECK_H
#define RAI_UNIT_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int unit_pass, unit_fail;

/* One KTAP result line; the message is printf-style. */
static void __attribute__((format(printf, 4, 5)))
unit_result(bool ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (!unit_pass && !unit_fail)
		printf("TAP version 13\n");
	if (ok)
		unit_pass++;
	else
		unit_fail++;
	printf("%sok %d - %s:%d: ", ok ? "" : "not ", unit_pass + unit_fail,
	       file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	/* Nothing lost should a later check crash the program. */
	fflush(stdout);
}

#define CHECK(cond, ...) unit_result(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define UNIT_SUMMARY()							\
	(printf("1..%d\n# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", \
		unit_pass + unit_fail, unit_pass, unit_fail),		\
	 unit_fail ? 1 : 0)

#endif /* RAI_UNIT_CHECK_H */
