// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Synchronous requests: rai_resolve_sync() and its form for every SA port. */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <infiniband/verbs.h>

#include "convert.h"
#include "device.h"
#include "status.h"
#include "sync.h"

/*
 * The module writes the results array through a pointer in the ioctl's
 * argument, which valgrind cannot know: say so where its header exists.
 */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define RAI_MEM_WRITTEN(p, len)	VALGRIND_MAKE_MEM_DEFINED(p, len)
#endif
#endif
#ifndef RAI_MEM_WRITTEN
#define RAI_MEM_WRITTEN(p, len)	((void)(p), (void)(len))
#endif

/* rai_resolve_one_call() could not answer: the long way round. */
#define RAI_NOT_ONE_CALL	(-1)
/* Results room on the stack: most names have a few addresses. */
#define RAI_STACK_RESULTS	8

/*
 * The EAI_* code of a completed request's non-zero @status, or
 * RAI_VIEW_REFUSED when the module refused the name for the caller's view.
 */
static int rai_sync_status(int status, const struct rai_request *req)
{
	if (rai_view_refused(status, req->ctx))
		return RAI_VIEW_REFUSED;
	return rai_eai_with_errno(status, req->ctx);
}

/* A synchronous RESOLVE of @req->cmd: the ioctl's return, errno set. */
static int rai_resolve_ioctl(int fd, struct rai_request *req)
{
	int ret;

	do {
		req->cmd.handle = 0;
		ret = ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, &req->cmd);
	} while (ret && errno == EINTR);	/* the request is gone: again */
	return ret;
}

/*
 * One RESOLVE_SYNC|RESULTS into @room entries at @results: 0 or -errno.
 * When the module reports canonical names, @results has one entry more,
 * where the canonical name goes (RESOLVE_CANONNAME).
 */
static int rai_resolve_into(int fd, struct rai_request *req,
			    struct rdma_addrinfo_result *results,
			    unsigned int room)
{
	int ret;

	req->cmd.flags = RDMA_ADDRINFO_RESOLVE_SYNC |
			 RDMA_ADDRINFO_RESOLVE_RESULTS;
	if (rai_module_canonname())
		req->cmd.flags |= RDMA_ADDRINFO_RESOLVE_CANONNAME;
	req->cmd.context = (uintptr_t)results;
	req->cmd.result_count = room;
	ret = rai_resolve_ioctl(fd, req);
	req->cmd.context = 0;
	req->cmd.result_count = 0;
	return ret ? -errno : 0;
}

/*
 * The module's one-call form (RESOLVE_RESULTS): the results come back
 * with the RESOLVE and no request is left.  Into a buffer on the stack
 * first; a name with more results is asked again with room for
 * max_results.  Each buffer has an entry more than its room, for the
 * canonical name.  Return: as rai_resolve_sync(), or RAI_NOT_ONE_CALL when
 * the module lacks it or had more results than max_results said (the
 * parameter was raised since).
 */
static int rai_resolve_one_call(int fd, struct rai_request *req,
				struct rdma_addrinfo **res)
{
	struct rdma_addrinfo_result stack[RAI_STACK_RESULTS + 1];
	struct rdma_addrinfo_result *results = stack;
	char *canonname = NULL;
	unsigned int max = rai_sync_results_max();
	unsigned int room = max < RAI_STACK_RESULTS ? max : RAI_STACK_RESULTS;
	int ret;

	if (!max)
		return RAI_NOT_ONE_CALL;
	for (;;) {
		ret = rai_resolve_into(fd, req, results, room);
		if (ret || req->cmd.status || req->cmd.num_results <= room ||
		    req->cmd.num_results > max || results != stack)
			break;
		results = malloc(((size_t)max + 1) * sizeof(*results));
		if (!results)
			return EAI_MEMORY;
		room = max;
	}
	if (ret) {
		ret = rai_eai_with_errno(ret, req->ctx);
	} else if (req->cmd.status) {
		ret = rai_sync_status(req->cmd.status, req);
	} else if (req->cmd.num_results > room) {
		ret = RAI_NOT_ONE_CALL;
	} else if (!req->cmd.num_results) {
		ret = EAI_NODATA;
	} else {
		RAI_MEM_WRITTEN(results, (size_t)req->cmd.num_results *
					 sizeof(*results));
		if (req->cmd.flags & RDMA_ADDRINFO_RESOLVE_CANONNAME) {
			RAI_MEM_WRITTEN(&results[room],
					sizeof(struct rdma_addrinfo_canonname));
			canonname = rai_canonname_take((const void *)
						       &results[room]);
		}
		ret = rai_convert_results(results, req->cmd.num_results,
					  canonname, res);
	}
	free(canonname);
	if (results != stack)
		free(results);
	return ret;
}

