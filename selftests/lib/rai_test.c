// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Shared helpers of the rdma_addrinfo VM selftests.  See rai_test.h.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <resolv.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rai_test.h"

/* ---- device and ioctls ------------------------------------------------ */

int rai_open(int extra_flags)
{
	int fd = open(RAI_DEV_PATH, O_RDWR | O_CLOEXEC | extra_flags);

	return fd < 0 ? -errno : fd;
}

int rai_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int rai_get_info(int fd, struct rdma_addrinfo_info *info)
{
	memset(info, 0, sizeof(*info));
	return rai_ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, info);
}

void rai_req_init(struct rdma_addrinfo_resolve *req, const char *node,
		  const char *service, unsigned int family, __u32 ai_flags,
		  __u32 flags, __u64 context)
{
	memset(req, 0, sizeof(*req));
	if (node) {
		req->node = (uintptr_t)node;
		req->node_len = strlen(node);
	}
	if (service) {
		req->service = (uintptr_t)service;
		req->service_len = strlen(service);
	}
	req->family = family;
	req->ai_flags = ai_flags;
	req->flags = flags;
	req->context = context;
}

int rai_resolve(int fd, struct rdma_addrinfo_resolve *req)
{
	return rai_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, req);
}

int rai_resolve_sync(int fd, const char *node, const char *service,
		     unsigned int family, __u32 ai_flags,
		     struct rdma_addrinfo_resolve *req)
{
	rai_req_init(req, node, service, family, ai_flags,
		     RDMA_ADDRINFO_RESOLVE_SYNC, 0);
	return rai_resolve(fd, req);
}

int rai_resolve_async(int fd, const char *node, const char *service,
		      unsigned int family, __u32 ai_flags, __u64 context,
		      __u32 *handle)
{
	struct rdma_addrinfo_resolve req;
	int ret;

	rai_req_init(&req, node, service, family, ai_flags, 0, context);
	ret = rai_resolve(fd, &req);
	if (!ret && handle)
		*handle = req.handle;
	return ret;
}

int rai_query(int fd, struct rdma_addrinfo_query *q)
{
	return rai_ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, q);
}

int rai_query_all(int fd, __u32 handle, struct rdma_addrinfo_result **res,
		  __u32 *n)
{
	struct rdma_addrinfo_query q;
	struct rdma_addrinfo_result *buf;
	int ret;

	*res = NULL;
	*n = 0;
	memset(&q, 0, sizeof(q));
	q.handle = handle;
	q.result_size = sizeof(struct rdma_addrinfo_result);
	ret = rai_query(fd, &q);
	if (ret)
		return ret;
	/* One spare entry: a module that copies more than count shows. */
	buf = calloc(q.total + 1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	q.results = (uintptr_t)buf;
	q.count = q.total;
	ret = rai_query(fd, &q);
	if (ret) {
		free(buf);
		return ret;
	}
	*res = buf;
	*n = q.copied;
	return 0;
}

int rai_lookup(int fd, struct rdma_addrinfo_resolve *req,
	       struct rdma_addrinfo_result **res, __u32 *n, __s32 *status)
{
	int ret;

	*res = NULL;
	*n = 0;
	*status = 0;
	req->flags |= RDMA_ADDRINFO_RESOLVE_SYNC;
	ret = rai_resolve(fd, req);
	if (ret)
		return ret;
	*status = req->status;
	ret = rai_query_all(fd, req->handle, res, n);
	if (!ret && *n != req->num_results)
		ret = -EPROTO;
	if (rai_destroy(fd, req->handle, NULL) && !ret)
		ret = -EPROTO;
	if (ret) {
		free(*res);
		*res = NULL;
		*n = 0;
	}
	return ret;
}

int rai_lookup_str(int fd, const char *node, const char *service,
		   unsigned int family, __u32 ai_flags,
		   struct rdma_addrinfo_result **res, __u32 *n, __s32 *status)
{
	struct rdma_addrinfo_resolve req;

	rai_req_init(&req, node, service, family, ai_flags, 0, 0);
	return rai_lookup(fd, &req, res, n, status);
}

int rai_destroy(int fd, __u32 handle, __u32 *events_dropped)
{
	struct rdma_addrinfo_destroy d;
	int ret;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	ret = rai_ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d);
	if (!ret && events_dropped)
		*events_dropped = d.events_dropped;
	return ret;
}

