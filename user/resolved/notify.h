/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Type=notify without libsystemd: the sd_notify(3) protocol is one
 * datagram of "VAR=value" lines to the AF_UNIX socket $NOTIFY_SOCKET
 * names (a path, or an abstract name written with a leading '@').
 */
#ifndef RAI_RESOLVED_NOTIFY_H
#define RAI_RESOLVED_NOTIFY_H

/*
 * Send @state (e.g. "READY=1") to the service manager: 1 if sent, 0 when
 * not started by one ($NOTIFY_SOCKET unset), -errno on failure.
 */
int notify_service_manager(const char *state);

#endif /* RAI_RESOLVED_NOTIFY_H */
