/*
 * Unit tests for common/jsonpos.c: the JSON paths, lines and columns config
 * errors point at, on whole and truncated input.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "tests/harness.h"
#include "common/banned.h"

/* A string literal and its length, so rows may hold NUL bytes. */
#define LIT(s) s, sizeof(s) - 1

static void test_config__jsonpos_paths(void)
{
	static const char t[] =
		"{\"a\\\"b\": [1, {\"k\": \"x\\\\\\\"y\"}], \"ab\": {\"abc\": "
		"[[1, 2], [3, [4]]], \"ab\": 5}, \"a\": \"\\u00e9\\\"\", "
		"\"\\u0061\": 7, \"a\\u0062\": 8, \"\\ud83d\\ude00\": 9}";
	static const struct {
		struct jsonpos_step path[5];
		size_t n;
		const char *want;	/* the text the value starts with */
	} rows[] = {
		{ { { NULL, 0 } }, 0, "{\"a\\\"b\"" },
		{ { { "a\"b", 0 } }, 1, "[1, {" },
		{ { { "a\"b", 0 }, { NULL, 1 }, { "k", 0 } }, 3, "\"x\\\\" },
		{ { { "ab", 0 } }, 1, "{\"abc\"" },
		{ { { "ab", 0 }, { "ab", 0 } }, 2, "5}" },
		{ { { "ab", 0 }, { "abc", 0 }, { NULL, 1 }, { NULL, 1 },
		    { NULL, 0 } }, 5, "4]" },
		{ { { "a", 0 } }, 1, "\"\\u00e9" },
		{ { { "a", 1 } }, 1, "7," },	/* "\u0061" is "a" again */
		{ { { "ab", 1 } }, 1, "8," },	/* so is "a\u0062" */
		{ { { NULL, 4 } }, 1, "8," },
		{ { { "\xf0\x9f\x98\x80", 0 } }, 1, "9}" },
	};
	static const struct {
		struct jsonpos_step path[3];
		size_t n;
	} missing[] = {
		{ { { "zz", 0 } }, 1 },
		{ { { "a", 2 } }, 1 },
		{ { { NULL, 7 } }, 1 },
		{ { { "a\"b", 0 }, { NULL, 2 } }, 2 },
		{ { { "a\"b", 0 }, { "k", 0 } }, 2 },
		{ { { "ab", 0 }, { "abc", 0 }, { NULL, 2 } }, 3 },
		{ { { "a\"b", 0 }, { NULL, 0 }, { NULL, 0 } }, 3 },
		{ { { "a\"", 0 } }, 1 },	/* a prefix of a key */
		{ { { "a\"bc", 0 } }, 1 },	/* longer than a key */
	};
	static const struct jsonpos_step first[] = {
		{ "ab", 0 }, { "abc", 0 }, { NULL, 0 }
	};
	size_t i, off, end, len = sizeof(t) - 1;
	struct jsonpos_error err;

	CHECK(jsonpos_check(t, len, &err) == 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		off = len;
		CHECK(jsonpos_value(t, len, rows[i].path, rows[i].n,
				    &off) == 0);
		CHECK(off < len && !strncmp(t + off, rows[i].want,
					    strlen(rows[i].want)));
		if (off >= len || strncmp(t + off, rows[i].want,
					  strlen(rows[i].want)))
			fprintf(stderr, "  path row %zu\n", i);
	}
	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		CHECK(jsonpos_value(t, len, missing[i].path, missing[i].n,
				    &off) == -1);

	/* "[1, 2]" is skipped whole, its end not confused with "[4]"'s. */
	CHECK(jsonpos_value(t, len, first, 3, &off) == 0);
	CHECK(jsonpos_skip(t, len, off, &end) == 0);
	CHECK(end - off == 6 && !strncmp(t + off, "[1, 2]", 6));
	/* Keys: the second "a" is spelt "\u0061". */
	CHECK(jsonpos_key(t, len, rows[7].path, 1, &off) == 0);
	CHECK(!strncmp(t + off, "\"\\u0061\"", 8));
	CHECK(jsonpos_key(t, len, rows[0].path, 0, &off) == -1);
	CHECK(jsonpos_key(t, len, rows[5].path, 5, &off) == -1);
	/* A string ending in an escaped backslash ends at the next quote. */
	CHECK(jsonpos_skip(LIT("\"a\\\\\" x"), 0, &end) == 0 && end == 5);
	CHECK(jsonpos_skip(LIT("\"a\\\""), 0, &end) == -1);
	CHECK(jsonpos_skip(LIT("-1.5e3,"), 0, &end) == 0 && end == 6);
	CHECK(jsonpos_skip(LIT("[{\"]\": \"}\"}] "), 0, &end) == 0 &&
	      end == 12);
	CHECK(jsonpos_skip(LIT("[[]"), 0, &end) == -1);
	CHECK(jsonpos_skip(LIT("}"), 0, &end) == -1);
	CHECK(jsonpos_skip(LIT("x"), 1, &end) == -1);
}