int rai_get_event(int fd, struct rdma_addrinfo_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	return rai_ioctl(fd, RDMA_ADDRINFO_IOC_GET_EVENT, ev);
}

int rai_wait_done(int fd, __u32 handle, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;
	struct rdma_addrinfo_query q;
	int ret;

	for (;;) {
		memset(&q, 0, sizeof(q));
		q.handle = handle;
		q.result_size = sizeof(struct rdma_addrinfo_result);
		ret = rai_query(fd, &q);
		if (ret != -EBUSY)
			return ret;
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(2000);
	}
}

bool rai_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

int rai_wait_event(int fd, struct rdma_addrinfo_event *ev, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long long end = rai_now_ms() + timeout_ms;
	int ret;

	for (;;) {
		long long left = end - rai_now_ms();

		if (left < 0)
			left = 0;
		ret = poll(&p, 1, (int)left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
		ret = rai_get_event(fd, ev);
		/* A blocking fd: GET_EVENT would block if raced; it is not. */
		if (ret != -EAGAIN)
			return ret;
		if (rai_now_ms() >= end)
			return -ETIMEDOUT;
	}
}

int rai_fd_works(int fd)
{
	struct rdma_addrinfo_info info;
	struct rdma_addrinfo_resolve req;
	struct rdma_addrinfo_result *res;
	struct sockaddr_in sin;
	__u32 n;
	int ret;

	ret = rai_get_info(fd, &info);
	if (ret)
		return ret;
	if (info.abi_version != RDMA_ADDRINFO_ABI_VERSION)
		return -EPROTO;
	ret = rai_resolve_sync(fd, "127.0.0.1", "7", AF_INET,
			       RDMA_ADDRINFO_RAI_NUMERICHOST, &req);
	if (ret)
		return ret;
	if (req.status) {
		rai_destroy(fd, req.handle, NULL);
		return req.status;
	}
	ret = rai_query_all(fd, req.handle, &res, &n);
	if (ret) {
		rai_destroy(fd, req.handle, NULL);
		return ret;
	}
	memcpy(&sin, res[0].dst_addr, sizeof(sin));
	if (n != 1 || res[0].family != AF_INET ||
	    sin.sin_family != AF_INET ||
	    sin.sin_addr.s_addr != htonl(INADDR_LOOPBACK) ||
	    sin.sin_port != htons(7))
		ret = -EPROTO;
	free(res);
	if (rai_destroy(fd, req.handle, NULL))
		return -EPROTO;
	return ret;
}

/* ---- addresses -------------------------------------------------------- */

unsigned int rai_addr_family(const void *addr, __u32 len)
{
	unsigned short fam;

	if (len < sizeof(fam))
		return AF_UNSPEC;
	memcpy(&fam, addr, sizeof(fam));
	return fam;
}

const char *rai_addr_ip(const void *addr, __u32 len, char *buf, size_t size)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	struct rai_sockaddr_ib sib;

	switch (rai_addr_family(addr, len)) {
	case AF_INET:
		if (len < sizeof(sin))
			break;
		memcpy(&sin, addr, sizeof(sin));
		return inet_ntop(AF_INET, &sin.sin_addr, buf, size);
	case AF_INET6:
		if (len < sizeof(sin6))
			break;
		memcpy(&sin6, addr, sizeof(sin6));
		return inet_ntop(AF_INET6, &sin6.sin6_addr, buf, size);
	case AF_IB:
		if (len < sizeof(sib))
			break;
		memcpy(&sib, addr, sizeof(sib));
		return inet_ntop(AF_INET6, sib.sib_addr, buf, size);
	}
	snprintf(buf, size, "?(family %u len %u)", rai_addr_family(addr, len),
		 len);
	return buf;
}

