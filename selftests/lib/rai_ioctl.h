/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The ioctl helpers of the rdma_addrinfo VM selftests: thin wrappers around
 * the ioctls of /dev/infiniband/rdma_addrinfo (every wrapper returns 0 or
 * a negative errno, never -1), checks of their results, socket address
 * helpers, and the lookup fixture macros.  What a test does to the world
 * around the module is in rai_world.h.
 */
#ifndef RAI_IOCTL_H
#define RAI_IOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/types.h>

#include <rdma/rdma_addrinfo_abi.h>

#define RAI_DEV_PATH		"/dev/" RDMA_ADDRINFO_DEVNAME

#ifndef AF_IB
#define AF_IB			27
#endif

/* struct sockaddr_ib of <rdma/ib.h>, 48 bytes. */
struct rai_sockaddr_ib {
	unsigned short sib_family;
	__be16 sib_pkey;
	__be32 sib_flowinfo;
	__u8 sib_addr[16];
	__be64 sib_sid;
	__be64 sib_sid_mask;
	__u64 sib_scope_id;
};

/* ---- device and ioctls ------------------------------------------------ */

/* open(RAI_DEV_PATH, O_RDWR | O_CLOEXEC | extra): fd or -errno. */
int rai_dev_open(int extra_flags);
/* ioctl(): 0 or -errno. */
int rai_dev_ioctl(int fd, unsigned long cmd, void *arg);
int rai_get_info(int fd, struct rdma_addrinfo_info *info);

/*
 * Fill a RESOLVE argument: node and service are C strings (NULL: absent),
 * their lengths are strlen().
 */
void rai_req_init(struct rdma_addrinfo_resolve *req, const char *node,
		  const char *service, unsigned int family, __u32 ai_flags,
		  __u32 flags, __u64 context);
int rai_resolve(int fd, struct rdma_addrinfo_resolve *req);

/*
 * Synchronous RESOLVE of node/service.  Returns the ioctl's result (0 or
 * -errno); on 0, *req holds handle, status and num_results.
 */
int rai_resolve_sync_str(int fd, const char *node, const char *service,
			 unsigned int family, __u32 ai_flags,
			 struct rdma_addrinfo_resolve *req);
/*
 * The whole synchronous round trip of a prepared request: RESOLVE with
 * RESOLVE_SYNC added, QUERY of all results into a fresh array (free() it),
 * DESTROY.  Returns the first ioctl error (-errno) or 0; on 0, *status is
 * the completion status and *res and *n the results (NULL/0 on failure).
 * -EPROTO when num_results and QUERY's total disagree.
 */
int rai_lookup_req(int fd, struct rdma_addrinfo_resolve *req,
		   struct rdma_addrinfo_result **res, __u32 *n, __s32 *status);
/* Same, from strings. */
int rai_lookup_str(int fd, const char *node, const char *service,
		   unsigned int family, __u32 ai_flags,
		   struct rdma_addrinfo_result **res, __u32 *n, __s32 *status);
/* Asynchronous RESOLVE; on 0, *handle is the new handle. */
int rai_resolve_async(int fd, const char *node, const char *service,
		      unsigned int family, __u32 ai_flags, __u64 context,
		      __u32 *handle);

/*
 * QUERY the results of a handle into a fresh array (free() it).  On 0,
 * *res holds *n results (total == copied checked by the caller if wanted).
 */
int rai_query_all(int fd, __u32 handle, struct rdma_addrinfo_result **res,
		  __u32 *n);
int rai_query(int fd, struct rdma_addrinfo_query *q);
/*
 * The canonical name of a completed request (QUERY_CANONNAME, no result
 * copied) into @name: its length (0: none) or -errno.
 */
int rai_query_canonname(int fd, __u32 handle, char *name, size_t size);
/*
 * One RESOLVE_SYNC|RESULTS|CANONNAME of @node into @room results at @res:
 * the ioctl's result; *status, *n and the canonical name (@name, its
 * length in *name_len) on 0.  The record after the results is filled with
 * 0xa5 first: a module that does not write it shows.
 */
int rai_lookup_canonname(int fd, const char *node, unsigned int family,
			 struct rdma_addrinfo_result *res, __u32 room,
			 __s32 *status, __u32 *n, char *name, size_t size,
			 __u32 *name_len);
