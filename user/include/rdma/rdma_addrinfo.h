/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * <rdma/rdma_addrinfo.h>: in-kernel RDMA address resolution for the
 * librdmacm of the system (librdma_addrinfo, RDMA_ADDRINFO_1.0).
 *
 * Include this header instead of (or after) <rdma/rdma_cma.h> and link with
 * -lrdma_addrinfo ahead of -lrdmacm.  It adds what older librdmacm releases
 * lack: RAI_SA, RAI_DNS, the ADDRINFO events, rdma_resolve_addrinfo(),
 * rdma_query_addrinfo(), an exported rdma_get_local_addr() and the EAI_*
 * codes of rdma_getaddrinfo(3) that libc does not define.  Where a newer
 * <rdma/rdma_cma.h> already defines them, its definitions are used.
 */
#ifndef _RDMA_ADDRINFO_H
#define _RDMA_ADDRINFO_H

#include <netdb.h>
#include <infiniband/ib.h>

/*
 * librdmacm declares rdma_get_local_addr() as a static inline; this library
 * exports it as a real function.  If <rdma/rdma_cma.h> has not been seen
 * yet, its inline is renamed out of the way so that the declaration below
 * names the exported function.  Otherwise the inline (which does the same
 * thing) stays in use.
 */
/*
 * The same first inclusion also gives enum rdma_cm_event_type the values of
 * the ADDRINFO events (16 and 17) when it lacks them (librdmacm before 60),
 * so that a switch over it may name them under -Wswitch: two enumerators
 * of this library's after RDMA_CM_EVENT_TIMEWAIT_EXIT, then a third equal
 * to RDMA_CM_EVENT_TIMEWAIT_EXIT that puts the numbering back, so that a
 * newer enum continues with its own ADDRINFO events at 16 unchanged.
 * Include this header first (or alone) to switch over the ADDRINFO events;
 * after librdmacm 44's <rdma/rdma_cma.h> the enum can no longer grow.
 */
#ifndef RDMA_CMA_H
#define rdma_get_local_addr rdma_addrinfo_cma_inline_get_local_addr
#define RDMA_CM_EVENT_TIMEWAIT_EXIT RDMA_CM_EVENT_TIMEWAIT_EXIT,	\
	RDMA_ADDRINFO_CM_EVENT_RESOLVED = 16,				\
	RDMA_ADDRINFO_CM_EVENT_ERROR = 17,				\
	RDMA_ADDRINFO_CM_EVENT_RENUMBER = RDMA_CM_EVENT_TIMEWAIT_EXIT
#include <rdma/rdma_cma.h>
#undef RDMA_CM_EVENT_TIMEWAIT_EXIT
#undef rdma_get_local_addr
#else
#include <rdma/rdma_cma.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef RAI_SA
#define RAI_SA		0x00000010
#define RAI_DNS		0x00000020
/* Values of enum rdma_cm_event_type in librdmacm 60 and later. */
#define RDMA_CM_EVENT_ADDRINFO_RESOLVED	((enum rdma_cm_event_type)16)
#define RDMA_CM_EVENT_ADDRINFO_ERROR	((enum rdma_cm_event_type)17)
#endif

/*
 * rdma_getaddrinfo(3) error codes that glibc lacks.  The values lie outside
 * glibc's EAI_* range; rdma_addrinfo_strerror() knows them.
 */
#ifndef EAI_QPTYPE
#define EAI_QPTYPE	-1001	/* inconsistent ai_qp_type/ai_port_space */
#endif
#ifndef EAI_NODATA
#define EAI_NODATA	-5
#endif
#ifndef EAI_ADDRFAMILY
#define EAI_ADDRFAMILY	-9
#endif

/**
 * rdma_resolve_addrinfo - start an asynchronous rdma_getaddrinfo() for @id
 *
 * Returns 0 when the request started: exactly one
 * RDMA_CM_EVENT_ADDRINFO_RESOLVED or RDMA_CM_EVENT_ADDRINFO_ERROR event for
 * @id then arrives through rdma_get_cm_event(id->channel).  Returns -1 with
 * errno set when it did not start (no event follows).
 */
int rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node,
			  const char *service,
			  const struct rdma_addrinfo *hints);

/**
 * rdma_query_addrinfo - results of the last completed resolution of @id
 *
 * On success *@info is a list to free with rdma_freeaddrinfo(), handed over
 * once (then ENOENT), as rdma-core 60+ does; a DNS result can be queried as
 * soon as rdma_resolve_addrinfo() returned.
 */
int rdma_query_addrinfo(struct rdma_cm_id *id, struct rdma_addrinfo **info);

/** rdma_get_local_addr - the bound local address of @id (zeroes if unbound) */
struct sockaddr *rdma_get_local_addr(struct rdma_cm_id *id);

/**
 * rdma_addrinfo_channel_fd - the module file descriptor of @channel
 *
 * Add it to a poll set next to channel->fd: when either is readable,
 * rdma_get_cm_event(@channel) returns an event.  Opens the module file of
 * the channel if needed.  Returns -1 with errno set on failure.
 */
int rdma_addrinfo_channel_fd(struct rdma_event_channel *channel);

/**
 * rdma_addrinfo_status_eai - the EAI_* code rdma_getaddrinfo() would return
 * for the status of an RDMA_CM_EVENT_ADDRINFO_ERROR event (0 for 0); errno
 * is set when it is EAI_SYSTEM
 */
int rdma_addrinfo_status_eai(int status);

/** rdma_addrinfo_strerror - gai_strerror() that also knows EAI_QPTYPE */
const char *rdma_addrinfo_strerror(int eai);

#ifdef __cplusplus
}
#endif

#endif /* _RDMA_ADDRINFO_H */
