/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: the backend interface.  A backend (numeric, DNS, SA)
 * resolves a request (request.h); resolve.c chooses one for each RESOLVE.
 */
#ifndef _RAI_BACKEND_H
#define _RAI_BACKEND_H

#include <linux/types.h>

#include <rdma/rdma_addrinfo_abi.h>

#include "addr.h"

struct rai_request;

/**
 * struct rai_names - node and service of a RESOLVE, copied in
 *	(kernel/resolve.c), what a backend's @check and @init read
 * @node: the node name, NUL-terminated (@node_buf), or NULL
 * @node_len: its length
 * @node_buf: where the node is copied to: on the stack, so that a RESOLVE
 *	answered in the ioctl allocates nothing for it
 * @service: the service string, NUL-terminated, or empty
 * @service_len: its length
 * @port: the service as a port (IP requests)
 * @literal: the node parsed as an address literal when RESOLVE chose the
 *	backend; AF_UNSPEC: no node, or not a literal
 */
struct rai_names {
	char *node;
	u32 node_len;
	char node_buf[RDMA_ADDRINFO_NAME_MAX + 1];
	char service[RDMA_ADDRINFO_SERVICE_MAX + 1];
	u32 service_len;
	u16 port;
	union rai_sockaddr literal;
};

/**
 * struct rai_backend_ops - one way of resolving a request
 * @name: for messages and debugfs
 * @feature: RDMA_ADDRINFO_FEATURE_* bit it provides
 * @check: optional; 0 when the backend takes the names @n, else -errno
 *	(the RESOLVE fails with it): before anything is allocated
 * @init: optional; set up the backend's member of a new request (the one
 *	of its union @backend says is live) from @n, before the request is
 *	answered or published
 * @carry: with an @answer_now that may return false: a RESOLVE_RESULTS
 *	whose on-stack request @from was not answered goes on with @to,
 *	allocated, its query copied from @from; move the backend's member
 *	(with what it references) from @from into @to.  @from is dropped
 *	then, without @drop
 * @drop: optional; give back what the backend's member of @req still
 *	holds, the request done with: freed (kernel/request.c), or on the
 *	stack, answered or never carried.  Any context
 * @prepare: optional; called before the request is published, to set up
 *	what @cancel may touch (work items, timers)
 * @start: begin resolving @req.  Called once the request is published;
 *	must eventually call rai_request_complete() exactly once unless
 *	@cancel made that unnecessary (completing a cancelled request is
 *	harmless: the results are dropped).  May complete before returning.
 * @cancel: optional; called when a pending request is destroyed, after
 *	its state became RAI_REQ_CANCELLED, and again after @start if the
 *	request was destroyed while being started: it must be idempotent.
 *	Process context; it may not wait for the resolution; it must not
 *	free @req (the backend's own reference does that).
 * @answer_now: optional; for a RESOLVE that returns its results (SYNC and
 *	RESULTS): complete @req with rai_request_complete() at once if that
 *	needs no waiting (a literal, a cached answer) and return true; else
 *	do nothing the request started next must do again (@carry hands it
 *	on) and return false.  @req is on the ioctl's stack
 *	(rai_request.on_stack): no handle, no work item, no timer, never
 *	seen by another thread.  Process context, the caller's.
 */
struct rai_backend_ops {
	const char *name;
	u32 feature;
	int (*check)(const struct rai_names *n);
	void (*init)(struct rai_request *req, const struct rai_names *n);
	void (*carry)(struct rai_request *to, struct rai_request *from);
	void (*drop)(struct rai_request *req);
	void (*prepare)(struct rai_request *req);
	void (*start)(struct rai_request *req);
	void (*cancel)(struct rai_request *req);
	bool (*answer_now)(struct rai_request *req);
};

extern const struct rai_backend_ops rai_numeric_ops;
extern const struct rai_backend_ops rai_dns_ops;

/*
 * The SA backend (sa_backend.c, on the SA client of sa_client.h), there
 * from before the device is registered until after it is gone.  Its
 * start() receives a validated request: service set (service/service_len),
 * node NULL, ibdev_name and port_num set; results are AF_IB with origin
 * RDMA_ADDRINFO_ORIGIN_SA.
 */
extern const struct rai_backend_ops rai_sa_ops;

/* RDMA_ADDRINFO_FEATURE_* of GET_INFO: the backends' and source selection. */
u32 rai_backend_features(void);

#endif /* _RAI_BACKEND_H */
