// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sa_responder: a test InfiniBand Subnet Administrator that answers
 * SubnAdmGet / SubnAdmGetTable for ServiceRecord and PathRecord from a
 * text file, through libibumad.  It runs on any umad port, including a
 * Soft-RoCE (rxe) port, where there is no SM and no kernel SA agent.
 *
 * Usage: sa_responder -d DEV [-p PORT] -f RECORDS [-c CONTROL] [-n COUNTFILE]
 *                     [-m MODE] [-D DELAY_MS] [-S STATUS] [-P PIDFILE] [-v]
 *        sa_responder -T -f RECORDS   (print the records' wire bytes, exit)
 *
 * RECORDS, one record per line, "#" comments, key=value fields:
 *   sr id=0x1000 gid=fd00::2 pkey=0xffff lease=0xffffffff name=svc-a
 *      [count=N]   N records, ids id..id+N-1, "%u" in name replaced by
 *                  the index 0..N-1 (default 1)
 *      [data8=HEXBYTES]  up to 16 bytes of ServiceData8
 *   pr dgid=fd00::2 sgid=fd00::1 [dlid= slid= pkey= sl= mtu= rate= plt=
 *      hop= tclass= flow= reversible= numbpath= preference= sid=]
 *
 * CONTROL (re-read before every request; absent file = defaults from the
 * command line), key=value lines:
 *   mode=normal|silent|slow|status|truncate|badattr|badoffset|badmethod|
 *        badtid|overcount|empty
 *   delay_ms=N        answer N ms late (mode=slow, or with any mode)
 *   status=0xNNNN     MAD status to answer with (mode=status)
 *   drop=N            ignore the next N requests, then answer (persisted
 *                     by counting: requests number <= drop are ignored)
 *   empty_first=N     the first N ServiceRecord requests (counted as the
 *                     MADs are, reset with them) find no record: the
 *                     port asked first has none, the next one has them
 *
 * Modes:
 *   normal     answer correctly
 *   silent     never answer
 *   slow       answer after delay_ms
 *   status     answer with MAD status `status` and no records
 *   truncate   GetTable: RMPP payload ends in the middle of a record;
 *              Get: attribute offset claims a record longer than the MAD
 *   badattr    answer with the other attribute ID
 *   badoffset  GetTable: AttributeOffset that is not the record size
 *   badmethod  answer with a method that is not the response method
 *   badtid     answer with a transaction ID that does not match
 *   overcount  GetTable: append 3 zero bytes after the last record
 *   empty      GetTable: zero records; Get: no-records status
 *
 * The number of MADs received (every request, also ignored ones) is
 * written to COUNTFILE after each one (atomically, by rename) and printed
 * on SIGUSR1.  SIGUSR2 resets it to zero.  SIGTERM/SIGINT end the program.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#define MAD_SIZE		256
#define SA_HDR_LEN		56	/* MAD + RMPP + SA headers */
#define SA_DATA_LEN		200	/* data bytes per MAD segment */
#define SR_LEN			176
#define PR_LEN			64
#define CPI_LEN			72

#define MGMT_CLASS_SA		0x03
#define SA_CLASS_VERSION	2

#define METHOD_GET		0x01
#define METHOD_GET_RESP		0x81
#define METHOD_GET_TABLE	0x12
#define METHOD_GET_TABLE_RESP	0x92

#define ATTR_CLASS_PORT_INFO	0x0001
#define ATTR_SERVICE_REC	0x0031
#define ATTR_PATH_REC		0x0035

#define STATUS_BAD_METHOD_ATTR	0x000c
#define STATUS_NO_RECORDS	0x0300
#define STATUS_REQ_INVALID	0x0200

#define QP1_QKEY		0x80010000u

/* Component mask bits. */
#define SR_CM_ID		(1ull << 0)
#define SR_CM_GID		(1ull << 1)
#define SR_CM_PKEY		(1ull << 2)
#define SR_CM_NAME		(1ull << 6)
#define PR_CM_DGID		(1ull << 2)
#define PR_CM_SGID		(1ull << 3)
#define PR_CM_DLID		(1ull << 4)
#define PR_CM_SLID		(1ull << 5)
#define PR_CM_PKEY		(1ull << 13)

/* Offsets inside the SA MAD. */
#define OFF_METHOD		3
#define OFF_STATUS		4
#define OFF_TID			8
#define OFF_ATTR_ID		16
#define OFF_RMPP_VERSION	24
#define OFF_RMPP_TYPE		25
#define OFF_RMPP_FLAGS		26
#define OFF_ATTR_OFFSET		44
#define OFF_COMP_MASK		48
#define OFF_DATA		56

enum mode {
	MODE_NORMAL,
	MODE_SILENT,
	MODE_SLOW,
	MODE_STATUS,
	MODE_TRUNCATE,
	MODE_BADATTR,
	MODE_BADOFFSET,
	MODE_BADMETHOD,
	MODE_BADTID,
	MODE_OVERCOUNT,
	MODE_EMPTY,
};

static const char *const mode_names[] = {
	[MODE_NORMAL] = "normal",	[MODE_SILENT] = "silent",
	[MODE_SLOW] = "slow",		[MODE_STATUS] = "status",
	[MODE_TRUNCATE] = "truncate",	[MODE_BADATTR] = "badattr",
	[MODE_BADOFFSET] = "badoffset",	[MODE_BADMETHOD] = "badmethod",
	[MODE_BADTID] = "badtid",	[MODE_OVERCOUNT] = "overcount",
	[MODE_EMPTY] = "empty",
};

struct control {
	enum mode mode;
	unsigned int delay_ms;
	uint16_t status;
	unsigned long drop;
	unsigned long empty_first;
};

struct record {
	uint16_t attr;
	uint8_t wire[SR_LEN];	/* PR uses the first PR_LEN bytes */
};

/* A reply waiting for its time (mode=slow / delay_ms). */
struct pending {
	struct pending *next;
	struct timespec due;
	void *umad;
	int len;
	bool rmpp;
};

static struct record *records;
static size_t nrecords;
static struct control defaults;
static const char *control_path;
static const char *count_path;
static bool verbose, dump_only;
static int portid = -1;
static int agent = -1;
static struct pending *pending_head;

static volatile sig_atomic_t want_dump, want_reset, want_exit;
static unsigned long mad_count;
static unsigned long sr_count;	/* ServiceRecord requests (empty_first) */

static void put16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static int parse_gid(const char *s, uint8_t gid[16])
{
	if (inet_pton(AF_INET6, s, gid) == 1)
		return 0;
	/* IPv4 address: IPv4-mapped GID (RoCEv2/IPv4). */
	memset(gid, 0, 16);
	gid[10] = 0xff;
	gid[11] = 0xff;
	return inet_pton(AF_INET, s, gid + 12) == 1 ? 0 : -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

static int parse_hex_bytes(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;

	if (!strncmp(s, "0x", 2))
		s += 2;
	while (s[0] && s[1]) {
		unsigned int b;

		if (n == max || sscanf(s, "%2x", &b) != 1)
			return -1;
		out[n++] = b;
		s += 2;
	}
	return *s ? -1 : 0;
}

static int add_record(const struct record *r)
{
	struct record *n = realloc(records, (nrecords + 1) * sizeof(*records));

	if (!n)
		return -1;
	records = n;
	records[nrecords++] = *r;
	return 0;
}

/* Expand the first "%u" of tmpl with idx (no format string from input). */
static void expand_name(char *out, size_t len, const char *tmpl,
			unsigned long idx)
{
	const char *pct = strstr(tmpl, "%u");

	if (!pct) {
		snprintf(out, len, "%s", tmpl);
		return;
	}
	snprintf(out, len, "%.*s%lu%s", (int)(pct - tmpl), tmpl, idx, pct + 2);
}

static int parse_sr(char *args, int lineno)
{
	uint64_t id = 0, pkey = 0xffff, lease = 0xffffffff, count = 1;
	uint8_t gid[16] = { 0 }, data8[16] = { 0 };
	char name_tmpl[256] = "";
	char *tok, *save;

	for (tok = strtok_r(args, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		const char *k = tok, *v;
		int bad = 0;

		if (!eq)
			goto bad;
		*eq = '\0';
		v = eq + 1;
		if (!strcmp(k, "id"))
			bad = parse_u64(v, &id);
		else if (!strcmp(k, "gid"))
			bad = parse_gid(v, gid);
		else if (!strcmp(k, "pkey"))
			bad = parse_u64(v, &pkey) || pkey > 0xffff;
		else if (!strcmp(k, "lease"))
			bad = parse_u64(v, &lease) || lease > 0xffffffff;
		else if (!strcmp(k, "count"))
			bad = parse_u64(v, &count) || !count || count > 100000;
		else if (!strcmp(k, "name"))
			bad = snprintf(name_tmpl, sizeof(name_tmpl), "%s", v) >=
			      (int)sizeof(name_tmpl);
		else if (!strcmp(k, "data8"))
			bad = parse_hex_bytes(v, data8, sizeof(data8));
		else
			bad = 1;
		if (bad)
			goto bad;
	}
	for (uint64_t i = 0; i < count; i++) {
		struct record r = { .attr = ATTR_SERVICE_REC };
		char name[256];

		expand_name(name, sizeof(name), name_tmpl, i);
		put64(r.wire + 0, id + i);
		memcpy(r.wire + 8, gid, 16);
		put16(r.wire + 24, pkey);
		put32(r.wire + 28, lease);
		/* ServiceKey (32..47) zero; ServiceName at 48, 64 bytes. */
		memcpy(r.wire + 48, name, strnlen(name, 64));
		memcpy(r.wire + 112, data8, 16);
		if (add_record(&r))
			return -1;
	}
	return 0;
bad:
	fprintf(stderr, "records line %d: bad field '%s'\n", lineno, tok);
	return -1;
}

static int parse_pr(char *args, int lineno)
{
	uint64_t dlid = 0, slid = 0, pkey = 0xffff, sl = 0, mtu = 5, rate = 3;
	uint64_t plt = 18, hop = 64, tclass = 0, flow = 0, reversible = 1;
	uint64_t numbpath = 1, pref = 0, sid = 0;
	struct record r = { .attr = ATTR_PATH_REC };
	uint8_t dgid[16] = { 0 }, sgid[16] = { 0 };
	char *tok, *save;

	for (tok = strtok_r(args, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		static const struct {
			const char *key;
			uint64_t max;
			size_t off;
		} nums[] = {
			{ "dlid", 0xffff, 0 }, { "slid", 0xffff, 1 },
			{ "pkey", 0xffff, 2 }, { "sl", 15, 3 },
			{ "mtu", 63, 4 }, { "rate", 63, 5 },
			{ "plt", 63, 6 }, { "hop", 255, 7 },
			{ "tclass", 255, 8 }, { "flow", 0xfffff, 9 },
			{ "reversible", 1, 10 }, { "numbpath", 127, 11 },
			{ "preference", 255, 12 }, { "sid", UINT64_MAX, 13 },
		};
		uint64_t *vals[] = { &dlid, &slid, &pkey, &sl, &mtu, &rate,
				     &plt, &hop, &tclass, &flow, &reversible,
				     &numbpath, &pref, &sid };
		char *eq = strchr(tok, '=');
		const char *k = tok, *v;
		bool done = false;
		int bad = 0;

		if (!eq)
			goto bad;
		*eq = '\0';
		v = eq + 1;
		if (!strcmp(k, "dgid")) {
			bad = parse_gid(v, dgid);
			done = true;
		} else if (!strcmp(k, "sgid")) {
			bad = parse_gid(v, sgid);
			done = true;
		}
		for (size_t i = 0; !done && i < sizeof(nums) / sizeof(nums[0]);
		     i++) {
			if (strcmp(k, nums[i].key))
				continue;
			bad = parse_u64(v, vals[nums[i].off]) ||
			      *vals[nums[i].off] > nums[i].max;
			done = true;
		}
		if (bad || !done)
			goto bad;
	}
	put64(r.wire + 0, sid);
	memcpy(r.wire + 8, dgid, 16);
	memcpy(r.wire + 24, sgid, 16);
	put16(r.wire + 40, dlid);
	put16(r.wire + 42, slid);
	put32(r.wire + 44, (uint32_t)(flow << 8 | hop));
	r.wire[48] = tclass;
	r.wire[49] = reversible << 7 | numbpath;
	put16(r.wire + 50, pkey);
	put16(r.wire + 52, sl);
	r.wire[54] = 2 << 6 | mtu;	/* selector 2: exactly */
	r.wire[55] = 2 << 6 | rate;
	r.wire[56] = 2 << 6 | plt;
	r.wire[57] = pref;
	return add_record(&r);
bad:
	fprintf(stderr, "records line %d: bad field '%s'\n", lineno, tok);
	return -1;
}

static int load_records(const char *path)
{
	char line[1024];
	int lineno = 0, ret = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char *p = line, *nl = strchr(line, '\n');

		lineno++;
		if (nl)
			*nl = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (!strncmp(p, "sr ", 3))
			ret = parse_sr(p + 3, lineno);
		else if (!strncmp(p, "pr ", 3))
			ret = parse_pr(p + 3, lineno);
		else {
			fprintf(stderr, "%s:%d: unknown record type\n", path,
				lineno);
			ret = -1;
		}
	}
	fclose(f);
	return ret;
}

static int parse_mode(const char *s, enum mode *m)
{
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]);
	     i++) {
		if (!strcmp(s, mode_names[i])) {
			*m = i;
			return 0;
		}
	}
	return -1;
}

