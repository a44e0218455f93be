/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * rdma_addrinfo: RDMA address resolution in the kernel.
 *
 * This header is the whole user ABI of /dev/infiniband/rdma_addrinfo.
 *
 * Model
 * -----
 * Every open file of the device is an event channel.  A RESOLVE ioctl
 * creates a request on that file and returns its handle.  The request
 * resolves a node name and/or a service into a list of results, by one of
 * three backends:
 *
 *  - numeric: IPv4, IPv6 (with "%scope") and, for AF_IB, IB GID literals,
 *    parsed in the kernel without any upcall;
 *  - DNS: the kernel's dns_resolver key type (request-key upcall,
 *    /etc/hosts and NSS apply, answers cached in the keyring for the key's
 *    TTL, per network namespace of the opener);
 *  - SA (RDMA_ADDRINFO_RAI_SA): InfiniBand Subnet Administrator queries
 *    (ServiceRecord by service ID or name, PathRecord for the route).
 *
 * An asynchronous RESOLVE returns at once; exactly one event per request is
 * then queued on the file (read(2), poll(2), RDMA_ADDRINFO_IOC_GET_EVENT).
 * A synchronous RESOLVE (RDMA_ADDRINFO_RESOLVE_SYNC) waits killably and
 * interruptibly for completion and reports the status itself; no event is
 * queued.  In both cases the results stay attached to the handle until
 * RDMA_ADDRINFO_IOC_DESTROY; QUERY copies them out as often as wanted.
 * DESTROY cancels a request still in flight and drops its event if it was
 * queued but not yet read: after DESTROY returns, no event for the handle
 * is ever seen.  close(2) destroys every request of the file.
 *
 * Handles are non-zero integers, private to the file that created them; a
 * handle of another file is unknown (-ENOENT).  They are allocated
 * cyclically, going up but not always by one: a destroyed handle is not
 * given out again before the 31-bit space wraps, so an event read around
 * a DESTROY is never mistaken for an event of a newer request.  An event
 * that another thread was still copying out when DESTROY came is not
 * returned (that read returns the next event or none) and counts in
 * destroy.events_dropped.
 *
 * ABI rules
 * ---------
 * Every structure is made of fixed-width fields, is a multiple of 8 bytes
 * and has the same layout on i386 and x86_64 (compat_ioctl is
 * compat_ptr_ioctl).  User pointers are passed as __aligned_u64.  Every
 * field named "reserved" must be zero on input (-EINVAL otherwise) and is
 * zero on output; unknown flags are rejected with -EINVAL; unknown ioctl
 * commands fail with -ENOTTY.  Nothing uninitialised is ever copied out.
 * Feature discovery is by RDMA_ADDRINFO_IOC_GET_INFO.
 *
 * Socket addresses (src_addr, dst_addr) are carried as the bytes of a
 * struct sockaddr_in, sockaddr_in6 or sockaddr_ib in the native layout of
 * the caller (sa_family in host order, ports and addresses in network
 * order), at most RDMA_ADDRINFO_ADDR_SIZE bytes; the *_len field gives the
 * length of the one present (0: none).
 *
 * Errors of the ioctls themselves (return -1, errno):
 *  EFAULT      a user pointer could not be read or written
 *  EINVAL      reserved field non-zero, unknown flag, bad length, bad family,
 *              inconsistent qp_type/port_space (see RESOLVE), bad name bytes
 *  ENAMETOOLONG node_len > RDMA_ADDRINFO_NAME_MAX or service_len >
 *              RDMA_ADDRINFO_SERVICE_MAX
 *  ENOENT      unknown handle
 *  EBUSY       QUERY of a request still in flight
 *  EAGAIN      GET_EVENT/read on an O_NONBLOCK file with no event
 *  EMFILE      the file's cap on outstanding requests is reached
 *  ENFILE      the module-wide cap on outstanding requests is reached
 *  EDQUOT      the caller's user (real uid; a user namespace counts as its
 *              owner) holds max_requests_per_user requests over all its
 *              files
 *  EINTR       a synchronous RESOLVE was interrupted (the request is gone)
 *  EOPNOTSUPP  RAI_SA while the module has no SA backend (GET_INFO's
 *              features lack RDMA_ADDRINFO_FEATURE_SA)
 *  ENOTTY      unknown ioctl command
 *
 * A RESOLVE that fails (any of the above, including EFAULT while writing
 * the handle back) leaves no request and queues no event.
 *
 * Completion statuses (event.status, resolve.status with SYNC) are 0 or a
 * negative errno:
 *  -ENXIO          the name does not exist (NXDOMAIN, no SA record).
 *                  DNS: without the module's own helper
 *                  (rdma-addrinfo-dns-helper), keyutils' key.dns_resolver
 *                  <= 1.6.3 reports every getaddrinfo() failure alike;
 *                  with it, -ENODATA, -EAGAIN and -EREMOTEIO are reported
 *                  as -ENXIO.
 *  -ENODATA        the name exists but has no address at all
 *  -EADDRNOTAVAIL  the name has addresses, none of the requested family
 *  -EAFNOSUPPORT   the requested family cannot be served by that backend
 *  -EAGAIN         temporary resolver failure (server unreachable); also
 *                  a new DNS name while the module's or the user's
 *                  budget of dns_resolver keys is spent (dns_max_keys,
 *                  dns_max_keys_per_user: Documentation/admin-guide.rst)
 *  -ETIMEDOUT      the resolver or the SA did not answer in time
 *  -EHOSTUNREACH   (SA) the port has no SA to ask
 *  -EPROTO         (SA) malformed or inconsistent reply
 *  -EREMOTEIO      the SA answered with an error MAD status; DNS: the
 *                  server refused the query or failed permanently
 *  -ENODEV         the RDMA device named by the request is gone
 *  -ENOMEM         out of memory
 *  -ENOBUFS        the results would take the caller's user past
 *                  max_result_kib_per_user KiB of results held by its
 *                  requests not yet destroyed (a user namespace counts as
 *                  its owner; Documentation/admin-guide.rst)
 *  -ECANCELED      never reported: cancelled requests produce no event
 *  -EPERM          DNS: the caller is in a container (another network
 *                  namespace, or another /etc/hosts, resolv.conf or
 *                  nsswitch.conf than the host's) and the resolver upcall
 *                  would answer from the host's view; refused unless a
 *                  resident resolver serves the caller's view (see
 *                  "Resident resolver" below) or the module parameter
 *                  dns_host_view allows it.  Numeric literals are not
 *                  affected.
 */