/**
 * rai_resolve_sync - run @req synchronously on @fd
 *
 * Return: 0 with the results in *@res, an EAI_* code (errno set for
 * EAI_SYSTEM), or RAI_VIEW_REFUSED.  The kernel request is destroyed in
 * every case.
 */
int rai_resolve_sync(int fd, struct rai_request *req,
		     struct rdma_addrinfo **res)
{
	struct rdma_addrinfo_result *results;
	char *canonname;
	unsigned int n;
	int ret;

	ret = rai_resolve_one_call(fd, req, res);
	if (ret != RAI_NOT_ONE_CALL)
		return ret;
	req->cmd.flags = RDMA_ADDRINFO_RESOLVE_SYNC;
	ret = rai_resolve_ioctl(fd, req);
	if (ret)
		return rai_eai_with_errno(-errno, req->ctx);

	if (req->cmd.status) {
		rai_destroy_request(fd, req->cmd.handle);
		return rai_sync_status(req->cmd.status, req);
	}
	ret = rai_fetch_results(fd, req->cmd.handle, &results, &n, &canonname);
	rai_destroy_request(fd, req->cmd.handle);
	if (ret)
		return rai_eai_with_errno(-errno, 0);
	if (!n)
		return EAI_NODATA;
	ret = rai_convert_results(results, n, canonname, res);
	free(canonname);
	free(results);
	return ret;
}

/*
 * rdma_getaddrinfo(RAI_SA) has no rdma_cm_id to say which port's SA to
 * ask: ask on each active port in turn, skipping ports that have no SA
 * (rdma_getaddrinfo(3): "Non-Infiniband ports will be skipped").
 */

/* Errors that mean "this port has no SA to ask": try the next one. */
static int rai_port_has_no_sa(int eai, int err)
{
	return eai == EAI_FAMILY ||
	       (eai == EAI_SYSTEM &&
		(err == EHOSTUNREACH || err == ENODEV || err == EOPNOTSUPP));
}

/*
 * Errors after which the next port is asked too: no SA there, or its SA
 * had no record or failed (rdma-core 60+ tries the next port after any
 * failure on one; a dual-rail host's second subnet may have the record).
 * Not a local failure (memory, the module's own errors).
 */
static int rai_port_try_next(int eai, int err)
{
	return rai_port_has_no_sa(eai, err) || eai == EAI_NONAME ||
	       eai == EAI_FAIL || eai == EAI_AGAIN ||
	       (eai == EAI_SYSTEM && (err == ETIMEDOUT || err == EREMOTEIO ||
				      err == ENETUNREACH));
}

static int rai_try_device(int fd, struct rai_request *req,
			  struct ibv_device *dev, struct rdma_addrinfo **res,
			  int *last_eai, int *last_err)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	struct ibv_context *ctx;
	uint8_t p;
	int ret, err;

	ctx = ibv_open_device(dev);
	if (!ctx)
		return -1;
	if (ibv_query_device(ctx, &attr))
		attr.phys_port_cnt = 0;
	for (p = 1; p <= attr.phys_port_cnt; p++) {
		if (ibv_query_port(ctx, p, &port) ||
		    port.state != IBV_PORT_ACTIVE)
			continue;
		strncpy(req->cmd.ibdev_name, ibv_get_device_name(dev),
			sizeof(req->cmd.ibdev_name) - 1);
		req->cmd.port_num = p;
		ret = rai_resolve_sync(fd, req, res);
		err = errno;
		/* the first port's SA answer, over a later "no SA there" */
		if (!ret || !rai_port_has_no_sa(ret, err) ||
		    rai_port_has_no_sa(*last_eai, *last_err)) {
			*last_eai = ret;
			*last_err = err;
		}
		if (!ret || !rai_port_try_next(ret, err)) {
			ibv_close_device(ctx);
			return 0;
		}
	}
	ibv_close_device(ctx);
	return -1;
}

/**
 * rai_resolve_sync_sa_ports - run an SA request on each active port in
 * turn until one's SA answers with records
 *
 * Return: as rai_resolve_sync(); when no port answers, the first SA's
 * error (EAI_NONAME: no record), EAI_SYSTEM with errno ENODEV when no
 * active port exists, or the last "no SA" error when no port has one.
 */
int rai_resolve_sync_sa_ports(int fd, struct rai_request *req,
			      struct rdma_addrinfo **res)
{
	struct ibv_device **devs;
	int last_eai = EAI_SYSTEM, last_err = ENODEV;
	int i, n;

	devs = ibv_get_device_list(&n);
	if (!devs) {
		errno = ENODEV;
		return EAI_SYSTEM;
	}
	for (i = 0; i < n; i++)
		if (!rai_try_device(fd, req, devs[i], res, &last_eai,
				    &last_err))
			break;
	ibv_free_device_list(devs);
	if (last_eai == EAI_SYSTEM)
		errno = last_err;
	return last_eai;
}
