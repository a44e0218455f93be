// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The log of the DNS programs (say.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "say.h"

int say_verbose;

void say(int prio, const char *fmt, ...)
{
	int err = errno, to_stderr;
	va_list ap;

	if (prio == LOG_DEBUG && !say_verbose)
		return;
	/* isatty() sets errno (ENOTTY): %m is the caller's. */
	to_stderr = isatty(STDERR_FILENO) || say_verbose;
	errno = err;
	va_start(ap, fmt);
	if (to_stderr) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}
