// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_resolve_addrinfo() and rdma_query_addrinfo(): asynchronous requests
 * on the module fd of the id's event channel, with the id's binding as the
 * source; without the module, librdmacm's own calls where it has them
 * (rdma-core 60+).  And rdma_addrinfo_channel_fd() for poll loops that
 * cannot rely on the wake-ups of wake.c.
 *
 * Both calls are exported at librdmacm's version, RDMACM_1.4, which is what
 * binaries built against rdma-core 60+ ask for, and behave there as
 * rdma-core 60+'s do (one hand-over of the results, ENOENT); binaries
 * linked against this library before ask for RDMA_ADDRINFO_1.0 and keep
 * what the calls did then.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* RAI_SA with a node or with RAI_DNS: ENOTSUP for rdma-core 60+. */
static int rai_sa_unsupported(const char *node,
			      const struct rdma_addrinfo *hints)
{
	return hints && (hints->ai_flags & RAI_SA) &&
	       (node || (hints->ai_flags & RAI_DNS));
}

/*
 * Hints without node and service: they are the result, addresses as
 * given, as rdma_getaddrinfo() gives them (rdma-core 60+ asks it).
 */
static int rai_hints_alone(const char *node, const char *service,
			   const struct rdma_addrinfo *hints)
{
	return hints && !node && !service && !(hints->ai_flags & RAI_SA);
}

/*
 * @list as @id's results.  Their event comes through the module as every
 * other does, for pollers of its descriptor and in order with the others:
 * the request is one with nothing to look up (the IPv4 wildcard, numeric
 * and passive), whose own results are set aside.  @list is taken.
 */
static int rai_resolve_list(struct rdma_cm_id *id, struct rdma_addrinfo *list)
{
	const struct rdma_addrinfo wildcard = {
		.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST,
		.ai_family = AF_INET,
	};
	struct rai_request req;

	if (rai_build_request(&req, NULL, "0", &wildcard)) {
		rai_free_list(list);
		return ERR(EINVAL);
	}
	return rai_resolve_id(id, &req, list);
}

/* The hints as @id's results. */
static int rai_resolve_hints(struct rdma_cm_id *id,
			     const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo *list;

	if (rai_list_from_hints(hints, &list))
		return ERR(ENOMEM);
	return rai_resolve_list(id, list);
}

/*
 * A name for glibc that the module would take for a literal
 * (RAI_GLIBC_NAME): librdmacm looks it up now, in the caller's thread as
 * rdma-core 60+ looks up every name, and its results are @id's
 * (rai_resolve_list()).  A lookup that fails fails the call, errno as the
 * status of its event would be.
 */
static int rai_resolve_glibc_name(struct rdma_cm_id *id, const char *node,
				  const char *service,
				  const struct rdma_addrinfo *hints)
{
	struct rdma_addrinfo *list;
	int eai;

	if (!rai_wrappers_in_use())
		return ERR(EOPNOTSUPP);	/* its event could never be seen */
	eai = rai_real()->getaddrinfo(node, service, hints, &list);
	if (eai) {
		if (eai == -1 && errno < 0)	/* librdmacm's ERR(EAI_*) */
			eai = errno;
		return ERR(-rai_status_from_eai(eai, errno));
	}
	return rai_resolve_list(id, list);
}

/*
 * rdma_resolve_addrinfo() at either version; @as_60 for RDMACM_1.4's, which
 * follows rdma-core 60+ (rdma_resolve_addrinfo.3).
 */
static int rai_resolve_at_version(struct rdma_cm_id *id, const char *node,
				  const char *service,
				  const struct rdma_addrinfo *hints, int as_60)
{
	int saved_errno = errno;
	struct rai_request req;
	int ret;

	if (rai_native(id))
		return rai_real()->resolve_addrinfo(id, node, service, hints);
	if (!id || !id->channel)
		return ERR(EINVAL);
	if (as_60 && rai_sa_unsupported(node, hints))
		return ERR(EOPNOTSUPP);
	if (as_60 && rai_hints_alone(node, service, hints)) {
		if (!rai_wrappers_in_use())
			return ERR(EOPNOTSUPP);
		return rai_return(rai_resolve_hints(id, hints), saved_errno);
	}
	ret = rai_build_request(&req, node, service, hints);
	if (ret == RAI_GLIBC_NAME)
		return rai_return(rai_resolve_glibc_name(id, node, service,
							 hints), saved_errno);
	if (ret)
		return ERR(ret == EAI_SYSTEM ? errno : rai_errno_from_eai(ret));
	rai_request_bind_to_id(&req, id);
	req.as_60 = as_60;
	if ((req.cmd.ai_flags & RAI_SA) && !id->verbs)
		return ERR(EINVAL);	/* not bound to a port */
	if (!rai_wrappers_in_use())
		return ERR(EOPNOTSUPP);	/* its event could never be seen */

	return rai_return(rai_resolve_id(id, &req, NULL), saved_errno);
}

RAI_EXPORT int rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node,
				     const char *service,
				     const struct rdma_addrinfo *hints)
{
	return rai_resolve_at_version(id, node, service, hints, 1);
}

int rai_resolve_addrinfo_1_0(struct rdma_cm_id *id, const char *node,
			     const char *service,
			     const struct rdma_addrinfo *hints)
{
	return rai_resolve_at_version(id, node, service, hints, 0);
}

