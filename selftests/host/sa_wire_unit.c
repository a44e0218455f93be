// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of kernel/sa_wire.c: builds well-formed and hostile SA
 * responses segment by segment (each segment a separate 256-byte heap
 * buffer, so that AddressSanitizer catches any over-read) and checks the
 * status the parser gives each.  Ends with a random-header fuzz loop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_wire.h"
#include "unit_check.h"

struct resp {
	u8 *seg[64];
	unsigned int nseg;
	int mad_len;
};

static void put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void resp_free(struct resp *r)
{
	for (unsigned int i = 0; i < r->nseg; i++)
		free(r->seg[i]);
	memset(r, 0, sizeof(*r));
}

/* Record i of a test table: bytes derived from i and the offset. */
static u8 rec_byte(unsigned int i, unsigned int off)
{
	return (u8)(i * 31 + off * 7 + 1);
}

/*
 * Segment a response as the kernel's RMPP receiver would hand it over:
 * nrec records of stride bytes (rec_len meaningful), data trimmed by
 * trim bytes at the end.
 */
static void make_table(struct resp *r, const struct rai_sa_req *req,
		       unsigned int nrec, unsigned int stride, int trim)
{
	unsigned int rec_len = rai_sa_req_rec_len(req);
	size_t data_len = (size_t)nrec * stride, i;
	u8 *data = calloc(1, data_len + IB_MGMT_SA_DATA);

	for (unsigned int n = 0; n < nrec; n++)
		for (unsigned int b = 0; b < rec_len; b++)
			data[n * stride + b] = rec_byte(n, b);
	data_len -= trim;
	memset(r, 0, sizeof(*r));
	r->nseg = data_len ? (data_len + IB_MGMT_SA_DATA - 1) / IB_MGMT_SA_DATA
			   : 1;
	r->mad_len = IB_MGMT_SA_HDR + data_len;
	for (i = 0; i < r->nseg; i++) {
		u8 *s = calloc(1, IB_MGMT_MAD_SIZE);
		size_t left = data_len - i * IB_MGMT_SA_DATA;

		s[0] = 1;
		s[1] = IB_MGMT_CLASS_SUBN_ADM;
		s[2] = IB_SA_CLASS_VERSION;
		s[3] = req->method | IB_MGMT_METHOD_RESP;
		put_be16(s + RAI_SA_OFF_ATTR_ID, req->attr_id);
		s[RAI_SA_OFF_RMPP_VERSION] = 1;
		s[RAI_SA_OFF_RMPP_TYPE] = 1;
		s[RAI_SA_OFF_RMPP_FLAGS] = 0x01 | (i == 0 ? 0x02 : 0) |
					   (i == r->nseg - 1 ? 0x04 : 0);
		put_be32(s + RAI_SA_OFF_RMPP_SEG, i + 1);
		put_be16(s + RAI_SA_OFF_ATTR_OFFSET, stride / 8);
		if (data_len)
			memcpy(s + IB_MGMT_SA_HDR, data + i * IB_MGMT_SA_DATA,
			       left < IB_MGMT_SA_DATA ? left : IB_MGMT_SA_DATA);
		r->seg[i] = s;
	}
	free(data);
}

static void make_get(struct resp *r, const struct rai_sa_req *req,
		     u16 status)
{
	u8 *s = calloc(1, IB_MGMT_MAD_SIZE);

	memset(r, 0, sizeof(*r));
	s[0] = 1;
	s[1] = IB_MGMT_CLASS_SUBN_ADM;
	s[2] = IB_SA_CLASS_VERSION;
	s[3] = req->method | IB_MGMT_METHOD_RESP;
	put_be16(s + RAI_SA_OFF_STATUS, status);
	put_be16(s + RAI_SA_OFF_ATTR_ID, req->attr_id);
	put_be16(s + RAI_SA_OFF_ATTR_OFFSET, RAI_SA_PR_LEN / 8);
	for (unsigned int b = 0; b < RAI_SA_PR_LEN; b++)
		s[IB_MGMT_SA_HDR + b] = rec_byte(0, b);
	r->seg[0] = s;
	r->nseg = 1;
	r->mad_len = IB_MGMT_MAD_SIZE;
}

