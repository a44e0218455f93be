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
	int err = errno, tty;
	va_list ap;

	if (prio == LOG_DEBUG && !say_verbose)
		return;
	/* isatty() sets errno (ENOTTY): %m is the caller's. */
	tty = isatty(STDERR_FILENO);
	errno = err;
	va_start(ap, fmt);
	if (tty || say_verbose) {
		/* One line at a time from the resolver's threads. */
		flockfile(stderr);
		if (!tty)
			fprintf(stderr, "<%d>", LOG_PRI(prio));
		errno = err;
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		funlockfile(stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}
