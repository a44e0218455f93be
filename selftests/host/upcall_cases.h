/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The DNS upcall protocol (uapi/rdma/rdma_addrinfo_upcall.h) as both of
 * its sides write and read it, in one table for both: dns_batch_unit runs
 * the module's side (kernel/dns_batch.c) on these cases, dns_helper_unit
 * the helper's (user/dns-helper).
 *
 *  - A batch: the names the module is asked for (in order, repeats
 *    included) and the callout it writes; the helper reads the callout
 *    back into the same names and, with its unit's stand-in lookups
 *    (every name 192.0.2.1, "nx*" names NXDOMAIN, DNS without TTLs: the
 *    helper's default TTLs; with AI_CANONNAME, "alias*" names the
 *    canonical name "real*" and "weird*" names one the module would
 *    refuse, other names none), writes the answer; the module reads that
 *    answer into the results, name by name.
 *  - The name grammar: every name the module would put in a batch, the
 *    helper takes (one it refused would fail the whole batch), and the
 *    names outside it neither takes.
 */
#ifndef RAI_UPCALL_CASES_H
#define RAI_UPCALL_CASES_H

#include <errno.h>
#include <stddef.h>

#define UPCALL_CASE_NAMES	4

/* What the module makes of a name's line (ttl: seconds it is kept). */
struct upcall_result {
	const char *name;
	int status;		/* 0 or -errno */
	unsigned int ttl;
	const char *list;	/* NULL: none */
};

struct upcall_batch_case {
	const char *what;
	const char *asked[UPCALL_CASE_NAMES + 1];	/* NULL-ended */
	const char *callout;
	const char *answer;
	struct upcall_result got[UPCALL_CASE_NAMES];	/* callout order */
};

static const struct upcall_batch_case upcall_batch_cases[] = {
	{
		"two names",
		{ "a.rai.test", "b.rai.test", NULL },
		"rai-batch a.rai.test b.rai.test",
		"rai-batch\n"
		"a.rai.test 0 5 192.0.2.1\n"
		"b.rai.test 0 5 192.0.2.1\n",
		{ { "a.rai.test", 0, 5, "192.0.2.1" },
		  { "b.rai.test", 0, 5, "192.0.2.1" } },
	},
	{
		"a name asked twice goes once",
		{ "a.rai.test", "b.rai.test", "a.rai.test", NULL },
		"rai-batch a.rai.test b.rai.test",
		"rai-batch\n"
		"a.rai.test 0 5 192.0.2.1\n"
		"b.rai.test 0 5 192.0.2.1\n",
		{ { "a.rai.test", 0, 5, "192.0.2.1" },
		  { "b.rai.test", 0, 5, "192.0.2.1" } },
	},
	{
		"a missing name beside a found one",
		{ "ok.rai.test", "nx.rai.test", NULL },
		"rai-batch ok.rai.test nx.rai.test",
		"rai-batch\n"
		"ok.rai.test 0 5 192.0.2.1\n"
		"nx.rai.test 6 5 -\n",
		{ { "ok.rai.test", 0, 5, "192.0.2.1" },
		  { "nx.rai.test", -ENXIO, 5, NULL } },
	},
	{
		"every character a batch may carry",
		{ "A-1_b.Rai.test", "x", NULL },
		"rai-batch A-1_b.Rai.test x",
		"rai-batch\n"
		"A-1_b.Rai.test 0 5 192.0.2.1\n"
		"x 0 5 192.0.2.1\n",
		{ { "A-1_b.Rai.test", 0, 5, "192.0.2.1" },
		  { "x", 0, 5, "192.0.2.1" } },
	},
	{
		"a canonical name rides with the addresses, a bad one not",
		{ "alias.rai.test", "weird.rai.test", NULL },
		"rai-batch alias.rai.test weird.rai.test",
		"rai-batch\n"
		"alias.rai.test 0 5 192.0.2.1,canon=real.rai.test\n"
		"weird.rai.test 0 5 192.0.2.1\n",
		{ { "alias.rai.test", 0, 5, "192.0.2.1,canon=real.rai.test" },
		  { "weird.rai.test", 0, 5, "192.0.2.1" } },
	},
};

/* Names the module puts in a batch: the helper must take each. */
static const char *const upcall_batchable_names[] = {
	"a.rai.test", "A-1_b.Rai.test", "x", "-a", "a..b", "_srv._tcp.a.test",
	"0123456789.example",
};

/*
 * Names never in a callout: the module refuses them at RESOLVE
 * (rai_dns_name_valid(), the ABI header's grammar), and the helper looks
 * none of them up, not even as anyone's "rai:NAME" key.
 */
static const char *const upcall_unbatchable_names[] = {
	"a b", "a\nb", "a#b", "a,b", "a;b", "a:b", "a/b", "\xc3\xa4.example",
};

#define UPCALL_CASES(a)	(sizeof(a) / sizeof((a)[0]))

/* @s for a one-line message: control characters as '?'. */
static inline const char *upcall_printable(const char *s, char *buf,
					   size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

#endif /* RAI_UPCALL_CASES_H */