/* Re-read the control file: its settings override the defaults. */
static void read_control(struct control *c)
{
	char line[256];
	FILE *f;

	*c = defaults;
	if (!control_path)
		return;
	f = fopen(control_path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n'), *eq = strchr(line, '=');
		uint64_t v;

		if (nl)
			*nl = '\0';
		if (!eq || line[0] == '#')
			continue;
		*eq = '\0';
		if (!strcmp(line, "mode")) {
			if (parse_mode(eq + 1, &c->mode))
				fprintf(stderr, "control: bad mode %s\n",
					eq + 1);
		} else if (!parse_u64(eq + 1, &v)) {
			if (!strcmp(line, "delay_ms"))
				c->delay_ms = v;
			else if (!strcmp(line, "status"))
				c->status = v;
			else if (!strcmp(line, "drop"))
				c->drop = v;
			else if (!strcmp(line, "empty_first"))
				c->empty_first = v;
		}
	}
	fclose(f);
}

static void write_count(void)
{
	char tmp[4096];
	FILE *f;

	if (!count_path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", count_path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%lu\n", mad_count);
	if (fclose(f) == 0)
		rename(tmp, count_path);
}

static bool sr_matches(const uint8_t *rec, const uint8_t *q, uint64_t cm)
{
	if ((cm & SR_CM_ID) && memcmp(rec, q, 8))
		return false;
	if ((cm & SR_CM_GID) && memcmp(rec + 8, q + 8, 16))
		return false;
	if ((cm & SR_CM_PKEY) && memcmp(rec + 24, q + 24, 2))
		return false;
	if ((cm & SR_CM_NAME) &&
	    strncmp((const char *)rec + 48, (const char *)q + 48, 64))
		return false;
	return true;
}

