/* common/: the strict reading of numbers (no hex, inf, nan, space, '+'). */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "common/number.h"
#include "tests/harness.h"

/* Whole strings: what is a number and what is refused (strtod takes
   every refused one but the empty string and "."). */
static void test_number__parse_accepts_decimal_only(void)
{
	static const struct { const char *s; int ok; double want; } cases[] = {
		{ "0", 1, 0 }, { "5", 1, 5 }, { "-2", 1, -2 },
		{ "0.05", 1, 0.05 }, { ".5", 1, 0.5 }, { "5.", 1, 5 },
		{ "1e3", 1, 1000 }, { "2.5E-1", 1, 0.25 }, { "1e+2", 1, 100 },
		{ "007", 1, 7 }, { "-0", 1, 0 },
		{ "0x10", 0, 0 }, { "0X1p4", 0, 0 }, { "0x0.1", 0, 0 },
		{ "inf", 0, 0 }, { "-inf", 0, 0 }, { "INF", 0, 0 },
		{ "infinity", 0, 0 }, { "nan", 0, 0 }, { "NaN(1)", 0, 0 },
		{ " 5", 0, 0 }, { "\t5", 0, 0 }, { "+5", 0, 0 }, { "5 ", 0, 0 },
		{ "5%", 0, 0 }, { "5x", 0, 0 }, { "1e", 0, 0 }, { "1e+", 0, 0 },
		{ "", 0, 0 }, { ".", 0, 0 }, { "-", 0, 0 }, { "-.", 0, 0 },
		{ "--5", 0, 0 }, { "1e999", 0, 0 }, { "-1e999", 0, 0 },
		{ "1e-999", 0, 0 }, { "1,5", 0, 0 }, { "1.2.3", 0, 0 },
	};
	size_t i;
	double v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -12345;
		if (cases[i].ok) {
			CHECK(number_parse(cases[i].s, &v) == 0);
			CHECK_NEAR(v, cases[i].want, 0);
		} else {
			if (number_parse(cases[i].s, &v) == 0)
				fprintf(stderr, "accepted \"%s\"\n", cases[i].s);
			CHECK(number_parse(cases[i].s, &v) < 0);
			CHECK_NEAR(v, -12345, 0);	/* untouched */
		}
	}
}

/* A number at the start, the rest left to the caller (units, '%'). */
static void test_number__scan_stops_after_the_number(void)
{
	static const struct { const char *s; double want; const char *rest; }
	cases[] = {
		{ "90s", 90, "s" }, { "1.5h", 1.5, "h" }, { "250ms", 250, "ms" },
		{ "2e", 2, "e" }, { "3e+", 3, "e+" }, { "5%", 5, "%" },
		{ "1e2m", 100, "m" }, { "7", 7, "" },
	};
	const char *end;
	size_t i;
	double v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(number_scan(cases[i].s, &v, &end) == 0);
		CHECK_NEAR(v, cases[i].want, 0);
		CHECK_STR(end, cases[i].rest);
	}
	CHECK(number_scan("0x10s", &v, &end) < 0 ||
	      strcmp(end, "x10s") == 0);	/* "0" then garbage */
	CHECK(number_scan("infh", &v, &end) < 0);
	CHECK(number_scan("nanms", &v, &end) < 0);
	CHECK(number_scan(" 90s", &v, &end) < 0);
	CHECK(number_scan("+90s", &v, &end) < 0);
}

static void test_number__whole_digits_only(void)
{
	static const struct { const char *s; int ok; long want; } cases[] = {
		{ "0", 1, 0 }, { "42", 1, 42 }, { "-3", 1, -3 },
		{ "0042", 1, 42 }, { "9223372036854775807", 1, 9223372036854775807L },
		{ "0x10", 0, 0 }, { "010x", 0, 0 }, { " 5", 0, 0 }, { "+5", 0, 0 },
		{ "5 ", 0, 0 }, { "5.0", 0, 0 }, { "1e3", 0, 0 }, { "", 0, 0 },
		{ "-", 0, 0 }, { "inf", 0, 0 }, { "9223372036854775808", 0, 0 },
		{ "99999999999999999999999", 0, 0 },
	};
	size_t i;
	long v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -12345;
		if (cases[i].ok) {
			CHECK(number_parse_whole(cases[i].s, &v) == 0);
			CHECK(v == cases[i].want);
		} else {
			CHECK(number_parse_whole(cases[i].s, &v) < 0);
			CHECK(v == -12345);
		}
	}
}

static const struct harness_test tests[] = {
	TEST(test_number__parse_accepts_decimal_only),
	TEST(test_number__scan_stops_after_the_number),
	TEST(test_number__whole_digits_only),
};

int main(int argc, char **argv)
{
	return harness_main(tests, sizeof(tests) / sizeof(tests[0]), argc,
			    argv);
}