#ifndef _UAPI_RDMA_ADDRINFO_ABI_H
#define _UAPI_RDMA_ADDRINFO_ABI_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/ioctl.h>

#define RDMA_ADDRINFO_ABI_VERSION	1

/* Device node, relative to /dev. */
#define RDMA_ADDRINFO_DEVNAME		"infiniband/rdma_addrinfo"

/* Sizes of the byte arrays below. */
#define RDMA_ADDRINFO_ADDR_SIZE		48	/* sizeof(struct sockaddr_ib) */
#define RDMA_ADDRINFO_IBDEV_NAME_SIZE	64	/* IB_DEVICE_NAME_MAX */
#define RDMA_ADDRINFO_PATH_RECORD_SIZE	64	/* SA PathRecord, wire format */
#define RDMA_ADDRINFO_SERVICE_RECORD_SIZE 176	/* SA ServiceRecord, wire */

/* Hard limits; GET_INFO reports them (and the tunable ones). */
#define RDMA_ADDRINFO_NAME_MAX		255	/* node name, bytes, no NUL */
#define RDMA_ADDRINFO_SERVICE_MAX	63	/* service string, bytes */

/*
 * Hint flags (resolve.ai_flags): the RAI_* values of <rdma/rdma_cma.h>.
 * RAI_SA and RAI_DNS are mutually exclusive (-EINVAL); DNS is the default.
 */
#define RDMA_ADDRINFO_RAI_PASSIVE	0x00000001
#define RDMA_ADDRINFO_RAI_NUMERICHOST	0x00000002
#define RDMA_ADDRINFO_RAI_NOROUTE	0x00000004
#define RDMA_ADDRINFO_RAI_FAMILY	0x00000008
#define RDMA_ADDRINFO_RAI_SA		0x00000010
#define RDMA_ADDRINFO_RAI_DNS		0x00000020

/* Request flags (resolve.flags). */
#define RDMA_ADDRINFO_RESOLVE_SYNC	0x00000001 /* wait for completion */
/*
 * With RESOLVE_SYNC: copy the results out and destroy the request, all in
 * the one call (see struct rdma_addrinfo_resolve).  Modules that predate it
 * reject it with -EINVAL and do not list it in info.resolve_flags_supported.
 */
#define RDMA_ADDRINFO_RESOLVE_RESULTS	0x00000002
/*
 * With RESOLVE_RESULTS: the array at resolve.context is followed by a
 * struct rdma_addrinfo_canonname (at @result_count entries), which receives
 * the destination's canonical name.  Modules that predate it reject it
 * with -EINVAL and do not list it (nor RDMA_ADDRINFO_FEATURE_CANONNAME).
 */
#define RDMA_ADDRINFO_RESOLVE_CANONNAME	0x00000004

