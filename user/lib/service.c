// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Service strings: what RESOLVE gets in its service field.  DNS and numeric
 * requests take a decimal port, so service names are looked up here
 * (/etc/services, NSS); an SA request takes the service ID or name as is.
 */
#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rdma/rdma_addrinfo.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "service.h"

static int rai_is_decimal(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* The transport protocol whose port numbers a service name maps to. */
static const char *rai_service_proto(int qp_type, int port_space)
{
	if (port_space == RDMA_PS_UDP || port_space == RDMA_PS_IPOIB ||
	    (!port_space && qp_type == IBV_QPT_UD))
		return "udp";
	return "tcp";
}

/**
 * rai_map_service - the service bytes to pass to RESOLVE
 * @service: the caller's service string (not NULL)
 * @ai_flags: RAI_* flags of the request
 * @qp_type: hints' ai_qp_type (0 if none)
 * @port_space: hints' ai_port_space (0 if none)
 * @out: receives a NUL-terminated string of at most
 *	RDMA_ADDRINFO_SERVICE_MAX bytes
 * @out_size: size of @out
 *
 * Return: 0, or EAI_SERVICE for an unknown service name, a port out of
 * range or a string too long.
 */
int rai_map_service(const char *service, int ai_flags, int qp_type,
		    int port_space, char *out, size_t out_size)
{
	struct servent ent, *found = NULL;
	char buf[1024];
	size_t len = strlen(service);

	if (!len || len > RDMA_ADDRINFO_SERVICE_MAX || len >= out_size)
		return EAI_SERVICE;

	if ((ai_flags & RAI_SA) || rai_is_decimal(service)) {
		if (!(ai_flags & RAI_SA) &&
		    (len > 5 || strtoul(service, NULL, 10) > 65535))
			return EAI_SERVICE;
		memcpy(out, service, len + 1);
		return 0;
	}

	if (getservbyname_r(service, rai_service_proto(qp_type, port_space),
			    &ent, buf, sizeof(buf), &found) || !found)
		return EAI_SERVICE;
	snprintf(out, out_size, "%u", ntohs((unsigned short)found->s_port));
	return 0;
}
