// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_resolve_addrinfo() and rdma_query_addrinfo(): asynchronous requests
 * on the module fd of the id's event channel, with the id's binding as the
 * source; without the module, librdmacm's own calls where it has them
 * (rdma-core 60+).  And rdma_addrinfo_channel_fd() for poll loops that
 * cannot rely on the wake-ups of wake.c.
 *
 * Both calls are exported at librdmacm's version, RDMACM_1.4, which is what
 * binaries built against rdma-core 60+ ask for, and at RDMA_ADDRINFO_1.0
 * for binaries linked against this library before.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "convert.h"
#include "device.h"
#include "err.h"
#include "export.h"
#include "id.h"
#include "real.h"
#include "registry.h"
#include "request.h"
#include "status.h"
#include "wake.h"

/* The id's binding: its local address, RDMA device and port. */
static void rai_request_bind_to_id(struct rai_request *req,
				   struct rdma_cm_id *id)
{
	const struct sockaddr *src = &id->route.addr.src_addr;
	socklen_t len = rai_family_socklen(src->sa_family);

	if (len) {
		memcpy(req->cmd.src_addr, src, len);
		req->cmd.src_len = len;
	}
	if (id->verbs) {
		strncpy(req->cmd.ibdev_name,
			ibv_get_device_name(id->verbs->device),
			sizeof(req->cmd.ibdev_name) - 1);
		req->cmd.port_num = id->port_num;
	}
}

/*
 * Whether @id's calls go to librdmacm's own implementation: it has one,
 * and the module is absent or speaks another ABI (and is not required).
 * errno is left as it was: then librdmacm's call is all the caller sees.
 */
static int rai_native(struct rdma_cm_id *id)
{
	struct rai_channel *ch;
	int saved_errno = errno, err;

	if (!rai_real()->resolve_addrinfo || !rai_real()->query_addrinfo ||
	    !id || !id->channel)
		return 0;
	rai_lock();
	ch = rai_channel_get(id->channel);
	err = errno;
	rai_unlock();
	errno = saved_errno;
	return !ch && rai_user_space(err);
}

RAI_EXPORT int rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node,
				     const char *service,
				     const struct rdma_addrinfo *hints)
{
	int saved_errno = errno;
	struct rai_request req;
	int ret;

	if (rai_native(id))
		return rai_real()->resolve_addrinfo(id, node, service, hints);
	if (!id || !id->channel)
		return ERR(EINVAL);
	ret = rai_build_request(&req, node, service, hints);
	if (ret)
		return ERR(ret == EAI_SYSTEM ? errno : rai_errno_from_eai(ret));
	rai_request_bind_to_id(&req, id);
	if ((req.cmd.ai_flags & RAI_SA) && !id->verbs)
		return ERR(EINVAL);	/* not bound to a port */
	if (!rai_wrappers_in_use())
		return ERR(EOPNOTSUPP);	/* its event could never be seen */

	return rai_return(rai_resolve_id(id, &req), saved_errno);
}

RAI_EXPORT int rdma_query_addrinfo(struct rdma_cm_id *id,
				   struct rdma_addrinfo **info)
{
	int saved_errno = errno, ret = -1, eai;
	struct rai_id *st;

	if (!id || !info)
		return ERR(EINVAL);
	rai_lock();
	st = rai_id_find(id);
	if (!st || (!st->handle && !st->completed)) {
		rai_unlock();
		if (rai_native(id))
			return rai_real()->query_addrinfo(id, info);
		return ERR(EINVAL);	/* nothing was resolved */
	}
	if (st->handle || st->ready) {
		errno = EBUSY;
	} else if (st->status) {
		errno = -st->status;
	} else if (!st->num_results) {
		errno = ENODATA;
	} else {
		eai = rai_convert_results(st->results, st->num_results, info);
		if (eai == EAI_MEMORY)
			errno = ENOMEM;
		ret = eai ? -1 : 0;
		/* The caller's QP type, as rdma_getaddrinfo() gives it. */
		if (!ret && st->qp_type)
			rai_set_qp_type(*info, st->qp_type);
		if (!ret)
			rai_set_passive(*info, st->passive);
	}
	rai_unlock();
	return rai_return(ret, saved_errno);
}

RAI_EXPORT_COMPAT(rdma_resolve_addrinfo, RDMACM_1.4, RDMA_ADDRINFO_1.0);
RAI_EXPORT_COMPAT(rdma_query_addrinfo, RDMACM_1.4, RDMA_ADDRINFO_1.0);

RAI_EXPORT int rdma_addrinfo_channel_fd(struct rdma_event_channel *channel)
{
	struct rai_channel *ch;
	int fd;

	if (!channel)
		return ERR(EINVAL);
	rai_lock();
	ch = rai_channel_get(channel);
	fd = ch ? ch->fd : -1;
	rai_unlock();
	return fd;
}
