// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit test of the module's DNS helper (user/dns-helper), its source
 * built into this file with its main() renamed:
 *
 *  - whom it answers with a batch: from_module() takes the request-key
 *    arguments %u and %T and a KEYCTL_DESCRIBE stand-in; only uid 0 with
 *    the kernel's ".dns_resolver" keyring as thread keyring is the module;
 *  - a "rai:NAME" key is anyone's: its name is looked up (getaddrinfo()
 *    as root) only when it is a host name of the module's grammar
 *    (letters, digits, '-', '_', '.'; at most 255 bytes), else -EINVAL;
 *  - a batch's names belong to the batch: a name slower than the deadline
 *    (1 s here) keeps its thread going after batch_answer() has returned,
 *    when the caller's buffer is gone.  The names come from a frame that
 *    has returned by then, and AddressSanitizer with
 *    detect_stack_use_after_return (set below) reports any read of them.
 *
 * No network: getaddrinfo(), res_search() and the TTL query sent alongside
 * getaddrinfo() (ttl_query.h: never sent here) are stand-ins below.
 */
#define BATCH_DEADLINE_S	1
#define main dns_helper_main
#include "rdma-addrinfo-dns-helper.c"
#undef main

#include <stdatomic.h>

#include "ttl_query.h"
#include "unit_check.h"
#include "upcall_cases.h"

/* How long a "slow*" name takes: past the deadline, well within a test. */
#define SLOW_MS		2500
/* How long the test waits for a slow name's thread to be done with it. */
#define SLOW_WAIT_MS	15000

/* Compiled in: the runtime's flag, however the test is started. */
const char *__asan_default_options(void)
{
	return "detect_stack_use_after_return=1";
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static atomic_int lookups;

/*
 * The canonical name of @node with AI_CANONNAME (upcall_cases.h):
 * "alias*" is an alias of "real*", "weird*" one of a name with a space
 * and "long*" one of a name a byte longer than the module takes; other
 * names have none here.  malloc'ed, or NULL.
 */
static char *unit_canonname(const char *node)
{
	char *name;

	if (!strncmp(node, "alias", 5)) {
		if (asprintf(&name, "real%s", node + 5) < 0)
			return NULL;
		return name;
	}
	if (!strncmp(node, "weird", 5))
		return strdup("a b.rai.test");
	if (!strncmp(node, "long", 4)) {
		name = calloc(1, CANON_MAX + 2);
		if (name)
			memset(name, 'a', CANON_MAX + 1);
		return name;
	}
	return NULL;
}

/*
 * getaddrinfo() of the helper: 192.0.2.1 for every name, 192.0.2.2 for
 * "slow*" names, which take SLOW_MS, none for "nx*" names (NXDOMAIN).  The name is read again after the
 * wait, as the helper reads it again afterwards (name_ttl()).  One block
 * with ai_addr inside: glibc's freeaddrinfo() frees each entry and its
 * ai_canonname (unit_canonname()'s, with AI_CANONNAME).
 */
int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	struct {
		struct addrinfo ai;
		struct sockaddr_in sin;
	} *one;

	(void)service;
	atomic_fetch_add(&lookups, 1);
	if (!strncmp(node, "nx", 2))
		return EAI_NONAME;
	if (!strncmp(node, "slow", 4))
		sleep_ms(SLOW_MS);
	one = calloc(1, sizeof(*one));
	if (!one)
		return EAI_MEMORY;
	one->sin.sin_family = AF_INET;
	one->sin.sin_addr.s_addr = htonl(0xc0000200 |
					 (strncmp(node, "slow", 4) ? 1 : 2));
	one->ai.ai_family = AF_INET;
	one->ai.ai_socktype = SOCK_STREAM;
	one->ai.ai_addrlen = sizeof(one->sin);
	one->ai.ai_addr = (struct sockaddr *)&one->sin;
	if (hints && (hints->ai_flags & AI_CANONNAME))
		one->ai.ai_canonname = unit_canonname(node);
	*res = &one->ai;
	return 0;
}

/* DNS knows no name here: TTLs are the helper's defaults. */
int res_search(const char *dname, int class, int type, unsigned char *answer,
	       int anslen)
{
	(void)dname;
	(void)class;
	(void)type;
	(void)answer;
	(void)anslen;
	h_errno = HOST_NOT_FOUND;
	return -1;
}

