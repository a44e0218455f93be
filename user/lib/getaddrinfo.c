// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_getaddrinfo() and rdma_freeaddrinfo(): one synchronous request on
 * the process-wide module fd, its results, then its destruction.
 */
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "convert.h"
#include "device.h"
#include "err.h"
#include "export.h"
#include "fallback.h"
#include "real.h"
#include "request.h"
#include "sync.h"

/*
 * librdmacm's private flag: its own rdma_resolve_route() asks its
 * rdma_getaddrinfo() for an IB ACM route with it.  Such calls are passed on.
 */
#define RAI_LIBRDMACM_ROUTEONLY	0x01000000

/*
 * The process-wide fd in the low 32 bits (-1: none), with a count of its
 * changes above them, so that a thread that saw an fd stale never forgets
 * one that another thread opened since on the same number.
 */
static uint64_t rai_sync = (uint32_t)-1;
/* The device number of the file the fd was opened on. */
static dev_t rai_sync_rdev;

#define RAI_SYNC_FD(v)		((int)(uint32_t)(v))
#define RAI_SYNC_NEXT(v, fd)	((((v) >> 32) + 1) << 32 | (uint32_t)(fd))

/*
 * Whether @fd is still the device file it was: a program may close every
 * descriptor it did not open itself (a daemon's start, closefrom()), and
 * the number may then be another file's, to which no ioctl may go.  One
 * fstat (~0.3 us natively): an ioctl to check would already go to that
 * file.  Another open file of the module's device passes, and serves as
 * well: a synchronous RESOLVE does not depend on how its file was opened.
 */
/*
 * fstat() without a path: glibc (2.33 on) makes fstat() an fstatat(fd, "",
 * AT_EMPTY_PATH), for which older kernels (6.1 among them) copy the empty
 * path into a fresh 4 KiB name buffer, zeroed where init_on_alloc is on
 * (Debian's): a tenth of a numeric call's time in make bench.  x86_64 has
 * the fstat system call, and its struct stat is glibc's.
 */
static int rai_fstat(int fd, struct stat *st)
{
#if defined(__x86_64__) && !defined(__ILP32__) && defined(SYS_fstat)
	return syscall(SYS_fstat, fd, st);
#else
	return fstat(fd, st);
#endif
}

static int rai_sync_fd_ours(int fd)
{
	struct stat st;

	return !rai_fstat(fd, &st) && S_ISCHR(st.st_mode) &&
	       st.st_rdev == __atomic_load_n(&rai_sync_rdev, __ATOMIC_RELAXED);
}

/*
 * The process-wide fd, opened on first use (and retried until it opens),
 * opened again when the one kept is no longer ours (never closed then:
 * its number is someone else's now).  Without a lock, so that a child of
 * fork() never waits for a thread of the parent that was opening it: of
 * two threads that open it at once, the first to store its fd keeps it
 * and the other closes its own.
 */
static int rai_get_sync_fd(void)
{
	uint64_t v = __atomic_load_n(&rai_sync, __ATOMIC_ACQUIRE);
	struct stat st;
	int fd = RAI_SYNC_FD(v);

	if (fd >= 0) {
		if (rai_sync_fd_ours(fd))
			return fd;
		/* Forgotten, unless another thread already replaced it. */
		if (__atomic_compare_exchange_n(&rai_sync, &v,
						RAI_SYNC_NEXT(v, -1), 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			v = RAI_SYNC_NEXT(v, -1);
		if (RAI_SYNC_FD(v) >= 0)
			return RAI_SYNC_FD(v);
	}
	fd = rai_open_device(0);
	if (fd < 0)
		return fd;
	if (rai_fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	__atomic_store_n(&rai_sync_rdev, st.st_rdev, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&rai_sync, &v, RAI_SYNC_NEXT(v, fd),
					    0, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE)) {
		if (RAI_SYNC_FD(v) >= 0) {
			/* Another thread stored one first. */
			close(fd);
			return RAI_SYNC_FD(v);
		}
	}
	return fd;
}

/*
 * librdmacm's failures are -1 (EAI_BADFLAGS) with errno set: so are ours.
 * The only ones: RAI_SA with a node or with RAI_DNS, EOPNOTSUPP as in
 * librdmacm 60+ (flags nobody knows are ignored).
 */
static int rai_badflags(void)
{
	errno = EOPNOTSUPP;
	return EAI_BADFLAGS;
}

/*
 * The module's answer, on its process-wide file @fd, in the form of
 * librdmacm's (shape.c).
 */
static int rai_module_getaddrinfo(int fd, const char *node,
				  const char *service,
				  const struct rdma_addrinfo *hints,
				  struct rdma_addrinfo **res)
{
	struct rai_request req;
	int ret;

	if (hints && !node && !service && !(hints->ai_flags & RAI_SA))
		return rai_list_from_hints(hints, res);

	ret = rai_build_request(&req, node, service, hints);
	if (ret == EAI_BADFLAGS)
		return rai_badflags();
	if (ret)
		return ret;
	if (req.cmd.ai_flags & RDMA_ADDRINFO_RAI_SA) {
		ret = req.cmd.ibdev_name[0] ?
		      rai_resolve_sync(fd, &req, res) :
		      rai_resolve_sync_sa_ports(fd, &req, res);
		/* no port's SA has the record: rdma-core 60+'s errno */
		if (ret == EAI_NONAME)
			errno = ENOENT;
	} else {
		ret = rai_resolve_sync(fd, &req, res);
	}
	if (ret)
		return ret;
	ret = rai_shape_list(res, &req.shape);
	if (ret) {
		rai_free_list(*res);
		*res = NULL;
	}
	return ret;
}

RAI_EXPORT int rdma_getaddrinfo(const char *node, const char *service,
				const struct rdma_addrinfo *hints,
				struct rdma_addrinfo **res)
{
	int saved_errno = errno;
	int fd, ret;

	if (!res) {
		errno = EINVAL;
		return EAI_SYSTEM;
	}
	if (hints && (hints->ai_flags & RAI_LIBRDMACM_ROUTEONLY))
		return rai_real()->getaddrinfo(node, service, hints, res);
	/*
	 * Without the module, exactly librdmacm's call (see device.c), errno
	 * included: the device that would not open is not the caller's.
	 */
	fd = rai_get_sync_fd();
	if (fd < 0) {
		if (!rai_user_space(errno))
			return EAI_SYSTEM;
		errno = saved_errno;
		return rai_real()->getaddrinfo(node, service, hints, res);
	}
	ret = rai_module_getaddrinfo(fd, node, service, hints, res);
	if (ret == RAI_VIEW_REFUSED) {
		/* A container's name: librdmacm's call, as without the module */
		rai_fallback_say();
		errno = saved_errno;
		return rai_real()->getaddrinfo(node, service, hints, res);
	}
	if (ret == RAI_GLIBC_NAME) {
		errno = saved_errno;
		return rai_real()->getaddrinfo(node, service, hints, res);
	}
	return rai_return(ret, saved_errno);
}

RAI_EXPORT void rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
	rai_free_list(res);
}