static bool pr_matches(const uint8_t *rec, const uint8_t *q, uint64_t cm)
{
	if ((cm & PR_CM_DGID) && memcmp(rec + 8, q + 8, 16))
		return false;
	if ((cm & PR_CM_SGID) && memcmp(rec + 24, q + 24, 16))
		return false;
	if ((cm & PR_CM_DLID) && memcmp(rec + 40, q + 40, 2))
		return false;
	if ((cm & PR_CM_SLID) && memcmp(rec + 42, q + 42, 2))
		return false;
	if ((cm & PR_CM_PKEY) && memcmp(rec + 50, q + 50, 2))
		return false;
	return true;
}

static void timespec_add_ms(struct timespec *t, unsigned int ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

static long ms_until(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (t->tv_sec - now.tv_sec) * 1000 +
	       (t->tv_nsec - now.tv_nsec) / 1000000;
}

static void send_reply(void *umad, int len, bool rmpp)
{
	int ret = umad_send(portid, agent, umad, len, rmpp ? 1000 : 0,
			    rmpp ? 3 : 0);

	if (ret < 0)
		fprintf(stderr, "umad_send: %s\n", strerror(-ret));
	else if (verbose)
		fprintf(stderr, "sent %d bytes%s\n", len, rmpp ? " (RMPP)" : "");
	free(umad);
}

static void queue_reply(void *umad, int len, bool rmpp, unsigned int delay)
{
	struct pending *p, **pp;

	if (!delay) {
		send_reply(umad, len, rmpp);
		return;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		free(umad);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &p->due);
	timespec_add_ms(&p->due, delay);
	p->umad = umad;
	p->len = len;
	p->rmpp = rmpp;
	/* Keep the list sorted by due time (delays may differ). */
	for (pp = &pending_head; *pp && ms_until(&(*pp)->due) <= (long)delay;
	     pp = &(*pp)->next)
		;
	p->next = *pp;
	*pp = p;
}

static void flush_due(void)
{
	while (pending_head && ms_until(&pending_head->due) <= 0) {
		struct pending *p = pending_head;

		pending_head = p->next;
		send_reply(p->umad, p->len, p->rmpp);
		free(p);
	}
}

/* Build and queue the answer to one request MAD. */
static void queue_answer(const void *req_umad, const uint8_t *req,
			 const struct control *c)
{
	uint16_t attr = get16(req + OFF_ATTR_ID);
	uint8_t method = req[OFF_METHOD];
	uint64_t cm = get64(req + OFF_COMP_MASK);
	bool table = method == METHOD_GET_TABLE;
	size_t rec_len, nmatch = 0, data_len, len;
	uint16_t status = 0, attr_offset;
	ib_mad_addr_t *addr;
	uint8_t *mad;
	void *umad;

	if (attr == ATTR_SERVICE_REC)
		rec_len = SR_LEN;
	else if (attr == ATTR_PATH_REC)
		rec_len = PR_LEN;
	else if (attr == ATTR_CLASS_PORT_INFO && method == METHOD_GET)
		rec_len = CPI_LEN;
	else
		rec_len = 0;
	if (!rec_len || (method != METHOD_GET && !table))
		status = STATUS_BAD_METHOD_ATTR;

	/* Worst case size: every record matches. */
	len = SA_HDR_LEN + (nrecords + 1) * SR_LEN + SA_DATA_LEN;
	umad = calloc(1, umad_size() + len);
	if (!umad)
		return;
	mad = umad_get_mad(umad);
	memcpy(mad, req, SA_HDR_LEN);
	data_len = 0;

	if (!status && attr == ATTR_CLASS_PORT_INFO) {
		mad[OFF_DATA + 0] = 1;			/* BaseVersion */
		mad[OFF_DATA + 1] = SA_CLASS_VERSION;	/* ClassVersion */
		mad[OFF_DATA + 7] = 18;			/* RespTimeValue */
		data_len = CPI_LEN;
		nmatch = 1;
	} else if (!status && c->mode != MODE_EMPTY &&
		   !(attr == ATTR_SERVICE_REC && ++sr_count <= c->empty_first)) {
		for (size_t i = 0; i < nrecords; i++) {
			const uint8_t *w = records[i].wire;
			bool m = attr == records[i].attr &&
				 (attr == ATTR_SERVICE_REC ?
				  sr_matches(w, req + OFF_DATA, cm) :
				  pr_matches(w, req + OFF_DATA, cm));

			if (!m)
				continue;
			memcpy(mad + OFF_DATA + data_len, w, rec_len);
			data_len += rec_len;
			nmatch++;
			if (!table)
				break;
		}
	}
	if (!status && !nmatch && !table)
		status = STATUS_NO_RECORDS;
	if (c->mode == MODE_STATUS) {
		status = c->status ? c->status : STATUS_REQ_INVALID;
		data_len = 0;
		nmatch = 0;
	}
	attr_offset = rec_len / 8;

	switch (c->mode) {
	case MODE_TRUNCATE:
		if (table && data_len)
			data_len -= rec_len / 2;
		else
			attr_offset = (SA_DATA_LEN + 8) / 8;
		break;
	case MODE_BADATTR:
		attr = attr == ATTR_SERVICE_REC ? ATTR_PATH_REC :
						  ATTR_SERVICE_REC;
		break;
	case MODE_BADOFFSET:
		attr_offset = attr_offset ? attr_offset - 1 : 1;
		break;
	case MODE_BADMETHOD:
		method = table ? METHOD_GET : METHOD_GET_TABLE;
		break;
	case MODE_BADTID:
		mad[OFF_TID + 7] ^= 0x5a;
		break;
	case MODE_OVERCOUNT:
		if (table)
			data_len += 3;
		break;
	default:
		break;
	}

	mad[OFF_METHOD] = c->mode == MODE_BADMETHOD ? method : method | 0x80;
	put16(mad + OFF_STATUS, status);
	put16(mad + OFF_ATTR_ID, attr);
	put16(mad + OFF_ATTR_OFFSET, attr_offset);
	if (table) {
		/* RMPP version 1, DATA, ACTIVE: the kernel segments it. */
		mad[OFF_RMPP_VERSION] = 1;
		mad[OFF_RMPP_TYPE] = 1;
		mad[OFF_RMPP_FLAGS] = 0x01;
		len = SA_HDR_LEN + data_len;
	} else {
		memset(mad + OFF_RMPP_VERSION, 0, 12);
		len = MAD_SIZE;
	}

	/* Reply to where the request came from, GRH included. */
	addr = umad_get_mad_addr(umad);
	*addr = *(const ib_mad_addr_t *)umad_get_mad_addr((void *)req_umad);
	addr->qkey = htobe32(QP1_QKEY);

	if (verbose)
		fprintf(stderr,
			"req method 0x%02x attr 0x%04x cm 0x%" PRIx64
			" -> %zu records, status 0x%04x, mode %s\n",
			req[OFF_METHOD], get16(req + OFF_ATTR_ID), cm, nmatch,
			status, mode_names[c->mode]);
	queue_reply(umad, len, table, c->mode == MODE_SLOW || c->delay_ms ?
				      c->delay_ms : 0);
}

/* -T: print every record's wire bytes in hex, one record per line. */
static void dump_records(void)
{
	for (size_t i = 0; i < nrecords; i++) {
		size_t n = records[i].attr == ATTR_SERVICE_REC ? SR_LEN : PR_LEN;

		printf("%s ", records[i].attr == ATTR_SERVICE_REC ? "sr" : "pr");
		for (size_t j = 0; j < n; j++)
			printf("%02x", records[i].wire[j]);
		printf("\n");
	}
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		want_dump = 1;
	else if (sig == SIGUSR2)
		want_reset = 1;
	else
		want_exit = 1;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s -d DEV [-p PORT] -f RECORDS [-c CONTROL] [-n COUNTFILE]\n"
		"          [-m MODE] [-D DELAY_MS] [-S STATUS] [-P PIDFILE] [-v]\n"
		"       %s -T -f RECORDS\n",
		prog, prog);
}