int rai_addr_port(const void *addr, __u32 len)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	switch (rai_addr_family(addr, len)) {
	case AF_INET:
		if (len < sizeof(sin))
			return -1;
		memcpy(&sin, addr, sizeof(sin));
		return ntohs(sin.sin_port);
	case AF_INET6:
		if (len < sizeof(sin6))
			return -1;
		memcpy(&sin6, addr, sizeof(sin6));
		return ntohs(sin6.sin6_port);
	}
	return -1;
}

const char *rai_fmt_addr(const void *addr, __u32 len, char *buf, size_t size)
{
	char ip[INET6_ADDRSTRLEN + 32];
	struct sockaddr_in6 sin6;
	struct rai_sockaddr_ib sib;

	if (!len) {
		snprintf(buf, size, "(none)");
		return buf;
	}
	rai_addr_ip(addr, len, ip, sizeof(ip));
	switch (rai_addr_family(addr, len)) {
	case AF_INET:
		snprintf(buf, size, "%s:%d", ip, rai_addr_port(addr, len));
		break;
	case AF_INET6:
		if (len < sizeof(sin6))
			break;
		memcpy(&sin6, addr, sizeof(sin6));
		snprintf(buf, size, "[%s%%%u]:%d", ip, sin6.sin6_scope_id,
			 rai_addr_port(addr, len));
		break;
	case AF_IB:
		if (len < sizeof(sib))
			break;
		memcpy(&sib, addr, sizeof(sib));
		snprintf(buf, size, "ib:%s sid 0x%016llx pkey 0x%04x", ip,
			 (unsigned long long)be64toh(sib.sib_sid),
			 ntohs(sib.sib_pkey));
		break;
	default:
		snprintf(buf, size, "%s", ip);
	}
	return buf;
}

int rai_count_dst(const struct rdma_addrinfo_result *res, __u32 n,
		  const char *ip)
{
	char buf[INET6_ADDRSTRLEN + 32];
	int count = 0;
	__u32 i;

	for (i = 0; i < n; i++) {
		rai_addr_ip(res[i].dst_addr, res[i].dst_len, buf, sizeof(buf));
		if (!strcmp(buf, ip))
			count++;
	}
	return count;
}

static bool zero_bytes(const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--)
		if (*c++)
			return false;
	return true;
}

static const char *addr_defect(const __u8 *addr, __u32 len, const char *what,
			       char *buf, size_t size)
{
	unsigned int fam = rai_addr_family(addr, len);
	struct sockaddr_in sin;
	__u32 want;

	if (len > RDMA_ADDRINFO_ADDR_SIZE) {
		snprintf(buf, size, "%s_len %u too big", what, len);
		return buf;
	}
	if (!zero_bytes(addr + len, RDMA_ADDRINFO_ADDR_SIZE - len)) {
		snprintf(buf, size, "%s: bytes past %s_len %u not zero", what,
			 what, len);
		return buf;
	}
	if (!len)
		return NULL;
	switch (fam) {
	case AF_INET:
		want = sizeof(struct sockaddr_in);
		break;
	case AF_INET6:
		want = sizeof(struct sockaddr_in6);
		break;
	case AF_IB:
		want = sizeof(struct rai_sockaddr_ib);
		break;
	default:
		snprintf(buf, size, "%s: family %u", what, fam);
		return buf;
	}
	if (len != want) {
		snprintf(buf, size, "%s: family %u with length %u", what, fam,
			 len);
		return buf;
	}
	if (fam == AF_INET) {
		memcpy(&sin, addr, sizeof(sin));
		if (!zero_bytes(sin.sin_zero, sizeof(sin.sin_zero))) {
			snprintf(buf, size, "%s: sin_zero not zero", what);
			return buf;
		}
	}
	return NULL;
}