/* Features (info.features). */
#define RDMA_ADDRINFO_FEATURE_NUMERIC	0x00000001
#define RDMA_ADDRINFO_FEATURE_DNS	0x00000002
#define RDMA_ADDRINFO_FEATURE_SA	0x00000004
#define RDMA_ADDRINFO_FEATURE_SRC_SELECT 0x00000008
/* RESOLVER_REGISTER, RESOLVER_TAKE and RESOLVER_ANSWER (see below). */
#define RDMA_ADDRINFO_FEATURE_RESOLVER	0x00000010
/*
 * Canonical names: RESOLVE_CANONNAME, QUERY_CANONNAME, and "canon=" in a
 * resident resolver's answer (see struct rdma_addrinfo_canonname).
 */
#define RDMA_ADDRINFO_FEATURE_CANONNAME	0x00000020
/* RDMA_ADDRINFO_IOC_GET_STATS (struct rdma_addrinfo_stats). */
#define RDMA_ADDRINFO_FEATURE_STATS	0x00000040

/* Where a result came from (result.origin). */
#define RDMA_ADDRINFO_ORIGIN_NUMERIC	1
#define RDMA_ADDRINFO_ORIGIN_DNS	2
#define RDMA_ADDRINFO_ORIGIN_SA		3
#define RDMA_ADDRINFO_ORIGIN_PASSIVE	4	/* RAI_PASSIVE, no node */
/*
 * DNS through key.dns_resolver without the module's own helper: the name
 * was asked for as NFS and CIFS ask (their shared dns_resolver key), which
 * gives one IPv4 address, not every address of the name.
 */
#define RDMA_ADDRINFO_ORIGIN_DNS_SINGLE	5

/* Event types (event.event). */
#define RDMA_ADDRINFO_EVENT_RESOLVED	1	/* status == 0 */
#define RDMA_ADDRINFO_EVENT_ERROR	2	/* status < 0 */

/* Values of the port_space and qp_type fields (rdma_cma.h, verbs.h). */
#define RDMA_ADDRINFO_PS_IPOIB		0x0002
#define RDMA_ADDRINFO_PS_IB		0x013F
#define RDMA_ADDRINFO_PS_TCP		0x0106
#define RDMA_ADDRINFO_PS_UDP		0x0111
#define RDMA_ADDRINFO_QPT_RC		2
#define RDMA_ADDRINFO_QPT_UC		3
#define RDMA_ADDRINFO_QPT_UD		4

/**
 * struct rdma_addrinfo_info - RDMA_ADDRINFO_IOC_GET_INFO (out)
 * @abi_version: RDMA_ADDRINFO_ABI_VERSION of the module
 * @ai_flags_supported: RDMA_ADDRINFO_RAI_* bits RESOLVE accepts
 * @resolve_flags_supported: RDMA_ADDRINFO_RESOLVE_* bits RESOLVE accepts
 * @features: RDMA_ADDRINFO_FEATURE_* backends available
 * @max_name_len: longest node name accepted (RDMA_ADDRINFO_NAME_MAX)
 * @max_service_len: longest service accepted (RDMA_ADDRINFO_SERVICE_MAX)
 * @max_results: results kept per request (module parameter max_results)
 * @max_requests_per_fd: outstanding requests per file (max_requests_per_fd)
 * @max_requests_total: outstanding requests, module-wide (max_requests)
 * @max_upcalls: concurrent DNS upcalls (max_upcalls)
 * @sa_timeout_ms: SA MAD timeout per try (sa_timeout_ms)
 * @sa_retries: SA MAD retries after the first try (sa_retries)
 * @requests: requests currently held by this file (in flight or done)
 * @result_size: sizeof(struct rdma_addrinfo_result) of this ABI
 * @max_requests_per_user: outstanding requests per user, counted over
 *	every file (max_requests_per_user); 0 from modules that predate it
 * @max_upcalls_per_user: concurrent DNS upcalls one user may hold; the
 *	slots go round-robin between users (max_upcalls_per_user); 0 from
 *	modules that predate it
 * @max_requests_host_reserve: of @max_requests_total, how many only
 *	callers of the initial user namespace may hold: the effective value,
 *	max_requests_host_reserve clamped to @max_requests_total / 4
 * @max_upcalls_host_reserve: of @max_upcalls, how many slots only callers
 *	of the initial user namespace may hold: max_upcalls_host_reserve
 *	clamped to @max_upcalls / 4
 *
 * The size in the command versions the struct (drm's rule): the module
 * takes RDMA_ADDRINFO_IOC_GET_INFO of any size from
 * RDMA_ADDRINFO_INFO_SIZE_V1 up, fills what both it and the caller know
 * of and zeroes the caller's bytes past its own.  The first 64 bytes
 * (up to @max_upcalls_per_user) are version 1, all that modules before
 * the host reserves take: such a module fails the larger command with
 * -ENOTTY, and a caller that needs only version 1 can then ask with
 * RDMA_ADDRINFO_IOC_GET_INFO_V1.  A module that takes the larger command
 * fills both reserves: no feature bit says so.
 */
