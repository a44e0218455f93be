// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo output: one line (or one JSON object) per result, with
 * family, destination, port or service ID, source, device and port.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <string.h>

#include "output.h"

/* Where a result's source address lives: RDMA device and port. */
struct tool_source_device {
	char name[64];		/* empty when unknown */
	unsigned int port;
};

static const char *tool_family_name(int family)
{
	switch (family) {
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_IB:
		return "ib";
	default:
		return "unknown";
	}
}

/* Numeric address of @sa into @buf; its port, or AF_IB service ID. */
static void tool_format_addr(const struct sockaddr *sa, char *buf, size_t size,
			     unsigned long long *port_or_sid)
{
	const struct sockaddr_in *sin = (const void *)sa;
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	const struct sockaddr_ib *sib = (const void *)sa;

	*port_or_sid = 0;
	strcpy(buf, "-");
	if (!sa)
		return;
	switch (sa->sa_family) {
	case AF_INET:
		inet_ntop(AF_INET, &sin->sin_addr, buf, size);
		*port_or_sid = ntohs(sin->sin_port);
		break;
	case AF_INET6:
		inet_ntop(AF_INET6, &sin6->sin6_addr, buf, size);
		*port_or_sid = ntohs(sin6->sin6_port);
		break;
	case AF_IB:
		inet_ntop(AF_INET6, &sib->sib_addr, buf, size);
		*port_or_sid = be64toh(sib->sib_sid);
		break;
	}
}

#define TOOL_GID_SCAN_MAX 256	/* GID table entries looked at per port */

/* The port whose GID table holds @gid. */
static int tool_ib_port_of_gid(struct ibv_context *ctx, const void *gid,
			       unsigned int *port)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr pattr;
	union ibv_gid g;
	int p, i;

	if (ibv_query_device(ctx, &attr))
		return 0;
	for (p = 1; p <= attr.phys_port_cnt; p++) {
		if (ibv_query_port(ctx, p, &pattr))
			continue;
		for (i = 0; i < pattr.gid_tbl_len && i < TOOL_GID_SCAN_MAX; i++)
			if (!ibv_query_gid(ctx, p, i, &g) &&
			    !memcmp(&g, gid, sizeof(g))) {
				*port = p;
				return 1;
			}
	}
	return 0;
}

/* The RDMA device and port of an AF_IB address: its GID's owner. */
static void tool_ib_source_device(const struct sockaddr_ib *sib,
				  struct tool_source_device *dev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	int i, found = 0;

	for (i = 0; list && list[i] && !found; i++) {
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		found = tool_ib_port_of_gid(ctx, &sib->sib_addr, &dev->port);
		if (found)
			snprintf(dev->name, sizeof(dev->name), "%s",
				 ibv_get_device_name(list[i]));
		ibv_close_device(ctx);
	}
	if (list)
		ibv_free_device_list(list);
}

/* The RDMA device and port an address is on: bind an id to it. */
static void tool_source_device(const struct sockaddr *src,
			       struct tool_source_device *dev)
{
	struct sockaddr_storage addr;
	struct rdma_cm_id *id;
	socklen_t len;

	dev->name[0] = '\0';
	dev->port = 0;
	if (src->sa_family == AF_IB) {
		tool_ib_source_device((const struct sockaddr_ib *)src, dev);
		return;
	}
	len = src->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
				       sizeof(struct sockaddr_in6);
	memset(&addr, 0, sizeof(addr));
	memcpy(&addr, src, len);
	if (src->sa_family == AF_INET)
		((struct sockaddr_in *)&addr)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&addr)->sin6_port = 0;

	if (rdma_create_id(NULL, &id, NULL, RDMA_PS_TCP))
		return;
	if (!rdma_bind_addr(id, (struct sockaddr *)&addr) && id->verbs) {
		snprintf(dev->name, sizeof(dev->name), "%s",
			 ibv_get_device_name(id->verbs->device));
		dev->port = id->port_num;
	}
	rdma_destroy_id(id);
}

/* @s as a JSON string (a host name: escaped all the same). */
static void tool_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/*
 * The canonical names (the first result's: the destination's, and the
 * local host's where a source was selected), as JSON members or words.
 */
static void tool_print_canonnames(FILE *out, const struct rdma_addrinfo *ai,
				  int json)
{
	if (json) {
		if (ai->ai_dst_canonname) {
			fputs("\"canonname\": ", out);
			tool_json_string(out, ai->ai_dst_canonname);
			fputs(", ", out);
		}
		if (ai->ai_src_canonname) {
			fputs("\"src_canonname\": ", out);
			tool_json_string(out, ai->ai_src_canonname);
			fputs(", ", out);
		}
		return;
	}
	if (ai->ai_dst_canonname)
		fprintf(out, " canonname %s", ai->ai_dst_canonname);
	if (ai->ai_src_canonname)
		fprintf(out, " src-canonname %s", ai->ai_src_canonname);
}

static void tool_print_one(FILE *out, const struct rdma_addrinfo *ai,
			   int json, int first)
{
	char dst[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN];
	unsigned long long dport, sport;
	struct tool_source_device dev = { .name = "" };
	const char *fam = tool_family_name(ai->ai_family);
	int ib = ai->ai_family == AF_IB;

	tool_format_addr(ai->ai_dst_len ? ai->ai_dst_addr : NULL, dst,
			 sizeof(dst), &dport);
	tool_format_addr(ai->ai_src_len ? ai->ai_src_addr : NULL, src,
			 sizeof(src), &sport);
	if (ai->ai_src_len)
		tool_source_device(ai->ai_src_addr, &dev);
	if (ai->ai_flags & RAI_PASSIVE)
		dport = sport;

	if (json) {
		fprintf(out, "%s\n  {\"family\": \"%s\", \"passive\": %s, ",
			first ? "" : ",", fam,
			ai->ai_flags & RAI_PASSIVE ? "true" : "false");
		if (ai->ai_dst_len)
			fprintf(out, "\"destination\": \"%s\", ", dst);
		if (ib)
			fprintf(out, "\"service_id\": \"0x%016llx\", ", dport);
		else
			fprintf(out, "\"port\": %llu, ", dport);
		if (ai->ai_src_len)
			fprintf(out, "\"source\": \"%s\", ", src);
		if (dev.name[0])
			fprintf(out, "\"device\": \"%s\", \"device_port\": %u, ",
				dev.name, dev.port);
		tool_print_canonnames(out, ai, 1);
		fprintf(out, "\"route\": %s}", ai->ai_route_len ? "true" : "false");
		return;
	}

	fprintf(out, "%-5s %s", fam,
		ai->ai_flags & RAI_PASSIVE ? "passive" : dst);
	if (ib)
		fprintf(out, " sid 0x%016llx", dport);
	else
		fprintf(out, " port %llu", dport);
	fprintf(out, " src %s", ai->ai_src_len ? src : "-");
	if (dev.name[0])
		fprintf(out, " dev %s port %u", dev.name, dev.port);
	else
		fprintf(out, " dev -");
	if (ai->ai_route_len)
		fprintf(out, " route");
	tool_print_canonnames(out, ai, 0);
	fputc('\n', out);
}

void tool_print_results(FILE *out, const struct rdma_addrinfo *list, int json)
{
	const struct rdma_addrinfo *ai;

	if (json)
		fputc('[', out);
	for (ai = list; ai; ai = ai->ai_next)
		tool_print_one(out, ai, json, ai == list);
	if (json)
		fputs(list ? "\n]\n" : "]\n", out);
}
