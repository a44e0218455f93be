// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The VM selftests' wrappers of the ioctls of /dev/infiniband/rdma_addrinfo,
 * their results and addresses.  See rai_ioctl.h.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "rai_ioctl.h"

/* ---- device and ioctls ------------------------------------------------ */

int rai_dev_open(int extra_flags)
{
	int fd = open(RAI_DEV_PATH, O_RDWR | O_CLOEXEC | extra_flags);

	return fd < 0 ? -errno : fd;
}

int rai_dev_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int rai_get_info(int fd, struct rdma_addrinfo_info *info)
{
	memset(info, 0, sizeof(*info));
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_GET_INFO, info);
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
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_RESOLVE, req);
}

int rai_resolve_sync_str(int fd, const char *node, const char *service,
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
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_QUERY, q);
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

int rai_lookup_req(int fd, struct rdma_addrinfo_resolve *req,
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

int rai_query_canonname(int fd, __u32 handle, char *name, size_t size)
{
	struct rdma_addrinfo_canonname c;
	struct rdma_addrinfo_query q;
	int ret;

	memset(&c, 0xa5, sizeof(c));
	memset(&q, 0, sizeof(q));
	q.handle = handle;
	q.result_size = sizeof(struct rdma_addrinfo_result);
	q.flags = RDMA_ADDRINFO_QUERY_CANONNAME;
	q.results = (uintptr_t)&c;
	ret = rai_query(fd, &q);
	if (ret)
		return ret;
	if (c.len > RDMA_ADDRINFO_NAME_MAX || c.reserved ||
	    c.name[c.len] || strlen(c.name) != c.len)
		return -EPROTO;
	snprintf(name, size, "%s", c.name);
	return (int)c.len;
}

int rai_lookup_canonname(int fd, const char *node, unsigned int family,
			 struct rdma_addrinfo_result *res, __u32 room,
			 __s32 *status, __u32 *n, char *name, size_t size,
			 __u32 *name_len)
{
	struct rdma_addrinfo_canonname *c;
	struct rdma_addrinfo_resolve req;
	char *buf;
	int ret;

	buf = malloc(room * sizeof(*res) + sizeof(*c));
	if (!buf)
		return -ENOMEM;
	memset(buf, 0xa5, room * sizeof(*res) + sizeof(*c));
	c = (void *)(buf + room * sizeof(*res));
	rai_req_init(&req, node, NULL, family, 0,
		     RDMA_ADDRINFO_RESOLVE_SYNC | RDMA_ADDRINFO_RESOLVE_RESULTS |
		     RDMA_ADDRINFO_RESOLVE_CANONNAME, (uintptr_t)buf);
	req.result_count = room;
	ret = rai_resolve(fd, &req);
	if (!ret) {
		*status = req.status;
		*n = req.num_results;
		memcpy(res, buf, (req.num_results < room ? req.num_results :
				  room) * sizeof(*res));
		if (c->len > RDMA_ADDRINFO_NAME_MAX || c->reserved ||
		    c->name[c->len] || strlen(c->name) != c->len)
			ret = -EPROTO;
		else
			snprintf(name, size, "%s", c->name);
		*name_len = c->len;
	}
	free(buf);
	return ret;
}

int rai_lookup_str(int fd, const char *node, const char *service,
		   unsigned int family, __u32 ai_flags,
		   struct rdma_addrinfo_result **res, __u32 *n, __s32 *status)
{
	struct rdma_addrinfo_resolve req;

	rai_req_init(&req, node, service, family, ai_flags, 0, 0);
	return rai_lookup_req(fd, &req, res, n, status);
}

int rai_destroy(int fd, __u32 handle, __u32 *events_dropped)
{
	struct rdma_addrinfo_destroy d;
	int ret;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	ret = rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_DESTROY, &d);
	if (!ret && events_dropped)
		*events_dropped = d.events_dropped;
	return ret;
}

int rai_dev_get_event(int fd, struct rdma_addrinfo_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	return rai_dev_ioctl(fd, RDMA_ADDRINFO_IOC_GET_EVENT, ev);
}

long long rai_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
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
		usleep(2000);	/* the pace of a look with a deadline */
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
		ret = rai_dev_get_event(fd, ev);
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
	ret = rai_resolve_sync_str(fd, "127.0.0.1", "7", AF_INET,
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

/* ---- lookup fixtures -------------------------------------------------- */

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
