/*
 * A tiny unit-test harness: each tests/DIR/test-MODULE.c (the tests of
 * DIR/MODULE.c) defines its tests as functions named
 * test_<module>__<behaviour>, lists them in a table and calls
 * harness_main(). Failures print file:line and the expression; the program
 * ends with "N passed, N failed" and exits non-zero on any failure.
 */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

struct harness_test {
	const char *name;
	void (*fn)(void);
};

extern int harness_failed_checks;

#define TEST(fn) { #fn, fn }

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n",        \
				__FILE__, __LINE__, #cond);                  \
			harness_failed_checks++;                             \
		}                                                            \
	} while (0)

/* |got - want| <= tol, or both NaN; prints the values on failure. */
#define CHECK_NEAR(got, want, tol)                                           \
	do {                                                                 \
		double g_ = (got), w_ = (want), t_ = (tol);                  \
		if (!((isnan(g_) && isnan(w_)) || fabs(g_ - w_) <= t_)) {    \
			fprintf(stderr, "%s:%d: %s = %.17g, want %.17g "    \
				"(tolerance %g)\n", __FILE__, __LINE__,      \
				#got, g_, w_, t_);                           \
			harness_failed_checks++;                             \
		}                                                            \
	} while (0)

#define CHECK_STR(got, want)                                                 \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (!g_ || !w_ || strcmp(g_, w_) != 0) {                     \
			fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",\
				w_ ? w_ : "(null)");                         \
			harness_failed_checks++;                             \
		}                                                            \
	} while (0)

/* got contains the substring want. */
#define CHECK_CONTAINS(got, want)                                            \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (!g_ || !strstr(g_, w_)) {                                \
			fprintf(stderr, "%s:%d: %s = \"%s\", want it to "   \
				"contain \"%s\"\n", __FILE__, __LINE__, #got,\
				g_ ? g_ : "(null)", w_);                     \
			harness_failed_checks++;                             \
		}                                                            \
	} while (0)

/*
 * A Monte-Carlo test's trials: n under GATE_TEST_FULL=1 (make bench-tests,
 * part of make bench), a quarter of n (at least 1) otherwise, so make check
 * stays short. The seeds are fixed, so either size gives the same result
 * every run; the bounds were reasoned for the full size.
 */
size_t harness_trials(size_t n);

/* Runs every test (or those whose name contains argv[1]); returns exit code. */
int harness_main(const struct harness_test *tests, size_t n, int argc,
		 char **argv);

#define HARNESS_MAIN(table)                                                  \
	int main(int argc, char **argv)                                      \
	{                                                                    \
		return harness_main(table, sizeof(table) / sizeof(table[0]), \
				    argc, argv);                             \
	}

#endif
