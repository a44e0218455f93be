// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* A DNS response's TTL (dns_ttl.h). */
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdint.h>

#include "dns_ttl.h"

/* dns_ttl.h */
long dns_answer_ttl(const unsigned char *msg, int len)
{
	const unsigned char *p = msg + HFIXEDSZ, *end = msg + len;
	const HEADER *hdr = (const HEADER *)msg;
	unsigned int qd, an, i;
	long ttl = -1, t;
	int n;

	if (len < HFIXEDSZ)
		return -1;
	qd = ntohs(hdr->qdcount);
	an = ntohs(hdr->ancount);
	for (i = 0; i < qd; i++) {
		n = dn_skipname(p, end);
		if (n < 0 || end - p < n + QFIXEDSZ)
			return -1;
		p += n + QFIXEDSZ;
	}
	for (i = 0; i < an; i++) {
		n = dn_skipname(p, end);
		if (n < 0 || end - p < n + RRFIXEDSZ)
			return ttl;
		p += n;
		t = (long)((uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 |
			   (uint32_t)p[6] << 8 | p[7]);
		if (ttl < 0 || t < ttl)
			ttl = t;
		n = p[8] << 8 | p[9];
		p += RRFIXEDSZ;
		if (end - p < n)
			return ttl;
		p += n;
	}
	return ttl;
}
