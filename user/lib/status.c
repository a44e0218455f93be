// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Errors: kernel statuses and ioctl errnos to the EAI_* codes of
 * rdma_getaddrinfo(3), EAI_* codes to errno for the -1/errno calls, and
 * their messages.
 */
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <rdma/rdma_addrinfo.h>

#include "export.h"
#include "status.h"

/**
 * rai_eai_from_status - EAI_* code of a completion status or ioctl error
 * @status: 0, or a negative errno (event status, RESOLVE status, or the
 *	negated errno of a failed ioctl)
 * @ctx: RAI_CTX_* facts about the request
 * @sys_errno: set to the errno that goes with EAI_SYSTEM (else untouched)
 *
 * Return: 0 or the EAI_* code rdma_getaddrinfo() returns.
 */
int rai_eai_from_status(int status, unsigned int ctx, int *sys_errno)
{
	switch (status) {
	case 0:
		return 0;
	case -ENXIO:		/* NXDOMAIN, no such SA record */
		return EAI_NONAME;
	case -ENODATA:		/* the name has no address at all */
		return EAI_NODATA;
	case -EADDRNOTAVAIL:	/* addresses, none of the family asked */
		/* glibc's: a name is known, a literal is of another family */
		return ctx & RAI_CTX_NAME ? EAI_NODATA : EAI_ADDRFAMILY;
	case -EAFNOSUPPORT:
		return EAI_FAMILY;
	case -EAGAIN:		/* temporary resolver failure */
	case -ETIMEDOUT:	/* resolver or SA did not answer */
		return EAI_AGAIN;
	case -EPROTO:		/* malformed SA reply */
	case -EREMOTEIO:	/* SA error status */
		return EAI_FAIL;
	case -ENOMEM:
	case -ENOBUFS:		/* the user's results memory is spent */
		return EAI_MEMORY;
	case -EINVAL:
		/*
		 * A node that is neither a literal nor a host name ("my
		 * host", "[fe80::1]"): glibc's EAI_NONAME, as librdmacm says,
		 * whatever the hints.  EAI_QPTYPE is for RAI_SA's requests,
		 * which have no node.
		 */
		if (ctx & RAI_CTX_NAME)
			return EAI_NONAME;
		if (ctx & RAI_CTX_QP_PS)
			return EAI_QPTYPE;
		break;
	default:
		break;
	}
	*sys_errno = status < 0 ? -status : EIO;
	return EAI_SYSTEM;
}

/**
 * rai_errno_from_eai - errno for a call that fails with -1/errno
 * @eai: a non-zero EAI_* code produced by the request checks
 */
int rai_errno_from_eai(int eai)
{
	switch (eai) {
	case EAI_MEMORY:
		return ENOMEM;
	case EAI_AGAIN:
		return EAGAIN;
	case EAI_FAMILY:
	case EAI_ADDRFAMILY:
		return EAFNOSUPPORT;
	case EAI_SERVICE:	/* unknown service name */
		return ENOENT;
	default:
		return EINVAL;
	}
}

/**
 * rai_status_from_eai - the completion status that reads as @eai
 * @eai: a non-zero return of rdma_getaddrinfo() (librdmacm's own)
 * @err: its errno (EAI_SYSTEM, and librdmacm's -1 failures)
 *
 * For the event of a request librdmacm resolved (fallback.c):
 * rdma_addrinfo_status_eai() of the result gives @eai back.
 */
int rai_status_from_eai(int eai, int err)
{
	switch (eai) {
	case EAI_NONAME:
		return -ENXIO;
	case EAI_NODATA:
		return -ENODATA;
	case EAI_ADDRFAMILY:
		return -EADDRNOTAVAIL;
	case EAI_FAMILY:
		return -EAFNOSUPPORT;
	case EAI_AGAIN:
		return -EAGAIN;
	case EAI_FAIL:
		return -EPROTO;
	case EAI_MEMORY:
		return -ENOMEM;
	default:
		return err > 0 ? -err : -EIO;
	}
}

/*
 * Whether a request's @status is the module refusing a DNS name for the
 * caller's view (a container without a resolver of its own; the ABI
 * header's -EPERM): librdmacm answers such a name in the caller's process.
 */
int rai_view_refused(int status, unsigned int ctx)
{
	return status == -EPERM && (ctx & RAI_CTX_NAME);
}

/* rai_eai_from_status(), with errno set for EAI_SYSTEM (rdma_getaddrinfo(3)) */
int rai_eai_with_errno(int status, unsigned int ctx)
{
	int err = 0;
	int eai = rai_eai_from_status(status, ctx, &err);

	if (eai == EAI_SYSTEM)
		errno = err;
	return eai;
}

RAI_EXPORT int rdma_addrinfo_status_eai(int status)
{
	/* An SA lookup without a record at RDMACM_1.4 (rdma-core 60+'s) */
	if (status == -ENOENT)
		return EAI_NONAME;
	return rai_eai_with_errno(status, 0);
}

RAI_EXPORT const char *rdma_addrinfo_strerror(int eai)
{
	if (eai == EAI_QPTYPE)
		return "ai_qp_type and ai_port_space are inconsistent";
	return gai_strerror(eai);
}

typedef const char *(*rai_event_str_fn)(enum rdma_cm_event_type event);
static rai_event_str_fn rai_cma_event_str;

/* librdmacm's own rdma_event_str(), from librdmacm itself (never ours). */
static void rai_cma_event_str_init(void)
{
	void *cma = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);

	if (!cma)
		cma = dlopen("librdmacm.so.1", RTLD_LAZY);
	if (cma)
		*(void **)&rai_cma_event_str = dlvsym(cma, "rdma_event_str",
						      "RDMACM_1.0");
}

/*
 * rdma_event_str() that names the ADDRINFO events (librdmacm before 60 says
 * "UNKNOWN EVENT"); every other event is librdmacm's to name.
 */
RAI_EXPORT const char *rdma_event_str(enum rdma_cm_event_type event)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (event == RDMA_CM_EVENT_ADDRINFO_RESOLVED)
		return "RDMA_CM_EVENT_ADDRINFO_RESOLVED";
	if (event == RDMA_CM_EVENT_ADDRINFO_ERROR)
		return "RDMA_CM_EVENT_ADDRINFO_ERROR";
	pthread_once(&once, rai_cma_event_str_init);
	return rai_cma_event_str ? rai_cma_event_str(event) : "UNKNOWN EVENT";
}
