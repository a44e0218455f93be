/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: request objects, the per-file handle table and the
 * per-file event queue.
 */
#ifndef _RAI_REQUEST_H
#define _RAI_REQUEST_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <rdma/rdma_addrinfo_abi.h>

#include "addr.h"
#include "dns_state.h"

struct mem_cgroup;
struct net;
struct rai_backend_ops;
struct rai_request;
struct rai_user;

/**
 * struct rai_file - one open file of the device: an event channel
 * @handles: handle -> struct rai_request; the table holds one reference
 *	(RESOLVE_RESULTS requests are in no table: their ioctl holds it)
 * @lock: protects @events, @last_user and every request's @state and
 *	@event_queued
 * @events: completed asynchronous requests whose event is not yet read
 * @wait: readers and pollers of @events
 * @net: network namespace of the opener (DNS, routes)
 * @nr_requests: requests held by @handles
 * @next_handle: where the cyclic handle allocation goes on (a destroyed
 *	handle is not given out again until the 31-bit space wraps)
 * @anchor: an index of @handles reserved to keep the nodes of the current
 *	handles allocated (rai_request_publish()), or 0; under its xa_lock
 * @ref: the file itself and every request of it hold one
 * @last_user: the user of the last RESOLVE on the file (referenced), so
 *	that a user's struct rai_user is not made anew for every request
 * @dns: the DNS wing's (the resident resolver the file registered:
 *	kernel/dns_state.h)
 */
struct rai_file {
	struct xarray handles;
	u32 next_handle;
	u32 anchor;
	spinlock_t lock; /* events, request state */
	struct list_head events;
	wait_queue_head_t wait;
	struct net *net;
	atomic_t nr_requests;
	struct kref ref;
	struct rai_user *last_user;
	struct rai_dns_file dns;
};

enum rai_request_state {
	RAI_REQ_PENDING,	/* the backend owns the completion */
	RAI_REQ_DONE,		/* results and status are final */
	RAI_REQ_CANCELLED,	/* destroyed while pending: no event */
};

/**
 * struct rai_request - one RESOLVE
 * @ref: the handle table, the backend while working, and short-lived users
 * @file: owner (referenced)
 * @handle: key in @file->handles
 * @context: resolve.context, echoed in the event
 * @state: enum rai_request_state, under @file->lock
 * @sync: RESOLVE_SYNC: completion wakes @done instead of queueing an event
 * @on_stack: answered in the RESOLVE ioctl (rai_backend_ops.answer_now):
 *	not allocated, never published, nothing waits on @done
 * @event_queued: on @file->events (under @file->lock)
 * @delivering: its event was taken off @file->events by a reader that has
 *	not finished copying it out (under @file->lock)
 * @detached: released (rai_request_release(), under @file->lock): out of
 *	@file->handles, its event never reported again; a second release
 *	finds it set and does nothing
 * @event_entry: link in @file->events
 * @done: completed when the request leaves RAI_REQ_PENDING
 * @status: completion status, 0 or -errno
 * @results: the results (kvmalloc'ed), owned by the request once DONE
 * @nr_results: entries of @results
 * @results_charged: bytes of @results charged to @user->result_bytes
 * @canonname: the destination's canonical name (NUL-terminated), or NULL;
 *	set with @results, owned by the request once DONE
 * @backend: who resolves it
 * @work: for backends that resolve in process context
 * @timeout: for backends that bound the time a request may take
 * @started: jiffies at creation (tracing)
 * @node: the node name, NUL-terminated, or NULL (the request's own copy,
 *	or on the stack the ioctl's)
 * @query: what RESOLVE asked (the members up to @ibdev_name), set once
 *	when the request is made (rai_resolve_fill()); a RESOLVE_RESULTS
 *	request that answer_now could not answer is copied whole from the
 *	on-stack one
 * @node_len: its length
 * @port: decimal service as a port (IP backends)
 * @literal: the numeric backend's only (@literal, @dns and @sa share their
 *	memory: @backend says which one is live): the node parsed as an address
 *	literal when RESOLVE chose the backend; AF_UNSPEC: no node, or not a
 *	literal
 * @ai_flags: RDMA_ADDRINFO_RAI_*
 * @family: AF_* requested (AF_UNSPEC: any)
 * @result_family: the family results must have: @family, else that of
 *	@src, else AF_UNSPEC (rai_request_family(); set once, in RESOLVE)
 * @port_space: RDMA_ADDRINFO_PS_* of the results
 * @qp_type: RDMA_ADDRINFO_QPT_* of the results
 * @src_len: length of @src (0: none)
 * @port_num: resolve.port_num
 * @src: the caller's source address, if any
 * @ibdev_name: resolve.ibdev_name, NUL-terminated
 * @backend_priv: for the backend
 * @memcg: memory cgroup of the creator, charged for work done on its behalf
 *	in workers (rai_request_charge_begin/end)
 * @user: the user charged for the request (kernel/user.c), referenced
 * @dns: the DNS backend's only (its route, upcall slot and resident
 *	resolver's queue: kernel/dns_state.h)
 * @sa: the SA backend's only: the service string, NUL-terminated, or
 *	empty, and its length (other backends read the service as @port)
 */