/* @st's results as a new list in *@info (registry locked).  Return: 0, -1. */
static int rai_results_list(struct rai_id *st, struct rdma_addrinfo **info)
{
	struct rai_shape shape = st->shape;
	int eai;

	if (st->list) {
		*info = st->list;
		st->list = NULL;
		return 0;
	}
	eai = rai_convert_results(st->results, st->num_results, st->canonname,
				  info);
	if (eai == EAI_MEMORY)
		errno = ENOMEM;
	if (eai)
		return -1;
	/*
	 * As rdma_getaddrinfo() gives them (shape.c); at RDMA_ADDRINFO_1.0
	 * the hints' QP type, RAI_PASSIVE and AF_IB alone, as then.
	 */
	if (!st->as_60) {
		shape.port_space = 0;
		shape.sa = 0;
		shape.no_node = 0;
		shape.src_len = 0;
	}
	if (rai_shape_list(info, &shape)) {
		rai_free_list(*info);
		*info = NULL;
		return ERR(ENOMEM);
	}
	return 0;
}

/*
 * At RDMACM_1.4, as rdma-core 60+: the list handed over once, an SA result
 * once its event is handed out, every failure ENOENT (registry locked).
 */
static int rai_hand_over(struct rai_id *st, struct rdma_addrinfo **info)
{
	if (st->handed_over || !st->completed || st->status ||
	    (st->sa && st->ready) || (!st->list && !st->num_results))
		return ERR(ENOENT);
	if (rai_results_list(st, info))
		return -1;
	st->handed_over = 1;
	return 0;
}

/*
 * librdmacm's outcome, carried by the request in flight (fallback.c):
 * handed over once, as any list (registry locked).
 */
static int rai_hand_over_carried(struct rai_id *st, struct rdma_addrinfo **info)
{
	if (st->handed_over || st->carried_status || !st->list)
		return ERR(ENOENT);
	*info = st->list;
	st->list = NULL;
	st->handed_over = 1;
	return 0;
}

/*
 * rdma-core 60+ resolves a name before rdma_resolve_addrinfo() returns,
 * and its programs may query at once: @id's request in flight is waited
 * for, and its results are taken from the module while its event stays
 * queued there, for the pollers of the module's descriptor and for
 * rdma_get_cm_event() (registry locked, dropped while waiting).
 */
static int rai_hand_over_early(struct rdma_cm_id *id,
			       struct rdma_addrinfo **info)
{
	const struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
	struct rai_id *st;

	for (;;) {
		st = rai_id_find(id);
		if (!st || !st->handle)
			return st ? rai_hand_over(st, info) : ERR(ENOENT);
		if (st->carried)
			return rai_hand_over_carried(st, info);
		/* librdmacm resolves it (fallback.c): busy until it has */
		if (st->fallback)
			errno = EBUSY;
		else if (!rai_fetch_results(st->ch->fd, st->handle,
					    &st->results, &st->num_results,
					    &st->canonname))
			break;
		if (errno != EBUSY)
			return ERR(ENOENT);
		rai_unlock();
		nanosleep(&pause, NULL);
		rai_lock();
	}
	if (!st->list && !st->num_results)
		return ERR(ENOENT);	/* it failed: its event says why */
	if (rai_results_list(st, info))
		return -1;
	st->handed_over = 1;
	return 0;
}

/*
 * At RDMA_ADDRINFO_1.0, as it was: a new copy at every query, EBUSY until
 * the event is handed out, the event's status as errno (registry locked).
 */
static int rai_copy_out(struct rai_id *st, struct rdma_addrinfo **info)
{
	if (st->handle || st->ready)
		return ERR(EBUSY);
	if (st->status)
		return ERR(-st->status);
	if (st->list)	/* librdmacm's (fallback.c) */
		return rai_copy_list(st->list, info) ? ERR(ENOMEM) : 0;
	if (!st->num_results)
		return ERR(ENODATA);
	return rai_results_list(st, info);
}

/* rdma_query_addrinfo() at either version; @as_60 for RDMACM_1.4's. */
static int rai_query_at_version(struct rdma_cm_id *id,
				struct rdma_addrinfo **info, int as_60)
{
	int saved_errno = errno, ret;
	struct rai_id *st;

	if (!id || !info)
		return ERR(EINVAL);
	rai_lock();
	st = rai_id_find(id);
	if (!st || (!st->handle && !st->completed && !st->handed_over)) {
		rai_unlock();
		if (rai_native(id))
			return rai_real()->query_addrinfo(id, info);
		return ERR(as_60 ? ENOENT : EINVAL);	/* nothing resolved */
	}
	if (!as_60)
		ret = rai_copy_out(st, info);
	else if (st->handle && !st->sa && !st->handed_over)
		ret = rai_hand_over_early(id, info);
	else
		ret = rai_hand_over(st, info);
	rai_unlock();
	return rai_return(ret, saved_errno);
}

RAI_EXPORT int rdma_query_addrinfo(struct rdma_cm_id *id,
				   struct rdma_addrinfo **info)
{
	return rai_query_at_version(id, info, 1);
}

int rai_query_addrinfo_1_0(struct rdma_cm_id *id, struct rdma_addrinfo **info)
{
	return rai_query_at_version(id, info, 0);
}

RAI_EXPORT_VERSIONS(rdma_resolve_addrinfo, RDMACM_1.4,
		    rai_resolve_addrinfo_1_0, RDMA_ADDRINFO_1.0);
RAI_EXPORT_VERSIONS(rdma_query_addrinfo, RDMACM_1.4,
		    rai_query_addrinfo_1_0, RDMA_ADDRINFO_1.0);

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