const char *rai_result_defect(const struct rdma_addrinfo_result *r,
			      char *buf, size_t size)
{
	size_t nul;

	if (addr_defect(r->dst_addr, r->dst_len, "dst", buf, size) ||
	    addr_defect(r->src_addr, r->src_len, "src", buf, size))
		return buf;
	if (r->dst_len && rai_addr_family(r->dst_addr, r->dst_len) != r->family) {
		snprintf(buf, size, "family %u but dst family %u", r->family,
			 rai_addr_family(r->dst_addr, r->dst_len));
		return buf;
	}
	nul = strnlen(r->ibdev_name, sizeof(r->ibdev_name));
	if (nul == sizeof(r->ibdev_name) ||
	    !zero_bytes(r->ibdev_name + nul, sizeof(r->ibdev_name) - nul)) {
		snprintf(buf, size, "ibdev_name not NUL-padded");
		return buf;
	}
	if (!nul && r->port_num) {
		snprintf(buf, size, "port_num %u without a device", r->port_num);
		return buf;
	}
	if (r->reserved) {
		snprintf(buf, size, "reserved 0x%x", r->reserved);
		return buf;
	}
	if (r->origin < RDMA_ADDRINFO_ORIGIN_NUMERIC ||
	    r->origin > RDMA_ADDRINFO_ORIGIN_DNS_SINGLE) {
		snprintf(buf, size, "origin %u", r->origin);
		return buf;
	}
	if ((r->route_len && r->route_len != RDMA_ADDRINFO_PATH_RECORD_SIZE) ||
	    (!r->route_len && !zero_bytes(r->route, sizeof(r->route)))) {
		snprintf(buf, size, "route_len %u / route bytes", r->route_len);
		return buf;
	}
	if ((r->service_record_len &&
	     r->service_record_len != RDMA_ADDRINFO_SERVICE_RECORD_SIZE) ||
	    (!r->service_record_len &&
	     !zero_bytes(r->service_record, sizeof(r->service_record)))) {
		snprintf(buf, size, "service_record_len %u / record bytes",
			 r->service_record_len);
		return buf;
	}
	if (r->ai_flags & ~RDMA_ADDRINFO_RAI_PASSIVE) {
		snprintf(buf, size, "ai_flags 0x%x", r->ai_flags);
		return buf;
	}
	if (!r->src_len && !r->src_status && !(r->ai_flags & RDMA_ADDRINFO_RAI_PASSIVE)) {
		snprintf(buf, size, "no source and no src_status");
		return buf;
	}
	return NULL;
}

void rai_dump_results(const struct rdma_addrinfo_result *res, __u32 n)
{
	char dst[128], src[128];
	__u32 i;

	for (i = 0; i < n; i++) {
		fprintf(stderr,
			"#   [%u] fam %u origin %u flags 0x%x ps 0x%x qpt %u dst %s src %s dev '%.*s' port %u src_status %d ttl %u\n",
			i, res[i].family, res[i].origin, res[i].ai_flags,
			res[i].port_space, res[i].qp_type,
			rai_fmt_addr(res[i].dst_addr, res[i].dst_len, dst,
				     sizeof(dst)),
			rai_fmt_addr(res[i].src_addr, res[i].src_len, src,
				     sizeof(src)),
			(int)sizeof(res[i].ibdev_name), res[i].ibdev_name,
			res[i].port_num, res[i].src_status, res[i].ttl);
	}
}

unsigned int rai_lookup_release(int fd, struct rdma_addrinfo_result *res,
				__u32 n)
{
	unsigned int defects = 0;
	const char *defect;
	char why[128];
	__u32 i;

	if (res && n)
		rai_dump_results(res, n);
	for (i = 0; res && i < n; i++) {
		defect = rai_result_defect(&res[i], why, sizeof(why));
		if (defect) {
			fprintf(stderr, "# result %u: %s\n", i, defect);
			defects++;
		}
	}
	free(res);
	if (fd >= 0)
		close(fd);
	return defects;
}

int rai_hosts_add(char *line, size_t size, const char *ip, const char *name)
{
	snprintf(line, size, "%s\t%s", ip, name);
	return rai_sh("printf '%%s\\n' '%s' >> /etc/hosts", line);
}

void rai_hosts_remove(const char *line)
{
	if (line[0])
		rai_sh("grep -vxF '%s' /etc/hosts > /etc/hosts.rai && "
		       "cat /etc/hosts.rai > /etc/hosts && rm -f /etc/hosts.rai",
		       line);
}

/* ---- upcalls ---------------------------------------------------------- */

