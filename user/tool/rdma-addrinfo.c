// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo: resolve a node and service the way an RDMA application
 * does (rdma_getaddrinfo, or rdma_resolve_addrinfo with --async) and print
 * every result.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_addrinfo.h>

#include "output.h"
#include "status.h"

struct tool_options {
	struct rdma_addrinfo hints;
	struct sockaddr_storage src;
	const char *node;
	const char *service;
	int async;
	int json;
	int info;
	int stats;
};

static void tool_usage(FILE *out)
{
	fputs("Usage: rdma-addrinfo [OPTIONS] NODE [SERVICE]\n"
	      "       rdma-addrinfo --sa [OPTIONS] SERVICE\n"
	      "       rdma-addrinfo --info | --stats [-j]\n"
	      "Resolve NODE and SERVICE to RDMA addresses, one line per result:\n"
	      "family, destination, port (or IB service ID), source address,\n"
	      "RDMA device and port.  NODE \"-\" means no node.\n"
	      "\n"
	      "  --sa               ask the InfiniBand SA (SERVICE is an ID or name)\n"
	      "  --dns              use DNS (the default)\n"
	      "  --passive          results for the listening side (RAI_PASSIVE)\n"
	      "  --family FAMILY    inet, inet6 or ib (RAI_FAMILY)\n"
	      "  --numeric          NODE is a numeric address (RAI_NUMERICHOST)\n"
	      "  --noroute          no route resolution (RAI_NOROUTE)\n"
	      "  --src ADDRESS      source address (the id is bound to it with --async)\n"
	      "  --async            rdma_resolve_addrinfo on an rdma_cm_id\n"
	      "  -4, -6             IPv4 or IPv6 only (--family inet, inet6)\n"
	      "  -n                 NODE is numeric: no DNS (--numeric)\n"
	      "  -j, --json         JSON output\n"
	      "  --info             the module: ABI, features, limits, the caller's\n"
	      "                     requests, resident resolver, DNS helper\n"
	      "  --stats            counters of the caller's network namespace\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "Exit status: 0 resolved, 1 resolution failed, 2 usage error.\n",
	      out);
}

static int tool_parse_family(const char *s)
{
	if (!strcmp(s, "inet"))
		return AF_INET;
	if (!strcmp(s, "inet6"))
		return AF_INET6;
	if (!strcmp(s, "ib"))
		return AF_IB;
	return -1;
}

