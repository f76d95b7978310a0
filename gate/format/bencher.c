/*
 * The bencher lines of Rust's libtest (cargo bench with #[bench]), the
 * bencher crate and criterion's --output-format bencher:
 * "test NAME ... bench:   1,234 ns/iter (+/- 56)". Each line is one
 * case's summary of one process (its median over the iterations the
 * harness chose), in s/iter; other lines ("running 3 tests", "test x ...
 * ignored", "test result: ...") are skipped, a failed test refused.
 */
#include "gate/format/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

#define BENCH_MARK " ... bench:"

/* Where needle (k bytes) occurs in s[0..n), or NULL. */
static const char *find(const char *s, size_t n, const char *needle,
			size_t k)
{
	const char *p = s, *end = s + n;

	while ((size_t)(end - p) >= k &&
	       (p = memchr(p, needle[0], (size_t)(end - p) - k + 1))) {
		if (!memcmp(p, needle, k))
			return p;
		p++;
	}
	return NULL;
}

/* A number with thousands separators ("1,234", "1,234.5") from s into
   *v; the bytes read, 0 when none. */
static size_t number(const char *s, const char *end, double *v)
{
	char buf[64];
	size_t k = 0;
	const char *p = s;
	char *stop;

	while (p < end && k + 1 < sizeof(buf) &&
	       ((*p >= '0' && *p <= '9') || *p == ',' || *p == '.')) {
		if (*p != ',')
			buf[k++] = *p;
		p++;
	}
	buf[k] = '\0';
	if (!k)
		return 0;
	errno = 0;
	*v = strtod(buf, &stop);
	return *stop || errno == ERANGE ? 0 : (size_t)(p - s);
}

static double time_scale(const char *u, size_t n)
{
	static const struct { const char *name; double scale; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
		{ "ms", 1e-3 }, { "s", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == n && !memcmp(u, units[i].name, n))
			return units[i].scale;
	return 0;
}

/* One "test NAME ... bench: N unit/iter (+/- M)" line (s, n bytes). */
static int bench_line(struct fmt_table *t, const char *s, size_t n,
		      const char *mark, const char *origin, size_t lineno,
		      struct gate_err *err)
{
	const char *p = mark + strlen(BENCH_MARK), *end = s + n, *u;
	double v = 0, scale;
	size_t k;

	while (p < end && *p == ' ')
		p++;
	k = number(p, end, &v);
	for (u = p + k; u < end && *u == ' '; u++)
		;
	p = u;
	while (p < end && *p != '/' && *p != ' ')
		p++;
	scale = time_scale(u, (size_t)(p - u));
	if (!k || !scale || (size_t)(end - p) < 6 ||
	    memcmp(p, "/iter ", 6) || !find(p, (size_t)(end - p), ")", 1))
		return error_to(err, "%s:%zu: expected \"bench: N ns/iter "
				"(+/- M)\" after the name, got \"%.*s\" (cut "
				"short?)", origin, lineno,
				(int)(n > 100 ? 100 : n), s);
	fmt_table_add(t, s + 5, (size_t)(mark - s - 5), "s/iter", v * scale);
	return 0;
}

static int bencher_parse(struct fmt_table *t, const char *text, size_t len,
			 const char *origin, const struct fmt_opts *o)
{
	const char *s = text, *end = text + len, *nl;
	size_t lineno = 0, k = strlen(BENCH_MARK);

	for (; s < end; s = nl + 1) {
		const char *mark;
		size_t n;

		nl = memchr(s, '\n', (size_t)(end - s));
		lineno++;
		n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (n && s[n - 1] == '\r')
			n--;
		if (n < 5 || memcmp(s, "test ", 5)) {
			if (!nl)
				break;
			continue;
		}
		if ((n >= 6 && !memcmp(s + n - 6, "FAILED", 6)))
			return error_to(o->err, "%s:%zu: a benchmark failed "
					"(\"%.*s\"): fix it first", origin,
					lineno, (int)(n > 80 ? 80 : n), s);
		mark = find(s, n, BENCH_MARK, k);
		if (mark && !nl)
			return error_to(o->err, "%s:%zu: the last line has no "
					"newline: the output was cut short",
					origin, lineno);
		if (mark && bench_line(t, s, n, mark, origin, lineno,
				       o->err) < 0)
			return -1;
		if (!nl)
			break;
	}
	return 0;
}

/* A line "test NAME ... bench:". */
static int bencher_detect(const char *text, size_t len,
			  const struct cJSON *root)
{
	const char *s, *end = text + len, *nl;

	if (root)
		return 0;
	for (s = text; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if (nl - s > 5 && !memcmp(s, "test ", 5) &&
		    find(s, (size_t)(nl - s), BENCH_MARK, strlen(BENCH_MARK)))
			return 1;
	}
	return 0;
}

const struct format_reader format_bencher_reader = {
	.name = "bencher",
	.what = "\"test NAME ... bench: N ns/iter (+/- M)\" lines (libtest, "
		"criterion --output-format bencher)",
	.detect = bencher_detect,
	.parse = bencher_parse,
	.values = FMT_VALUES_PER_PROCESS,
	/* libtest takes substrings, criterion a regex: the command passes
	   "$GATE_FILTER" (a regex) to the harness that takes one */
	.select = fmt_select_gate_filter,
	.list = fmt_list_gate_list,
	.list_how = "a whole run, whose results name the cases, or --list "
		    "when GATE_LIST=1 is set",
	.list_names = fmt_names_bench_list,
};
