// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_getaddrinfo() and rdma_freeaddrinfo(): one synchronous request on
 * the process-wide module fd, its results, then its destruction.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "convert.h"
#include "device.h"
#include "export.h"
#include "real.h"
#include "status.h"
#include "sync.h"

/*
 * librdmacm's private flag: its own rdma_resolve_route() asks its
 * rdma_getaddrinfo() for an IB ACM route with it.  Such calls are passed on.
 */
#define RAI_LIBRDMACM_ROUTEONLY	0x01000000

static pthread_mutex_t rai_sync_fd_lock = PTHREAD_MUTEX_INITIALIZER;
static int rai_sync_fd = -1;

/* The process-wide fd, opened on first use (and retried until it opens). */
static int rai_get_sync_fd(void)
{
	int fd;

	pthread_mutex_lock(&rai_sync_fd_lock);
	if (rai_sync_fd < 0)
		rai_sync_fd = rai_open_device(0);
	fd = rai_sync_fd;
	pthread_mutex_unlock(&rai_sync_fd_lock);
	return fd;
}

/**
 * rai_resolve_sync - run @req synchronously on @fd
 *
 * Return: 0 with the results in *@res, or an EAI_* code (errno set for
 * EAI_SYSTEM).  The kernel request is destroyed in every case.
 */
int rai_resolve_sync(int fd, struct rai_request *req,
		     struct rdma_addrinfo **res)
{
	struct rdma_addrinfo_result *results;
	unsigned int n;
	int ret;

	req->cmd.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
	do {
		req->cmd.handle = 0;
		ret = ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &req->cmd);
	} while (ret && errno == EINTR);	/* the request is gone: again */
	if (ret)
		return rai_eai_with_errno(-errno, req->ctx);

	if (req->cmd.status) {
		rai_destroy_request(fd, req->cmd.handle);
		return rai_eai_with_errno(req->cmd.status, req->ctx);
	}
	ret = rai_fetch_results(fd, req->cmd.handle, &results, &n);
	rai_destroy_request(fd, req->cmd.handle);
	if (ret)
		return rai_eai_with_errno(-errno, 0);
	if (!n)
		return EAI_NODATA;
	ret = rai_convert_results(results, n, res);
	free(results);
	return ret;
}

RAI_EXPORT int rdma_getaddrinfo(const char *node, const char *service,
				const struct rdma_addrinfo *hints,
				struct rdma_addrinfo **res)
{
	struct rai_request req;
	int fd, ret;

	if (!res) {
		errno = EINVAL;
		return EAI_SYSTEM;
	}
	if (hints && (hints->ai_flags & RAI_LIBRDMACM_ROUTEONLY))
		return rai_real()->getaddrinfo(node, service, hints, res);
	/* Without the module, exactly librdmacm's call (see device.c). */
	fd = rai_get_sync_fd();
	if (fd < 0)
		return rai_user_space(errno) ?
		       rai_real()->getaddrinfo(node, service, hints, res) :
		       EAI_SYSTEM;
	ret = rai_build_request(&req, node, service, hints);
	if (ret)
		return ret;

	if ((req.cmd.ai_flags & RDMA_ADDRINFO_RAI_SA) && !req.cmd.ibdev_name[0])
		return rai_resolve_sync_sa_ports(fd, &req, res);
	return rai_resolve_sync(fd, &req, res);
}

RAI_EXPORT void rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
	rai_free_list(res);
}