/* No TTL query goes out alongside getaddrinfo(): res_search() is asked. */
void ttl_query_send(const char *name, struct ttl_query *q)
{
	(void)name;
	q->fd = -1;
}

long ttl_query_recv(const char *name, const struct ttl_query *q, int wait_ms)
{
	(void)name;
	(void)q;
	(void)wait_ms;
	return -1;
}

/* ---- whom a batch is answered for ------------------------------------ */

/* KEYCTL_DESCRIBE of a few keys: its length with the NUL, or -1/errno. */
static long fake_describe(int32_t key, char *buf, size_t size)
{
	static const struct {
		int32_t key;
		const char *text;
	} keys[] = {
		{ 100, "keyring;0;0;1f030000;.dns_resolver" },	/* the kernel's */
		{ 101, "keyring;1000;1000;3f010000;_tid" },
		{ 102, "keyring;0;0;3f010000;_tid" },	/* root's own */
		{ 103, "keyring;0;0;1f030000;.dns_resolver2" },
		{ 104, "user;0;0;1f030000;.dns_resolver" },
		{ 105, "keyring;1000;0;1f030000;.dns_resolver" },
		{ 106, "keyring;0;0;1f030000;x;.dns_resolver" },
		{ 107, "keyring;0;0;1f030000" },
	};
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].key != key)
			continue;
		n = strlen(keys[i].text) + 1;
		memcpy(buf, keys[i].text, n < size ? n : size);
		return (long)n;
	}
	errno = ENOKEY;
	return -1;
}

/* A description longer than any buffer: cut off, never trusted. */
static long long_describe(int32_t key, char *buf, size_t size)
{
	static const char text[] = "keyring;0;0;1f030000;.dns_resolver";

	(void)key;
	memcpy(buf, text, size < sizeof(text) ? size : sizeof(text));
	return 100000;
}

static void test_from_module(void)
{
	static const char *const not_numbers[][2] = {
		{ "root", "100" }, { "", "100" }, { " 0", "100" },
		{ "0x0", "100" }, { "-0", "100" }, { "0", "abc" },
		{ "0", "100x" }, { "0", "" }, { "0", " 100" }, { "0", "+100" },
		{ "0", "-100" }, { "0", "4294967396" },
	};
	unsigned int i;

	CHECK(from_module("0", "100", fake_describe),
	      "uid 0 with the kernel's .dns_resolver keyring: the module");
	CHECK(!from_module("1000", "100", fake_describe),
	      "uid 1000: not the module, whatever its keyring");
	CHECK(!from_module("65534", "101", fake_describe),
	      "a user with its own thread keyring: not the module");
	CHECK(!from_module("0", "102", fake_describe),
	      "root's own thread keyring: not the module");
	CHECK(!from_module("0", "0", fake_describe),
	      "no thread keyring (%%T is 0): not the module");
	CHECK(!from_module("0", "103", fake_describe),
	      "another keyring description: not the module");
	CHECK(!from_module("0", "104", fake_describe),
	      "a key of another type: not the module");
	CHECK(!from_module("0", "105", fake_describe),
	      "a keyring of another owner: not the module");
	CHECK(!from_module("0", "106", fake_describe),
	      "the description is the rest after four ';', whole");
	CHECK(!from_module("0", "107", fake_describe),
	      "a description without its fields: not the module");
	CHECK(!from_module("0", "999", fake_describe),
	      "a keyring that cannot be described: not the module");
	CHECK(!from_module("0", "100", long_describe),
	      "a description cut off: not the module");
	CHECK(!from_module(NULL, NULL, fake_describe),
	      "no %%u and %%T (an old request-key line): not the module");
	CHECK(!from_module("0", NULL, fake_describe) &&
	      !from_module(NULL, "100", fake_describe),
	      "one of them missing: not the module");
	for (i = 0; i < sizeof(not_numbers) / sizeof(not_numbers[0]); i++)
		CHECK(!from_module(not_numbers[i][0], not_numbers[i][1],
				   fake_describe),
		      "uid '%s', keyring '%s': not ids, not the module",
		      not_numbers[i][0], not_numbers[i][1]);
}

/*
 * A single name's list (the helper's -n, as a "rai:NAME" key's before its
 * ",until="): the canonical name ends it when the module would take it.
 */