#define RK_CONF		"/etc/request-key.conf"
#define RK_SAVED	"/run/rai-test-request-key.conf.orig"
/* Our own helper's entry (selftests/vm/setup-world installs it). */
#define RK_D_CONF	RAI_HELPER_CONF
#define RK_D_SAVED	"/run/rai-test-request-key.d.conf.orig"
#define UPCALL_WRAPPER	"/run/rai-test-upcall-wrapper"
#define UPCALL_COUNTER	RAI_UPCALL_LOG
#define UPCALL_HOLD	"/run/rai-test-upcall-hold"
#define DNS_CMDLINE	"/run/rai-test-dnsmasq.cmdline"
#define UPCALL_NAME_HOLD "/run/rai-test-upcall-name-hold"

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t len = strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len) {
		int err = errno ? -errno : -EIO;

		close(fd);
		return err;
	}
	if (fchmod(fd, mode) < 0) {
		close(fd);
		return -errno;
	}
	return close(fd) ? -errno : 0;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/*
 * Route every dns_resolver line of request-key file @path through the
 * counting wrapper ("create dns_resolver DESC CALLOUT WRAPPER PROG ARGS"),
 * keeping the original in @saved.  A missing file is left alone.
 */
static int wrap_request_key_file(const char *path, const char *saved)
{
	char *conf, *line, *out, *p;
	char op[32], type[64], desc[128], callout[128];
	int ret, prog;

	conf = read_file(path);
	if (!conf)
		return errno == ENOENT ? 0 : -errno;
	if (strstr(conf, UPCALL_WRAPPER)) {
		free(conf);
		return 0;	/* already installed */
	}
	ret = write_file(saved, conf, 0644);
	if (ret) {
		free(conf);
		return ret;
	}
	out = malloc(strlen(conf) * 2 + 256);
	if (!out) {
		free(conf);
		return -ENOMEM;
	}
	p = out;
	for (line = strtok(conf, "\n"); line; line = strtok(NULL, "\n")) {
		prog = 0;
		if (sscanf(line, " %31s %63s %127s %127s %n", op, type, desc,
			   callout, &prog) == 4 && prog && !strcmp(op, "create") &&
		    !strcmp(type, "dns_resolver"))
			p += sprintf(p, "create dns_resolver %s %s %s %s\n", desc,
				     callout, UPCALL_WRAPPER, line + prog);
		else
			p += sprintf(p, "%s\n", line);
	}
	ret = write_file(path, out, 0644);
	free(out);
	free(conf);
	return ret;
}

static void unwrap_request_key_file(const char *path, const char *saved)
{
	char *text = read_file(saved);

	if (!text)
		return;
	if (!write_file(path, text, 0644))
		unlink(saved);
	free(text);
}

int rai_upcall_counter_install(void)
{
	static const char wrapper[] =
		"#!/bin/sh\n"
		"# rdma_addrinfo selftests: count dns_resolver upcalls.\n"
		"# Arguments: the request-key program and its own arguments.\n"
		"echo \"$1 $2\" >> " UPCALL_COUNTER "\n"
		"# Held while the hold file names a live process (the test).\n"
		"while { read -r pid < " UPCALL_HOLD "; } 2>/dev/null &&\n"
		"      kill -0 \"$pid\" 2>/dev/null; do\n"
		"	sleep 0.05\n"
		"done\n"
		"# Names containing the text of the name-hold file wait, without\n"
		"# polling, while the test holds its lock (rai_upcall_hold_names).\n"
		"# A batch's names are in the callout information, which the\n"
		"# authorisation key in our session keyring holds.\n"
		"if read -r pat < " UPCALL_NAME_HOLD " 2>/dev/null && [ -n \"$pat\" ]; then\n"
		"	names=$(keyctl rdescribe \"$2\" 2>/dev/null)\n"
		"	case \"$names\" in\n"
		"	*';rai:@'*) for a in $(keyctl show @s 2>/dev/null |\n"
		"			awk '/request_key_auth/ { print $1 }'); do\n"
		"		names=\"$names $(keyctl pipe \"$a\" 2>/dev/null)\"\n"
		"	done ;;\n"
		"	esac\n"
		"	case \"$names\" in\n"
		"	*\"$pat\"*) flock -s " UPCALL_NAME_HOLD " true ;;\n"
		"	esac\n"
		"fi\n"
		"exec \"$@\"\n";
	int ret;

	ret = write_file(UPCALL_WRAPPER, wrapper, 0755);
	if (ret)
		return ret;
	if (access(UPCALL_COUNTER, F_OK)) {
		ret = write_file(UPCALL_COUNTER, "", 0644);
		if (ret)
			return ret;
	}
	/* Both key.dns_resolver's line and our own helper's. */
	ret = wrap_request_key_file(RK_CONF, RK_SAVED);
	if (!ret)
		ret = wrap_request_key_file(RK_D_CONF, RK_D_SAVED);
	return ret;
}

