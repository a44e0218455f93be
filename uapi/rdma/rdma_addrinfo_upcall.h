/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * rdma_addrinfo: the DNS upcall protocol between rdma_addrinfo.ko and its
 * request-key program, rdma-addrinfo-dns-helper.  Both include this
 * header, as both sides of the ioctl ABI include rdma_addrinfo_abi.h.
 *
 * Keys.  The module asks the kernel's dns_resolver key type (dns_query(),
 * with the credentials net/dns_resolver made at boot: fsuid 0, thread
 * keyring RDMA_ADDRINFO_UPCALL_KERNEL_KEYRING) for keys described
 *
 *	"rai:NAME"	one name: the helper instantiates the key with every
 *			address, comma-separated, then ",until=MS" (the
 *			records' TTL ends MS milliseconds after the epoch),
 *			or rejects it with an errno (see the helper); the
 *			name's canonical name may come among the addresses,
 *			as ",canon=NAME" (before ",until=")
 *	"rai:@ID"	a batch: the callout information is
 *			"rai-batch NAME NAME ..." (at most
 *			RDMA_ADDRINFO_UPCALL_BATCH_NAMES_MAX names); the key
 *			is instantiated with the line "rai-batch", then one
 *			line "NAME ERRNO TTL LIST" per name (LIST "a,b,c" or
 *			"-"; it may hold "canon=NAME" as one entry), and
 *			read once.
 *
 * An entry "canon=NAME" of a list is the name's canonical name (what
 * getaddrinfo() with AI_CANONNAME gives): modules that predate it skip it
 * as they skip any entry that is no address; a NAME that is no host name
 * (the grammar of the names asked for) is skipped too.
 *
 * request-key runs the helper as root for whoever asks for such a key
 * (request_key(2) is open to every user), with the requestor's uid and
 * thread keyring (%u, %T).  A batch is answered only when those are the
 * kernel's (uid 0, RDMA_ADDRINFO_UPCALL_KERNEL_KEYRING, which no process
 * can hold): anyone else's "rai:" key is one plain name.
 */
#ifndef _UAPI_RDMA_ADDRINFO_UPCALL_H
#define _UAPI_RDMA_ADDRINFO_UPCALL_H

/* dns_query()'s type for the module's keys: descriptions "rai:NAME". */
#define RDMA_ADDRINFO_UPCALL_TYPE		"rai"
#define RDMA_ADDRINFO_UPCALL_DESC_PREFIX	RDMA_ADDRINFO_UPCALL_TYPE ":"
/* A batch key's description is "rai:" this prefix and an ID. */
#define RDMA_ADDRINFO_UPCALL_BATCH_PREFIX	"@"
/* First word of a batch's callout, and first line of its answer. */
#define RDMA_ADDRINFO_UPCALL_BATCH_MAGIC	"rai-batch"
/* Names one batch may carry. */
#define RDMA_ADDRINFO_UPCALL_BATCH_NAMES_MAX	64
/* A single name's answer ends in "," this and the milliseconds. */
#define RDMA_ADDRINFO_UPCALL_UNTIL		"until="
/* An entry of an address list: the name's canonical name follows. */
#define RDMA_ADDRINFO_UPCALL_CANON		"canon="
/* The thread keyring of the kernel's dns_query() (net/dns_resolver). */
#define RDMA_ADDRINFO_UPCALL_KERNEL_KEYRING	".dns_resolver"

#endif /* _UAPI_RDMA_ADDRINFO_UPCALL_H */