int main(int argc, char **argv)
{
	long method_mask[16 / sizeof(long)] = { 0 };
	const char *dev = NULL, *recfile = NULL, *pidfile = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	size_t buf_len = umad_size() + 8192;
	int port = 1, opt;
	void *buf;

	while ((opt = getopt(argc, argv, "d:p:f:c:n:m:D:S:P:vTh")) != -1) {
		uint64_t v;

		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'f':
			recfile = optarg;
			break;
		case 'c':
			control_path = optarg;
			break;
		case 'n':
			count_path = optarg;
			break;
		case 'm':
			if (parse_mode(optarg, &defaults.mode)) {
				fprintf(stderr, "bad mode %s\n", optarg);
				return 2;
			}
			break;
		case 'D':
			if (parse_u64(optarg, &v))
				return 2;
			defaults.delay_ms = v;
			break;
		case 'S':
			if (parse_u64(optarg, &v) || v > 0xffff)
				return 2;
			defaults.status = v;
			break;
		case 'P':
			pidfile = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'T':
			dump_only = true;
			break;
		default:
			print_usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if ((!dev && !dump_only) || !recfile) {
		print_usage(argv[0]);
		return 2;
	}
	if (load_records(recfile))
		return 1;
	if (dump_only) {
		dump_records();
		return 0;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (umad_init() < 0) {
		fprintf(stderr, "umad_init failed\n");
		return 1;
	}
	portid = umad_open_port(dev, port);
	if (portid < 0) {
		fprintf(stderr, "umad_open_port(%s, %d): %s\n", dev, port,
			strerror(-portid));
		return 1;
	}
	/* Bits are methods: Get (0x01) and GetTable (0x12). */
	((uint8_t *)method_mask)[METHOD_GET / 8] |= 1 << (METHOD_GET % 8);
	((uint8_t *)method_mask)[METHOD_GET_TABLE / 8] |=
		1 << (METHOD_GET_TABLE % 8);
	agent = umad_register(portid, MGMT_CLASS_SA, SA_CLASS_VERSION, 1,
			      method_mask);
	if (agent < 0) {
		fprintf(stderr, "umad_register: %s\n", strerror(-agent));
		return 1;
	}
	buf = calloc(1, buf_len);
	if (!buf)
		return 1;
	write_count();
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", getpid());
			fclose(f);
		}
	}
	fprintf(stderr, "sa_responder: %zu records on %s port %d, agent %d\n",
		nrecords, dev, port, agent);

	while (!want_exit) {
		struct pollfd pfd = { .fd = umad_get_fd(portid),
				      .events = POLLIN };
		int timeout = -1, len, ret;
		struct control c;
		uint8_t *mad;

		if (want_dump) {
			want_dump = 0;
			printf("mads %lu\n", mad_count);
			fflush(stdout);
		}
		if (want_reset) {
			want_reset = 0;
			mad_count = 0;
			sr_count = 0;
			write_count();
		}
		flush_due();
		if (pending_head) {
			long ms = ms_until(&pending_head->due);

			timeout = ms < 0 ? 0 : (int)ms + 1;
		}
		ret = poll(&pfd, 1, timeout);
		if (ret <= 0)
			continue;
		len = buf_len - umad_size();
		ret = umad_recv(portid, buf, &len, 0);
		if (ret < 0) {
			if (ret != -EINTR && ret != -EAGAIN &&
			    ret != -ETIMEDOUT)
				fprintf(stderr, "umad_recv: %s\n",
					strerror(-ret));
			continue;
		}
		if (umad_status(buf)) {
			/* A send of ours completed with an error. */
			if (verbose)
				fprintf(stderr, "send status %d\n",
					umad_status(buf));
			continue;
		}
		mad = umad_get_mad(buf);
		if (len < SA_HDR_LEN || (mad[OFF_METHOD] & 0x80))
			continue;
		mad_count++;
		write_count();
		read_control(&c);
		if (c.mode == MODE_SILENT || mad_count <= c.drop)
			continue;
		queue_answer(buf, mad, &c);
	}
	umad_unregister(portid, agent);
	umad_close_port(portid);
	umad_done();
	free(buf);
	free(records);
	return 0;
}
