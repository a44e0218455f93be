/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The resident resolver's answer to one name (struct
 * rdma_addrinfo_resolver_answer): what the DNS helper would answer, in
 * the form RESOLVER_ANSWER takes.
 */
#ifndef RAI_RESOLVED_ANSWER_H
#define RAI_RESOLVED_ANSWER_H

#include <rdma/rdma_addrinfo_abi.h>

/*
 * Answers from now on carry the name's canonical name (",canon=NAME")
 * when @on: the module says it takes them (RDMA_ADDRINFO_FEATURE_CANONNAME;
 * older modules take the answer for malformed).  Set before any answer.
 */
void answer_canonical(int on);

/*
 * Resolve @name and fill @ans for the module's name @id: its addresses
 * "a,b,c" (as many as fit, cut at an address), with answer_canonical()
 * the canonical name after them, and their TTL, or the error the module
 * takes for a failed name.
 */
void answer_build(struct rdma_addrinfo_resolver_answer *ans, __u64 id,
		  const char *name);

/*
 * The error RESOLVER_ANSWER takes for a lookup failure @err (a positive
 * errno): ENXIO, ENODATA, EAGAIN or EREMOTEIO; anything else (ENOMEM, an
 * unexpected one) is temporary, EAGAIN.
 */
int answer_error(int err);

#endif /* RAI_RESOLVED_ANSWER_H */