static void test_single_name_canonical_name(void)
{
	char list[PAYLOAD_MAX];
	int len;

	len = resolve("alias.rai.test", list, sizeof(list), 1);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1,canon=real.rai.test"),
	      "an alias: its canonical name after the address ('%s')", list);
	len = resolve("alias.rai.test", list, sizeof(list), 0);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1"),
	      "not asked for: no canonical name ('%s')", list);
	len = resolve("weird.rai.test", list, sizeof(list), 1);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1"),
	      "a canonical name with a space is left out ('%s')", list);
	len = resolve("long.rai.test", list, sizeof(list), 1);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1"),
	      "a canonical name of %d bytes is left out", CANON_MAX + 1);
	len = resolve("alias.rai.test", list, strlen("192.0.2.1,canon=") + 2, 1);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1"),
	      "a canonical name that does not fit is left out ('%s')", list);
	len = resolve("plain.rai.test", list, sizeof(list), 1);
	CHECK(len > 0 && !strcmp(list, "192.0.2.1"),
	      "none given: none ('%s')", list);
}

/*
 * Anyone's "rai:NAME": a description that is no host name as the ABI
 * header and the module have it never reaches getaddrinfo().  Before, the
 * helper looked up whatever followed "rai:".
 */
static void test_single_name_grammar(void)
{
	static const char *const bad[] = {
		"a/b.rai.test", "a%b.rai.test", "\x80.rai.test", "*.rai.test",
		"a b", "a\nb", "a#b", "a,b", "a;b", "a:b", "@1-2",
		"\xc3\xa4.example", "a\\b", "~", "",
	};
	static const char *const good[] = {
		"a.rai.test", "A-1_b.Rai.test", "xn--4ca.example", "x",
		"trailing.dot.",
	};
	char list[PAYLOAD_MAX], longest[CANON_MAX + 2], shown[64];
	unsigned int i, ttl;
	int before, len;

	for (i = 0; i < UPCALL_CASES(bad); i++) {
		before = atomic_load(&lookups);
		len = resolve_single(bad[i], list, sizeof(list), &ttl);
		CHECK(len == -EINVAL && atomic_load(&lookups) == before,
		      "'%s': -EINVAL, not looked up (%d)",
		      upcall_printable(bad[i], shown, sizeof(shown)), len);
	}
	for (i = 0; i < UPCALL_CASES(upcall_unbatchable_names); i++)
		CHECK(!name_ok(upcall_unbatchable_names[i]),
		      "'%s', which the module refuses, is refused",
		      upcall_printable(upcall_unbatchable_names[i], shown,
				       sizeof(shown)));
	for (i = 0; i < UPCALL_CASES(good); i++) {
		before = atomic_load(&lookups);
		len = resolve_single(good[i], list, sizeof(list), &ttl);
		CHECK(len > 0 && atomic_load(&lookups) == before + 1,
		      "'%s': looked up (%d)", good[i], len);
	}
	memset(longest, 'a', sizeof(longest));
	longest[CANON_MAX] = '\0';
	CHECK(resolve_single(longest, list, sizeof(list), &ttl) > 0,
	      "a name of %d bytes is looked up", CANON_MAX);
	longest[CANON_MAX] = 'a';
	longest[CANON_MAX + 1] = '\0';
	CHECK(resolve_single(longest, list, sizeof(list), &ttl) == -EINVAL,
	      "a name of %d bytes is not", CANON_MAX + 1);
}

static void test_key_fields(void)
{
	char text[] = "dns_resolver;0;0;3f010000;rai:nosuch;rai:a.example";
	char bad[] = "dns_resolver;0;0";
	char *field[KEY_FIELDS];

	CHECK(!split_key_description(text, field) &&
	      !strcmp(field[0], "dns_resolver") && !strcmp(field[1], "0") &&
	      !strcmp(field[4], "rai:nosuch;rai:a.example"),
	      "a key description: four fields, then the rest whole");
	CHECK(split_key_description(bad, field) == -EINVAL,
	      "fewer than five fields: -EINVAL");
}

/* ---- the protocol, as the module writes and reads it ---------------- */

