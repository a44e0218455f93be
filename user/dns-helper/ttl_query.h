/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The TTL of a name's A records, asked alongside getaddrinfo() (lookup.c):
 * the query goes out before getaddrinfo() runs and its answer is read
 * after it, on a UDP socket each thread keeps, so the TTL costs no round
 * trip of its own.  Only where the answer is the one res_search() would
 * take first: the name as it is (it has ndots dots, or ends with one),
 * over UDP to the first name server of the thread's resolver state, an
 * IPv4 one.  Whenever this gives no TTL (not sent, no answer in time,
 * truncated, an error, no record), the caller asks res_search() as before.
 */
#ifndef RAI_TTL_QUERY_H
#define RAI_TTL_QUERY_H

/* One name's query in flight. */
struct ttl_query {
	int fd;			/* the socket it went out on; -1: none sent */
	unsigned short id;	/* its DNS id, as on the wire */
};

/* How long ttl_query_recv() waits at most: res_search()'s one try. */
#define TTL_QUERY_WAIT_MS	1000

/* ttl_query_match(): not the answer to this query (a late one's). */
#define TTL_QUERY_OTHER		(-2)

/* Send the A query of @name if it is asked as it is; @q says whether. */
void ttl_query_send(const char *name, struct ttl_query *q);

/*
 * The smallest TTL of the answer records of @q's answer (seconds), or -1
 * when none came within @wait_ms or it holds no usable record.  Answers
 * of earlier queries still on the socket are read and dropped.
 */
long ttl_query_recv(const char *name, const struct ttl_query *q,
		    int wait_ms);

/*
 * The DNS message @msg (@len bytes) as the answer to the A query of
 * @name with id @id: its records' smallest TTL, -1 when it answers but
 * gives no TTL (truncated, an error, no record), or TTL_QUERY_OTHER.
 */
long ttl_query_match(const char *name, unsigned short id,
		     const unsigned char *msg, int len);

#endif /* RAI_TTL_QUERY_H */
