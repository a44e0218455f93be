// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The log of the DNS programs (say.h). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "say.h"

int say_verbose;

void say(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio == LOG_DEBUG && !say_verbose)
		return;
	va_start(ap, fmt);
	if (isatty(STDERR_FILENO) || say_verbose) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}