struct rdma_addrinfo_info {
	__u32 abi_version;
	__u32 ai_flags_supported;
	__u32 resolve_flags_supported;
	__u32 features;
	__u32 max_name_len;
	__u32 max_service_len;
	__u32 max_results;
	__u32 max_requests_per_fd;
	__u32 max_requests_total;
	__u32 max_upcalls;
	__u32 sa_timeout_ms;
	__u32 sa_retries;
	__u32 requests;
	__u32 result_size;
	__u32 max_requests_per_user;
	__u32 max_upcalls_per_user;
	__u32 max_requests_host_reserve;
	__u32 max_upcalls_host_reserve;
};

#define RDMA_ADDRINFO_INFO_SIZE_V1	64

/**
 * struct rdma_addrinfo_resolve - RDMA_ADDRINFO_IOC_RESOLVE (in/out)
 * @node: in, user pointer to the node name bytes (no NUL needed), or 0
 * @service: in, user pointer to the service bytes, or 0.  DNS/numeric: a
 *	decimal port, digits only, at most 65535, else -EINVAL (service
 *	names are mapped by the library).  SA: a
 *	service ID (decimal or 0x-hex) or a service name.
 * @context: in, opaque, echoed in the request's event; with
 *	RESOLVE_RESULTS: user pointer to an array of @result_count struct
 *	rdma_addrinfo_result (info.result_size bytes each), which receives
 *	the first min(@num_results, @result_count) results
 * @node_len: in, 1..RDMA_ADDRINFO_NAME_MAX when @node is set, else 0; the
 *	bytes must not contain NUL.  A name that is no numeric literal is a
 *	host name: letters, digits, '-', '_' and '.' only (an IDN name in
 *	its ASCII form, "xn--..."), else -EINVAL
 * @service_len: in, 1..RDMA_ADDRINFO_SERVICE_MAX when @service is set,
 *	else 0
 * @ai_flags: in, RDMA_ADDRINFO_RAI_*
 * @flags: in, RDMA_ADDRINFO_RESOLVE_*
 * @family: in, AF_UNSPEC, AF_INET, AF_INET6 or AF_IB: only results of
 *	this family are returned (AF_IB: IP answers are turned into IB
 *	addresses of the device that reaches them, SA answers are AF_IB);
 *	with RAI_FAMILY the node is also interpreted in this family
 * @port_space: in, 0 or RDMA_ADDRINFO_PS_*; 0 means PS_IB for RAI_SA,
 *	PS_UDP for QPT_UD, else PS_TCP, for AF_IB as for IP (librdmacm's
 *	rule).  Results carry the effective value; an AF_IB result made
 *	from an IP address or a GID has sib_sid = port_space << 16 | port
 *	and sib_sid_mask 0xffffffffffff0000 (RDMA_IB_IP_PS_MASK), or'd with
 *	0xffff when the port is not 0, as librdmacm makes them.
 * @qp_type: in, 0 or RDMA_ADDRINFO_QPT_*; UD needs PS_UDP/PS_IPOIB/PS_IB,
 *	RC/UC need PS_TCP/PS_IB, else -EINVAL (EAI_QPTYPE); 0 means UD for
 *	PS_UDP/PS_IPOIB, else RC
 * @src_len: in, length of @src_addr (0: no source given)
 * @port_num: in, port of @ibdev_name (required with RAI_SA: 0 is -EINVAL)
 * @src_addr: in, the caller's bound source address (hints.ai_src_addr or
 *	the rdma_cm_id's binding); results keep to its family and device
 * @ibdev_name: in, NUL-terminated RDMA device the caller is bound to, or
 *	all zero.  Required with RAI_SA: the SA of that port is asked.
 * @handle: out, the new request's handle
 * @status: out, with RESOLVE_SYNC: the completion status (0 or -errno)
 * @num_results: out, with RESOLVE_SYNC: number of results
 * @result_count: in, with RESOLVE_RESULTS: entries the array at @context
 *	holds (0: none copied, @status and @num_results still reported);
 *	otherwise zero.  With RESOLVE_CANONNAME the array is followed by a
 *	struct rdma_addrinfo_canonname, written with the results
 *
 * With RAI_SA the node must be absent (-EINVAL) and a service is required.
 * Neither node nor service nor RAI_PASSIVE: -EINVAL (EAI_NONAME).
 * No node with RAI_PASSIVE: the wildcard address of each requested family
 * (origin PASSIVE); no node without it: the loopback addresses.
 * RAI_NUMERICHOST with a node that is no literal completes with -ENXIO.
 * With RESOLVE_SYNC, -ENOENT if another thread destroyed the handle
 * during the wait.
 *
 * RESOLVE_RESULTS (only with RESOLVE_SYNC, else -EINVAL) makes a
 * synchronous lookup one call: once the request is complete its results
 * are copied to @context and the request is destroyed; @handle is 0 on
 * return and no handle remains, whatever the outcome (-EFAULT when the
 * array cannot be written).  When @num_results exceeds @result_count the
 * rest is lost: size the array by info.max_results.  A literal, or a
 * name whose answer the module has cached, is answered without any
 * waiting and takes no room among the file's requests (no EMFILE, EDQUOT
 * or ENFILE); a request that waits for a resolver does.
 */
