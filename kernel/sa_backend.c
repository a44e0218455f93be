// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdma_addrinfo: the SA backend of RESOLVE with RAI_SA.
 *
 * A request's flow: SubnAdmGetTable(ServiceRecord) by service ID (a fully
 * numeric service, decimal or 0x-hex) or by name; one AF_IB result per
 * record (up to max_results); then, unless RAI_NOROUTE, one
 * SubnAdmGet(PathRecord) per distinct destination GID for ai_route.  A
 * failed path query leaves that result without a route.
 *
 * Cancellation: req->backend_priv is the slot of the query in flight (one
 * at a time), holding a reference of its own, or RAI_SA_SLOT_CANCELLED
 * once the request is destroyed.  Whoever takes the query out of the slot
 * (the done callback, or cancel) puts that reference.  The flow (struct
 * rai_sa_flow, which holds a request reference) is ended exactly once: by
 * the done callback, by the issuer when a start fails, or by cancel when
 * rai_sa_abort() took the query back before done could run.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <rdma/ib.h>

#include "backend.h"
#include "charge.h"
#include "request.h"
#include "result.h"
#include "sa_client.h"
#include "sa_wire.h"

static char rai_sa_cancelled_mark;
#define RAI_SA_SLOT_CANCELLED ((void *)&rai_sa_cancelled_mark)

struct rai_sa_flow {
	struct rai_request *req;
	struct rai_sa_query *q;		/* the query in flight */
	struct rdma_addrinfo_result *results;
	u32 nr;
	u32 next;			/* result whose route is asked */
	u64 sid;
	bool by_id;
	bool have_src;
	u8 src_gid[16];
};

static void rai_sa_flow_done(void *ctx, int status, const void *records,
			     unsigned int nrec);

static void rai_sa_flow_end(struct rai_sa_flow *f, int status)
{
	struct rai_request *req = f->req;

	if (status) {
		rai_results_free(f->results);
		rai_request_complete(req, status, NULL, 0);
	} else {
		rai_request_complete(req, 0, f->results, f->nr);
	}
	kfree(f);
	rai_request_put(req);
}

/*
 * Start the next query of @f: the service query, or the path query of
 * result f->next.  @f may be gone when this returns.
 */
static void rai_sa_flow_issue(struct rai_sa_flow *f, bool service)
{
	struct rai_request *req = f->req;
	struct rdma_addrinfo_result *res = NULL;
	struct mem_cgroup *old_memcg;
	struct sockaddr_ib *sib;
	struct rai_sa_query *q;
	u8 dgid[16], src[16];
	bool have_src = f->have_src;
	u64 sid = f->sid;
	bool by_id = f->by_id;
	u16 pkey = 0;
	void *old;
	int ret;

	/* Everything needed from @f is read before the query is published. */
	if (!service) {
		res = &f->results[f->next];
		sib = (struct sockaddr_ib *)res->dst_addr;
		memcpy(dgid, &sib->sib_addr, sizeof(dgid));
		pkey = be16_to_cpu(sib->sib_pkey);
	}
	memcpy(src, f->src_gid, sizeof(src));

	/* Path queries are issued from the MAD handler: charge the caller. */
	old_memcg = rai_request_charge_begin(req);
	q = rai_sa_query_alloc(rai_sa_flow_done, f, RAI_GFP_CALLER);
	rai_request_charge_end(old_memcg);
	if (!q) {
		rai_sa_flow_end(f, -ENOMEM);
		return;
	}
	f->q = q;
	rai_request_get(req);		/* for the start below */
	rai_sa_query_get(q);		/* the slot's */
	old = cmpxchg(&req->backend_priv, NULL, q);
	if (old) {
		/* Destroyed meanwhile. */
		rai_sa_query_put(q);
		rai_sa_query_put(q);
		rai_sa_flow_end(f, -ECANCELED);
		goto out;
	}
	if (service)
		ret = rai_sa_start_service(q, req->file->net, req->ibdev_name,
					   req->port_num, sid, by_id,
					   req->sa.service, req->sa.service_len);
	else
		ret = rai_sa_start_path(q, req->file->net, req->ibdev_name,
					req->port_num, dgid,
					have_src ? src : NULL, pkey);
	if (ret && ret != -ECANCELED) {
		/* No done will come: take the slot back and end here. */
		if (cmpxchg(&req->backend_priv, q, NULL) == q)
			rai_sa_query_put(q);
		rai_sa_query_put(q);
		rai_sa_flow_end(f, ret);
		goto out;
	}
	/* -ECANCELED: cancel took it back and ends the flow. */
	rai_sa_query_put(q);
out:
	rai_request_put(req);
}