static int check_resp(const struct rai_sa_req *req, struct resp *r,
		      struct rai_sa_resp *out)
{
	return rai_sa_resp_check(req, (const u8 *const *)r->seg, r->nseg,
				 r->mad_len, out);
}

static int records_ok(const struct rai_sa_req *req, struct resp *r,
		      const struct rai_sa_resp *out, unsigned int max)
{
	unsigned int rec_len = rai_sa_req_rec_len(req);
	u8 *dst = malloc((size_t)rec_len * (max ? max : 1));
	unsigned int n = rai_sa_resp_copy(req, out, (const u8 *const *)r->seg,
					  r->nseg, dst, max);
	int ok = n == (out->nrec < max ? out->nrec : max);

	for (unsigned int i = 0; ok && i < n; i++)
		for (unsigned int b = 0; b < rec_len; b++)
			ok &= dst[i * rec_len + b] == rec_byte(i, b);
	free(dst);
	return ok;
}

static void test_requests(void)
{
	struct rai_sa_req req;
	u8 mad[IB_MGMT_MAD_SIZE] = { 0 };
	u8 dgid[16] = { 0xfd, [15] = 2 }, sgid[16] = { 0xfd, [15] = 1 };

	rai_sa_req_service(&req, 0x1122334455667788ull, true, NULL, 0);
	rai_sa_req_to_mad(&req, 0, mad);
	CHECK(mad[3] == 0x12 && mad[16] == 0 && mad[17] == 0x31 &&
	      mad[55] == 1 && mad[56] == 0x11 && mad[63] == 0x88,
	      "service request by ID");
	memset(mad, 0, sizeof(mad));
	rai_sa_req_service(&req, 0, false, "svc-a", 5);
	rai_sa_req_to_mad(&req, 0, mad);
	CHECK(mad[55] == 0x40 && !memcmp(mad + 56 + 48, "svc-a", 6) &&
	      !mad[56], "service request by name");
	memset(mad, 0, sizeof(mad));
	rai_sa_req_path(&req, dgid, sgid, 0xffff);
	rai_sa_req_to_mad(&req, 0, mad);
	CHECK(mad[3] == 0x01 && mad[17] == 0x35 && mad[54] == 0x38 &&
	      mad[55] == 0x0c && mad[56 + 8] == 0xfd && mad[56 + 23] == 2 &&
	      mad[56 + 39] == 1 && mad[56 + 49] == 0x81 &&
	      mad[56 + 50] == 0xff, "path request");
}