struct rdma_addrinfo_resolve {
	__aligned_u64 node;
	__aligned_u64 service;
	__aligned_u64 context;
	__u32 node_len;
	__u32 service_len;
	__u32 ai_flags;
	__u32 flags;
	__u16 family;
	__u16 port_space;
	__u32 qp_type;
	__u32 src_len;
	__u32 port_num;
	__u8 src_addr[RDMA_ADDRINFO_ADDR_SIZE];
	char ibdev_name[RDMA_ADDRINFO_IBDEV_NAME_SIZE];
	__u32 handle;
	__s32 status;
	__u32 num_results;
	__u32 result_count;
};

/**
 * struct rdma_addrinfo_event - one completion, as read(2) and
 * RDMA_ADDRINFO_IOC_GET_EVENT return it
 * @context: the resolve.context of the request
 * @handle: the request's handle
 * @event: RDMA_ADDRINFO_EVENT_RESOLVED or RDMA_ADDRINFO_EVENT_ERROR
 * @status: 0 or a negative errno (see the list above)
 * @num_results: number of results QUERY will report
 *
 * read(2) returns whole events only: a buffer smaller than one event is
 * -EINVAL, a larger one receives as many as are queued and fit.  It blocks
 * unless the file is O_NONBLOCK; poll(2) reports EPOLLIN while events are
 * queued.
 */
struct rdma_addrinfo_event {
	__aligned_u64 context;
	__u32 handle;
	__u32 event;
	__s32 status;
	__u32 num_results;
};

/**
 * struct rdma_addrinfo_result - one resolved address
 * @ai_flags: RDMA_ADDRINFO_RAI_PASSIVE for a passive result, else 0
 * @family: family of the result (dst, or src for a passive result)
 * @port_space: RDMA_ADDRINFO_PS_* of the result
 * @qp_type: RDMA_ADDRINFO_QPT_* of the result
 * @origin: RDMA_ADDRINFO_ORIGIN_*
 * @src_len: length of @src_addr, 0 when no local RDMA device reaches
 *	the destination (@src_status says why)
 * @dst_len: length of @dst_addr, 0 for a passive result
 * @src_addr: the local address the kernel would use to reach @dst_addr
 * @dst_addr: the destination, with port (IP) or service ID (AF_IB) set
 * @ibdev_name: NUL-terminated RDMA device of @src_addr, or empty
 * @port_num: port of @ibdev_name, or 0
 * @src_status: 0, or why there is no source: -ENETUNREACH (no route),
 *	-ENODEV (the route's interface has no RDMA device, or not the
 *	device/port given in resolve.ibdev_name/port_num), -EOPNOTSUPP
 *	(source selection not attempted: RAI_PASSIVE, RAI_NOROUTE),
 *	-EAFNOSUPPORT (an IPv6 destination, or an AF_IB one whose GID is
 *	not IPv4-mapped, while the kernel runs without IPv6, e.g. booted
 *	with ipv6.disable=1; the result itself is still returned)
 * @route_len: 0 or RDMA_ADDRINFO_PATH_RECORD_SIZE
 * @service_record_len: 0 or RDMA_ADDRINFO_SERVICE_RECORD_SIZE
 * @ttl: seconds the answer remains valid (DNS key expiry, SA lease), or 0
 * @reserved: zero
 * @route: SA PathRecord in wire format (struct ibv_path_record) when
 *	@route_len is set
 * @service_record: SA ServiceRecord in wire format when
 *	@service_record_len is set
 */
struct rdma_addrinfo_result {
	__u32 ai_flags;
	__u16 family;
	__u16 port_space;
	__u32 qp_type;
	__u32 origin;
	__u32 src_len;
	__u32 dst_len;
	__u8 src_addr[RDMA_ADDRINFO_ADDR_SIZE];
	__u8 dst_addr[RDMA_ADDRINFO_ADDR_SIZE];
	char ibdev_name[RDMA_ADDRINFO_IBDEV_NAME_SIZE];
	__u32 port_num;
	__s32 src_status;
	__u32 route_len;
	__u32 service_record_len;
	__u32 ttl;
	__u32 reserved;
	__u8 route[RDMA_ADDRINFO_PATH_RECORD_SIZE];
	__u8 service_record[RDMA_ADDRINFO_SERVICE_RECORD_SIZE];
};

