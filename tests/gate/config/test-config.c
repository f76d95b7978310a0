/*
 * Unit tests for gate/config/config.c (with config-keys.c and config-rules.c):
 * every error class with its exact origin:line:column, defaults and
 * overrides, command copies, and hostile input (deep, truncated, mutated).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/config/config.h"
#include "common/jsonpos.h"
#include "tests/harness.h"
#include "common/banned.h"

/* A string literal and its length, so rows may hold NUL bytes. */
#define LIT(s) s, sizeof(s) - 1

/* Templates that put the text under test on a known line, at column 1. */
#define TOP(x) "{\n" x ",\n" \
	"\"benchmarks\": [{\"name\": \"x\", \"run\": \"y\"}]\n}"
#define DEFAULTS(x) "{\n\"defaults\": {\n" x "\n},\n" \
	"\"benchmarks\": [{\"name\": \"x\", \"run\": \"y\"}]\n}"
#define BENCH(x) "{\n\"benchmarks\": [\n{\"name\": \"x\", \"run\": \"y\",\n" \
	x "}\n]\n}"

static char msg[4096];

/* config_parse with the message captured into msg (quietly). */
static int parse(struct config *cfg, const char *text, size_t len)
{
	int r;

	msg[0] = '\0';
	error_capture(msg, sizeof(msg), 1);
	r = config_parse(cfg, text, len, "gate.json");
	error_capture(NULL, 0, 0);
	return r;
}

/* The config is back to CONFIG_INIT, as config_parse leaves it on error. */
static int is_released(const struct config *cfg)
{
	return cfg->benches == NULL && cfg->nbench == 0 &&
	       cfg->build.argv == NULL && cfg->build.shell == NULL;
}

/*
 * config_parse_to hands the message back and prints nothing: the same text
 * config_parse prints, for errors from each stage (size, syntax, a key, the
 * benchmarks list, a cross-key rule).
 */
static void test_config__parse_to_prints_nothing(void)
{
	static const char *const bad[] = {
		"",
		"{\"a\": 1\n \"b\": 2}",
		"{\"benchmarks\": [{\"name\": \"x\", \"run\": 5}]}",
		"{\"defaults\": {}}",
		("{\"benchmarks\": [{\"name\": \"x\", \"run\": [\"a\"]}, "
		 "{\"name\": \"x\", \"run\": [\"a\"]}]}"),
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct config cfg;
		struct gate_err err = { "" };
		char printed[4096] = "";

		CHECK(parse(&cfg, bad[i], strlen(bad[i])) < 0);
		CHECK(msg[0] != '\0');
		error_capture(printed, sizeof(printed), 1);
		CHECK(config_parse_to(&cfg, bad[i], strlen(bad[i]),
				      "gate.json", &err) < 0);
		error_capture(NULL, 0, 0);
		CHECK_STR(printed, "");
		CHECK_STR(err.msg, msg);
		CHECK(is_released(&cfg));
	}
}