static void test_tables(void)
{
	struct rai_sa_resp out;
	struct rai_sa_req sr;
	struct resp r;
	int ret;

	rai_sa_req_service(&sr, 1, true, NULL, 0);

	make_table(&r, &sr, 14, 176, 0);
	ret = check_resp(&sr, &r, &out);
	CHECK(ret == 0 && out.nrec == 14 && r.nseg == 13,
	      "14 records: %d %u", ret, out.nrec);
	CHECK(records_ok(&sr, &r, &out, 100), "14 records copied");
	CHECK(records_ok(&sr, &r, &out, 3), "3 of 14 copied");
	resp_free(&r);

	make_table(&r, &sr, 1, 176, 0);
	CHECK(check_resp(&sr, &r, &out) == 0 && out.nrec == 1 &&
	      records_ok(&sr, &r, &out, 1), "1 record");
	resp_free(&r);

	make_table(&r, &sr, 5, 184, 0);	/* larger stride: future fields */
	CHECK(check_resp(&sr, &r, &out) == 0 && out.nrec == 5 &&
	      records_ok(&sr, &r, &out, 5), "stride 184");
	resp_free(&r);

	make_table(&r, &sr, 0, 176, 0);
	CHECK(check_resp(&sr, &r, &out) == -ENXIO, "empty table");
	resp_free(&r);

	make_table(&r, &sr, 3, 176, 88);
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "truncated mid-record");
	resp_free(&r);

	make_table(&r, &sr, 3, 176, -3);
	CHECK(check_resp(&sr, &r, &out) == -EPROTO,
	      "3 bytes beyond last record");
	resp_free(&r);

	make_table(&r, &sr, 3, 176, 0);
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 21);
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "stride below record size");
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 0);
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "attribute offset 0");
	resp_free(&r);

	make_table(&r, &sr, 3, 176, 0);
	r.seg[0][RAI_SA_OFF_ATTR_ID + 1] = 0x35;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "wrong attribute");
	r.seg[0][RAI_SA_OFF_ATTR_ID + 1] = 0x31;
	r.seg[0][3] = 0x81;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "wrong method");
	r.seg[0][3] = 0x92;
	r.seg[0][2] = 1;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "wrong class version");
	r.seg[0][2] = 2;
	r.seg[0][1] = 0x81;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "wrong class");
	r.seg[0][1] = 3;
	CHECK(check_resp(&sr, &r, &out) == 0, "restored");
	put_be32(r.seg[1] + RAI_SA_OFF_RMPP_SEG, 3);
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "segment out of order");
	put_be32(r.seg[1] + RAI_SA_OFF_RMPP_SEG, 2);
	r.seg[2][RAI_SA_OFF_RMPP_VERSION] = 2;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "RMPP version 2");
	r.seg[2][RAI_SA_OFF_RMPP_VERSION] = 1;
	r.seg[1][RAI_SA_OFF_RMPP_TYPE] = 2;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "RMPP type ACK");
	r.seg[1][RAI_SA_OFF_RMPP_TYPE] = 1;
	r.seg[0][RAI_SA_OFF_RMPP_FLAGS] &= ~0x01;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "RMPP not active");
	r.seg[0][RAI_SA_OFF_RMPP_FLAGS] |= 0x01;
	r.seg[1][RAI_SA_OFF_RMPP_FLAGS] |= 0x02;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "FIRST on segment 2");
	r.seg[1][RAI_SA_OFF_RMPP_FLAGS] &= ~0x02;
	r.nseg = 2;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "length claims 3 segments");
	r.nseg = 3;
	r.mad_len = 40;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "mad_len below header");
	r.mad_len = IB_MGMT_SA_HDR + 3 * 176 + 200;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "mad_len beyond segments");
	r.mad_len = IB_MGMT_SA_HDR + 3 * 176;
	put_be16(r.seg[0] + RAI_SA_OFF_STATUS, 0x0300);
	CHECK(check_resp(&sr, &r, &out) == -ENXIO, "status no records");
	put_be16(r.seg[0] + RAI_SA_OFF_STATUS, 0x0200);
	CHECK(check_resp(&sr, &r, &out) == -EREMOTEIO,
	      "status invalid request");
	put_be16(r.seg[0] + RAI_SA_OFF_STATUS, 0x000c);
	CHECK(check_resp(&sr, &r, &out) == -EREMOTEIO, "status unsupported");
	resp_free(&r);

	/* A non-RMPP GetTableResp: the MAD layer gives 256 bytes. */
	make_table(&r, &sr, 1, 176, 0);
	r.seg[0][RAI_SA_OFF_RMPP_VERSION] = 0;
	r.seg[0][RAI_SA_OFF_RMPP_FLAGS] = 0;
	r.mad_len = IB_MGMT_MAD_SIZE;
	CHECK(check_resp(&sr, &r, &out) == -EPROTO, "non-RMPP table");
	resp_free(&r);
	CHECK(rai_sa_resp_check(&sr, NULL, 0, 56, &out) == -EPROTO,
	      "no segment");
}