/**
 * struct rdma_addrinfo_canonname - the canonical name of a request (out)
 * @len: bytes of @name before its NUL; 0: the request has none
 * @reserved: zero
 * @name: NUL-terminated, zero after the NUL
 *
 * A DNS request's destination name as the resolver found it: the target
 * of the name's CNAME chain (what getaddrinfo() with AI_CANONNAME gives),
 * or the first name of its /etc/hosts line; otherwise the name itself.
 * It belongs to the request (to its first result, in librdmacm's terms:
 * ai_dst_canonname).  Numeric literals, RAI_PASSIVE without a node, SA
 * requests, failed requests and answers of resolvers that do not report
 * one (key.dns_resolver, older helpers and resident resolvers) have none.
 * The module checks the name as it checks a node name (host name bytes,
 * 1..RDMA_ADDRINFO_NAME_MAX): a resolver cannot pass anything else.
 */
struct rdma_addrinfo_canonname {
	__u32 len;
	__u32 reserved;
	char name[RDMA_ADDRINFO_NAME_MAX + 1];
};

/* Query flags (query.flags). */
/* @results holds @count results followed by a struct rdma_addrinfo_canonname. */
#define RDMA_ADDRINFO_QUERY_CANONNAME	0x00000001

/**
 * struct rdma_addrinfo_query - RDMA_ADDRINFO_IOC_QUERY (in/out)
 * @results: in, user pointer to an array of @count results
 * @handle: in, the request
 * @count: in, entries @results holds (0: only report @total)
 * @result_size: in, must be sizeof(struct rdma_addrinfo_result)
 * @total: out, number of results the request has
 * @copied: out, number copied, min(@count, @total)
 * @flags: in, RDMA_ADDRINFO_QUERY_*; 0 from callers that predate them
 *	(the field was "reserved"; modules without
 *	RDMA_ADDRINFO_FEATURE_CANONNAME reject any flag with -EINVAL)
 *
 * -EBUSY while the request is in flight; a failed request has 0 results.
 * With QUERY_CANONNAME the struct rdma_addrinfo_canonname after the
 * @count results receives the request's canonical name (@len 0: none).
 */
struct rdma_addrinfo_query {
	__aligned_u64 results;
	__u32 handle;
	__u32 count;
	__u32 result_size;
	__u32 total;
	__u32 copied;
	__u32 flags;
};

/**
 * struct rdma_addrinfo_destroy - RDMA_ADDRINFO_IOC_DESTROY (in/out)
 * @handle: in, the request to cancel (if in flight) and free
 * @flags: in, zero
 * @events_dropped: out, 1 if its event was queued (or being read by
 *	another thread) and is now dropped
 * @reserved: zero
 */
struct rdma_addrinfo_destroy {
	__u32 handle;
	__u32 flags;
	__u32 events_dropped;
	__u32 reserved;
};

/*
 * Resident resolver
 * -----------------
 * Every DNS name the module has no live answer for costs a dns_resolver
 * upcall, two process starts.  A resident resolver (rdma-addrinfo-resolved)
 * takes that work instead: it registers its file as the DNS resolver of
 * its network namespace and /etc view, takes the names the module wants
 * resolved, several per call, and answers them, several per call.  DNS
 * requests of callers in that namespace and view that the module's cache
 * cannot answer go to it; everything else is as without it (cache, caps,
 * deadlines, events).  Without a registered resolver, or when it closes
 * its file, dies or misses its deadline, the module asks the upcall, and
 * in a view the upcall must not answer (a container: see -EPERM above)
 * the requests complete with -EPERM, as without a resolver.  Each request
 * still completes exactly once.
 *
 * The view of a resolver is that of the file's opener: its network
 * namespace (captured at open) and the /etc/hosts, resolv.conf and
 * nsswitch.conf that the registering process sees.  A caller is served by
 * it when it is in that network namespace and sees the same three files
 * (or has the same root).
 *
 * RESOLVER_REGISTER needs CAP_NET_ADMIN in the user namespace that owns
 * the file's network namespace, in the credentials of the file's opener
 * and in those of the calling process (so a descriptor passed to a less
 * privileged process gains nothing, nor does one kept by a process that
 * dropped its privileges, and a container's root may serve its own
 * namespace).  Errors:
 *  EINVAL  flags or reserved not zero
 *  EPERM   the opener or the caller lacks CAP_NET_ADMIN over the network
 *          namespace
 *  EBUSY   the file is a resolver already, or another file is the resolver
 *          of that network namespace and view
 *  EDQUOT  the caller's user has registered as many resolvers as it may
 *          (resolver_max_per_user, over every namespace)
 *  ENOMEM  out of memory (or the caller's memory cgroup full)
 * The registration ends when the file is closed (the last descriptor of
 * it); names it had taken and not answered go to the fallback at once,
 * and the answers it gave leave the module's cache.
 *
 * RESOLVER_TAKE fills up to @count names (struct
 * rdma_addrinfo_resolver_name), oldest first and round-robin between the
 * users that asked; it waits for the first name unless the file is
 * O_NONBLOCK.  poll(2) reports EPOLLIN while names are waiting.  A name
 * taken must be answered within the deadline the registration reported
 * (@deadline_ms), or it goes to the fallback and a later answer is
 * ignored; a name not taken within the module's resolver_wait_ms goes to
 * the fallback too, and a name whose every request went (destroyed,
 * closed, timed out) before it was taken is no longer offered.  Errors:
 * EINVAL (not a resolver, reserved not zero, @count 0, @name_size not
 * sizeof(struct rdma_addrinfo_resolver_name)), EAGAIN (O_NONBLOCK, nothing
 * waiting), EINTR (a signal while waiting), EFAULT (@names not writable:
 * no name is lost, those taken are offered again), ENOMEM (no memory for
 * the names, or the caller's memory cgroup full).
 *
 * RESOLVER_ANSWER reads @count answers (struct
 * rdma_addrinfo_resolver_answer).  An answer whose id is no longer
 * outstanding (answered, past its deadline) is ignored and counted in
 * @stale.  An answer that is not well formed (@error neither 0 nor one of
 * rdma_addrinfo_resolver_error(): ENXIO, ENODATA, EAGAIN, EREMOTEIO;
 * @addrs not NUL-terminated, empty with
 * @error 0, or holding anything but numeric IPv4/IPv6 addresses
 * separated by commas and at most one canonical name) completes its
 * requests with -EPROTO and is counted in @malformed; the other answers
 * of the call are unharmed.
 * Answers are cached like the upcall's, for @ttl seconds (at most one
 * day); a failure's @ttl is ignored (dns_cache_negative_ttl).  Errors:
 * EINVAL (not a resolver, reserved not zero, @answer_size not sizeof
 * (struct rdma_addrinfo_resolver_answer)), EFAULT (@answers not
 * readable: @done says how many were taken in before).
 */

