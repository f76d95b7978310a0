/*
 * pytest-benchmark --benchmark-json: each test a case, its stats.data the
 * values, or its median alone without --benchmark-save-data.
 */
#include "gate/format/format.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/error.h"
#include "common/banned.h"

static int pytest_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	cJSON *root;
	const cJSON *list, *e, *name, *st, *data, *med;
	size_t i = 0;
	int ret = -1;

	list = format_json_list_to(&root, text, len, origin,
				   "pytest-benchmark", "benchmarks",
				   "--benchmark-json", o->err);
	if (!list)
		return -1;
	cJSON_ArrayForEach(e, list) {
		name = cJSON_GetObjectItemCaseSensitive(e, "fullname");
		if (!cJSON_IsString(name))
			name = cJSON_GetObjectItemCaseSensitive(e, "name");
		st = cJSON_GetObjectItemCaseSensitive(e, "stats");
		data = cJSON_GetObjectItemCaseSensitive(st, "data");
		med = cJSON_GetObjectItemCaseSensitive(st, "median");
		if (!cJSON_IsString(name) || !cJSON_IsObject(st)) {
			error_to(o->err, "%s: benchmarks[%zu] lacks \"name\" or "
			      "\"stats\": not pytest-benchmark JSON", origin,
			      i);
			goto cleanup;
		}
		if (cJSON_IsArray(data) && cJSON_GetArraySize(data)) {
			if (fmt_table_add_numbers(t, name->valuestring, data,
						  origin, "stats.data",
						  o->err) < 0)
				goto cleanup;
		} else if (cJSON_IsNumber(med)) {
			/* one value per file: run with --benchmark-save-data
			   for every round */
			fmt_table_add(t, name->valuestring,
				      strlen(name->valuestring), "s",
				      med->valuedouble);
		} else {
			error_to(o->err, "%s: benchmarks[%zu] (\"%s\") has neither "
			      "stats.data nor stats.median", origin, i,
			      name->valuestring);
			goto cleanup;
		}
		i++;
	}
	ret = 0;
cleanup:
	cJSON_Delete(root);
	return ret;
}

/* Its "machine_info" tells it apart. */
static int pytest_detect(const char *text, size_t len, const struct cJSON *root)
{
	(void)text;
	(void)len;
	return cJSON_GetObjectItemCaseSensitive(root, "machine_info") != NULL;
}

/* A character pytest's -k takes in a name (7.x: word characters and
   :+-.[]\\/). */
static int k_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_:+-.[]\\/", c);
}

/*
 * Component s (n bytes) as a -k name onto b: whole when pytest takes it,
 * else cut before its parameters or the first character it does not take
 * ("test_f[a b]" -> "test_f": -k matches by substring, so a prefix
 * selects more, never fewer). 0 when nothing is left.
 */
static int k_word(struct fmt_buf *b, const char *s, size_t n)
{
	static const char *const reserved[] = { "and", "or", "not" };
	size_t i, cut = 0, k;

	while (cut < n && k_char(s[cut]))
		cut++;
	if (cut < n)	/* not whole: up to the parameters at most */
		for (i = 0; i < cut; i++)
			if (s[i] == '[') {
				cut = i;
				break;
			}
	for (k = 0; k < 3; k++)
		if (cut == strlen(reserved[k]) && !strncmp(s, reserved[k], cut))
			cut = 0;
	fmt_buf_add(b, s, cut);
	return cut > 0;
}

/*
 * pytest's -k expression selecting the node ids names[0..n) ("dir/t.py::
 * TestA::test_f[1]" -> "(t.py and TestA and test_f[1])"), or NULL when
 * one cannot be written (every case runs: more, never fewer). -k matches
 * by substring, so it may select more, which a round ignores.
 */
static char *pytest_k(const char *const *names, size_t n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = names[i], *sep, *slash;
		int words = 0, first = 1;

		fmt_buf_str(&b, i ? " or (" : "(");
		for (;; s = sep + 2, first = 0) {
			size_t len, mark = b.len;

			sep = strstr(s, "::");
			len = sep ? (size_t)(sep - s) : strlen(s);
			/* the module by its file name: the node -k matches */
			while (first && (slash = memchr(s, '/', len))) {
				len -= (size_t)(slash + 1 - s);
				s = slash + 1;
			}
			if (words)
				fmt_buf_str(&b, " and ");
			if (k_word(&b, s, len)) {
				words++;
			} else {
				b.len = mark;
				b.buf[b.len] = '\0';
			}
			if (!sep)
				break;
		}
		if (!words) {
			free(b.buf);
			return NULL;
		}
		fmt_buf_str(&b, ")");
	}
	return b.buf;
}

/*
 * Rounds and shards: GATE_FILTER (a wrapper may read it) and -k through
 * PYTEST_ADDOPTS, which pytest reads however it is started (a wrapper
 * printing its --benchmark-json file too), before any -k of the suite's
 * own, so that one wins.
 */
static void pytest_select(struct fmt_cmd_edit *e, char *const *argv,
			  const char *shell, const char *const *names,
			  size_t n)
{
	char *k = pytest_k(names, n);

	(void)argv;
	(void)shell;
	e->filter = fmt_anchored(names, n);
	if (k) {
		e->env = "PYTEST_ADDOPTS";
		e->env_value = xasprintf("-k '%s' ", k);
		free(k);
	}
}

const struct format_reader format_pytest_reader = {
	.name = "pytest",
	.what = "pytest-benchmark --benchmark-json",
	.detect = pytest_detect,
	.broken_json_keys = { "\"machine_info\"", "\"benchmark_version\"" },
	.parse = pytest_parse,
	.values = FMT_VALUES_ONE_PROCESS,
	.select = pytest_select,
	.init = "pytest-benchmark tests: rounds of fixed work in one "
		"session (init-py.c)",
	.counted = FMT_COUNTED_PYTEST,
	.count_floor = 0.03,
};
