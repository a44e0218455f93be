/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A DNS response's TTL, read by the lookup (lookup.c, of res_search()'s
 * answer) and by the TTL query (ttl_query.c, of its own answer): a file
 * of its own, below both, so that neither includes the other's header
 * for it.
 */
#ifndef RAI_DNS_TTL_H
#define RAI_DNS_TTL_H

/*
 * The smallest TTL of the answer records of the DNS response @msg (@len
 * bytes), or -1 if it has none (or cannot be read).
 */
long dns_answer_ttl(const unsigned char *msg, int len);

#endif /* RAI_DNS_TTL_H */