int rai_destroy(int fd, __u32 handle, __u32 *events_dropped);
int rai_dev_get_event(int fd, struct rdma_addrinfo_event *ev);
/* Milliseconds of CLOCK_MONOTONIC. */
long long rai_now_ms(void);
/* poll() for POLLIN up to timeout_ms, then GET_EVENT: -ETIMEDOUT if none. */
int rai_wait_event(int fd, struct rdma_addrinfo_event *ev, int timeout_ms);
/* Wait until QUERY of handle stops saying EBUSY: 0, -ETIMEDOUT or -errno. */
int rai_wait_done(int fd, __u32 handle, int timeout_ms);
/* Is an event readable right now (poll with timeout 0)? */
bool rai_readable(int fd);

/*
 * The fd still works: GET_INFO succeeds and a synchronous numeric
 * RESOLVE of 127.0.0.1 resolves, queries and destroys.  0 or -errno
 * (-EPROTO for a wrong answer).
 */
int rai_fd_works(int fd);

/* ---- addresses -------------------------------------------------------- */

/* "192.0.2.1:80", "[fe80::1%2]:80", "ib:fe80::...(sid 0x...)"; never NULL. */
const char *rai_fmt_addr(const void *addr, __u32 len, char *buf, size_t size);
/* Address family stored at the head of a result address. */
unsigned int rai_addr_family(const void *addr, __u32 len);
/* inet_ntop of the IP (or GID) only, without port. */
const char *rai_addr_ip(const void *addr, __u32 len, char *buf, size_t size);
/* Port (host order) of an AF_INET/AF_INET6 address, -1 otherwise. */
int rai_addr_port(const void *addr, __u32 len);
/* Does the result list hold a destination with this IP text? */
int rai_count_dst(const struct rdma_addrinfo_result *res, __u32 n,
		  const char *ip);
/*
 * Nothing uninitialised or stray in a result: lengths match the address
 * families, bytes past every length and the NUL of ibdev_name are zero,
 * sin_zero and reserved are zero.  NULL when clean, else what is wrong
 * (in buf).
 */
const char *rai_result_defect(const struct rdma_addrinfo_result *r,
			      char *buf, size_t size);
/* Log every result to stderr (debug help). */
void rai_dump_results(const struct rdma_addrinfo_result *res, __u32 n);

/* ---- lookup fixtures ------------------------------------------------- */

/*
 * The end of a lookup fixture's teardown: log the results, check each with
 * rai_result_defect() (every defect logged), free them, close fd.  Returns
 * the number of defective results.
 */
unsigned int rai_lookup_release(int fd, struct rdma_addrinfo_result *res,
				__u32 n);

/*
 * For the test programs (they use kselftest_harness.h) whose fixture has
 * the members
 *	int fd;
 *	struct rdma_addrinfo_result *res;
 *	__u32 n;
 *	__s32 status;
 * RAI_LOOKUP() and RAI_LOOKUP_REQ() do a synchronous lookup into
 * self->res, n and status (the ioctls themselves must work: ASSERT);
 * RAI_LOOKUP_TEARDOWN() ends FIXTURE_TEARDOWN: results checked and freed,
 * fd closed.
 */
#define RAI_LOOKUP(node, svc, fam, flags) \
	ASSERT_EQ(0, rai_lookup_str(self->fd, node, svc, fam, flags, \
				    &self->res, &self->n, &self->status))

#define RAI_LOOKUP_REQ(req) \
	ASSERT_EQ(0, rai_lookup_req(self->fd, req, &self->res, &self->n, \
				    &self->status))

/* An ASSERT that ended the test leaves the harness's trigger set. */
#define RAI_LOOKUP_TEARDOWN() do { \
	_metadata->trigger = 0; \
	EXPECT_EQ(0, rai_lookup_release(self->fd, self->res, self->n)) \
		TH_LOG("defective results (listed above)"); \
} while (0)

/*
 * Wait up to timeout_ms for the event of the request h (context ctx): an
 * ERROR with status err and no results.
 */
#define RAI_EXPECT_ERROR_EVENT(fd, h, ctx, err, timeout_ms) do { \
	struct rdma_addrinfo_event _ev; \
	ASSERT_EQ(0, rai_wait_event(fd, &_ev, timeout_ms)); \
	EXPECT_EQ(ctx, _ev.context); \
	EXPECT_EQ(h, _ev.handle); \
	EXPECT_EQ(RDMA_ADDRINFO_EVENT_ERROR, _ev.event); \
	EXPECT_EQ(err, _ev.status); \
	EXPECT_EQ(0, _ev.num_results); \
} while (0)

#endif /* RAI_IOCTL_H */