void rai_upcall_counter_remove(void)
{
	rai_upcall_hold(false);
	rai_upcall_release_names();
	unwrap_request_key_file(RK_CONF, RK_SAVED);
	unwrap_request_key_file(RK_D_CONF, RK_D_SAVED);
}

long rai_upcall_count(void)
{
	char *text = read_file(UPCALL_COUNTER);
	long n = 0;
	char *p;

	if (!text)
		return -errno;
	for (p = text; *p; p++)
		if (*p == '\n')
			n++;
	free(text);
	return n;
}

int rai_upcall_hold(bool on)
{
	char pid[32];

	if (on) {
		snprintf(pid, sizeof(pid), "%d\n", getpid());
		return write_file(UPCALL_HOLD, pid, 0644);
	}
	if (unlink(UPCALL_HOLD) && errno != ENOENT)
		return -errno;
	return 0;
}

static int name_hold_fd = -1;

int rai_upcall_hold_names(const char *text)
{
	int fd;

	if (name_hold_fd >= 0)
		return -EBUSY;
	fd = open(UPCALL_NAME_HOLD, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX) || dprintf(fd, "%s\n", text) < 0) {
		int err = -errno;

		close(fd);
		unlink(UPCALL_NAME_HOLD);
		return err;
	}
	name_hold_fd = fd;
	return 0;
}

void rai_upcall_release_names(void)
{
	if (name_hold_fd < 0)
		return;
	/* New upcalls find no file; the waiting ones get the lock. */
	unlink(UPCALL_NAME_HOLD);
	close(name_hold_fd);
	name_hold_fd = -1;
}

int rai_upcall_wait_count(long target, int timeout_ms)
{
	long long end = rai_now_ms() + timeout_ms;

	while (rai_upcall_count() < target) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(20000);
	}
	return 0;
}

bool rai_dns_helper_active(void)
{
	char line[8] = "";
	FILE *f;

	f = fopen("/sys/module/" RAI_MODULE_NAME "/parameters/dns_helper", "re");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return line[0] == 'Y' && !access(RK_D_CONF, F_OK);
}

bool rai_dns_helper_ambiguous(char *version, size_t size)
{
	char line[256] = "", *p;
	unsigned int a = 0, b = 0, c = 0;
	FILE *f;

	/* Our own helper answers the module's keys: every status distinct. */
	if (rai_dns_helper_active()) {
		if (version)
			snprintf(version, size, "rdma-addrinfo-dns-helper");
		return false;
	}
	f = popen("/sbin/key.dns_resolver -V 2>&1", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		pclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	if (version)
		snprintf(version, size, "%s", line);
	p = strstr(line, "keyutils-");
	if (!p || sscanf(p, "keyutils-%u.%u.%u", &a, &b, &c) < 2)
		return false;
	return a < 1 || (a == 1 && (b < 6 || (b == 6 && c <= 3)));
}

const char *rai_unique_name(char *buf, size_t size, const char *tag)
{
	static unsigned int seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, "%s-%d-%u-%lx%lx.%s", tag, getpid(), ++seq,
		 (long)ts.tv_sec, ts.tv_nsec, RAI_DNS_ZONE);
	return buf;
}

/* ---- misc ------------------------------------------------------------- */