/* The entry of an answer's @addrs that gives the canonical name. */
#define RDMA_ADDRINFO_RESOLVER_CANON		"canon="
/* Bytes of an answer's address list, with its NUL. */
#define RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE	1008

/**
 * struct rdma_addrinfo_resolver_register - RESOLVER_REGISTER (in/out)
 * @flags: in, zero
 * @reserved: zero
 * @max_outstanding: out, names the module lets the resolver hold taken and
 *	unanswered at once (past it, new names go to the fallback)
 * @deadline_ms: out, how long a taken name may wait for its answer
 */
struct rdma_addrinfo_resolver_register {
	__u32 flags;
	__u32 reserved;
	__u32 max_outstanding;
	__u32 deadline_ms;
};

/**
 * struct rdma_addrinfo_resolver_name - one name to resolve (out)
 * @id: the module's identifier of the name; echo it in the answer
 * @name_len: bytes of @name before its NUL
 * @reserved: zero
 * @name: the host name, NUL-terminated, as the caller gave it (letters,
 *	digits, '-', '_', '.': the module lets no other byte through)
 */
struct rdma_addrinfo_resolver_name {
	__u64 id;
	__u32 name_len;
	__u32 reserved;
	char name[RDMA_ADDRINFO_NAME_MAX + 1];
};

/**
 * struct rdma_addrinfo_resolver_take - RESOLVER_TAKE (in/out)
 * @names: in, user pointer to an array of @count names
 * @count: in, entries of @names (at least 1)
 * @name_size: in, sizeof(struct rdma_addrinfo_resolver_name)
 * @taken: out, names filled in
 * @reserved: zero
 */
struct rdma_addrinfo_resolver_take {
	__aligned_u64 names;
	__u32 count;
	__u32 name_size;
	__u32 taken;
	__u32 reserved;
};

/**
 * struct rdma_addrinfo_resolver_answer - one answer (in)
 * @id: the name's @id
 * @error: 0, or ENXIO (no such name), ENODATA (no address), EAGAIN
 *	(temporary failure) or EREMOTEIO (the servers refused): positive
 *	errnos, as the request status is their negative
 * @ttl: seconds the answer may be kept (the records' TTL)
 * @addrs: with @error 0, the addresses "a,b,c" (numeric IPv4 and IPv6,
 *	IPv6 with an optional "%scope"), NUL-terminated; else ignored.
 *	With RDMA_ADDRINFO_FEATURE_CANONNAME, one entry may be the name's
 *	canonical name, RDMA_ADDRINFO_RESOLVER_CANON "NAME" (a host name of
 *	1..RDMA_ADDRINFO_NAME_MAX bytes as a node name must be, else the
 *	answer is malformed); modules without the feature take such an
 *	answer for malformed
 */
struct rdma_addrinfo_resolver_answer {
	__u64 id;
	__s32 error;
	__u32 ttl;
	char addrs[RDMA_ADDRINFO_RESOLVER_ADDRS_SIZE];
};

