// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of kernel/dns_batch.c: which names a batch may carry,
 * the names of a batch (each once),
 * the callout information the helper reads, and the helper's answer as
 * the module parses it, well-formed and hostile (every -EPROTO path, with
 * each payload in a heap buffer of its own size, so that AddressSanitizer
 * catches any over-read).  Ends with a random-payload fuzz loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns_batch.h"
#include "unit_check.h"
#include "upcall_cases.h"

#define NOW	1000000

/* Stand-ins for requests: only their addresses matter to the batch. */
static char reqs[RAI_DNS_BATCH_MAX + 1];
#define REQ(i)	((struct rai_request *)&reqs[i])

static void batch_of(struct rai_dns_batch *b, const char *const *names,
		     unsigned int n)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < n; i++)
		rai_dns_batch_add(b, REQ(i), names[i], strlen(names[i]));
}

/* rai_dns_batch_parse() of a copy of @text, in a buffer of its size. */
static int parse(struct rai_dns_batch *b, const char *text, char **keep)
{
	char *copy = strdup(text);
	int ret;

	ret = rai_dns_batch_parse(b, copy, NOW);
	if (keep)
		*keep = copy;
	else
		free(copy);
	return ret;
}

static void test_add(void)
{
	static const char *const names[] = {
		"a.rai.test", "b.rai.test", "a.rai.test", "a.rai.tes",
	};
	struct rai_dns_batch b;
	unsigned int i;
	char name[32];

	batch_of(&b, names, 4);
	CHECK(b.nr_reqs == 4, "every request is in the batch");
	CHECK(b.nr_names == 3, "a name asked twice is asked once (%u names)",
	      b.nr_names);
	CHECK(b.name_of[0] == 0 && b.name_of[2] == 0,
	      "requests for the same name share it");
	CHECK(b.name_of[3] == 2, "a prefix of a name is another name");
	CHECK(b.reqs[1] == REQ(1), "requests kept in order");

	memset(&b, 0, sizeof(b));
	for (i = 0; i < RAI_DNS_BATCH_MAX; i++) {
		snprintf(name, sizeof(name), "n%u.rai.test", i);
		/* The batch keeps the pointer: one string per request. */
		CHECK(rai_dns_batch_add(&b, REQ(i), strdup(name), strlen(name)),
		      "request %u fits", i);
	}
	CHECK(!rai_dns_batch_add(&b, REQ(RAI_DNS_BATCH_MAX), "x.rai.test",
				 10), "a full batch takes no more");
	CHECK(b.nr_reqs == RAI_DNS_BATCH_MAX, "and stays full");
	for (i = 0; i < b.nr_names; i++)
		free((char *)b.names[i].name);
}

