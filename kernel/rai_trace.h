/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdma_addrinfo: tracepoints of the request lifecycle
 * (events/rdma_addrinfo/ in tracefs).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_addrinfo

#if !defined(_RAI_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RAI_TRACE_H

#include <linux/jiffies.h>
#include <linux/tracepoint.h>

#include "backend.h"
#include "compat.h"
#include "request.h"

TRACE_EVENT(rai_request_start,
	    TP_PROTO(const struct rai_request *req),
	    TP_ARGS(req),
	    TP_STRUCT__entry(__field(u32, handle)
			     __field(u32, ai_flags)
			     __field(u16, family)
			     __field(bool, sync)
			     __string(backend, req->backend->name)
			     __string(node, req->node ? req->node : "")),
	    TP_fast_assign(__entry->handle = req->handle;
			   __entry->ai_flags = req->ai_flags;
			   __entry->family = req->family;
			   __entry->sync = req->sync;
			   rai_assign_str(backend, req->backend->name);
			   rai_assign_str(node, req->node ? req->node : "");),
	    TP_printk("handle=%u backend=%s node=%s family=%u ai_flags=0x%x sync=%d",
		      __entry->handle, __get_str(backend), __get_str(node),
		      __entry->family, __entry->ai_flags, __entry->sync)
);

TRACE_EVENT(rai_request_complete,
	    TP_PROTO(const struct rai_request *req, int status, u32 nr,
		     bool recorded),
	    TP_ARGS(req, status, nr, recorded),
	    TP_STRUCT__entry(__field(u32, handle)
			     __field(int, status)
			     __field(u32, nr)
			     __field(u32, ms)
			     __field(bool, recorded)),
	    TP_fast_assign(__entry->handle = req->handle;
			   __entry->status = status;
			   __entry->nr = nr;
			   __entry->ms = jiffies_to_msecs(jiffies - req->started);
			   __entry->recorded = recorded;),
	    TP_printk("handle=%u status=%d results=%u after_ms=%u%s",
		      __entry->handle, __entry->status, __entry->nr,
		      __entry->ms,
		      __entry->recorded ? "" : " (dropped: not pending)")
);

TRACE_EVENT(rai_request_destroy,
	    TP_PROTO(const struct rai_request *req, bool was_pending,
		     bool event_dropped),
	    TP_ARGS(req, was_pending, event_dropped),
	    TP_STRUCT__entry(__field(u32, handle)
			     __field(bool, was_pending)
			     __field(bool, event_dropped)),
	    TP_fast_assign(__entry->handle = req->handle;
			   __entry->was_pending = was_pending;
			   __entry->event_dropped = event_dropped;),
	    TP_printk("handle=%u cancelled=%d event_dropped=%d",
		      __entry->handle, __entry->was_pending,
		      __entry->event_dropped)
);

TRACE_EVENT(rai_dns_query,
	    TP_PROTO(const struct rai_request *req, int ret, u64 duration_ns),
	    TP_ARGS(req, ret, duration_ns),
	    TP_STRUCT__entry(__field(u32, handle)
			     __field(int, ret)
			     __field(u64, duration_ns)
			     __string(node, req->node)),
	    TP_fast_assign(__entry->handle = req->handle;
			   __entry->ret = ret;
			   __entry->duration_ns = duration_ns;
			   rai_assign_str(node, req->node);),
	    TP_printk("handle=%u node=%s ret=%d duration_us=%llu",
		      __entry->handle, __get_str(node), __entry->ret,
		      __entry->duration_ns / 1000)
);

#endif /* _RAI_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rai_trace
#include <trace/define_trace.h>