struct rai_request {
	refcount_t ref;
	u32 handle;
	struct rai_file *file;
	enum rai_request_state state;
	int status;
	bool on_stack;
	bool event_queued;
	bool delivering;
	bool detached;
	struct list_head event_entry;
	struct completion done;
	struct rdma_addrinfo_result *results;
	long results_charged;
	u32 nr_results;
	char *canonname;
	const struct rai_backend_ops *backend;
	struct work_struct work;
	struct delayed_work timeout;
	unsigned long started;

	char *node;

	struct_group(query, /* RESOLVE's, filled once (rai_resolve_fill()) */
	u64 context;
	bool sync;
	u32 node_len;
	u32 ai_flags;
	u16 port;
	u16 family;
	u16 result_family;
	u16 port_space;
	u32 qp_type;
	u32 src_len;
	union {
		u8 bytes[RDMA_ADDRINFO_ADDR_SIZE];
		struct sockaddr sa;
	} src;
	u32 port_num;
	char ibdev_name[RDMA_ADDRINFO_IBDEV_NAME_SIZE];
	/* end of the query */
	);
	void *backend_priv;
	struct mem_cgroup *memcg;
	struct rai_user *user;
	/* What only its backend reads: @backend says which member is live. */
	union {
		union rai_sockaddr literal;
		struct rai_dns_request dns;
		struct {
			char service[RDMA_ADDRINFO_SERVICE_MAX + 1];
			u32 service_len;
		} sa;
	};
};

/* The request limits (module parameters) GET_INFO reports. */
void rai_request_info(struct rdma_addrinfo_info *info);
/* max_results: the results a request keeps at most (may be 0: clamp). */
unsigned int rai_request_max_results(void);

int rai_request_init(void);
void rai_request_exit(void);

struct rai_file *rai_file_create(void);
void rai_file_close(struct rai_file *file);

struct rai_request *rai_request_alloc(struct rai_file *file);
void rai_request_abandon(struct rai_request *req);
int rai_request_publish(struct rai_request *req);
void rai_request_start(struct rai_request *req);
struct rai_request *rai_request_lookup(struct rai_file *file, u32 handle);
int rai_request_destroy(struct rai_file *file, u32 handle, bool *dropped);
void rai_request_cancel(struct rai_request *req);
void rai_request_get(struct rai_request *req);
void rai_request_put(struct rai_request *req);
bool rai_request_cancelled(struct rai_request *req);
struct mem_cgroup *rai_request_charge_begin(struct rai_request *req);
void rai_request_charge_end(struct mem_cgroup *old);
bool rai_request_complete(struct rai_request *req, int status,
			  struct rdma_addrinfo_result *results, u32 nr);
bool rai_request_complete_named(struct rai_request *req, int status,
				struct rdma_addrinfo_result *results, u32 nr,
				char *canonname);

int rai_event_pop(struct rai_file *file, bool nonblock,
		  struct rdma_addrinfo_event *ev, struct rai_request **reqp);
void rai_event_unpop(struct rai_request *req);
bool rai_event_delivered(struct rai_request *req);
bool rai_events_pending(struct rai_file *file);

/* The family results must have: requested, else that of the source. */
static inline u16 rai_request_family(const struct rai_request *req)
{
	return req->result_family;
}

/* Whether @req accepts an IP address of family @family in its results. */
static inline bool rai_request_wants(const struct rai_request *req,
				     u16 family)
{
	u16 want = rai_request_family(req);

	return want == AF_UNSPEC || want == AF_IB || want == family;
}

struct rdma_addrinfo_result *rai_results_alloc(const struct rai_request *req,
					       u32 nr);
void rai_results_free(struct rdma_addrinfo_result *results);
char *rai_canonname_dup(const struct rai_request *req, const char *name);
void rai_canonname_out(struct rdma_addrinfo_canonname *out,
		       const char *name);

#endif /* _RAI_REQUEST_H */