static void test_name_ok(void)
{
	static const char *const ok[] = {
		"a", "peer.rai.test", "A-b_c.9", "xn--bcher-kva.example",
	};
	static const char *const bad[] = {
		"a#b", "@x", "a b", "a\nb", "a,b", "a;b", "a:b", "a/b", "a*",
		"caf\xc3\xa9.example", "%s", "a\\b",
	};
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK(rai_dns_batch_name_ok(ok[i], strlen(ok[i])),
		      "'%s' may go in a batch", ok[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!rai_dns_batch_name_ok(bad[i], strlen(bad[i])),
		      "name %u is asked for alone", i);
	CHECK(!rai_dns_batch_name_ok("", 0), "an empty name is no name");
}

static void test_callout(void)
{
	static const char *const names[] = {
		"a.rai.test", "b.rai.test", "a.rai.test",
	};
	struct rai_dns_batch b;
	char *callout;

	batch_of(&b, names, 3);
	callout = rai_dns_batch_callout(&b);
	CHECK(callout && !strcmp(callout, "rai-batch a.rai.test b.rai.test"),
	      "callout: '%s'", callout ? callout : "(null)");
	free(callout);
}

static void test_answers(void)
{
	static const char *const names[] = {
		"ok.rai.test", "nx.rai.test", "nodata.rai.test", "late.rai.test",
		"zero.rai.test", "long.rai.test", "dash.rai.test",
		"empty.rai.test",
	};
	struct rai_dns_batch b;
	char *payload;
	int ret;

	batch_of(&b, names, 8);
	ret = parse(&b,
		    "rai-batch\n"
		    "ok.rai.test 0 42 192.0.2.1,2001:db8::1\n"
		    "\n"
		    "nx.rai.test 6 5 -\n"
		    "nodata.rai.test 61 5 -\n"
		    "other.rai.test 0 5 192.0.2.9\n"
		    "zero.rai.test 0 0 192.0.2.2\n"
		    "long.rai.test 0 4000000000 192.0.2.3\n"
		    "dash.rai.test 0 5 -\n"
		    "empty.rai.test 0 5 \n",
		    &payload);
	CHECK(ret == 0, "a well-formed answer parses (%d)", ret);
	CHECK(b.names[0].answer.status == 0 && b.names[0].list &&
	      !strcmp(b.names[0].list, "192.0.2.1,2001:db8::1"),
	      "addresses of a name");
	CHECK(b.names[0].answer.expiry == NOW + 42, "its own TTL");
	CHECK(b.names[1].answer.status == -ENXIO && !b.names[1].list,
	      "a missing name");
	CHECK(b.names[2].answer.status == -ENODATA, "a name without addresses");
	CHECK(b.names[3].answer.status == -EAGAIN,
	      "a name the helper did not answer: EAGAIN");
	CHECK(b.names[4].answer.expiry == NOW + 1, "TTL 0 is kept 1 s");
	CHECK(b.names[5].answer.expiry == NOW + 86400,
	      "a TTL beyond a day is a day");
	CHECK(b.names[6].answer.status == -ENODATA,
	      "success without addresses ('-') is ENODATA");
	CHECK(b.names[7].answer.status == -ENODATA,
	      "success with an empty list is ENODATA");
	free(payload);
}

/* The module's side of upcall_cases.h: its callouts, its reading. */
static void test_module_reads_the_shared_cases(void)
{
	const struct upcall_batch_case *c;
	const struct upcall_result *r;
	struct rai_dns_batch b;
	unsigned int i, j, n;
	char *callout, *payload, shown[64];
	int ret;

	for (i = 0; i < UPCALL_CASES(upcall_batch_cases); i++) {
		c = &upcall_batch_cases[i];
		for (n = 0; c->asked[n]; n++)
			;
		batch_of(&b, c->asked, n);
		callout = rai_dns_batch_callout(&b);
		CHECK(callout && !strcmp(callout, c->callout),
		      "%s: the callout '%s'", c->what,
		      callout ? callout : "(null)");
		free(callout);
		ret = parse(&b, c->answer, &payload);
		CHECK(ret == 0, "%s: the helper's answer parses (%d)", c->what,
		      ret);
		for (j = 0; j < UPCALL_CASE_NAMES && c->got[j].name; j++) {
			r = &c->got[j];
			CHECK(j < b.nr_names &&
			      b.names[j].len == strlen(r->name) &&
			      !memcmp(b.names[j].name, r->name, b.names[j].len) &&
			      b.names[j].answer.status == r->status &&
			      b.names[j].answer.expiry == NOW + r->ttl &&
			      (r->list ? b.names[j].list &&
					 !strcmp(b.names[j].list, r->list) :
					 !b.names[j].list),
			      "%s: %s read as %d for %u s, '%s'", c->what,
			      r->name, r->status, r->ttl,
			      r->list ? r->list : "-");
		}
		CHECK(b.nr_names == j, "%s: %u names", c->what, j);
		free(payload);
	}
	for (i = 0; i < UPCALL_CASES(upcall_batchable_names); i++)
		CHECK(rai_dns_batch_name_ok(upcall_batchable_names[i],
					    strlen(upcall_batchable_names[i])),
		      "'%s' goes in a batch", upcall_batchable_names[i]);
	for (i = 0; i < UPCALL_CASES(upcall_unbatchable_names); i++)
		CHECK(!rai_dns_batch_name_ok(upcall_unbatchable_names[i],
					     strlen(upcall_unbatchable_names[i])),
		      "'%s' is asked alone",
		      upcall_printable(upcall_unbatchable_names[i], shown,
				       sizeof(shown)));
}

static void test_hostile(void)
{
	static const char *const names[] = { "a.rai.test" };
	static const char *const bad[] = {
		"",
		"\n",
		"rai-batch2\na.rai.test 0 5 192.0.2.1\n",
		"a.rai.test 0 5 192.0.2.1\n",
		"rai-batch\na.rai.test\n",
		"rai-batch\na.rai.test 0\n",
		"rai-batch\na.rai.test 0 5\n",
		"rai-batch\na.rai.test x 5 -\n",
		"rai-batch\na.rai.test -6 5 -\n",
		"rai-batch\na.rai.test 4096 5 -\n",
		"rai-batch\na.rai.test 99999999999 5 -\n",
		"rai-batch\na.rai.test 6 -5 -\n",
		"rai-batch\na.rai.test 6 5x -\n",
		"rai-batch\na.rai.test 6 99999999999 -\n",
		"rai-batch\nother 0 5 192.0.2.1\ngarbage\n",
	};
	struct rai_dns_batch b;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		batch_of(&b, names, 1);
		ret = parse(&b, bad[i], NULL);
		CHECK(ret == -EPROTO, "hostile answer %u: %d, not -EPROTO", i,
		      ret);
	}
	batch_of(&b, names, 1);
	ret = parse(&b, "rai-batch\na.rai.test 0 5 192.0.2.1,192.0", NULL);
	CHECK(ret == -EPROTO, "an answer cut off (no final newline): %d", ret);
	batch_of(&b, names, 1);
	ret = parse(&b, "rai-batch\n", NULL);
	CHECK(ret == 0 && b.names[0].answer.status == -EAGAIN,
	      "an answer with no names leaves each EAGAIN");
	batch_of(&b, names, 1);
	ret = parse(&b, "rai-batch\na.rai.test 4095 5 -\n", NULL);
	CHECK(ret == 0 && b.names[0].answer.status == -4095,
	      "any errno passes the parser (the module maps it)");
}

