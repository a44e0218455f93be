// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: RDMA_ADDRINFO_IOC_RESOLVE: validation, construction of
 * the request, choice of the backend, the synchronous wait.
 *
 * Everything the caller passed is copied in and checked before the request
 * is allocated, and a node is parsed as a literal once, there; a request
 * is published only when complete.
 */
#include <linux/ctype.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "addr.h"
#include "backend.h"
#include "charge.h"
#include "numeric.h"
#include "request.h"
#include "resolve.h"

u32 rai_backend_features(void)
{
	return rai_numeric_ops.feature | rai_dns_ops.feature |
	       rai_sa_ops.feature | RDMA_ADDRINFO_FEATURE_SRC_SELECT;
}

static bool rai_ps_valid(u16 ps)
{
	switch (ps) {
	case 0:
	case RDMA_ADDRINFO_PS_IPOIB:
	case RDMA_ADDRINFO_PS_IB:
	case RDMA_ADDRINFO_PS_TCP:
	case RDMA_ADDRINFO_PS_UDP:
		return true;
	}
	return false;
}

/* Check qp_type against port_space and fill in the defaults. */
static int rai_check_qp(struct rdma_addrinfo_resolve *r)
{
	u16 ps = r->port_space;
	u32 qpt = r->qp_type;

	if (!rai_ps_valid(ps))
		return -EINVAL;
	switch (qpt) {
	case 0:
		break;
	case RDMA_ADDRINFO_QPT_UD:
		if (ps && ps != RDMA_ADDRINFO_PS_UDP &&
		    ps != RDMA_ADDRINFO_PS_IPOIB && ps != RDMA_ADDRINFO_PS_IB)
			return -EINVAL;
		break;
	case RDMA_ADDRINFO_QPT_RC:
	case RDMA_ADDRINFO_QPT_UC:
		if (ps && ps != RDMA_ADDRINFO_PS_TCP &&
		    ps != RDMA_ADDRINFO_PS_IB)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	/*
	 * librdmacm's rule, for AF_IB as for IP: the port space of the
	 * service's protocol (TCP, or UDP for UD), whose SIDs a peer that
	 * resolves with librdmacm computes too.  SA service records are
	 * IB's own (librdmacm's RAI_SA results are PS_IB).
	 */
	if (!ps) {
		if (r->ai_flags & RDMA_ADDRINFO_RAI_SA)
			ps = RDMA_ADDRINFO_PS_IB;
		else if (qpt == RDMA_ADDRINFO_QPT_UD)
			ps = RDMA_ADDRINFO_PS_UDP;
		else
			ps = RDMA_ADDRINFO_PS_TCP;
	}
	if (!qpt)
		qpt = (ps == RDMA_ADDRINFO_PS_UDP ||
		       ps == RDMA_ADDRINFO_PS_IPOIB) ?
			RDMA_ADDRINFO_QPT_UD : RDMA_ADDRINFO_QPT_RC;
	r->port_space = ps;
	r->qp_type = qpt;
	return 0;
}

/* Everything that can be checked without touching user memory again. */
static int rai_check_resolve(struct rdma_addrinfo_resolve *r)
{
	u16 src_family;

	if (r->ai_flags & ~RAI_AI_FLAGS_SUPPORTED)
		return -EINVAL;
	if ((r->ai_flags & RDMA_ADDRINFO_RAI_SA) &&
	    (r->ai_flags & RDMA_ADDRINFO_RAI_DNS))
		return -EINVAL;
	if (r->flags & ~RAI_RESOLVE_FLAGS_SUPPORTED)
		return -EINVAL;
	/* An array to fill only where the call itself returns the results. */
	if (r->flags & RDMA_ADDRINFO_RESOLVE_RESULTS) {
		if (!(r->flags & RDMA_ADDRINFO_RESOLVE_SYNC))
			return -EINVAL;
	} else if (r->result_count ||
		   (r->flags & RDMA_ADDRINFO_RESOLVE_CANONNAME)) {
		return -EINVAL;
	}
	if (r->node_len > RDMA_ADDRINFO_NAME_MAX ||
	    r->service_len > RDMA_ADDRINFO_SERVICE_MAX)
		return -ENAMETOOLONG;
	if (!r->node != !r->node_len || !r->service != !r->service_len)
		return -EINVAL;
	switch (r->family) {
	case AF_UNSPEC:
	case AF_INET:
	case AF_INET6:
	case AF_IB:
		break;
	default:
		return -EINVAL;
	}
	if (r->src_len) {
		if (r->src_len > RDMA_ADDRINFO_ADDR_SIZE)
			return -EINVAL;
		memcpy(&src_family, r->src_addr, sizeof(src_family));
		if (!rai_sockaddr_len(src_family) ||
		    r->src_len < rai_sockaddr_len(src_family))
			return -EINVAL;
	}
	if (!memchr(r->ibdev_name, '\0', sizeof(r->ibdev_name)))
		return -EINVAL;
	if (r->ai_flags & RDMA_ADDRINFO_RAI_SA) {
		if (r->node || !r->service || !r->ibdev_name[0] ||
		    !r->port_num)
			return -EINVAL;
	} else if (!r->node && !r->service &&
		   !(r->ai_flags & RDMA_ADDRINFO_RAI_PASSIVE)) {
		return -EINVAL;
	}
	return rai_check_qp(r);
}

/*
 * Copy node and service in, before the request exists; the service of an
 * IP request is a port.  Everything goes to @n itself.
 */
static int rai_copy_names(struct rai_names *n,
			  const struct rdma_addrinfo_resolve *r)
{
	u32 i, port = 0;

	n->node = NULL;
	n->node_len = r->node_len;
	memset(n->service, 0, sizeof(n->service));
	n->service_len = r->service_len;
	n->port = 0;
	memset(&n->literal, 0, sizeof(n->literal));
	if (r->node) {
		if (copy_from_user(n->node_buf, u64_to_user_ptr(r->node),
				   r->node_len))
			return -EFAULT;
		n->node_buf[r->node_len] = '\0';
		if (memchr(n->node_buf, '\0', r->node_len))
			return -EINVAL;
		n->node = n->node_buf;
	}
	if (r->service) {
		if (copy_from_user(n->service, u64_to_user_ptr(r->service),
				   r->service_len))
			return -EFAULT;
		if (memchr(n->service, '\0', r->service_len))
			return -EINVAL;
		if (r->ai_flags & RDMA_ADDRINFO_RAI_SA)
			return 0;
		for (i = 0; i < r->service_len; i++) {
			if (!isdigit(n->service[i]))
				return -EINVAL;
			port = port * 10 + n->service[i] - '0';
			if (port > U16_MAX)
				return -EINVAL;
		}
		n->port = port;
	}
	return 0;
}

/*
 * The backend of a RESOLVE whose names are @n.  A node is parsed as a
 * literal here, once: the numeric backend takes the address from
 * @n->literal, passed on in the request.
 */
static const struct rai_backend_ops *
rai_choose_backend(struct rai_file *file,
		   const struct rdma_addrinfo_resolve *r, struct rai_names *n)
{
	if (r->ai_flags & RDMA_ADDRINFO_RAI_SA)
		return &rai_sa_ops;
	if (!n->node)
		return &rai_numeric_ops;
	if (!rai_numeric_parse_node(file->net, n->node, r->node_len,
				    r->family, r->ai_flags, &n->literal) ||
	    (r->ai_flags & RDMA_ADDRINFO_RAI_NUMERICHOST))
		return &rai_numeric_ops;
	return &rai_dns_ops;
}

/* The family results must have: requested, else that of the source. */
static u16 rai_resolve_family(const struct rdma_addrinfo_resolve *r)
{
	u16 src_family;

	if (r->family != AF_UNSPEC)
		return r->family;
	if (!r->src_len)
		return AF_UNSPEC;
	memcpy(&src_family, r->src_addr, sizeof(src_family));
	return src_family;
}

/*
 * The query of RESOLVE @r with names @n, for backend @ops, into @req (all
 * but its node, which the caller sets: @n's, or a copy).
 */
static void rai_resolve_fill(struct rai_request *req,
			     const struct rdma_addrinfo_resolve *r,
			     const struct rai_names *n,
			     const struct rai_backend_ops *ops)
{
	req->node_len = n->node_len;
	req->port = n->port;
	req->context = r->context;
	req->sync = r->flags & RDMA_ADDRINFO_RESOLVE_SYNC;
	req->ai_flags = r->ai_flags;
	req->family = r->family;
	req->result_family = rai_resolve_family(r);
	req->port_space = r->port_space;
	req->qp_type = r->qp_type;
	req->src_len = r->src_len;
	memcpy(req->src.bytes, r->src_addr, r->src_len);
	req->port_num = r->port_num;
	memcpy(req->ibdev_name, r->ibdev_name, sizeof(req->ibdev_name));
	req->backend = ops;
	if (ops->init)
		ops->init(req, n);
}

/* A request that outlives the stack, with its own copy of the node. */
static struct rai_request *rai_resolve_alloc(struct rai_file *file,
					     const struct rai_names *n)
{
	struct rai_request *req;
	char *node = NULL;

	if (n->node) {
		node = kmemdup(n->node, n->node_len + 1, RAI_GFP_CALLER);
		if (!node)
			return ERR_PTR(-ENOMEM);
	}
	req = rai_request_alloc(file);
	if (IS_ERR(req)) {
		kfree(node);
		return req;
	}
	req->node = node;
	return req;
}

/*
 * RESOLVE_RESULTS: @nr results of a completed request to r->context, and
 * with RESOLVE_CANONNAME its canonical name @canonname after the array.
 */
static int rai_resolve_copy_out(const struct rdma_addrinfo_resolve *r,
				const struct rdma_addrinfo_result *results,
				u32 nr, const char *canonname)
{
	u32 copied = min(nr, r->result_count);
	struct rdma_addrinfo_canonname *name;
	void __user *out = u64_to_user_ptr(r->context);
	int ret = 0;

	if (copied &&
	    copy_to_user(out, results, (size_t)copied * sizeof(*results)))
		return -EFAULT;
	if (!(r->flags & RDMA_ADDRINFO_RESOLVE_CANONNAME))
		return 0;
	name = kmalloc(sizeof(*name), RAI_GFP_CALLER);
	if (!name)
		return -ENOMEM;
	rai_canonname_out(name, canonname);
	if (copy_to_user(out + (size_t)r->result_count * sizeof(*results),
			 name, sizeof(*name)))
		ret = -EFAULT;
	kfree(name);
	return ret;
}

/*
 * RESOLVE_RESULTS: the results of the completed @req to r->context, then
 * the request destroyed (results stay ours through our reference).
 */
static int rai_resolve_results_out(struct rai_request *req,
				   struct rdma_addrinfo_resolve *r)
{
	struct rai_file *file = req->file;
	struct rdma_addrinfo_result *results;
	const char *canonname;
	int ret;

	spin_lock_irq(&file->lock);
	results = req->results;
	canonname = req->canonname;
	spin_unlock_irq(&file->lock);
	ret = rai_resolve_copy_out(r, results, r->num_results, canonname);
	rai_request_cancel(req);
	r->handle = 0;
	return ret;
}

/*
 * RESOLVE_RESULTS answered without waiting (a literal, a cached answer):
 * by a request on the stack that nobody else ever sees.  No handle, no
 * event, no wait; the per-file and per-user limits bound requests that
 * outlive their ioctl, which this one does not.  Names stay the caller's.
 *
 * Return: 1 answered (@r updated, results copied out); 0 not without
 * waiting: *@reqp is the request to start instead, allocated, with the
 * query filled here and what the backend decided (its carry()); -errno.
 */
static noinline_for_stack int
rai_resolve_now(struct rai_file *file, void __user *arg,
		struct rdma_addrinfo_resolve *r, const struct rai_names *n,
		const struct rai_backend_ops *ops, struct rai_request **reqp)
{
	struct rai_request req, *heap;
	int ret;

	memset(&req, 0, sizeof(req));
	req.file = file;
	req.on_stack = true;
	req.state = RAI_REQ_PENDING;
	req.started = jiffies;
	req.node = n->node;
	rai_resolve_fill(&req, r, n, ops);
	if (!ops->answer_now(&req)) {
		heap = rai_resolve_alloc(file, n);
		if (IS_ERR(heap)) {
			ret = PTR_ERR(heap);
			goto out_drop;
		}
		heap->query = req.query;
		heap->backend = ops;
		ops->carry(heap, &req);
		*reqp = heap;
		ret = 0;
		goto out_drop;
	}
	r->handle = 0;
	r->status = req.status;
	r->num_results = req.nr_results;
	ret = rai_resolve_copy_out(r, req.results, req.nr_results,
				   req.canonname);
	rai_results_free(req.results);
	kfree(req.canonname);
	if (!ret && copy_to_user(arg, r, sizeof(*r)))
		ret = -EFAULT;
	ret = ret ?: 1;
out_drop:
	if (ops->drop)
		ops->drop(&req);
	return ret;
}

/* Wait for a synchronous request; on a signal it is destroyed. */
static int rai_resolve_wait(struct rai_request *req,
			    struct rdma_addrinfo_resolve *r)
{
	struct rai_file *file = req->file;
	int ret = 0;

	if (wait_for_completion_interruptible(&req->done)) {
		rai_request_cancel(req);
		return -EINTR;
	}
	spin_lock_irq(&file->lock);
	if (req->state == RAI_REQ_DONE) {
		r->status = req->status;
		r->num_results = req->nr_results;
	} else {
		/* destroyed by handle from another thread */
		ret = -ENOENT;
	}
	spin_unlock_irq(&file->lock);
	return ret;
}

long rai_ioctl_resolve(struct rai_file *file, void __user *arg)
{
	const struct rai_backend_ops *ops;
	struct rdma_addrinfo_resolve r;
	struct rai_names names;
	struct rai_request *req;
	int ret;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	ret = rai_check_resolve(&r);
	if (ret)
		return ret;
	ret = rai_copy_names(&names, &r);
	if (ret)
		return ret;
	ops = rai_choose_backend(file, &r, &names);
	if (ops->check) {
		ret = ops->check(&names);
		if (ret)
			return ret;
	}

	if ((r.flags & RDMA_ADDRINFO_RESOLVE_RESULTS) && ops->answer_now) {
		ret = rai_resolve_now(file, arg, &r, &names, ops, &req);
		if (ret)
			return ret < 0 ? ret : 0;
	} else {
		/* The request outlives the stack: it keeps a copy of the node. */
		req = rai_resolve_alloc(file, &names);
		if (IS_ERR(req))
			return PTR_ERR(req);
		rai_resolve_fill(req, &r, &names, ops);
	}
	if (ops->prepare)
		ops->prepare(req);

	/* Our own reference: once published, it may be destroyed. */
	rai_request_get(req);
	/*
	 * RESOLVE_RESULTS gives the caller no handle: nothing to publish
	 * (rai_request_cancel() knows such a request by its handle 0).
	 */
	if (!(r.flags & RDMA_ADDRINFO_RESOLVE_RESULTS)) {
		ret = rai_request_publish(req);
		if (ret) {
			rai_request_abandon(req);
			return ret;
		}
	}

	r.handle = req->handle;
	r.status = 0;
	r.num_results = 0;
	/*
	 * The caller learns the handle of an asynchronous request before it
	 * starts: had the copy failed after an event could be queued, another
	 * thread might read that event for a handle nobody knows.
	 */
	if (!req->sync && copy_to_user(arg, &r, sizeof(r))) {
		rai_request_cancel(req);
		ret = -EFAULT;
		goto out_put;
	}
	rai_request_start(req);
	if (req->sync) {
		ret = rai_resolve_wait(req, &r);
		if (ret)
			goto out_put;
		if (r.flags & RDMA_ADDRINFO_RESOLVE_RESULTS) {
			ret = rai_resolve_results_out(req, &r);
			if (ret)
				goto out_put;
		}
		/*
		 * A synchronous request queues no event.  A RESULTS request
		 * was released above: this cancel is then a no-op.
		 */
		if (copy_to_user(arg, &r, sizeof(r))) {
			rai_request_cancel(req);
			ret = -EFAULT;
		}
	}
out_put:
	rai_request_put(req);
	return ret;
}