/* Positions on every prefix of tricky text: found or not, never overread. */
static void test_config__jsonpos_truncated(void)
{
	static const char t[] =
		"{\"a\\\"b\": [1, {\"k\": \"x\\\\\\\"y\"}], \"ab\": {\"abc\": "
		"[[1, 2], [3, [4]]]}, \"\\ud83d\\ude00\": \"\\u00e9\"}";
	static const struct jsonpos_step deep[] = {
		{ "ab", 0 }, { "abc", 0 }, { NULL, 1 }, { NULL, 1 }, { NULL, 0 }
	};
	static const struct jsonpos_step last[] = { { "\xf0\x9f\x98\x80", 0 } };
	size_t len = sizeof(t) - 1, k, off, end, line, col;
	struct jsonpos_error err;

	for (k = 0; k <= len; k++) {
		char *buf = xmalloc(k);

		memcpy(buf, t, k);
		if (jsonpos_value(buf, k, deep, 5, &off) == 0)
			CHECK(off < k && buf[off] == '4');
		if (jsonpos_key(buf, k, last, 1, &off) == 0)
			CHECK(off < k && buf[off] == '"');
		if (jsonpos_value(buf, k, last, 1, &off) == 0)
			(void)jsonpos_skip(buf, k, off, &end);
		CHECK(jsonpos_check(buf, k, &err) == (k == len ? 0 : -1));
		CHECK(err.off <= k);
		jsonpos_linecol(buf, k, k + 10, &line, &col);
		CHECK(line == 1);
		free(buf);
	}
}

static void test_config__jsonpos_linecol(void)
{
	static const char t[] = "ab\ncd\r\n\t\"\xc3\xa9\xe2\x82\xac\": x\n";
	size_t line, col, len = sizeof(t) - 1;

	jsonpos_linecol(t, len, 0, &line, &col);
	CHECK(line == 1 && col == 1);
	jsonpos_linecol(t, len, 2, &line, &col);	/* the '\n' itself */
	CHECK(line == 1 && col == 3);
	jsonpos_linecol(t, len, 4, &line, &col);	/* 'd' */
	CHECK(line == 2 && col == 2);
	jsonpos_linecol(t, len, 7, &line, &col);	/* the tab */
	CHECK(line == 3 && col == 1);
	/* 'x': tab, quote, two characters in five bytes, quote, ':', ' ' */
	jsonpos_linecol(t, len, (size_t)(strchr(t, 'x') - t), &line, &col);
	CHECK(line == 3 && col == 8);
	jsonpos_linecol(t, len, len + 100, &line, &col);	/* clamped */
	CHECK(line == 4 && col == 1);
	jsonpos_linecol(t, 0, 5, &line, &col);
	CHECK(line == 1 && col == 1);
}

static void test_config__jsonpos_check_accepts_json(void)
{
	static const char *const ok[] = {
		("{\"a\\\"}\": \"\\\\\", \"b\": \"\\ud83d\\ude00\", "
		 "\"c\": [[], {}, [[]]], \"d\": -0.5e+10, \"e\": true, "
		 "\"f\": null, \"g\": false}"),
		"0", "-0", "1E-2", "\"\"", " [ ] ", "\t{\r\n}\n",
		"\"\xf4\x8f\xbf\xbf \xef\xbb\xbf\"",
		"\"\\/\\b\\f\\n\\r\\t\\u00E9\"",
	};
	struct jsonpos_error err;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK(jsonpos_check(ok[i], strlen(ok[i]), &err) == 0);
		if (err.msg[0])
			fprintf(stderr, "  \"%s\": %s\n", ok[i], err.msg);
	}
	CHECK(jsonpos_check("", 0, &err) == -1);
	CHECK_STR(err.msg, "syntax error: expected a value, got end of input");
	CHECK(jsonpos_check(LIT("\"\xf4\x90\x80\x80\""), &err) == -1);
	CHECK(jsonpos_check(LIT("truex"), &err) == -1);
	CHECK(jsonpos_check(LIT("[1 2]"), &err) == -1);
	CHECK(err.off == 3);
}

static const struct harness_test tests[] = {
	TEST(test_config__jsonpos_paths),
	TEST(test_config__jsonpos_truncated),
	TEST(test_config__jsonpos_linecol),
	TEST(test_config__jsonpos_check_accepts_json),
};

HARNESS_MAIN(tests)