static void test_get(void)
{
	u8 dgid[16] = { 0xfd, [15] = 2 }, sgid[16] = { 0xfd, [15] = 1 };
	struct rai_sa_resp out;
	struct rai_sa_req pr;
	struct resp r;

	rai_sa_req_path(&pr, dgid, sgid, 0);
	make_get(&r, &pr, 0);
	CHECK(check_resp(&pr, &r, &out) == 0 && out.nrec == 1 &&
	      records_ok(&pr, &r, &out, 1), "path record");
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 0);
	CHECK(check_resp(&pr, &r, &out) == 0, "path record, offset 0");
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 26);
	CHECK(check_resp(&pr, &r, &out) == -EPROTO, "record beyond the MAD");
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 7);
	CHECK(check_resp(&pr, &r, &out) == -EPROTO, "offset below PathRecord");
	put_be16(r.seg[0] + RAI_SA_OFF_ATTR_OFFSET, 8);
	r.mad_len = 120;
	CHECK(check_resp(&pr, &r, &out) == -EPROTO, "short Get response");
	r.mad_len = IB_MGMT_MAD_SIZE;
	r.seg[0][RAI_SA_OFF_RMPP_FLAGS] = 0x07;
	r.seg[0][RAI_SA_OFF_RMPP_VERSION] = 1;
	CHECK(check_resp(&pr, &r, &out) == -EPROTO, "RMPP Get response");
	resp_free(&r);
	make_get(&r, &pr, 0x0300);
	CHECK(check_resp(&pr, &r, &out) == -ENXIO, "no path");
	resp_free(&r);
	make_get(&r, &pr, 0x0400);
	CHECK(check_resp(&pr, &r, &out) == -EREMOTEIO, "too many records");
	resp_free(&r);
}

/* Random headers and lengths: no crash, no over-read, sane results. */
static void test_fuzz_headers(void)
{
	unsigned int iter, bad = 0;
	struct rai_sa_req sr;

	rai_sa_req_service(&sr, 1, true, NULL, 0);
	srandom(1);
	for (iter = 0; iter < 200000; iter++) {
		struct rai_sa_resp out;
		struct resp r;
		int ret;

		make_table(&r, &sr, random() % 12, 176, 0);
		for (int k = random() % 4; k >= 0; k--) {
			unsigned int s = random() % r.nseg;
			unsigned int off = random() % IB_MGMT_SA_HDR;

			r.seg[s][off] = random();
		}
		if (random() % 4 == 0)
			r.mad_len = random() % (IB_MGMT_SA_HDR + 64 * 200);
		if (random() % 8 == 0 && r.nseg > 1)
			r.nseg -= 1 + random() % (r.nseg - 1);
		ret = check_resp(&sr, &r, &out);
		if (ret == 0) {
			u8 *dst = malloc(176 * (out.nrec ? out.nrec : 1));

			if (out.nrec == 0 || (size_t)out.nrec * out.stride >
			    (size_t)r.nseg * IB_MGMT_SA_DATA)
				bad++;
			rai_sa_resp_copy(&sr, &out, (const u8 *const *)r.seg,
					 r.nseg, dst, out.nrec);
			free(dst);
		} else if (ret != -EPROTO && ret != -ENXIO &&
			   ret != -EREMOTEIO) {
			bad++;
		}
		/* Free what make_table allocated, whatever nseg became. */
		for (unsigned int i = 0; i < 64 && r.seg[i]; i++)
			free(r.seg[i]);
	}
	CHECK(!bad, "fuzz: %u inconsistent results", bad);
}

/* The completion statuses sa_client.h and the ABI header allow. */
static bool abi_status(int st)
{
	switch (st) {
	case -ENXIO: case -ETIMEDOUT: case -EHOSTUNREACH: case -EPROTO:
	case -EREMOTEIO: case -ENODEV: case -ENOMEM:
		return true;
	}
	return false;
}