/* Random lines of the right shape and random bytes: nothing but 0/-EPROTO. */
static void test_fuzz_answers(void)
{
	static const char *const names[] = { "a.rai.test", "b.rai.test" };
	static const char alphabet[] = "ab.rai-tes0123456789 -,\n\t#:";
	struct rai_dns_batch b;
	char text[256];
	unsigned int i, j, len, bad = 0;
	int ret;

	srand(1);
	for (i = 0; i < 200000; i++) {
		len = rand() % (sizeof(text) - 11);
		strcpy(text, i % 2 ? "rai-batch\n" : "");
		for (j = strlen(text); j < len; j++)
			text[j] = i % 3 ? alphabet[rand() % (sizeof(alphabet) - 1)] :
					  (char)(1 + rand() % 255);
		text[j > strlen(text) ? j : strlen(text)] = '\0';
		/* Half of them complete, as the helper always ends one. */
		if (i % 4 < 2 && strlen(text) + 1 < sizeof(text))
			strcat(text, "\n");
		batch_of(&b, names, 2);
		ret = parse(&b, text, NULL);
		if (ret && ret != -EPROTO)
			bad++;
		for (j = 0; !ret && j < b.nr_names; j++)
			if (b.names[j].answer.status > 0 ||
			    (!b.names[j].answer.status && !b.names[j].list))
				bad++;
	}
	CHECK(!bad, "%u random answers gave something else than 0/-EPROTO",
	      bad);
}

int main(void)
{
	test_add();
	test_name_ok();
	test_callout();
	test_answers();
	test_module_reads_the_shared_cases();
	test_hostile();
	test_fuzz_answers();
	return UNIT_SUMMARY();
}