long long rai_stat(const char *name)
{
	char key[64];
	long long v, found = -1;
	FILE *f = fopen("/sys/kernel/debug/" RAI_MODULE_NAME "/stats", "re");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

int rai_param_get(const char *name, char *buf, size_t size)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 RAI_MODULE_NAME, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -EIO;
}

int rai_param_set(const char *name, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 RAI_MODULE_NAME, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

long long rai_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int rai_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = system(cmd);
	if (ret < 0 || !WIFEXITED(ret))
		return -1;
	return WEXITSTATUS(ret);
}

bool rai_module_loaded(void)
{
	return access("/sys/module/" RAI_MODULE_NAME, F_OK) == 0;
}

int rai_module_unload(void)
{
	if (syscall(SYS_delete_module, RAI_MODULE_NAME, O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

int rai_module_load(const char *params)
{
	char path[4096];
	long long end;
	int fd, ret;

	/* The runner names the module built for the booted kernel. */
	if (getenv("RAI_KO") && *getenv("RAI_KO"))
		snprintf(path, sizeof(path), "%s", getenv("RAI_KO"));
	else
		snprintf(path, sizeof(path), "%s/rdma_addrinfo.ko",
			 rai_env("RAI_REPO", "."));
	if (!params)
		params = rai_env("RAI_MODULE_PARAMS", "");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	/* devtmpfs creates the node asynchronously. */
	end = rai_now_ms() + 5000;
	while (access(RAI_DEV_PATH, F_OK)) {
		if (rai_now_ms() > end)
			return -ENODEV;
		usleep(10000);
	}
	return 0;
}

/* ---- DNS server ------------------------------------------------------- */

static pid_t dnsmasq_pid(void)
{
	char *text = read_file("/run/dnsmasq.pid");
	pid_t pid;

	if (!text)
		return -1;
	pid = atoi(text);
	free(text);
	if (pid <= 0 || kill(pid, 0))
		return -1;
	return pid;
}

int rai_dns_stop(void)
{
	char path[64], buf[8192];
	pid_t pid = dnsmasq_pid();
	long long end;
	ssize_t len;
	int fd, ret;

	if (pid < 0)
		return -ESRCH;
	/* Remember its command line (NUL-separated) to start it again. */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len <= 0)
		return -EIO;
	fd = open(DNS_CMDLINE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len) == len ? 0 : -EIO;
	close(fd);
	if (ret)
		return ret;
	if (kill(pid, SIGTERM))
		return -errno;
	end = rai_now_ms() + 5000;
	while (!kill(pid, 0)) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(10000);
	}
	unlink("/run/dnsmasq.pid");
	return 0;
}

int rai_dns_start(void)
{
	char buf[8192], *argv[128];
	long long end;
	ssize_t len;
	int fd, argc = 0, status;
	pid_t pid;
	char *p;

	if (dnsmasq_pid() > 0)
		return 0;
	fd = open(DNS_CMDLINE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -EIO;
	buf[len] = '\0';
	for (p = buf; p < buf + len && argc < 127; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	/* dnsmasq daemonizes: the parent exits once it listens. */
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	end = rai_now_ms() + 5000;
	while (dnsmasq_pid() < 0) {
		if (rai_now_ms() > end)
			return -ETIMEDOUT;
		usleep(10000);
	}
	return 0;
}

int rai_dns_server_answer(const char *name, int type)
{
	unsigned char buf[1024];

	if (res_query(name, ns_c_in, type, buf, sizeof(buf)) >= 0)
		return 0;
	return h_errno;
}

/* ---- other users ------------------------------------------------------ */

pid_t rai_fork_as(uid_t uid)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid)
		return pid;
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("rai_fork_as");
		_exit(127);
	}
	return 0;
}

long rai_key_user_keys(uid_t uid)
{
	unsigned int u, usage, nkeys, nikeys, qnkeys, maxkeys;
	char line[256];
	long ret = -ENOENT;
	FILE *f;

	f = fopen("/proc/key-users", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %u: %u %u/%u %u/%u", &u, &usage, &nkeys,
			   &nikeys, &qnkeys, &maxkeys) == 6 && u == uid) {
			ret = qnkeys;
			break;
		}
	}
	fclose(f);
	return ret;
}