/* A MAD given back without an answer never ends as -ECANCELED. */
static void test_send_status(void)
{
	static const char *const names[] = {
		"no answer", "timeout", "flushed", "send error",
	};
	enum rai_sa_send_end end;
	int gone, st;

	for (end = RAI_SA_SEND_NO_ANSWER; end <= RAI_SA_SEND_ERROR; end++) {
		for (gone = 0; gone <= 1; gone++) {
			st = rai_sa_send_status(end, gone);
			CHECK(abi_status(st), "send %s, device %s: status %d",
			      names[end], gone ? "gone" : "there", st);
		}
	}
	CHECK(rai_sa_send_status(RAI_SA_SEND_FLUSHED, true) == -ENODEV,
	      "flushed as the device goes: %d",
	      rai_sa_send_status(RAI_SA_SEND_FLUSHED, true));
	CHECK(rai_sa_send_status(RAI_SA_SEND_TIMEOUT, false) == -ETIMEDOUT,
	      "timeout: %d", rai_sa_send_status(RAI_SA_SEND_TIMEOUT, false));
}

/*
 * The SA address of a port is built from its state without the lock; a
 * port event (rai_sa_port_reset(): gen + 1) or a new sa_gid during the
 * build makes it stale.
 */
static void test_addr_install(void)
{
	struct rai_sa_addr_gen port = { .gen = 5, .gid_gen = 2 };
	enum rai_sa_addr_verdict v;

	/* Quiet port: installed, generation unchanged. */
	v = rai_sa_addr_install(&port, 5, 2, 2);
	CHECK(v == RAI_SA_ADDR_INSTALL && port.gen == 5 && port.gid_gen == 2,
	      "quiet port: verdict %d gen %u", v, port.gen);

	/* SM or LID change while building: not under the new generation. */
	port.gen = 6;
	v = rai_sa_addr_install(&port, 5, 2, 2);
	CHECK(v == RAI_SA_ADDR_STALE,
	      "port event during the build: verdict %d (stale address installed under gen %u)",
	      v, port.gen);
	CHECK(port.gen == 6 && port.gid_gen == 2,
	      "a stale build changed the port: gen %u gid_gen %d", port.gen,
	      port.gid_gen);

	/* Built again after the event: installed. */
	v = rai_sa_addr_install(&port, 6, 2, 2);
	CHECK(v == RAI_SA_ADDR_INSTALL && port.gen == 6,
	      "rebuilt after the event: verdict %d gen %u", v, port.gen);

	/* A new sa_gid: installed, new generation (the cache goes). */
	v = rai_sa_addr_install(&port, 6, 3, 3);
	CHECK(v == RAI_SA_ADDR_INSTALL_NEW_SA && port.gen == 7 &&
	      port.gid_gen == 3,
	      "new sa_gid: verdict %d gen %u gid_gen %d", v, port.gen,
	      port.gid_gen);

	/* sa_gid changed again while building for the previous one. */
	v = rai_sa_addr_install(&port, 7, 3, 4);
	CHECK(v == RAI_SA_ADDR_STALE && port.gen == 7 && port.gid_gen == 3,
	      "sa_gid changed during the build: verdict %d gen %u gid_gen %d",
	      v, port.gen, port.gid_gen);

	/* Generations wrap. */
	port.gen = 0xffffffffu;
	port.gid_gen = 4;
	v = rai_sa_addr_install(&port, 0xffffffffu, 5, 5);
	CHECK(v == RAI_SA_ADDR_INSTALL_NEW_SA && port.gen == 0,
	      "wrap: verdict %d gen %u", v, port.gen);
}

int main(void)
{
	test_requests();
	test_tables();
	test_get();
	test_fuzz_headers();
	test_send_status();
	test_addr_install();
	return UNIT_SUMMARY();
}