static void test_config__error_messages(void)
{
	static const struct {
		const char *json;
		size_t len;
		const char *want;
	} rows[] = {
		/* empty, syntax and encoding */
		{ LIT(""),
		  "gate.json: the configuration is empty: write an object "
		  "like {\"benchmarks\": [" },
		{ LIT(" \n\t\r\n "),
		  "gate.json: the configuration is empty" },
		{ LIT("{\"a\": 1\n \"b\": 2}"),
		  "gate.json:2:2: syntax error: expected ',' or '}', got '\"' "
		  "(missing ','?)" },
		{ LIT("{\"benchmarks\": [1,]}"),
		  "gate.json:1:18: syntax error: trailing ',' before ']': "
		  "remove it" },
		{ LIT("{\"a\": 1,}"),
		  "gate.json:1:8: syntax error: trailing ',' before '}'" },
		{ LIT("{'a': 1}"),
		  "gate.json:1:2: syntax error: expected a key in double "
		  "quotes, got \"'\" (JSON strings use double quotes)" },
		{ LIT("{pairs: 1}"),
		  "gate.json:1:2: syntax error: expected a key in double "
		  "quotes, got pairs" },
		{ LIT("{\"a\" 1}"),
		  "gate.json:1:6: syntax error: expected ':' after the key, "
		  "got '1'" },
		{ LIT("{\"a\": tru}"),
		  "gate.json:1:7: syntax error: expected a value, got tru "
		  "(strings need double quotes)" },
		{ LIT("{\"a\": True}"),
		  "gate.json:1:7: syntax error: expected a value, got True "
		  "(JSON writes true, false and null in lower case)" },
		{ LIT("{\"a\": NaN}"),
		  "gate.json:1:7: syntax error: expected a value, got NaN "
		  "(JSON has no NaN or Infinity)" },
		{ LIT("{\"a\": \"x\\qy\"}"),
		  "gate.json:1:9: syntax error: invalid escape '\\q' in a "
		  "string: write '\\\\' for a backslash" },
		{ LIT("{\"a\": \"abc"),
		  "gate.json:1:7: syntax error: string is not closed: "
		  "add '\"'" },
		{ LIT("{\"a\": \"ab\ncd\"}"),
		  "gate.json:1:10: syntax error: line break inside a string" },
		{ LIT("{\"a\": \"a\tb\"}"),
		  "gate.json:1:9: syntax error: tab inside a string: write it "
		  "as \\t" },
		{ LIT("{\"a\": \"x\0y\"}"),
		  "gate.json:1:9: syntax error: control character 0x00 inside "
		  "a string" },
		{ LIT("{\"a\": 1}\0"),
		  "gate.json:1:9: syntax error: unexpected byte 0x00 after "
		  "the end of the document" },
		{ LIT("{\"a\": 01}"),
		  "gate.json:1:7: syntax error: a number cannot start with 0 "
		  "followed by digits" },
		{ LIT("{\"a\": 1.}"),
		  "gate.json:1:9: syntax error: expected a digit after '.' in "
		  "a number" },
		{ LIT("{\"a\": 1e}"),
		  "gate.json:1:9: syntax error: expected a digit in the "
		  "exponent" },
		{ LIT("{\"a\": -}"),
		  "gate.json:1:7: syntax error: '-' must be followed by a "
		  "digit" },
		{ LIT("{\"a\": .5}"),
		  "gate.json:1:7: syntax error: expected a value, got '.'" },
		{ LIT("{\"a\": 1} x"),
		  "gate.json:1:10: syntax error: unexpected x after the end "
		  "of the document" },
		{ LIT("{\"a\": 1 // note\n}"),
		  "gate.json:1:9: syntax error: expected ',' or '}', got '/' "
		  "(JSON allows no comments)" },
		{ LIT("{\"a\": [1, 2}"),
		  "gate.json:1:12: syntax error: expected ',' or ']', "
		  "got '}'" },
		{ LIT("{\"a\": {\"b\": 1}"),
		  "gate.json:1:15: syntax error: unexpected end of input: the "
		  "'{' at 1:1 is not closed" },
		{ LIT("{\n  \"a\": [\n"),
		  "gate.json:3:1: syntax error: unexpected end of input: the "
		  "'[' at 2:8 is not closed" },
		{ LIT("{\"a\": \"\\u12\"}"),
		  "gate.json:1:8: syntax error: '\\u' must be followed by 4 "
		  "hex digits" },
		{ LIT("{\"a\": \"\\ud83d\"}"),
		  "gate.json:1:8: syntax error: '\\ud83d' must be followed by "
		  "'\\udc00' to '\\udfff'" },
		{ LIT("{\"a\": \"\\ude00\"}"),
		  "gate.json:1:8: syntax error: '\\ude00' is the second half "
		  "of a UTF-16 surrogate pair" },
		{ LIT("{\"a\": \"\\u0000\"}"),
		  "gate.json:1:8: \\u0000 (NUL) is not allowed in a string" },
		{ LIT("{\"a\": \"\xff\"}"),
		  "gate.json:1:8: invalid UTF-8 (byte 0xff): save the file as "
		  "UTF-8" },
		{ LIT("{\"a\": \"\xc0\xaf\"}"),
		  /* an overlong '/' */
		  "gate.json:1:8: invalid UTF-8 (byte 0xc0)" },
		{ LIT("{\"a\": \"\xed\xa0\x80\"}"),
		  /* an encoded surrogate */
		  "gate.json:1:8: invalid UTF-8 (byte 0xed)" },
		{ LIT("{\"a\": 1}\xff"),
		  "gate.json:1:9: invalid UTF-8 (byte 0xff)" },
		{ LIT("{\xe2\x80\x9c" "a\xe2\x80\x9d: 1}"),
		  "gate.json:1:2: syntax error: expected a key in double "
		  "quotes, got '\xe2\x80\x9c' (use straight double quotes)" },
		{ LIT("{\"a\": 12345678901234567890123456789012345678901234567"
		      "890123456789012345}"),
		  "gate.json:1:7: number is longer than 63 characters" },
		{ LIT("{\"a\":\f1}"),
		  "gate.json:1:6: syntax error: expected a value, got byte "
		  "0x0c" },
		/* the top level */
		{ LIT("[1]"),
		  "gate.json:1:1: the top level must be an object like "
		  "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		  "[\"./bench\"]}]}, got an array" },
		{ LIT("  \"gate\""),
		  "gate.json:1:3: the top level must be an object like "
		  "{\"benchmarks\": [{\"name\": \"x\", \"run\": "
		  "[\"./bench\"]}]}, got \"gate\"" },
		{ LIT("{\"version\": 2}"),
		  "gate.json:1:13: \"version\" 2 is newer than this gate "
		  "understands (1): upgrade gate" },
		{ LIT(TOP("\"version\": 0")),
		  "gate.json:2:12: \"version\" must be a whole number such as "
		  "1, got 0" },
		{ LIT(TOP("\"version\": 1.5")),
		  "gate.json:2:12: \"version\" must be a whole number such as "
		  "1, got 1.5" },
		{ LIT(TOP("\"version\": \"1\"")),
		  "gate.json:2:12: \"version\" must be a whole number such as "
		  "1, got \"1\"" },
		{ LIT(TOP("\"benchmark\": []")),
		  "gate.json:2:1: unknown key \"benchmark\" at the top level "
		  "(did you mean \"benchmarks\"?)" },
		{ LIT(TOP("\"colour\": 1")),
		  "gate.json:2:1: unknown key \"colour\" at the top level: "
		  "known keys are version, build, build_timeout, cache_builds, serial_build, build_network, build_caches, pass_env, sources, writable, defaults, benchmarks, artifacts" },
		{ LIT(TOP("\"pairs\": 3")),
		  "gate.json:2:1: unknown key \"pairs\" at the top level: it "
		  "belongs in \"defaults\" or in a benchmark" },
		{ LIT(TOP("\"confidence\": 0.9")),
		  "gate.json:2:1: unknown key \"confidence\" at the top "
		  "level: it belongs in \"defaults\"" },
		{ LIT(TOP("\"run\": \"x\"")),
		  "gate.json:2:1: unknown key \"run\" at the top level: it "
		  "belongs in each benchmark in \"benchmarks\"" },
		{ LIT(TOP("\"a\\nb\": 1")),
		  "gate.json:2:1: unknown key \"a\\u000ab\" at the top level" },
		{ LIT(TOP("\"build\": \"make\", \"build\": \"make\"")),
		  "gate.json:2:18: duplicate key \"build\" at the top level "
		  "(first at 2:1): remove one" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", \"run\": \"y\"}], "
		      "\"benchmarks\": []}"),
		  "gate.json:1:45: duplicate key \"benchmarks\" at the top "
		  "level (first at 1:2)" },
		{ LIT("{\"build\": \"h\xc3\xa9llo\", \"x\": 1, "
		      "\"benchmarks\": []}"),
		  "gate.json:1:20: unknown key \"x\" at the top level" },
		/* "build" and "run" */
		{ LIT(TOP("\"build\": \"\"")),
		  "gate.json:2:10: \"build\" is an empty command: give one, "
		  "such as \"make\"" },
		{ LIT(TOP("\"build\": \" \\t \"")),
		  "gate.json:2:10: \"build\" is an empty command" },
		{ LIT(TOP("\"build\": []")),
		  "gate.json:2:10: \"build\" is an empty list: give the "
		  "program and its arguments, such as [\"make\"]" },
		{ LIT(TOP("\"build\": null")),
		  "gate.json:2:10: \"build\" must be a command string or a "
		  "list of strings (program and arguments), got null (leave "
		  "\"build\" out when there is nothing to build)" },
		{ LIT(TOP("\"build\": [\"make\", \"\"]")),
		  "gate.json:2:19: each element of \"build\" must be a "
		  "non-empty string, got \"\"" },
		{ LIT(TOP("\"build\": [\"make\", [\"-j2\"]]")),
		  "gate.json:2:19: each element of \"build\" must be a "
		  "non-empty string, got an array" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", \"run\": 3}]}"),
		  "gate.json:1:38: \"run\" must be a command string or a list "
		  "of strings (program and arguments), got 3" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", \"run\": \"  \"}]}"),
		  "gate.json:1:38: \"run\" is an empty command: give one, "
		  "such as \"./bench\"" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", \"run\": []}]}"),
		  "gate.json:1:38: \"run\" is an empty list" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", "
		      "\"run\": [\"a\", {}]}]}"),
		  "gate.json:1:44: each element of \"run\" must be a "
		  "non-empty string, got an object" },
		/* "defaults" */
		{ LIT(TOP("\"defaults\": []")),
		  "gate.json:2:13: \"defaults\" must be an object like "
		  "{\"pairs\": 20}, got an array" },
		{ LIT(DEFAULTS("\"pair\": 5")),
		  "gate.json:3:1: unknown key \"pair\" in \"defaults\" (did "
		  "you mean \"pairs\"?)" },
		{ LIT(DEFAULTS("\"Warmup\": 5")),
		  "gate.json:3:1: unknown key \"Warmup\" in \"defaults\" (did "
		  "you mean \"warmup\"?)" },
		{ LIT(DEFAULTS("\"run\": \"x\"")),
		  "gate.json:3:1: unknown key \"run\" in \"defaults\": it "
		  "belongs in each benchmark" },
		{ LIT(DEFAULTS("\"build\": \"x\"")),
		  "gate.json:3:1: unknown key \"build\" in \"defaults\": it "
		  "belongs at the top level" },
		{ LIT(DEFAULTS("\"confidence\": 1")),
		  "gate.json:3:15: \"confidence\" must be a number above 0.5 "
		  "and below 1, such as 0.95, got 1" },
		{ LIT(DEFAULTS("\"confidence\": 0.5")),
		  "gate.json:3:15: \"confidence\" must be a number above 0.5 "
		  "and below 1, such as 0.95, got 0.5" },
		{ LIT(DEFAULTS("\"confidence\": \"95%\"")),
		  "gate.json:3:15: \"confidence\" must be a number above 0.5 "
		  "and below 1, such as 0.95, got \"95%\"" },
		{ LIT(DEFAULTS("\"resamples\": 999")),
		  "gate.json:3:14: \"resamples\" must be a whole number from "
		  "1000 to 1000000, got 999" },
		{ LIT(DEFAULTS("\"resamples\": 1e7")),
		  "gate.json:3:14: \"resamples\" must be a whole number from "
		  "1000 to 1000000, got 1e7" },
		{ LIT(DEFAULTS("\"max_pairs\": 10")),
		  "gate.json:3:14: \"max_pairs\" must be a whole number from "
		  "20 to 100000 (not below \"pairs\"), got 10" },
		{ LIT(DEFAULTS("\"pairs\": 40, \"max_pairs\": 30")),
		  "gate.json:3:27: \"max_pairs\" must be a whole number from "
		  "40 to 100000 (not below \"pairs\"), got 30" },
		{ LIT(DEFAULTS("\"pairs\": 3, \"pairs\": 4")),
		  "gate.json:3:13: duplicate key \"pairs\" in \"defaults\" "
		  "(first at 3:1)" },
		/* benchmarks: structure */
		{ LIT("{}"),
		  "gate.json: \"benchmarks\" is missing: add a list like "
		  "[{\"name\": \"x\", \"run\": [\"./bench\"]}]" },
		{ LIT("{\"benchmarks\": []}"),
		  "gate.json:1:16: \"benchmarks\" is empty: add a benchmark "
		  "like {\"name\": \"x\", \"run\": [\"./bench\"]}" },
		{ LIT("{\"benchmarks\": {}}"),
		  "gate.json:1:16: \"benchmarks\" must be a list like "
		  "[{\"name\": \"x\", \"run\": [\"./bench\"]}], "
		  "got an object" },
		{ LIT("{\"benchmarks\": [\"x\"]}"),
		  "gate.json:1:17: each benchmark must be an object like "
		  "{\"name\": \"x\", \"run\": [\"./bench\"]}, got \"x\"" },
		{ LIT("{\"benchmarks\": [{\"run\": \"y\"}]}"),
		  "gate.json:1:17: the 1st benchmark has no \"name\": add "
		  "one, such as \"name\": \"parse\"" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\", \"run\": \"y\"}, "
		      "{\"name\": \"z\", \"run\": \"y\"}, {}]}"),
		  "gate.json:1:71: the 3rd benchmark has no \"name\"" },
		{ LIT("{\"benchmarks\": [{\"name\": \"x\"}]}"),
		  "gate.json:1:17: benchmark \"x\" has no \"run\": add the "
		  "command, such as \"run\": [\"./bench\"]" },
		/* benchmarks: names */
		{ LIT("{\"benchmarks\": [{\"name\": \"\", \"run\": \"y\"}]}"),
		  "gate.json:1:26: \"name\" is empty: give the benchmark a "
		  "name, such as \"parse\"" },
		{ LIT("{\"benchmarks\": [{\"name\": \"a/b\", "
		      "\"run\": \"y\"}]}"),
		  "gate.json:1:26: \"name\" \"a/b\" contains '/': it becomes "
		  "a file name and a report key" },
		{ LIT("{\"benchmarks\": [{\"name\": \"a\\tb\", "
		      "\"run\": \"y\"}]}"),
		  "gate.json:1:26: \"name\" \"a\\tb\" is not printable ASCII" },
		{ LIT("{\"benchmarks\": [{\"name\": \"caf\xc3\xa9\", \"run\": "
		      "\"y\"}]}"),
		  "gate.json:1:26: \"name\" \"caf\xc3\xa9\" is not printable "
		  "ASCII" },
		{ LIT("{\"benchmarks\": [{\"name\": \"..\", \"run\": \"y\"}]}"),
		  "gate.json:1:26: \"name\" cannot be \".\" or \"..\"" },
		{ LIT("{\"benchmarks\": [{\"name\": 3, \"run\": \"y\"}]}"),
		  "gate.json:1:26: \"name\" must be a string such as "
		  "\"parse\", got 3" },
		{ LIT("{\"benchmarks\": [\n"
		      "  {\"name\": \"parse\", \"run\": \"a\"},\n"
		      "  {\"name\": \"parse\", \"run\": \"b\"}\n]}"),
		  "gate.json:3:12: duplicate benchmark name \"parse\" (first "
		  "at 2:12)" },
		{ LIT("{\"benchmarks\": [\n"
		      "{\"name\": \"a\", \"run\": \"1\"},\n"
		      "{\"name\": \"b\", \"run\": \"2\"},\n"
		      "{\"name\": \"b\", \"run\": \"3\"},\n"
		      "{\"name\": \"a\", \"run\": \"4\"}\n]}"),
		  "gate.json:4:10: duplicate benchmark name \"b\" (first at "
		  "3:10)" },
		/* benchmarks: keys */
		{ LIT(BENCH("\"pair\": 5")),
		  "gate.json:4:1: unknown key \"pair\" in benchmark \"x\" "
		  "(did you mean \"pairs\"?)" },
		{ LIT(BENCH("\"colour\": 5")),
		  "gate.json:4:1: unknown key \"colour\" in benchmark \"x\": "
		  "known keys are name, run, check, artifacts, format, pairs, "
		  "max_pairs, warmup, metric, metrics, gate, min_effect, "
		  "pass_excludes, counter, timeout, parity, statistic, "
		  "interval, rule, target_halfwidth, expect, ignore" },
		/* the verdict's statistic, interval, rule and target */
		{ LIT(BENCH("\"interval\": \"bootstrap\"")),
		  "gate.json:4:13: \"interval\" must be \"exact\", "
		  "\"percentile\" or \"bca\", got \"bootstrap\"" },
		{ LIT(BENCH("\"statistic\": 3")),
		  "gate.json:4:14: \"statistic\" must be \"median\", \"hl\" "
		  "or \"mean\", got 3" },
		{ LIT(BENCH("\"rule\": \"peers\"")),
		  "gate.json:4:9: \"rule\" must be \"floor\" or "
		  "\"significant\", got \"peers\"" },
		{ LIT(BENCH("\"target_halfwidth\": 0")),
		  "gate.json:4:21: \"target_halfwidth\" must be a fraction "
		  "above 0 and below 10 (0.02 means an interval of +-2%), "
		  "got 0" },
		{ LIT(BENCH("\"target_halfwidth\": -0.01")),
		  "gate.json:4:21: \"target_halfwidth\" must be a fraction "
		  "above 0 and below 10 (0.02 means an interval of +-2%), "
		  "got -0.01" },
		{ LIT("{\"benchmarks\": [{\"nme\": \"x\", \"run\": \"y\"}]}"),
		  "gate.json:1:18: unknown key \"nme\" in the 1st benchmark "
		  "(did you mean \"name\"?)" },
		{ LIT(BENCH("\"confidence\": 0.9")),
		  "gate.json:4:1: \"confidence\" is suite-wide: set it in "
		  "\"defaults\", not in benchmark \"x\"" },
		{ LIT(BENCH("\"resamples\": 5000")),
		  "gate.json:4:1: \"resamples\" is suite-wide: set it in "
		  "\"defaults\"" },
		{ LIT(BENCH("\"pairs\": 3, \"pairs\": 4")),
		  "gate.json:4:13: duplicate key \"pairs\" in benchmark \"x\" "
		  "(first at 4:1): remove one" },
		{ LIT(BENCH("\"name\": \"z\"")),
		  "gate.json:4:1: duplicate key \"name\" in benchmark \"x\" "
		  "(first at 3:2)" },
		/* benchmarks: values */
		{ LIT(BENCH("\"pairs\": 1.5")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got 1.5" },
		{ LIT(BENCH("\"pairs\": 1")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got 1" },
		{ LIT(BENCH("\"pairs\": 10001")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got 10001" },
		{ LIT(BENCH("\"pairs\": -3")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got -3" },
		{ LIT(BENCH("\"pairs\": 1e400")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got 1e400" },
		{ LIT(BENCH("\"pairs\": \"20\"")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got \"20\"" },
		{ LIT(BENCH("\"pairs\": true")),
		  "gate.json:4:10: \"pairs\" must be a whole number from 2 to "
		  "10000, got true" },
		{ LIT(BENCH("\"p\\u0061irs\": 0")),
		  "gate.json:4:15: \"pairs\" must be a whole number from 2 to "
		  "10000, got 0" },
		{ LIT(BENCH("\"warmup\": 1001")),
		  "gate.json:4:11: \"warmup\" must be a whole number from 0 "
		  "to 1000, got 1001" },
		{ LIT(BENCH("\"warmup\": -0.5")),
		  "gate.json:4:11: \"warmup\" must be a whole number from 0 "
		  "to 1000, got -0.5" },
		{ LIT(BENCH("\"max_pairs\": 100001")),
		  "gate.json:4:14: \"max_pairs\" must be a whole number from "
		  "2 to 100000, got 100001" },
		{ LIT(BENCH("\"pairs\": 30, \"max_pairs\": 25")),
		  "gate.json:4:27: \"max_pairs\" must be a whole number from "
		  "30 to 100000 (not below \"pairs\"), got 25" },
		{ LIT("{\n\"defaults\": {\"max_pairs\": 30},\n"
		      "\"benchmarks\": [\n"
		      "{\"name\": \"x\", \"run\": \"y\", \"pairs\": 40}\n]\n}"),
		  "gate.json:4:36: \"pairs\" 40 in benchmark \"x\" is above "
		  "\"max_pairs\" 30 from \"defaults\" (at 2:27): set "
		  "\"max_pairs\" in this benchmark too" },
		{ LIT(BENCH("\"metric\": \"instruction\"")),
		  "gate.json:4:11: \"metric\" names an unknown metric "
		  "\"instruction\" (did you mean \"instructions\"?)" },
		{ LIT(BENCH("\"metric\": \"Wall\"")),
		  "gate.json:4:11: \"metric\" names an unknown metric \"Wall\" "
		  "(did you mean \"wall\"?)" },
		{ LIT(BENCH("\"metric\": 3")),
		  "gate.json:4:11: \"metric\" must be a metric name such as "
		  "\"wall\" (known: wall, cpu, instructions, cycles, allocs, "
		  "alloc_bytes, frees, max_rss, minor_faults, major_faults, "
		  "ctx_switches), got 3" },
		{ LIT(BENCH("\"metrics\": []")),
		  "gate.json:4:12: \"metrics\" must be a non-empty list of "
		  "metric names such as [\"wall\", \"instructions\"], got an "
		  "array" },
		{ LIT(BENCH("\"metrics\": [\"wall\", \"rss\"]")),
		  "gate.json:4:21: \"metrics\" names an unknown metric \"rss\": "
		  "known metrics are wall, cpu" },
		{ LIT(BENCH("\"metrics\": [\"wall\", \"wall\"]")),
		  "gate.json:4:21: \"metrics\" names \"wall\" twice: remove "
		  "one" },
		{ LIT(BENCH("\"metrics\": [\"wall\"], \"metric\": \"cpu\"")),
		  "gate.json:4:1: both \"metric\" and \"metrics\" in "
		  "benchmark \"x\": keep \"metrics\"" },
		{ LIT(BENCH("\"metrics\": [\"wall\"], \"gate\": [\"allocs\"]")),
		  "gate.json:3:1: \"gate\" names \"allocs\", which is not "
		  "among the metrics in benchmark \"x\": add it to "
		  "\"metrics\" or remove it from \"gate\"" },
		{ LIT(BENCH("\"format\": \"lines\", \"metrics\": "
			    "[\"wall\", \"allocs\"]")),
		  "benchmark \"x\" has a suite \"format\": its metric can be "
		  "\"wall\" or \"cpu\" (the time each case reports), or "
		  "\"instructions\" and \"cycles\" (each case counted on its "
		  "own), not \"allocs\"" },
		{ LIT(BENCH("\"counter\": \"pmu\"")),
		  "gate.json:4:12: \"counter\" must be \"auto\", \"perf\" or "
		  "\"valgrind\", got \"pmu\"" },
		{ LIT(BENCH("\"min_effect\": {\"walls\": 0.1}")),
		  "gate.json:4:16: \"min_effect\" names an unknown metric "
		  "\"walls\" (did you mean \"wall\"?)" },
		{ LIT(BENCH("\"min_effect\": {\"allocs\": 0.1, "
			    "\"allocs\": 0.2}")),
		  "\"min_effect\" gives \"allocs\" twice: remove one" },
		{ LIT(BENCH("\"min_effect\": {\"allocs\": -1}")),
		  "gate.json:4:26: \"min_effect\" of \"allocs\" must be a "
		  "fraction from 0 to below 10 (0.05 means 5%), got -1" },
		{ LIT(BENCH("\"min_effect\": 10")),
		  "gate.json:4:15: \"min_effect\" must be a fraction from 0 "
		  "to below 10 (0.05 means 5%), got 10" },
		{ LIT(BENCH("\"min_effect\": -0.01")),
		  "gate.json:4:15: \"min_effect\" must be a fraction from 0 "
		  "to below 10 (0.05 means 5%), got -0.01" },
		{ LIT(BENCH("\"min_effect\": \"5%\"")),
		  "gate.json:4:15: \"min_effect\" must be a fraction such as "
		  "0.05 (5%) or an object of fractions by metric such as "
		  "{\"wall\": 0.05, \"instructions\": 0.01}, got \"5%\"" },
		/* pass_excludes: shapes, range, and never below the floor */
		{ LIT(BENCH("\"pass_excludes\": \"10%\"")),
		  "gate.json:4:18: \"pass_excludes\" must be a fraction such "
		  "as 0.05 (5%) or an object of fractions by metric" },
		{ LIT(BENCH("\"pass_excludes\": 10")),
		  "gate.json:4:18: \"pass_excludes\" must be a fraction from "
		  "0 to below 10 (0.05 means 5%), got 10" },
		{ LIT(BENCH("\"pass_excludes\": {\"wal\": 0.1}")),
		  "gate.json:4:19: \"pass_excludes\" names an unknown metric "
		  "\"wal\" (did you mean \"wall\"?)" },
		{ LIT(BENCH("\"pass_excludes\": {\"wall\": -1}")),
		  "gate.json:4:27: \"pass_excludes\" of \"wall\" must be a "
		  "fraction from 0 to below 10" },
		{ LIT(BENCH("\"min_effect\": 0.05, \"pass_excludes\": 0.03")),
		  "gate.json:4:38: \"pass_excludes\" of \"wall\" (0.03) is "
		  "below its \"min_effect\" (0.05) in benchmark \"x\": a "
		  "pass must exclude at least the floor; set it to 0.05 or "
		  "more" },
		{ LIT(DEFAULTS("\"pass_excludes\": {\"wall\": 0.01}")),
		  "gate.json:3:18: \"pass_excludes\" of \"wall\" (0.01) is "
		  "below its \"min_effect\" (0.05) in benchmark \"x\"" },
		/* a count decided exactly below its exactness tolerance */
		{ LIT(BENCH("\"metrics\": [\"wall\", \"allocs\"], "
			    "\"min_effect\": 0.001")),
		  "gate.json:4:46: \"min_effect\" of \"allocs\" is 0.001 in "
		  "benchmark \"x\", but counts that agree within 0.1% are "
		  "decided exactly, so identical code could fail: give "
		  "\"allocs\" a floor of at least 0.002" },
		{ LIT(BENCH("\"metric\": \"instructions\", "
			    "\"min_effect\": {\"instructions\": 0}")),
		  "\"min_effect\" of \"instructions\" is 0 in benchmark "
		  "\"x\", but counts that agree within 0.1% are decided "
		  "exactly" },
		{ LIT(BENCH("\"timeout\": 0")),
		  "gate.json:4:12: \"timeout\" must be a number of seconds "
		  "above 0 and at most 86400, got 0" },
		{ LIT(BENCH("\"timeout\": 86401")),
		  "gate.json:4:12: \"timeout\" must be a number of seconds "
		  "above 0 and at most 86400, got 86401" },
		{ LIT(BENCH("\"timeout\": 1e999")),
		  "gate.json:4:12: \"timeout\" must be a number of seconds "
		  "above 0 and at most 86400, got 1e999" },
		{ LIT(BENCH("\"timeout\": 1e-400")),
		  "gate.json:4:12: \"timeout\" must be a number of seconds "
		  "above 0" },
		{ LIT(BENCH("\"parity\": \"yes\"")),
		  "gate.json:4:11: \"parity\" must be true or false, got "
		  "\"yes\"" },
		{ LIT(BENCH("\"parity\": 1")),
		  "gate.json:4:11: \"parity\" must be true or false, got 1" },
		/* suite formats: the table's names in its order (a new
		   format's row comes at the end, after these) */
		{ LIT(BENCH("\"format\": \"junit\"")),
		  "gate.json:4:11: \"format\" must be one of time, gbench, "
		  "gotest, lines, hyperfine, pytest, criterion, bencher, " },
		{ LIT(BENCH("\"format\": \"gate\"")),
		  "gate.json:4:11: \"format\" must be one of" },
		{ LIT(BENCH("\"format\": \"lines\", \"expect\": \"a\"")),
		  "gate.json:4:30: \"expect\" must be a list of case name "
		  "patterns" },
		{ LIT(BENCH("\"format\": \"lines\", \"expect\": [\"(\"]")),
		  "gate.json:4:31: \"(\" is not a valid POSIX extended regular "
		  "expression" },
		{ LIT(BENCH("\"format\": \"lines\", \"expect\": [\"\"]")),
		  "gate.json:4:31: each element of \"expect\" must be a "
		  "non-empty pattern" },
		{ LIT(BENCH("\"expect\": [\"a\"]")),
		  "\"expect\" lists the cases of a suite, but benchmark \"x\" "
		  "has no suite \"format\"" },
		{ LIT(BENCH("\"metric\": \"a very long string indeed, "
			    "longer than "
			    "forty characters\"")),
		  "gate.json:4:11: \"metric\" names an unknown metric "
		  "\"a very long string indeed, longer t...\": known" },
	};
	size_t i;

	CHECK(sizeof(rows) / sizeof(rows[0]) >= 30);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct config cfg;
		int r = parse(&cfg, rows[i].json, rows[i].len);

		CHECK(r == -1);
		CHECK(is_released(&cfg));
		CHECK_CONTAINS(msg, rows[i].want);
		if (r != -1 || !strstr(msg, rows[i].want))
			fprintf(stderr, "  row %zu: %s\n", i, rows[i].json);
		if (r == 0)
			config_release(&cfg);
	}
}

/* Whole messages, not just substrings, for the forms the README shows. */
static void test_config__exact_messages(void)
{
	struct config cfg;

	CHECK(parse(&cfg, LIT("{\"version\": 2}")) == -1);
	CHECK_STR(msg, "gate.json:1:13: \"version\" 2 is newer than this gate "
		  "understands (1): upgrade gate");
	CHECK(parse(&cfg, LIT("{}")) == -1);
	CHECK_STR(msg, "gate.json: \"benchmarks\" is missing: add a list like "
		  "[{\"name\": \"x\", \"run\": [\"./bench\"]}]");
	CHECK(parse(&cfg, LIT(BENCH("\"pairs\": 1.5"))) == -1);
	CHECK_STR(msg, "gate.json:4:10: \"pairs\" must be a whole number from "
		  "2 to 10000, got 1.5");
}

static void test_config__metrics_floors_and_gate(void)
{
	static const char text[] =
		"{\"defaults\": {\"min_effect\": {\"wall\": 0.1}},\n"
		" \"benchmarks\": [\n"
		"  {\"name\": \"a\", \"run\": \"x\",\n"
		"   \"metrics\": [\"wall\", \"instructions\", \"max_rss\"],\n"
		"   \"gate\": [\"instructions\", \"wall\"], "
		"\"counter\": \"valgrind\"},\n"
		"  {\"name\": \"b\", \"run\": \"x\", \"metrics\": "
		"[\"allocs\", \"instructions\"]},\n"
		"  {\"name\": \"c\", \"run\": \"x\", \"min_effect\": 0.2, "
		"\"metrics\": [\"cpu\", \"allocs\"]},\n"
		"  {\"name\": \"d\", \"run\": \"x\", \"metric\": "
		"\"instructions\", \"pairs\": 5}\n"
		"]}";
	struct config cfg;
	const struct bench_cfg *a, *b, *c, *d;

	CHECK(parse(&cfg, text, sizeof(text) - 1) == 0);
	a = config_find(&cfg, "a");
	b = config_find(&cfg, "b");
	c = config_find(&cfg, "c");
	d = config_find(&cfg, "d");
	CHECK(a && b && c && d);
	if (!a || !b || !c || !d) {
		config_release(&cfg);
		return;
	}
	CHECK(a->nmetrics == 3);
	CHECK(a->metrics[0].id == METRIC_WALL && a->metrics[0].gating);
	CHECK_NEAR(a->metrics[0].min_effect, 0.1, 0);	/* from defaults */
	CHECK(a->metrics[1].id == METRIC_INSTRUCTIONS);
	CHECK_NEAR(a->metrics[1].min_effect, METRIC_EXACT_FLOOR, 0);
	CHECK(a->metrics[2].id == METRIC_MAX_RSS && !a->metrics[2].gating);
	CHECK_NEAR(a->metrics[2].min_effect, 0.05, 0);
	CHECK(a->counter == COUNTER_VALGRIND);
	CHECK(a->metric == METRIC_WALL);	/* first gating: primary */
	CHECK(a->pairs == CONFIG_DEFAULT_PAIRS);	/* timed: 20 */
	/* only exact counts: fewer pairs, no warm-up by default */
	CHECK(b->pairs == METRIC_EXACT_PAIRS && b->warmup == 0);
	CHECK(b->metrics[0].gating && b->metrics[1].gating);
	CHECK(b->counter == COUNTER_AUTO);
	/* a number replaces defaults' object and sets every floor */
	CHECK_NEAR(c->metrics[0].min_effect, 0.2, 0);
	CHECK_NEAR(c->metrics[1].min_effect, 0.2, 0);
	CHECK(c->pairs == CONFIG_DEFAULT_PAIRS);
	/* "metric" still names one; explicit pairs win over the exact rule */
	CHECK(d->nmetrics == 1 && d->metric == METRIC_INSTRUCTIONS);
	CHECK(d->pairs == 5 && d->warmup == 0);
	CHECK(bench_has_metric(a, METRIC_MAX_RSS));
	CHECK(!bench_has_metric(a, METRIC_ALLOCS));
	config_release(&cfg);
}

/*
 * pass_excludes: twice the floor by default, per metric, a number for
 * every metric, from defaults or the benchmark (whose value replaces
 * defaults' whole value, as min_effect's does).
 */
static void test_config__pass_excludes(void)
{
	static const char text[] =
		"{\"defaults\": {\"pass_excludes\": {\"wall\": 0.08}},\n"
		" \"benchmarks\": [\n"
		"  {\"name\": \"a\", \"run\": \"x\",\n"
		"   \"metrics\": [\"wall\", \"instructions\", \"cpu\"]},\n"
		"  {\"name\": \"b\", \"run\": \"x\", \"min_effect\": 0.03, "
		"\"pass_excludes\": 0.03, \"metrics\": [\"wall\", \"cpu\"]},\n"
		"  {\"name\": \"c\", \"run\": \"x\", \"metrics\": "
		"[\"instructions\"], \"min_effect\": 0.002}\n"
		"]}";
	struct config cfg;
	const struct bench_cfg *a, *b, *c;

	CHECK(parse(&cfg, text, sizeof(text) - 1) == 0);
	if (msg[0])
		fprintf(stderr, "  %s\n", msg);
	a = config_find(&cfg, "a");
	b = config_find(&cfg, "b");
	c = config_find(&cfg, "c");
	CHECK(a && b && c);
	if (!a || !b || !c) {
		config_release(&cfg);
		return;
	}
	CHECK_NEAR(a->metrics[0].pass_excludes, 0.08, 0);
	/* not given for it: twice its floor */
	CHECK_NEAR(a->metrics[1].pass_excludes, 2 * METRIC_EXACT_FLOOR, 0);
	CHECK_NEAR(a->metrics[2].pass_excludes, 0.10, 1e-15);
	/* equal to the floor is allowed (what --strict does) */
	CHECK_NEAR(b->metrics[0].pass_excludes, 0.03, 0);
	CHECK_NEAR(b->metrics[1].pass_excludes, 0.03, 0);
	/* the smallest floor an exact count may have */
	CHECK_NEAR(c->metrics[0].min_effect, METRIC_EXACT_MIN_FLOOR, 0);
	config_release(&cfg);
}

static void test_config__defaults_applied(void)
{
	static const char json[] =
		"{\"benchmarks\": [{\"name\": \"a\", \"run\": [\"./bench\", "
		"\"arg\"]}]}";
	struct config cfg;
	const struct bench_cfg *b;

	CHECK(parse(&cfg, LIT(json)) == 0);
	CHECK(cfg.version == 1);
	CHECK(cfg.build.argv == NULL && cfg.build.shell == NULL);
	CHECK(cfg.confidence == CONFIG_DEFAULT_CONFIDENCE);
	CHECK(cfg.resamples == CONFIG_DEFAULT_RESAMPLES);
	CHECK(cfg.nbench == 1);
	b = &cfg.benches[0];
	CHECK_STR(b->name, "a");
	CHECK(b->pairs == CONFIG_DEFAULT_PAIRS);
	CHECK(b->max_pairs == CONFIG_DEFAULT_MAX_PAIRS);
	CHECK(b->warmup == CONFIG_DEFAULT_WARMUP);
	CHECK(b->metric == METRIC_WALL);
	CHECK(b->min_effect == CONFIG_DEFAULT_MIN_EFFECT);
	CHECK(b->timeout == CONFIG_DEFAULT_TIMEOUT);
	CHECK(b->parity == 1);
	CHECK(b->run.shell == NULL);
	CHECK(b->run.argv != NULL);
	if (b->run.argv) {
		CHECK_STR(b->run.argv[0], "./bench");
		CHECK_STR(b->run.argv[1], "arg");
		CHECK(b->run.argv[2] == NULL);
	}
	config_release(&cfg);
	CHECK(is_released(&cfg));
	config_release(&cfg);	/* twice is harmless */
}

static void test_config__overrides_applied(void)
{
	static const char json[] =
		"{\n"
		"  \"version\": 1.0,\n"
		"  \"build\": \"make -j2 bench\",\n"
		"  \"defaults\": { \"pairs\": 30, \"warmup\": 0, \"metric\": "
		"\"cpu\", \"min_effect\": 0.1, \"timeout\": 5.5, \"parity\": "
		"false, \"confidence\": 0.99, \"resamples\": 2000 },\n"
		"  \"benchmarks\": [\n"
		"    { \"name\": \"inherits\", \"run\": \"./a | ./b\" },\n"
		"    { \"name\": \"overrides\", \"run\": [\"./b\"], \"pairs\": "
		"100, \"metric\": \"wall\", \"min_effect\": 0, "
		"\"parity\": true, "
		"\"timeout\": 86400, \"warmup\": 1000 },\n"
		"    { \"name\": \"max\", \"run\": [\"./c\"], "
		"\"max_pairs\": 2e2 "
		"},\n"
		"    { \"name\": \"pairs_only\", \"run\": [\"./d\"], "
		"\"pairs\": 70 "
		"},\n"
		"    { \"name\": \"edges\", \"run\": [\"./e\"], \"pairs\": 2, "
		"\"max_pairs\": 2, \"min_effect\": 9.99 }\n"
		"  ]\n"
		"}\n";
	struct config cfg;
	const struct bench_cfg *b;

	CHECK(parse(&cfg, LIT(json)) == 0);
	CHECK_STR(msg, "");
	CHECK(cfg.version == 1);
	CHECK_STR(cfg.build.shell, "make -j2 bench");
	CHECK(cfg.build.argv == NULL);
	CHECK(cfg.confidence == 0.99);
	CHECK(cfg.resamples == 2000);
	CHECK(cfg.nbench == 5);
	if (cfg.nbench != 5)
		goto out;

	b = &cfg.benches[0];
	CHECK_STR(b->run.shell, "./a | ./b");
	CHECK(b->run.argv == NULL);
	CHECK(b->pairs == 30);
	CHECK(b->max_pairs == CONFIG_DEFAULT_MAX_PAIRS); /* the cap */
	CHECK(b->warmup == 0);
	CHECK(b->metric == METRIC_CPU);
	CHECK(b->min_effect == 0.1);
	CHECK(b->timeout == 5.5);
	CHECK(b->parity == 0);

	b = &cfg.benches[1];
	CHECK(b->pairs == 100);
	CHECK(b->max_pairs == CONFIG_DEFAULT_MAX_PAIRS); /* the cap */
	CHECK(b->warmup == 1000);
	CHECK(b->metric == METRIC_WALL);
	CHECK(b->min_effect == 0);
	CHECK(b->timeout == 86400);
	CHECK(b->parity == 1);

	b = &cfg.benches[2];
	CHECK(b->pairs == 30);
	CHECK(b->max_pairs == 200);
	CHECK(b->metric == METRIC_CPU);	/* defaults still apply */

	b = &cfg.benches[3];
	CHECK(b->pairs == 70);
	CHECK(b->max_pairs == CONFIG_DEFAULT_MAX_PAIRS);

	b = &cfg.benches[4];
	CHECK(b->pairs == 2);
	CHECK(b->max_pairs == 2);
	CHECK(b->min_effect == 9.99);
out:
	config_release(&cfg);
}

static void test_config__defaults_max_pairs_inherited(void)
{
	static const char json[] =
		"{\"defaults\": {\"max_pairs\": 80}, \"benchmarks\": ["
		"{\"name\": \"a\", \"run\": \"x\"}, "
		"{\"name\": \"b\", \"run\": \"x\", \"pairs\": 80}, "
		"{\"name\": \"c\", \"run\": \"x\", \"max_pairs\": 20}]}";
	struct config cfg;

	CHECK(parse(&cfg, LIT(json)) == 0);
	CHECK(cfg.nbench == 3);
	if (cfg.nbench == 3) {
		CHECK(cfg.benches[0].max_pairs == 80);
		CHECK(cfg.benches[1].pairs == 80);
		CHECK(cfg.benches[1].max_pairs == 80);
		CHECK(cfg.benches[2].max_pairs == 20);
	}
	config_release(&cfg);
}

static void test_config__design_sketch_parses(void)
{
	/* The example configuration of the design, behind a byte order mark. */
	static const char json[] =
		"\xef\xbb\xbf{\n"
		"  \"version\": 1,\n"
		"  \"build\": \"make -j2 bench\",\n"
		"  \"defaults\": { \"pairs\": 20, \"max_pairs\": 60, "
		"\"warmup\": "
		"2, \"confidence\": 0.95,\n"
		"                \"min_effect\": 0.05, \"metric\": \"wall\", "
		"\"timeout\": 60 },\n"
		"  \"benchmarks\": [\n"
		"    { \"name\": \"roundtrip\", "
		"\"run\": [\"./bench/roundtrip\", "
		"\"data/large.bin\"] },\n"
		"    { \"name\": \"parse\", \"run\": \"./bench/parse < "
		"data/big.json\", \"min_effect\": 0.03 }\n"
		"  ]\n"
		"}\n";
	struct config cfg;
	const struct bench_cfg *b;

	CHECK(parse(&cfg, LIT(json)) == 0);
	CHECK(cfg.nbench == 2);
	b = config_find(&cfg, "parse");
	CHECK(b != NULL);
	if (b) {
		CHECK(b->min_effect == 0.03);
		CHECK_STR(b->run.shell, "./bench/parse < data/big.json");
	}
	b = config_find(&cfg, "roundtrip");
	CHECK(b != NULL && b->run.argv && b->min_effect == 0.05);
	config_release(&cfg);

	/* With the mark, positions still match what an editor shows. */
	CHECK(parse(&cfg, LIT("\xef\xbb\xbf{\"version\": 2}")) == -1);
	CHECK_CONTAINS(msg, "gate.json:1:13: ");
}

static void test_config__strings_decoded(void)
{
	static const char json[] =
		"{\"build\": [\"sh\", \"-c\", \"echo \\\"a\\\\b\\\" \\u00e9 "
		"\\ud83d\\ude00\\n\"], \"benchmarks\": [{\"name\": "
		"\"a b-c.d_e:f\\u0021\", \"run\": \"x\"}]}";
	struct config cfg;

	CHECK(parse(&cfg, LIT(json)) == 0);
	if (cfg.build.argv) {
		CHECK_STR(cfg.build.argv[2],
			  "echo \"a\\b\" \xc3\xa9 \xf0\x9f\x98\x80\n");
		CHECK(cfg.build.argv[3] == NULL);
	}
	CHECK(cfg.nbench == 1 && config_find(&cfg, "a b-c.d_e:f!") != NULL);
	config_release(&cfg);
}

static void test_config__name_limits(void)
{
	char json[512];
	char name[128];
	struct config cfg;

	memset(name, 'n', 100);
	name[100] = '\0';
	snprintf(json, sizeof(json),
		 "{\"benchmarks\": [{\"name\": \"%s\", \"run\": \"x\"}]}",
		 name);
	CHECK(parse(&cfg, json, strlen(json)) == 0);
	CHECK(config_find(&cfg, name) != NULL);
	config_release(&cfg);

	memset(name, 'n', 101);
	name[101] = '\0';
	snprintf(json, sizeof(json),
		 "{\"benchmarks\": [{\"run\": \"y\", \"name\": \"%s\"}]}",
		 name);
	CHECK(parse(&cfg, json, strlen(json)) == -1);
	CHECK_STR(msg, "gate.json:1:38: \"name\" is 101 characters long, more "
		  "than 100: it becomes a file name and a report key");
}

static void test_config__command_release_twice(void)
{
	static const char json[] =
		"{\"build\": \"make\", \"benchmarks\": [{\"name\": \"a\", "
		"\"run\": [\"./bench\", \"--fast\"]}]}";
	struct config cfg;

	CHECK(parse(&cfg, LIT(json)) == 0);
	if (cfg.nbench != 1) {
		config_release(&cfg);
		return;
	}
	CHECK_STR(cfg.benches[0].run.argv[1], "--fast");
	command_release(&cfg.benches[0].run);
	CHECK(cfg.benches[0].run.argv == NULL &&
	      cfg.benches[0].run.shell == NULL);
	command_release(&cfg.benches[0].run);	/* twice is harmless */
	config_release(&cfg);	/* and after it, too (ASan checks) */
}

static void test_config__find_and_metric_names(void)
{
	static const char json[] =
		"{\"benchmarks\": [{\"name\": \"ab\", \"run\": \"x\"}, "
		"{\"name\": \"a\", \"run\": \"y\", \"metric\": \"cpu\"}]}";
	struct config cfg;
	const struct bench_cfg *b;

	CHECK(parse(&cfg, LIT(json)) == 0);
	b = config_find(&cfg, "a");
	CHECK(b == &cfg.benches[1]);
	CHECK(b && b->metric == METRIC_CPU);
	CHECK(config_find(&cfg, "ab") == &cfg.benches[0]);
	CHECK(config_find(&cfg, "abc") == NULL);
	CHECK(config_find(&cfg, "") == NULL);
	CHECK(config_find(&cfg, NULL) == NULL);
	config_release(&cfg);
	CHECK(config_find(&cfg, "a") == NULL);
	CHECK_STR(metric_name(METRIC_WALL), "wall");
	CHECK_STR(metric_name(METRIC_CPU), "cpu");
	CHECK_STR(metric_unit(METRIC_WALL), "s");
	CHECK_STR(metric_unit(METRIC_CPU), "s");
}

static void test_config__size_limit(void)
{
	size_t len = ((size_t)16 << 20) + 1;
	char *big = xmalloc(len);
	struct config cfg;

	memset(big, ' ', len);
	CHECK(parse(&cfg, big, len) == -1);
	CHECK_CONTAINS(msg, "gate.json: the configuration is 16777217 bytes, "
		       "more than the 16 MiB gate reads");
	/* Exactly 16 MiB is read (and here found empty). */
	CHECK(parse(&cfg, big, len - 1) == -1);
	CHECK_CONTAINS(msg, "the configuration is empty");
	free(big);
}

/* n levels of open brackets: an error at level 65, never a crash. */
static void test_config__deep_nesting(void)
{
	size_t n = 10000, i;
	char *deep = xmalloc(2 * n + 16);
	struct config cfg;
	struct jsonpos_error err;

	memset(deep, '[', n);
	CHECK(parse(&cfg, deep, n) == -1);
	CHECK_CONTAINS(msg, "gate.json:1:65: nested deeper than 64 levels");

	for (i = 0; i < n; i += 5)
		memcpy(deep + i, "{\"a\":", 5);
	CHECK(parse(&cfg, deep, n) == -1);
	CHECK_CONTAINS(msg, "gate.json:1:321: nested deeper than 64 levels");

	/* 64 levels are fine for the checker: object + 63 arrays. */
	memcpy(deep, "{\"a\":", 5);
	memset(deep + 5, '[', 63);
	memset(deep + 68, ']', 63);
	deep[131] = '}';
	CHECK(jsonpos_check(deep, 132, &err) == 0);
	CHECK(parse(&cfg, deep, 132) == -1);
	CHECK_CONTAINS(msg, "gate.json:1:2: unknown key \"a\" at the top "
		       "level");
	memcpy(deep, "{\"a\":", 5);
	memset(deep + 5, '[', 64);
	memset(deep + 69, ']', 64);
	deep[133] = '}';
	CHECK(jsonpos_check(deep, 134, &err) == -1);
	CHECK(err.off == 68);
	CHECK_STR(err.msg, "nested deeper than 64 levels");
	free(deep);
}

static const char sample[] =
	"{\n"
	"  \"version\": 1,\n"
	"  \"build\": [\"make\", \"-C\", \"dir with \\\"quotes\\\"\"],\n"
	"  \"defaults\": {\"pairs\": 12, \"min_effect\": 2.5e-2, "
	"\"parity\": false},\n"
	"  \"benchmarks\": [\n"
	"    {\"name\": \"p\\u0061rse\", \"run\": \"./b \\\\ \\u00e9 "
	"\\ud83d\\ude00\"},\n"
	"    {\"name\": \"cafe\\u002dfree\", \"run\": [\"./c\", \"\\/\"], "
	"\"metric\": \"cpu\", \"max_pairs\": 99}\n"
	"  ]\n"
	"}\n";

/* Every prefix, in a buffer of exactly that size: -1 or 0, no overread. */
static void test_config__truncated_at_every_offset(void)
{
	size_t len = sizeof(sample) - 1, full = len, k;
	struct config cfg;

	while (full > 0 && strchr(" \n", sample[full - 1]))
		full--;
	CHECK(parse(&cfg, LIT(sample)) == 0);
	config_release(&cfg);
	for (k = 0; k <= len; k++) {
		char *buf = xmalloc(k);
		int r;

		memcpy(buf, sample, k);
		r = parse(&cfg, buf, k);
		CHECK(r == (k < full ? -1 : 0));
		CHECK(r == 0 || !strncmp(msg, "gate.json", 9));
		CHECK(r == 0 || is_released(&cfg));
		if (r == 0)
			config_release(&cfg);
		free(buf);
	}
}

/* Each byte replaced by a troublesome one: any answer, but no crash. */
static void test_config__mutations_never_crash(void)
{
	static const char subst[] = { '"', '\\', '{', '[', ']', '}', ',', ':',
				      '\0', '\n', '0', '-', 'e', '\xff',
				      '\xc3' };
	size_t len = sizeof(sample) - 1, k, s;
	char *buf = xmalloc(len);
	struct config cfg;

	for (k = 0; k < len; k++) {
		for (s = 0; s < sizeof(subst); s++) {
			memcpy(buf, sample, len);
			buf[k] = subst[s];
			if (parse(&cfg, buf, len) == 0)
				config_release(&cfg);
			else
				CHECK(msg[0] != '\0' && is_released(&cfg));
		}
	}
	free(buf);
}

static void test_config__verdict_keys(void)
{
	static const char t[] =
		"{\"defaults\": {\"interval\": \"bca\", \"rule\": "
		"\"significant\", \"min_effect\": 0.03},\n"
		"\"benchmarks\": [{\"name\": \"a\", \"run\": \"x\"},\n"
		"{\"name\": \"b\", \"run\": \"y\", \"statistic\": \"median\", "
		"\"interval\": \"exact\", \"target_halfwidth\": 0.01}]}";
	struct config cfg;

	CHECK(parse(&cfg, t, sizeof(t) - 1) == 0);
	if (cfg.nbench == 2) {
		CHECK(cfg.benches[0].statistic == STATS_HL);
		CHECK(cfg.benches[0].interval == INTERVAL_BCA);
		CHECK(cfg.benches[0].rule == RULE_SIGNIFICANT);
		/* unset: the benchmark's own floor */
		CHECK(cfg.benches[0].target_halfwidth == 0.03);
		CHECK(cfg.benches[1].statistic == STATS_MEDIAN);
		CHECK(cfg.benches[1].interval == INTERVAL_EXACT);
		CHECK(cfg.benches[1].target_halfwidth == 0.01);
	}
	config_release(&cfg);
}

/*
 * "artifacts": a benchmark's own list wins, an empty one means none, the
 * others take the top level's; a path out of the checkout is refused.
 */
static void test_config__artifacts(void)
{
	static const char text[] =
		"{\"artifacts\": [\"build/*.so\", \"bin/x\"],\n"
		" \"benchmarks\": [{\"name\": \"a\", \"run\": \"./a\"},\n"
		"  {\"name\": \"b\", \"run\": \"./b\", \"artifacts\": [\"b\"]},\n"
		"  {\"name\": \"c\", \"run\": \"./c\", \"artifacts\": []}]}";
	struct config cfg;

	CHECK(parse(&cfg, text, strlen(text)) == 0);
	CHECK(cfg.benches[0].nartifacts == 2);
	CHECK_STR(cfg.benches[0].artifacts[0], "build/*.so");
	CHECK(cfg.benches[1].nartifacts == 1);
	CHECK_STR(cfg.benches[1].artifacts[0], "b");
	CHECK(cfg.benches[2].nartifacts == 0);
	config_release(&cfg);
	CHECK(parse(&cfg, LIT("{\"artifacts\": [\"../x\"], \"benchmarks\": "
			      "[{\"name\": \"a\", \"run\": \"./a\"}]}")) < 0);
	CHECK_CONTAINS(msg, "\"../x\" must name files inside the checkout");
	CHECK(parse(&cfg, LIT("{\"benchmarks\": [{\"name\": \"a\", \"run\": "
			      "\"./a\", \"artifacts\": \"x\"}]}")) < 0);
	CHECK_CONTAINS(msg, "\"artifacts\" must be a list of paths or globs");
}

/*
 * A duration reads decimal only, as every number gate reads: C's strtod
 * would take "0x10s" as 16 s and "1e1s" stays 10 s.
 */
static void test_config__duration_is_decimal(void)
{
	double d = -1;

	CHECK(config_parse_duration("0x10s", &d) < 0);
	CHECK(config_parse_duration("0x10", &d) < 0);
	CHECK(config_parse_duration("+5s", &d) < 0);
	CHECK(config_parse_duration("nan", &d) < 0);
	CHECK(config_parse_duration("5 s", &d) < 0);
	CHECK(d == -1);
	CHECK(config_parse_duration("1e1s", &d) == 0 && d == 10);
	CHECK(config_parse_duration("0.5m", &d) == 0 && d == 30);
}

static const struct harness_test tests[] = {
	TEST(test_config__artifacts),
	TEST(test_config__verdict_keys),
	TEST(test_config__error_messages),
	TEST(test_config__parse_to_prints_nothing),
	TEST(test_config__exact_messages),
	TEST(test_config__defaults_applied),
	TEST(test_config__overrides_applied),
	TEST(test_config__defaults_max_pairs_inherited),
	TEST(test_config__design_sketch_parses),
	TEST(test_config__strings_decoded),
	TEST(test_config__name_limits),
	TEST(test_config__command_release_twice),
	TEST(test_config__find_and_metric_names),
	TEST(test_config__metrics_floors_and_gate),
	TEST(test_config__pass_excludes),
	TEST(test_config__size_limit),
	TEST(test_config__deep_nesting),
	TEST(test_config__truncated_at_every_offset),
	TEST(test_config__mutations_never_crash),
	TEST(test_config__duration_is_decimal),
};

HARNESS_MAIN(tests)
