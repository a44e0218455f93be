// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_getaddrinfo(RAI_SA) has no rdma_cm_id to say which port's SA to
 * ask: ask on each active port in turn, skipping ports that have no SA
 * (rdma_getaddrinfo(3): "Non-Infiniband ports will be skipped").
 */
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "sync.h"

/* Errors that mean "this port has no SA to ask": try the next one. */
static int rai_port_has_no_sa(int eai, int err)
{
	return eai == EAI_FAMILY ||
	       (eai == EAI_SYSTEM &&
		(err == EHOSTUNREACH || err == ENODEV || err == EOPNOTSUPP));
}

static int rai_try_device(int fd, struct rai_request *req,
			  struct ibv_device *dev, struct rdma_addrinfo **res,
			  int *last_eai, int *last_err)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	struct ibv_context *ctx;
	uint8_t p;
	int ret;

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
		*last_eai = ret;
		*last_err = errno;
		if (!ret || !rai_port_has_no_sa(ret, *last_err)) {
			ibv_close_device(ctx);
			return 0;
		}
	}
	ibv_close_device(ctx);
	return -1;
}

/**
 * rai_resolve_sync_sa_ports - run an SA request on the first port that
 * has an SA
 *
 * Return: as rai_resolve_sync(); EAI_SYSTEM with errno ENODEV when no
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
