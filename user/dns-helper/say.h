/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The log of the DNS helper and the resident resolver: syslog, or stderr
 * when that is a terminal or the program runs verbose (-v).  LOG_DEBUG
 * lines only when verbose.  The program calls openlog() itself.
 *
 * On a stderr that is not a terminal (the journal's stream under systemd,
 * a pipe, a file) each line starts with its priority as sd-daemon(3)'s
 * prefixes write it, "<3>" for LOG_ERR to "<7>" for LOG_DEBUG: the
 * journal records the line at that priority and strips the prefix.
 */
#ifndef RAI_SAY_H
#define RAI_SAY_H

#include <syslog.h>

/* Set by the program's -v. */
extern int say_verbose;

void say(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* RAI_SAY_H */