/* The next result still without a route; copies routes to the same GID. */
static bool rai_sa_flow_next_route(struct rai_sa_flow *f)
{
	u32 i;

	for (; f->next < f->nr; f->next++) {
		struct rdma_addrinfo_result *res = &f->results[f->next];

		for (i = 0; i < f->next; i++) {
			struct rdma_addrinfo_result *prev = &f->results[i];

			if (prev->route_len &&
			    !memcmp(prev->dst_addr, res->dst_addr,
				    offsetof(struct sockaddr_ib, sib_sid))) {
				memcpy(res->route, prev->route,
				       sizeof(res->route));
				res->route_len = prev->route_len;
				break;
			}
		}
		if (!res->route_len)
			return true;
	}
	return false;
}

static void rai_sa_flow_done(void *ctx, int status, const void *records,
			     unsigned int nrec)
{
	struct rai_sa_flow *f = ctx;
	struct rai_request *req = f->req;
	struct mem_cgroup *old_memcg;
	bool service = !f->results;
	const u8 *rec = records;
	u32 i, n;

	if (cmpxchg(&req->backend_priv, f->q, NULL) != f->q) {
		/* Destroyed: cancel waits for us, then puts the slot's. */
		rai_sa_flow_end(f, -ECANCELED);
		return;
	}
	rai_sa_query_put(f->q);		/* the slot's; still ours until we return */
	f->q = NULL;

	if (service) {
		if (status) {
			rai_sa_flow_end(f, status);
			return;
		}
		n = min_t(u32, nrec, max(rai_request_max_results(), 1U));
		/* The results are the caller's memory, as DNS results are. */
		old_memcg = rai_request_charge_begin(req);
		f->results = rai_results_alloc(req, n);
		rai_request_charge_end(old_memcg);
		if (!f->results) {
			rai_sa_flow_end(f, -ENOMEM);
			return;
		}
		f->nr = n;
		for (i = 0; i < n; i++)
			rai_result_fill_service_record(req, &f->results[i],
						       rec + i * RAI_SA_SR_LEN,
						       f->have_src ? f->src_gid : NULL);
		if (req->ai_flags & RDMA_ADDRINFO_RAI_NOROUTE) {
			rai_sa_flow_end(f, 0);
			return;
		}
	} else {
		struct rdma_addrinfo_result *res = &f->results[f->next];

		if (status == -ENODEV) {
			rai_sa_flow_end(f, status);
			return;
		}
		/* Without a path the result stays, without a route. */
		if (!status && nrec) {
			memcpy(res->route, rec, RAI_SA_PR_LEN);
			res->route_len = RAI_SA_PR_LEN;
		}
		f->next++;
	}
	if (!rai_sa_flow_next_route(f)) {
		rai_sa_flow_end(f, 0);
		return;
	}
	rai_sa_flow_issue(f, false);
}

static bool rai_sa_parse_sid(const char *s, u32 len, u64 *sid)
{
	u32 i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < len; i++)
			if (!isxdigit(s[i]))
				return false;
		return !kstrtou64(s + 2, 16, sid);
	}
	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return false;
	return len && !kstrtou64(s, 10, sid);
}

static void rai_sa_backend_start(struct rai_request *req)
{
	struct rai_sa_flow *f;

	f = kzalloc(sizeof(*f), RAI_GFP_CALLER);
	if (!f) {
		rai_request_complete(req, -ENOMEM, NULL, 0);
		return;
	}
	rai_request_get(req);
	f->req = req;
	f->by_id = rai_sa_parse_sid(req->sa.service, req->sa.service_len,
				    &f->sid);
	f->have_src = !rai_sa_local_gid(req->file->net, req->ibdev_name,
					req->port_num, f->src_gid);
	rai_sa_flow_issue(f, true);
}

/* The service string, RESOLVE's (names with RAI_SA: resolve.c). */
static void rai_sa_backend_init(struct rai_request *req,
				const struct rai_names *n)
{
	memcpy(req->sa.service, n->service, sizeof(req->sa.service));
	req->sa.service_len = n->service_len;
}

/* Process context, no locks held; may be called twice. */
static void rai_sa_backend_cancel(struct rai_request *req)
{
	struct rai_sa_query *q;
	struct rai_sa_flow *f;

	q = xchg(&req->backend_priv, RAI_SA_SLOT_CANCELLED);
	if (!q || q == RAI_SA_SLOT_CANCELLED)
		return;
	f = rai_sa_query_ctx(q);
	/* Waits for a done() that is running; true: none will run. */
	if (rai_sa_abort(q))
		rai_sa_flow_end(f, -ECANCELED);
	rai_sa_query_put(q);		/* the slot's */
}

const struct rai_backend_ops rai_sa_ops = {
	.name = "sa",
	.feature = RDMA_ADDRINFO_FEATURE_SA,
	.init = rai_sa_backend_init,
	.start = rai_sa_backend_start,
	.cancel = rai_sa_backend_cancel,
};