static int tool_parse_src(const char *s, struct tool_options *o)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST };
	struct addrinfo *ai;

	if (getaddrinfo(s, NULL, &hints, &ai))
		return -1;
	memcpy(&o->src, ai->ai_addr, ai->ai_addrlen);
	o->hints.ai_src_addr = (struct sockaddr *)&o->src;
	o->hints.ai_src_len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static int tool_parse(int argc, char **argv, struct tool_options *o)
{
	enum { OPT_SA = 256, OPT_DNS, OPT_PASSIVE, OPT_FAMILY, OPT_NUMERIC,
	       OPT_NOROUTE, OPT_SRC, OPT_ASYNC, OPT_JSON, OPT_INFO,
	       OPT_STATS };
	static const struct option longopts[] = {
		{ "sa", no_argument, NULL, OPT_SA },
		{ "dns", no_argument, NULL, OPT_DNS },
		{ "passive", no_argument, NULL, OPT_PASSIVE },
		{ "family", required_argument, NULL, OPT_FAMILY },
		{ "numeric", no_argument, NULL, OPT_NUMERIC },
		{ "noroute", no_argument, NULL, OPT_NOROUTE },
		{ "src", required_argument, NULL, OPT_SRC },
		{ "async", no_argument, NULL, OPT_ASYNC },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, npos;

	while ((c = getopt_long(argc, argv, "46hjn", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SA:
			o->hints.ai_flags |= RAI_SA;
			break;
		case OPT_DNS:
			o->hints.ai_flags |= RAI_DNS;
			break;
		case OPT_PASSIVE:
			o->hints.ai_flags |= RAI_PASSIVE;
			break;
		case OPT_FAMILY:
			o->hints.ai_family = tool_parse_family(optarg);
			if (o->hints.ai_family < 0) {
				fprintf(stderr, "rdma-addrinfo: unknown family '%s' (inet, inet6, ib)\n",
					optarg);
				return -1;
			}
			o->hints.ai_flags |= RAI_FAMILY;
			break;
		case OPT_NUMERIC:
			o->hints.ai_flags |= RAI_NUMERICHOST;
			break;
		case OPT_NOROUTE:
			o->hints.ai_flags |= RAI_NOROUTE;
			break;
		case OPT_SRC:
			if (tool_parse_src(optarg, o)) {
				fprintf(stderr, "rdma-addrinfo: --src needs a numeric address, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case OPT_ASYNC:
			o->async = 1;
			break;
		case 'j':
		case OPT_JSON:
			o->json = 1;
			break;
		case '4':
		case '6':
			o->hints.ai_family = c == '4' ? AF_INET : AF_INET6;
			o->hints.ai_flags |= RAI_FAMILY;
			break;
		case 'n':
			o->hints.ai_flags |= RAI_NUMERICHOST;
			break;
		case OPT_INFO:
			o->info = 1;
			break;
		case OPT_STATS:
			o->stats = 1;
			break;
		case 'h':
			tool_usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}

	npos = argc - optind;
	if (o->info || o->stats) {
		if (npos || (o->info && o->stats)) {
			tool_usage(stderr);
			return -1;
		}
		return 0;
	}
	if ((o->hints.ai_flags & RAI_SA) && npos == 1) {
		o->service = argv[optind];
	} else if (npos == 1 || npos == 2) {
		o->node = argv[optind];
		o->service = npos == 2 ? argv[optind + 1] : NULL;
	} else {
		tool_usage(stderr);
		return -1;
	}
	/* "" is a node (glibc's EAI_NONAME), not the hints alone */
	if (o->node && !strcmp(o->node, "-"))
		o->node = NULL;
	if (o->hints.ai_family == AF_IB || (o->hints.ai_flags & RAI_SA))
		o->hints.ai_port_space = RDMA_PS_IB;
	return 0;
}

/* What a message is about: the node, else the service ("" shown so). */
static const char *tool_what(const struct tool_options *o)
{
	if (o->node)
		return o->node[0] ? o->node : "\"\"";
	return o->service ? o->service : "-";
}

static void tool_report_eai(const struct tool_options *o, int ret)
{
	const char *what = tool_what(o);

	/*
	 * librdmacm's failures are -1 with errno (no module and no RDMA
	 * device: ENODEV), which gai_strerror() would read as
	 * EAI_BADFLAGS; so are the library's RAI_SA refusals (EOPNOTSUPP).
	 */
	if (ret == EAI_SYSTEM || (ret == -1 && errno))
		fprintf(stderr, "rdma-addrinfo: %s: %s\n", what, strerror(errno));
	else
		fprintf(stderr, "rdma-addrinfo: %s: %s\n", what,
			rdma_addrinfo_strerror(ret));
}

static int tool_resolve_sync(const struct tool_options *o,
			     struct rdma_addrinfo **res)
{
	int ret;

	errno = 0;
	ret = rdma_getaddrinfo(o->node, o->service, &o->hints, res);

	if (ret)
		tool_report_eai(o, ret);
	return ret ? -1 : 0;
}

/* Wait for the id's ADDRINFO event; other events are acknowledged. */
static int tool_wait_addrinfo_event(struct rdma_event_channel *ch,
				    struct rdma_cm_id *id, int *status)
{
	struct rdma_cm_event *ev;
	int done = 0;

	while (!done) {
		if (rdma_get_cm_event(ch, &ev))
			return -1;
		if (ev->id == id &&
		    (ev->event == RDMA_CM_EVENT_ADDRINFO_RESOLVED ||
		     ev->event == RDMA_CM_EVENT_ADDRINFO_ERROR)) {
			*status = ev->status;
			done = 1;
		}
		rdma_ack_cm_event(ev);
	}
	return 0;
}

static int tool_resolve_async(const struct tool_options *o,
			      struct rdma_addrinfo **res)
{
	const char *what = tool_what(o);
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	int ret = -1, status = 0;

	ch = rdma_create_event_channel();
	if (!ch) {
		perror("rdma-addrinfo: rdma_create_event_channel");
		return -1;
	}
	if (rdma_create_id(ch, &id, NULL, o->hints.ai_port_space == RDMA_PS_IB ?
					  RDMA_PS_IB : RDMA_PS_TCP)) {
		perror("rdma-addrinfo: rdma_create_id");
		goto out_channel;
	}
	if (o->hints.ai_src_addr && rdma_bind_addr(id, o->hints.ai_src_addr)) {
		perror("rdma-addrinfo: rdma_bind_addr");
		goto out_id;
	}
	if (rdma_resolve_addrinfo(id, o->node, o->service, &o->hints)) {
		fprintf(stderr, "rdma-addrinfo: rdma_resolve_addrinfo: %s: %s%s\n",
			what, strerror(errno),
			errno == EINVAL && (o->hints.ai_flags & RAI_SA) &&
			!o->hints.ai_src_addr ?
			" (--sa --async needs --src to bind to a port)" : "");
		goto out_id;
	}
	if (tool_wait_addrinfo_event(ch, id, &status)) {
		perror("rdma-addrinfo: rdma_get_cm_event");
		goto out_id;
	}
	if (status) {
		tool_report_eai(o, rdma_addrinfo_status_eai(status));
		goto out_id;
	}
	if (rdma_query_addrinfo(id, res)) {
		perror("rdma-addrinfo: rdma_query_addrinfo");
		goto out_id;
	}
	ret = 0;
out_id:
	rdma_destroy_id(id);
out_channel:
	rdma_destroy_event_channel(ch);
	return ret;
}

int main(int argc, char **argv)
{
	struct tool_options o;
	struct rdma_addrinfo *res = NULL;
	int ret;

	memset(&o, 0, sizeof(o));
	if (tool_parse(argc, argv, &o))
		return 2;
	if (o.info || o.stats)
		return (o.info ? tool_info(stdout, o.json) :
				 tool_stats(stdout, o.json)) ? 1 : 0;
	ret = o.async ? tool_resolve_async(&o, &res) : tool_resolve_sync(&o, &res);
	if (ret)
		return 1;
	tool_print_results(stdout, res, o.json);
	rdma_freeaddrinfo(res);
	return 0;
}
