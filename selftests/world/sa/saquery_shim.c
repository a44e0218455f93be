// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * saquery_shim.so: LD_PRELOAD shim that lets saquery(8) (and other
 * libibumad SA clients) talk to sa_responder over a RoCE port.
 *
 * On RoCE there is no SM: umad_get_port() reports sm_lid 0, which saquery
 * rejects, and every MAD must carry a GRH.  The shim
 *  - makes umad_get_port() report sm_lid 1 when it is 0, and
 *  - adds a GRH to every MAD sent with umad_send(): destination GID from
 *    $SA_SHIM_DGID (default fd00::2), source GID index from
 *    $SA_SHIM_SGID_INDEX (default 2), hop limit 64.
 *
 *   LD_PRELOAD=./saquery_shim.so saquery -C rxe0 -P 1 SR
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "world_env.h"

typedef int (*get_port_fn)(const char *, int, umad_port_t *);
typedef int (*send_fn)(int, int, void *, int, int, int);

int umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	get_port_fn real = (get_port_fn)dlsym(RTLD_NEXT, "umad_get_port");
	int ret;

	if (!real)
		return -1;
	ret = real(ca_name, portnum, port);
	if (ret >= 0 && port && !port->sm_lid)
		port->sm_lid = 1;
	return ret;
}

int umad_send(int portid, int agentid, void *umad, int length,
	      int timeout_ms, int retries)
{
	send_fn real = (send_fn)dlsym(RTLD_NEXT, "umad_send");
	const char *dgid = getenv("SA_SHIM_DGID");
	const char *idx = getenv("SA_SHIM_SGID_INDEX");
	ib_mad_addr_t *addr = umad_get_mad_addr(umad);

	if (!real)
		return -1;
	if (inet_pton(AF_INET6, dgid ? dgid : RAI_WORLD_IP6_B, addr->gid) != 1) {
		fprintf(stderr, "saquery_shim: bad SA_SHIM_DGID\n");
		return -1;
	}
	addr->grh_present = 1;
	addr->gid_index = idx ? atoi(idx) : 2;
	addr->hop_limit = 64;
	addr->traffic_class = 0;
	addr->flow_label = 0;
	return real(portid, agentid, umad, length, timeout_ms, retries);
}
