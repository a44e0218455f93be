/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kselftest harness of the kernel source package (6.1), with a case
 * filter its test_harness_run() lacks: every program of selftests/ and
 * user/tests includes <kselftest_harness.h> and finds this file first (its
 * directory comes before the extracted harness's on the include path), so
 * TEST_HARNESS_MAIN runs rai_harness_run() below.
 *
 * Choosing cases (globs, fnmatch(3), on "fixture.variant.test" as the
 * harness prints it after "ok N", or on the test's own name alone):
 *   RAI_TEST_CASE="GLOB ..."  in the environment (run-suite passes it on)
 *   PROGRAM -t GLOB [-t GLOB]  on the command line, added to the above
 *   PROGRAM -l                 lists every case and exits
 * With none of them every case runs, as before.  After each case a line
 * "# case FIXTURE.TEST: N.N s" says how long it took (what make check's
 * time is spent on; selftests/tally sums them).  A program none of whose
 * cases is chosen prints a plan of 0 and passes; run-suite fails the run
 * if RAI_TEST_CASE chose no case of any program.
 */
#ifndef RAI_KSELFTEST_HARNESS_H
#define RAI_KSELFTEST_HARNESS_H

#include_next <kselftest_harness.h>
#include <fnmatch.h>
#include <time.h>

#define RAI_HARNESS_MAX_GLOBS 32

struct rai_harness_filter {
	const char *globs[RAI_HARNESS_MAX_GLOBS];
	unsigned int n;
	char *env;	/* RAI_TEST_CASE, split in place */
};

static inline bool rai_harness_chosen(const struct rai_harness_filter *flt,
				      const char *full, const char *test)
{
	unsigned int i;

	if (!flt->n)
		return true;
	for (i = 0; i < flt->n; i++)
		if (!fnmatch(flt->globs[i], full, 0) ||
		    !fnmatch(flt->globs[i], test, 0))
			return true;
	return false;
}

static inline int rai_harness_add(struct rai_harness_filter *flt,
				  const char *glob)
{
	if (flt->n == RAI_HARNESS_MAX_GLOBS) {
		fprintf(stderr, "harness: more than %d case globs\n",
			RAI_HARNESS_MAX_GLOBS);
		return -1;
	}
	flt->globs[flt->n++] = glob;
	return 0;
}

/* test_harness_run() of the 6.1 harness, running only the chosen cases. */
static int rai_harness_run(int argc, char **argv)
{
	struct __fixture_variant_metadata no_variant = { .name = "", };
	struct rai_harness_filter flt = { .n = 0 };
	struct __fixture_variant_metadata *v;
	unsigned int chosen = 0, all = 0;
	unsigned int pass_count = 0, count = 0;
	struct __test_results *results;
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	bool list = false;
	char full[512];
	char *tok, *save;
	int opt, ret = 0;

	(void)&test_harness_run;	/* replaced, not called */
	while ((opt = getopt(argc, argv, "lt:")) != -1) {
		if (opt == 'l') {
			list = true;
		} else if (opt == 't') {
			if (rai_harness_add(&flt, optarg))
				return KSFT_FAIL;
		} else {
			fprintf(stderr, "usage: %s [-l] [-t GLOB]...\n", argv[0]);
			return KSFT_FAIL;
		}
	}
	if (getenv("RAI_TEST_CASE")) {
		flt.env = strdup(getenv("RAI_TEST_CASE"));
		for (tok = strtok_r(flt.env, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save))
			if (rai_harness_add(&flt, tok))
				return KSFT_FAIL;
	}

#define RAI_HARNESS_EACH \
	for (f = __fixture_list; f; f = f->next) \
		for (v = f->variant ?: &no_variant; v; v = v->next) \
			for (t = f->tests; t; t = t->next) \
				if (snprintf(full, sizeof(full), "%s%s%s.%s", \
					     f->name, v->name[0] ? "." : "", \
					     v->name, t->name) >= 0)

	RAI_HARNESS_EACH {
		all++;
		if (!rai_harness_chosen(&flt, full, t->name))
			continue;
		chosen++;
		if (list)
			printf("%s\n", full);
	}
	if (list)
		return KSFT_PASS;

	results = mmap(NULL, sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ksft_print_header();
	ksft_set_plan(chosen);
	if (flt.n)
		ksft_print_msg("case filter: %u of %u tests chosen\n",
			       chosen, all);
	else
		ksft_print_msg("Starting %u tests.\n", all);
	RAI_HARNESS_EACH {
		struct timespec t0, t1;

		if (!rai_harness_chosen(&flt, full, t->name))
			continue;
		count++;
		t->results = results;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		__run_test(f, v, t);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ksft_print_msg("case %s: %.1f s\n", full,
			       (double)(t1.tv_sec - t0.tv_sec) +
			       (t1.tv_nsec - t0.tv_nsec) / 1e9);
		t->results = NULL;
		if (t->passed)
			pass_count++;
		else
			ret = 1;
	}
#undef RAI_HARNESS_EACH
	munmap(results, sizeof(*results));
	free(flt.env);

	ksft_print_msg("%s: %u / %u tests passed.\n", ret ? "FAILED" : "PASSED",
		       pass_count, count);
	ksft_exit(ret == 0);
	return KSFT_FAIL;	/* unreachable */
}

#undef TEST_HARNESS_MAIN
#define TEST_HARNESS_MAIN \
	static void __attribute__((constructor)) \
	__constructor_order_last(void) \
	{ \
		if (!__constructor_order) \
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	} \
	int main(int argc, char **argv) { \
		return rai_harness_run(argc, argv); \
	}

#endif /* RAI_KSELFTEST_HARNESS_H */