/**
 * rdma_addrinfo_resolver_error - may a resolver answer with this error?
 * @error: an answer's @error (a positive errno)
 *
 * The resident resolver's error set, the failures an answer may carry:
 * ENXIO (no such name), ENODATA (the name has no address), EAGAIN
 * (temporary failure) and EREMOTEIO (the servers refused).  The module
 * takes an answer with any other non-zero @error for malformed; a
 * resolver maps its other failures to EAGAIN.
 *
 * Return: 1 when @error is one of the set, else 0 (also for 0: no error).
 */
static inline int rdma_addrinfo_resolver_error(__s32 error)
{
	switch (error) {
	case ENXIO:
	case ENODATA:
	case EAGAIN:
	case EREMOTEIO:
		return 1;
	default:
		return 0;
	}
}

/**
 * struct rdma_addrinfo_resolver_answers - RESOLVER_ANSWER (in/out)
 * @answers: in, user pointer to an array of @count answers
 * @count: in, entries of @answers
 * @answer_size: in, sizeof(struct rdma_addrinfo_resolver_answer)
 * @done: out, answers read (@count unless EFAULT)
 * @stale: out, of those, answers to no outstanding name
 * @malformed: out, of those, answers not well formed (-EPROTO)
 * @reserved: zero
 */
struct rdma_addrinfo_resolver_answers {
	__aligned_u64 answers;
	__u32 count;
	__u32 answer_size;
	__u32 done;
	__u32 stale;
	__u32 malformed;
	__u32 reserved;
};

/**
 * struct rdma_addrinfo_stats - RDMA_ADDRINFO_IOC_GET_STATS (in/out)
 * @size: in, sizeof(struct rdma_addrinfo_stats) of the caller (at least
 *	the 16 bytes up to @requests, else -EINVAL); out, the bytes the
 *	module filled: min(in, its own size).  Fields past it are the
 *	caller's own (a newer caller on an older module: left as they were)
 * @flags: in, 0 (-EINVAL otherwise); no flag is defined yet
 * @resolvers: out, resident resolvers registered in the caller's network
 *	namespace (any view)
 * @reserved: in, 0 (-EINVAL otherwise); out, 0
 * @requests: out, requests created by files of the caller's network
 *	namespace (asynchronous and synchronous RESOLVEs)
 * @completed: out, of those, requests completed (any status)
 * @failed: out, of those, with a non-zero status
 * @cancelled: out, destroyed while in flight
 * @events_dropped: out, queued events dropped by DESTROY
 * @numeric: out, requests resolved as numeric literals
 *
 * Every counter is the caller's network namespace's only, counted since
 * the module was loaded (or the namespace created) and never decreasing:
 * no other namespace's names or counts are visible.  Any opener may ask
 * (no privilege).
 */
struct rdma_addrinfo_stats {
	__u32 size;
	__u32 flags;
	__u32 resolvers;
	__u32 reserved;
	__u64 requests;
	__u64 completed;
	__u64 failed;
	__u64 cancelled;
	__u64 events_dropped;
	__u64 numeric;
};

#define RDMA_ADDRINFO_IOC_MAGIC		0xDA

#define RDMA_ADDRINFO_IOC_GET_INFO \
	_IOR(RDMA_ADDRINFO_IOC_MAGIC, 0x00, struct rdma_addrinfo_info)
#define RDMA_ADDRINFO_IOC_GET_INFO_V1 \
	_IOC(_IOC_READ, RDMA_ADDRINFO_IOC_MAGIC, 0x00, RDMA_ADDRINFO_INFO_SIZE_V1)
#define RDMA_ADDRINFO_IOC_RESOLVE \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x01, struct rdma_addrinfo_resolve)
#define RDMA_ADDRINFO_IOC_GET_EVENT \
	_IOR(RDMA_ADDRINFO_IOC_MAGIC, 0x02, struct rdma_addrinfo_event)
#define RDMA_ADDRINFO_IOC_QUERY \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x03, struct rdma_addrinfo_query)
#define RDMA_ADDRINFO_IOC_DESTROY \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x04, struct rdma_addrinfo_destroy)
#define RDMA_ADDRINFO_IOC_RESOLVER_REGISTER \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x05, struct rdma_addrinfo_resolver_register)
#define RDMA_ADDRINFO_IOC_RESOLVER_TAKE \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x06, struct rdma_addrinfo_resolver_take)
#define RDMA_ADDRINFO_IOC_RESOLVER_ANSWER \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x07, struct rdma_addrinfo_resolver_answers)
#define RDMA_ADDRINFO_IOC_GET_STATS \
	_IOWR(RDMA_ADDRINFO_IOC_MAGIC, 0x08, struct rdma_addrinfo_stats)

#endif /* _UAPI_RDMA_ADDRINFO_ABI_H */
