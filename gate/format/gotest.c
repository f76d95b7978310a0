/*
 * go test -bench text: "BenchmarkName-8  N  v1 unit1  v2 unit2 ..." lines,
 * one per run (-count gives several); ns/op becomes s/op. The output must
 * end with go test's PASS or ok line, so a truncated one is never short.
 * The -GOMAXPROCS suffix ("-8") is dropped from the names, as benchstat
 * does, so a case has one name on runners of any core count; the count
 * is kept in fmt_table.procs. Output with several (go test -cpu 1,2,4)
 * keeps the suffixes: they are different cases then.
 */
#include "gate/format/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

#define MAX_FIELDS 64

/* Split s..end at blanks into at most max fields (start, length). */
static size_t split(const char *s, const char *end, const char **f,
		    size_t *flen, size_t max)
{
	size_t n = 0;

	while (s < end && n < max + 1) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s >= end)
			break;
		if (n < max)
			f[n] = s;
		while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (n < max)
			flen[n] = (size_t)(s - f[n]);
		n++;
	}
	return n;
}

static int number(const char *s, size_t n, double *out)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	return *end || errno == ERANGE ? -1 : 0;
}

/* strspn within n bytes: the text need not be NUL-terminated. */
static size_t span(const char *s, size_t n, const char *set)
{
	size_t i = 0;

	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

/* The suffixes seen while parsing. */
struct procs_seen {
	int strip;		/* drop the -N suffix from names */
	long procs;		/* the first line's N (0: no suffix) */
	int lines;		/* result lines seen */
	int mixed;		/* lines with different N (or none) */
};

/* The length of name (len bytes) without its "-N" suffix, N into *procs
   (0 and len when it has none). */
static size_t strip_procs(const char *name, size_t len, long *procs)
{
	size_t k = len, i;
	long v = 0;

	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	*procs = 0;
	if (k == len || k < 2 || name[k - 1] != '-' || len - k > 6)
		return len;
	for (i = k; i < len; i++)
		v = 10 * v + (name[i] - '0');
	*procs = v;
	return k - 1;
}

static int result_line(struct fmt_table *t, const char *s, const char *end,
		       const char *origin, size_t lineno,
		       struct gate_err *err, struct procs_seen *ps)
{
	const char *f[MAX_FIELDS];
	size_t fl[MAX_FIELDS], n = split(s, end, f, fl, MAX_FIELDS), i;
	char unit[64];
	double iters, v;
	size_t name_len;
	long procs;

	if (n == 1)
		return 0;	/* -v prints the name alone before its result */
	if (n > MAX_FIELDS)
		return error_to(err, "%s:%zu: more than %d fields in a benchmark line",
			     origin, lineno, MAX_FIELDS);
	if (number(f[1], fl[1], &iters) < 0 || iters < 1 ||
	    span(f[1], fl[1], "0123456789") != fl[1])
		return error_to(err, "%s:%zu: \"%.*s\" should be followed by its "
			     "iteration count, got \"%.*s\": malformed go "
			     "test -bench line", origin, lineno, (int)fl[0],
			     f[0], (int)fl[1], f[1]);
	if (n < 4 || n % 2)
		return error_to(err, "%s:%zu: \"%.*s\": expected pairs of value and "
			     "unit after the iteration count, such as "
			     "\"1234 ns/op\" (truncated output?)", origin,
			     lineno, (int)fl[0], f[0]);
	name_len = strip_procs(f[0], fl[0], &procs);
	if (ps->lines++ == 0)
		ps->procs = procs;
	else if (procs != ps->procs)
		ps->mixed = 1;
	if (!ps->strip)
		name_len = fl[0];
	for (i = 2; i < n; i += 2) {
		if (number(f[i], fl[i], &v) < 0)
			return error_to(err, "%s:%zu: \"%.*s\": \"%.*s\" is not a "
				     "number", origin, lineno, (int)fl[0],
				     f[0], (int)fl[i], f[i]);
		if (fl[i + 1] >= sizeof(unit))
			return error_to(err, "%s:%zu: unit too long", origin, lineno);
		memcpy(unit, f[i + 1], fl[i + 1]);
		unit[fl[i + 1]] = '\0';
		if (!strcmp(unit, "ns/op")) {
			v *= 1e-9;
			memcpy(unit, "s/op", 5);
		}
		fmt_table_add(t, f[0], name_len, unit, v);
	}
	return 0;
}

static int parse_lines(struct fmt_table *t, const char *text, size_t len,
		       const char *origin, const struct fmt_opts *o,
		       struct procs_seen *ps)
{
	const char *s = text, *end = text + len, *nl, *last = NULL;
	size_t lineno = 0, last_len = 0;

	/* each "pkg:" header starts a test binary's output: a process */
	t->track = 1;
	t->proc = 0;
	for (; s < end; s = nl + 1) {
		size_t n;

		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		n = (size_t)(nl - s);
		lineno++;
		if (n >= 5 && !memcmp(s, "pkg: ", 5))
			t->proc++;
		if (n > 9 && !memcmp(s, "Benchmark", 9) &&
		    ((s[9] >= 'A' && s[9] <= 'Z') || s[9] == '_' ||
		     (s[9] >= '0' && s[9] <= '9') || s[9] == '/' ||
		     s[9] == '-' || (s[9] >= 'a' && s[9] <= 'z'))) {
			if (result_line(t, s, nl, origin, lineno, o->err,
					ps) < 0)
				return -1;
		} else if ((n >= 8 && !memcmp(s, "--- FAIL", 8)) ||
			   (n >= 4 && !memcmp(s, "FAIL", 4) &&
			    (n == 4 || s[4] == '\t' || s[4] == ' '))) {
			return error_to(o->err, "%s:%zu: go test reported a failure "
				     "(\"%.*s\"): fix the benchmark first",
				     origin, lineno, (int)(n > 80 ? 80 : n),
				     s);
		}
		if (span(s, n, " \t\r") < n) {
			last = s;
			last_len = n;
		}
	}
	if (!last || !((last_len >= 4 && !memcmp(last, "PASS", 4)) ||
		       (last_len >= 3 && !memcmp(last, "ok", 2) &&
			(last[2] == ' ' || last[2] == '\t'))))
		return error_to(o->err, "%s: the output ends before go test's closing "
			     "\"PASS\" or \"ok\" line: truncated, or the run "
			     "did not finish", origin);
	return 0;
}

static int gotest_parse(struct fmt_table *t, const char *text, size_t len,
			const char *origin, const struct fmt_opts *o)
{
	struct procs_seen ps = { .strip = 1 };

	if (parse_lines(t, text, len, origin, o, &ps) < 0)
		return -1;
	if (ps.mixed) {
		/* -cpu 1,2,4: each count is a case of its own */
		fmt_table_release(t);
		memset(&ps, 0, sizeof(ps));
		if (parse_lines(t, text, len, origin, o, &ps) < 0)
			return -1;
		ps.procs = 0;
	}
	t->procs = ps.procs;
	return 0;
}

/* Does a line start like a go benchmark result: Benchmark<name> <digits>? */
static int gotest_line(const char *s, const char *end)
{
	if (end - s < 10 || memcmp(s, "Benchmark", 9) != 0)
		return 0;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s < end && *s >= '0' && *s <= '9';
}

/* A line that looks like a go benchmark result (a JSON object is not
   go's output, whatever its lines hold). */
static int gotest_detect(const char *text, size_t len, const struct cJSON *root)
{
	const char *s, *end = text + len, *nl;

	if (root)
		return 0;
	for (s = text; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if (gotest_line(s, nl))
			return 1;
	}
	return 0;
}

/* The length of s's "-N" suffix (a GOMAXPROCS count), 0 when none. */
static size_t procs_suffix(const char *s, size_t len)
{
	size_t k = len;

	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	return k > 1 && k < len && s[k - 1] == '-' ? len - k + 1 : 0;
}

/*
 * A go case's top-level benchmark: "BenchmarkX/sub-8" -> "BenchmarkX"
 * (the -GOMAXPROCS suffix dropped when there is no sub-benchmark).
 */
size_t format_go_top(const char *name)
{
	size_t n = strcspn(name, "/");

	return name[n] == '/' ? n : n - procs_suffix(name, n);
}

/* Whether go cases a and b share their top-level benchmark (of a: len). */
static int same_top(const char *a, const char *b, size_t len)
{
	return format_go_top(b) == len && !strncmp(a, b, len);
}

/* A sub-benchmark's last element (len bytes) as go's -bench takes it:
   itself, or without a "-N" suffix the reader kept (several counts). */
static void go_last(struct fmt_buf *b, const char *s, size_t len)
{
	size_t cut = procs_suffix(s, len);

	fmt_ere_escape(b, s, len);
	if (cut) {
		fmt_buf_str(b, "|");
		fmt_ere_escape(b, s, len - cut);
	}
}

/* Whether a go case's name past its top-level part (rest) has one
   element: "BenchmarkX/48B" yes, "BenchmarkX/a/b" no. */
static int one_level(const char *rest)
{
	return *rest == '/' && !strchr(rest + 1, '/');
}

char *format_go_pattern(const char *const *names, size_t n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	size_t i, j, alts = 0;

	for (i = 0; i < n && !strchr(names[i], '/'); i++)
		;
	if (i == n) {	/* top-level names only: the pattern any go takes */
		fmt_buf_str(&b, "^(");
		for (i = 0; i < n; i++) {
			size_t len = format_go_top(names[i]);
			int dup = 0;

			for (j = 0; j < i; j++)
				dup |= same_top(names[i], names[j], len);
			if (dup)
				continue;
			if (b.len > 2)
				fmt_buf_str(&b, "|");
			fmt_ere_escape(&b, names[i], len);
		}
		fmt_buf_str(&b, ")$");
		return b.buf;
	}
	/* each top-level name once: whole, its sub-benchmarks, or paths */
	for (i = 0; i < n; i++) {
		size_t len = format_go_top(names[i]);
		int dup = 0, whole = 0, flat = 1, subs = 0;

		for (j = 0; j < i; j++)
			dup |= same_top(names[i], names[j], len);
		if (dup)
			continue;
		for (j = i; j < n; j++) {
			if (!same_top(names[i], names[j], len))
				continue;
			whole |= names[j][len] != '/';
			flat &= one_level(names[j] + len);
		}
		if (whole || flat) {
			fmt_buf_str(&b, alts++ ? "|^" : "^");
			fmt_ere_escape(&b, names[i], len);
			fmt_buf_str(&b, "$");
		}
		if (whole)
			continue;
		if (flat)
			fmt_buf_str(&b, "/^(");
		for (j = i; j < n; j++) {
			const char *s = names[j] + len, *e;

			if (!same_top(names[i], names[j], len))
				continue;
			if (flat) {
				if (subs++)
					fmt_buf_str(&b, "|");
				go_last(&b, s + 1, strlen(s + 1));
				continue;
			}
			/* a path of its own: ^Top$/^a$/^(b|b without -N)$ */
			fmt_buf_str(&b, alts++ ? "|^" : "^");
			fmt_ere_escape(&b, names[j], len);
			fmt_buf_str(&b, "$");
			for (s++; (e = strchr(s, '/')); s = e + 1) {
				fmt_buf_str(&b, "/^");
				fmt_ere_escape(&b, s, (size_t)(e - s));
				fmt_buf_str(&b, "$");
			}
			fmt_buf_str(&b, "/^(");
			go_last(&b, s, strlen(s));
			fmt_buf_str(&b, ")$");
		}
		if (flat)
			fmt_buf_str(&b, ")$");
	}
	return b.buf;
}

/* Rounds and shards: -bench (-test.bench for a test binary run directly)
   with format_go_pattern, last (a later flag wins). */
static void gotest_select(struct fmt_cmd_edit *e, char *const *argv,
			  const char *shell, const char *const *names,
			  size_t n)
{
	(void)shell;
	e->filter = format_go_pattern(names, n);
	fmt_cmd_edit_arg(e, xasprintf("%s=%s",
				      fmt_argv_has_prefix(argv, "-test.") ?
				      "-test.bench" : "-bench", e->filter));
}

/* One iteration of each: the cases as they print them, with their
   sub-benchmarks and units (-test.list names only the top-level ones). */
static void gotest_list(struct fmt_cmd_edit *e, char *const *argv,
			const char *shell)
{
	(void)shell;
	fmt_cmd_edit_arg(e, xstrdup(fmt_argv_has_prefix(argv, "-test.") ?
				    "-test.benchtime=1x" : "-benchtime=1x"));
}

const struct format_reader format_gotest_reader = {
	.name = "gotest",
	.what = "go test -bench text",
	.flags = FMT_NAME_PROCS,
	.detect = gotest_detect,
	.parse = gotest_parse,
	.values = FMT_VALUES_TRACKED,
	.processes_how = "go test -count=1 repeated",
	.restates = { "MB/s" },
	.select = gotest_select,
	.list = gotest_list,
	.list_how = "one iteration of each, -test.benchtime=1x",
	.group = format_go_top,
	.init = "a go.mod with Benchmark functions: each (sub-)benchmark a "
		"case at a fixed -benchtime=Nx (init-go.c)",
	.counted_why = "a Go suite, which gate cannot give: Go's runtime "
		"does not run reliably under valgrind; "
		"gate \"cpu\" (the harness's own time, on pairs) or wall "
		"time with more pairs instead (doc/counted.md, \"Go\")",
};
