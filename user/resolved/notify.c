// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* sd_notify(3)'s protocol, the part the resolver needs (notify.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "notify.h"

/* notify.h */
int notify_service_manager(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t len;
	ssize_t n;
	int fd, err;

	if (!path || !*path)
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sun.sun_path))
		return -EINVAL;
	memcpy(sun.sun_path, path, len);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';	/* abstract: no NUL after the name */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
		   (const struct sockaddr *)&sun,
		   offsetof(struct sockaddr_un, sun_path) + len +
		   (path[0] == '/'));
	err = n < 0 ? -errno : 1;
	close(fd);
	return err;
}