/* The helper's side of upcall_cases.h: it reads callouts, writes answers. */
static void test_helper_writes_the_shared_cases(void)
{
	const struct upcall_batch_case *c;
	char callout[512], *text, shown[256];
	unsigned int i, j;
	long n;

	for (i = 0; i < UPCALL_CASES(upcall_batch_cases); i++) {
		c = &upcall_batch_cases[i];
		/* One batch per process: this one alone in it. */
		memset(&batch.names, 0, sizeof(batch.names));
		batch.nr = batch.next = batch.left = 0;
		snprintf(callout, sizeof(callout), "%s", c->callout);
		CHECK(!strncmp(callout, BATCH_MAGIC " ",
			       strlen(BATCH_MAGIC " ")),
		      "%s: the callout is a batch's", c->what);
		text = NULL;
		n = batch_answer(callout + strlen(BATCH_MAGIC " "), &text);
		for (j = 0; j < UPCALL_CASE_NAMES && c->got[j].name; j++)
			CHECK(j < batch.nr &&
			      !strcmp(batch.names[j].name, c->got[j].name),
			      "%s: name %u read as '%s'", c->what, j,
			      c->got[j].name);
		CHECK(batch.nr == j, "%s: %u names", c->what, j);
		CHECK(n > 0 && text && !strcmp(text, c->answer),
		      "%s: the answer the module reads ('%s')", c->what,
		      upcall_printable(text ? text : "(none)", shown,
				       sizeof(shown)));
		free(text);
	}
	memset(&batch.names, 0, sizeof(batch.names));
	batch.nr = batch.next = batch.left = 0;
	atomic_store(&lookups, 0);	/* the next test counts its own */
	for (i = 0; i < UPCALL_CASES(upcall_batchable_names); i++)
		CHECK(name_ok(upcall_batchable_names[i]),
		      "'%s', which the module batches, is taken",
		      upcall_batchable_names[i]);
}

/* ---- a batch's names ------------------------------------------------- */

/*
 * batch_answer() of names in this function's frame, which is gone by the
 * time the slow name's thread reads its name again.
 */
static __attribute__((noinline)) long batch_from_stack(char **out)
{
	char names[] = "fast.example slow.example";

	return batch_answer(names, out);
}

/* The line of @name in a batch answer: its errno, TTL and list. */
static bool batch_line(const char *text, const char *name, int *err,
		       unsigned int *ttl, char *list, size_t size)
{
	char line_name[NS_MAXDNAME], fmt[32];
	const char *line;

	snprintf(fmt, sizeof(fmt), "%%%zus %%d %%u %%%zus", sizeof(line_name) - 1,
		 size - 1);
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL)
		if (sscanf(line, fmt, line_name, err, ttl, list) == 4 &&
		    !strcmp(line_name, name))
			return true;
	return false;
}

static void test_batch_names_outlive_the_call(void)
{
	char list[BATCH_LIST_MAX], *text = NULL;
	unsigned int ttl, waited;
	int err, done = 0, resolved = 0;
	long n;

	n = batch_from_stack(&text);
	CHECK(n > 0 && text, "batch answered: %ld", n);
	if (n <= 0 || !text)
		return;
	CHECK(!strncmp(text, BATCH_MAGIC "\n", strlen(BATCH_MAGIC "\n")),
	      "the answer starts with its magic line");
	CHECK(batch_line(text, "fast.example", &err, &ttl, list, sizeof(list)) &&
	      err == 0 && ttl >= 1 && !strcmp(list, "192.0.2.1"),
	      "the fast name answered with its address");
	CHECK(batch_line(text, "slow.example", &err, &ttl, list, sizeof(list)) &&
	      err == EAGAIN && ttl == TEMPORARY_TTL_S && !strcmp(list, "-"),
	      "the name past the deadline answered EAGAIN (%d)", EAGAIN);
	free(text);

	/* The slow name's thread goes on: let it end its use of the name. */
	for (waited = 0; !done && waited < SLOW_WAIT_MS; waited += 50) {
		sleep_ms(50);
		pthread_mutex_lock(&batch.lock);
		done = batch.names[1].done;
		resolved = done && !batch.names[1].err &&
			   !strcmp(batch.names[1].list, "192.0.2.2");
		pthread_mutex_unlock(&batch.lock);
	}
	CHECK(done, "the slow name's thread ended (after %u ms)", waited);
	CHECK(resolved,
	      "and resolved its own name, read after the caller returned");
	CHECK(atomic_load(&lookups) == 2, "one lookup per name");
}

int main(void)
{
	test_from_module();
	test_key_fields();
	test_single_name_canonical_name();
	test_single_name_grammar();
	test_helper_writes_the_shared_cases();
	test_batch_names_outlive_the_call();
	return UNIT_SUMMARY();
}
