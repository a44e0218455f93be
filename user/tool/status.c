// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma-addrinfo --info and --stats: what the module says of itself
 * (GET_INFO) and of the caller's network namespace (GET_STATS), and what
 * of the DNS helper is installed.  Any user may run them: the device is
 * open to all, and neither needs debugfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <rdma/rdma_addrinfo_abi.h>

#include "status.h"

#define TOOL_DEVICE "/dev/" RDMA_ADDRINFO_DEVNAME
#define TOOL_REQUEST_KEY_CONF "/etc/request-key.d/rdma-addrinfo.conf"

static int tool_open_device(void)
{
	int fd = open(TOOL_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		fprintf(stderr, "rdma-addrinfo: %s: %s\n", TOOL_DEVICE,
			strerror(errno));
	return fd;
}

/* The program our request-key.d line calls, if that line is there. */
static int tool_helper_path(char *path, size_t size)
{
	char line[512], op[32], type[64], desc[64], callout[32];
	FILE *f = fopen(TOOL_REQUEST_KEY_CONF, "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char prog[256];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%31s %63s %63s %31s %255s", op, type, desc,
			   callout, prog) == 5 &&
		    !strcmp(type, "dns_resolver")) {
			snprintf(path, size, "%s", prog);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static const char *tool_key_dns_resolver(void)
{
	static const char *const paths[] = {
		"/sbin/key.dns_resolver", "/usr/sbin/key.dns_resolver",
	};
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/* The module's srcversion (out-of-tree modules have one), or "". */
static void tool_module_version(char *buf, size_t size)
{
	FILE *f = fopen("/sys/module/rdma_addrinfo/srcversion", "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static const struct {
	unsigned int bit;
	const char *name;
} tool_features[] = {
	{ RDMA_ADDRINFO_FEATURE_NUMERIC, "numeric" },
	{ RDMA_ADDRINFO_FEATURE_DNS, "dns" },
	{ RDMA_ADDRINFO_FEATURE_SA, "sa" },
	{ RDMA_ADDRINFO_FEATURE_SRC_SELECT, "src_select" },
	{ RDMA_ADDRINFO_FEATURE_RESOLVER, "resolver" },
	{ RDMA_ADDRINFO_FEATURE_CANONNAME, "canonname" },
	{ RDMA_ADDRINFO_FEATURE_STATS, "stats" },
};

static void tool_print_features(FILE *out, unsigned int features, int json)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < sizeof(tool_features) / sizeof(tool_features[0]); i++) {
		if (!(features & tool_features[i].bit))
			continue;
		fprintf(out, json ? "%s\"%s\"" : "%s%s", sep,
			tool_features[i].name);
		sep = json ? "," : " ";
	}
}

/* GET_STATS, or -1 (printed) when the module has none. */
static int tool_get_stats(int fd, struct rdma_addrinfo_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	if (ioctl(fd, RDMA_ADDRINFO_IOC_GET_STATS, st)) {
		fprintf(stderr, "rdma-addrinfo: GET_STATS: %s%s\n",
			strerror(errno),
			errno == ENOTTY ? " (a module older than --stats)" : "");
		return -1;
	}
	return 0;
}

int tool_info(FILE *out, int json)
{
	struct rdma_addrinfo_stats st;
	struct rdma_addrinfo_info info;
	char helper[256] = "", version[64];
	const char *key_dns;
	int fd, has_helper, helper_ok, resolvers = -1;

	fd = tool_open_device();
	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, &info)) {
		fprintf(stderr, "rdma-addrinfo: GET_INFO: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	if ((info.features & RDMA_ADDRINFO_FEATURE_STATS) &&
	    !tool_get_stats(fd, &st))
		resolvers = (int)st.resolvers;
	close(fd);
	tool_module_version(version, sizeof(version));
	has_helper = tool_helper_path(helper, sizeof(helper));
	helper_ok = has_helper && !access(helper, X_OK);
	key_dns = tool_key_dns_resolver();

	if (json) {
		fprintf(out, "{\"abi_version\":%u,\"module_srcversion\":\"%s\","
			"\"features\":[", info.abi_version, version);
		tool_print_features(out, info.features, 1);
		fprintf(out, "],\"ai_flags_supported\":%u,"
			"\"resolve_flags_supported\":%u,"
			"\"limits\":{\"max_name_len\":%u,\"max_service_len\":%u,"
			"\"max_results\":%u,\"max_requests_per_fd\":%u,"
			"\"max_requests_per_user\":%u,\"max_requests\":%u,"
			"\"max_upcalls\":%u,\"max_upcalls_per_user\":%u,"
			"\"sa_timeout_ms\":%u,\"sa_retries\":%u},"
			"\"own_requests\":%u,\"resolvers\":%d,"
			"\"dns_helper\":%s%s%s,\"dns_helper_installed\":%s,"
			"\"key_dns_resolver\":%s%s%s}\n",
			info.ai_flags_supported, info.resolve_flags_supported,
			info.max_name_len, info.max_service_len,
			info.max_results, info.max_requests_per_fd,
			info.max_requests_per_user, info.max_requests_total,
			info.max_upcalls, info.max_upcalls_per_user,
			info.sa_timeout_ms, info.sa_retries, info.requests,
			resolvers, has_helper ? "\"" : "",
			has_helper ? helper : "null", has_helper ? "\"" : "",
			helper_ok ? "true" : "false", key_dns ? "\"" : "",
			key_dns ? key_dns : "null", key_dns ? "\"" : "");
		return 0;
	}
	fprintf(out, "abi %u module %s\nfeatures ", info.abi_version,
		version[0] ? version : "-");
	tool_print_features(out, info.features, 0);
	fprintf(out, "\nlimits name %u service %u results %u requests-per-fd %u"
		" requests-per-user %u requests %u upcalls %u upcalls-per-user %u"
		"\nsa timeout-ms %u retries %u\n",
		info.max_name_len, info.max_service_len, info.max_results,
		info.max_requests_per_fd, info.max_requests_per_user,
		info.max_requests_total, info.max_upcalls,
		info.max_upcalls_per_user, info.sa_timeout_ms, info.sa_retries);
	if (resolvers < 0)
		fputs("resolver unknown\n", out);
	else
		fprintf(out, "resolver %s (%d in this network namespace)\n",
			resolvers ? "registered" : "none", resolvers);
	fprintf(out, "dns-helper %s%s%s\nkey.dns_resolver %s\n",
		has_helper ? helper : "not configured",
		has_helper && !helper_ok ? " (missing)" : "",
		has_helper ? "" : " (" TOOL_REQUEST_KEY_CONF ")",
		key_dns ? key_dns : "not installed");
	return 0;
}

int tool_stats(FILE *out, int json)
{
	struct rdma_addrinfo_stats st;
	int fd, ret;

	fd = tool_open_device();
	if (fd < 0)
		return -1;
	ret = tool_get_stats(fd, &st);
	close(fd);
	if (ret)
		return -1;
	fprintf(out, json ?
		"{\"resolvers\":%u,\"requests\":%llu,\"completed\":%llu,"
		"\"failed\":%llu,\"cancelled\":%llu,\"events_dropped\":%llu,"
		"\"numeric\":%llu}\n" :
		"resolvers %u\nrequests %llu\ncompleted %llu\nfailed %llu\n"
		"cancelled %llu\nevents_dropped %llu\nnumeric %llu\n",
		st.resolvers, (unsigned long long)st.requests,
		(unsigned long long)st.completed,
		(unsigned long long)st.failed,
		(unsigned long long)st.cancelled,
		(unsigned long long)st.events_dropped,
		(unsigned long long)st.numeric);
	return 0;
}
