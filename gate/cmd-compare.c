/*
 * gate compare OLD NEW: offline statistics on two result files (any
 * supported format, or two gate JSON reports). Nothing pairs the runs, so
 * the interval is an unpaired bootstrap of the ratio of medians.
 */
#include "gate/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "common/error.h"
#include "gate/config.h"
#include "gate/format.h"
#include "gate/verdict.h"
#include "stats/stats.h"
#include "common/banned.h"

const char cmd_compare_usage[] =
	"usage: gate compare [--format F] [--metric wall|cpu] [--filter REGEX]\n"
	"                    [--min-effect F] [--confidence C] [--seed N]\n"
	"                    [--json FILE] [--advisory] OLD NEW\n"
	"\n"
	"  OLD, NEW          result files: gbench JSON, go test -bench text,\n"
	"                    lines, hyperfine or pytest-benchmark JSON, or gate\n"
	"                    JSON reports (their head samples); detected\n"
	"  --format F        read both files as F instead of detecting\n"
	"  --metric cpu      gbench: compare cpu_time (default real_time)\n"
	"  --filter REGEX    only cases whose name matches (POSIX extended)\n"
	"  --min-effect F    the floor, a fraction (default 0.05)\n"
	"  --confidence C    suite-wide confidence (default 0.95)\n"
	"  --seed N          bootstrap seed (default 1)\n"
	"  --json FILE       write the JSON report to FILE ('-' for stdout)\n"
	"  --advisory        report the verdict but exit 0\n"
	"\n"
	"exit: 0 pass, 1 fail, 2 noisy, 3 error\n";

struct cmp_opts {
	const char *files[2], *filter, *json;
	int have_format, advisory;
	enum format format;
	struct fmt_opts fo;
	double floor, confidence;
	unsigned long seed;
};

struct row {
	const struct fmt_case *c[2];	/* old, new; NULL when absent */
	double med[2], spread[2];	/* median; max deviation, fraction */
	struct stats_interval ci;
	struct stats_mwu mwu;
	double ratio;
	enum verdict verdict;
	char *reason;
};

static int bad_usage(const char *what, const char *arg)
{
	error("%s \"%s\"", what, arg);
	fputs(cmd_compare_usage, stderr);
	return -1;
}

static int parse_fraction(double *out, const char *opt, const char *s,
			  double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v < hi))
		return error("%s must be a number from %g to below %g, got "
			     "\"%s\"", opt, lo, hi, s);
	*out = v;
	return 0;
}

static int parse_options(struct cmp_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "metric", required_argument, NULL, 'm' },
		{ "filter", required_argument, NULL, 'f' },
		{ "min-effect", required_argument, NULL, 'e' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ "advisory", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double d;
	int c;

	o->floor = CONFIG_DEFAULT_MIN_EFFECT;
	o->confidence = CONFIG_DEFAULT_CONFIDENCE;
	o->seed = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (format_lookup(&o->format, optarg) < 0 ||
			    o->format == FORMAT_TIME)
				return error("--format must be one of gbench, "
					     "gotest, lines, hyperfine, pytest, "
					     "gate; got \"%s\"", optarg);
			o->have_format = 1;
			break;
		case 'm':
			if (strcmp(optarg, "cpu") && strcmp(optarg, "wall"))
				return error("--metric must be wall or cpu, "
					     "got \"%s\"", optarg);
			o->fo.cpu_time = !strcmp(optarg, "cpu");
			break;
		case 'f': o->filter = optarg; break;
		case 'j': o->json = optarg; break;
		case 'a': o->advisory = 1; break;
		case 'e':
			if (parse_fraction(&o->floor, "--min-effect", optarg,
					   0, 10) < 0)
				return -1;
			break;
		case 'c':
			if (parse_fraction(&o->confidence, "--confidence",
					   optarg, 0.5, 1) < 0 ||
			    o->confidence == 0.5)
				return error("--confidence must be above 0.5 "
					     "and below 1");
			break;
		case 's':
			if (parse_fraction(&d, "--seed", optarg, 0,
					   4294967296.0) < 0 || d != floor(d))
				return error("--seed must be a whole number "
					     "from 0 to 4294967295");
			o->seed = (unsigned long)d;
			break;
		case 'h':
			fputs(cmd_compare_usage, stdout);
			return 1;
		default:
			return bad_usage("unknown or incomplete option",
					 argv[optind - 1]);
		}
	}
	if (argc - optind != 2) {
		error("compare needs two files, OLD and NEW, got %d",
		      argc - optind);
		fputs(cmd_compare_usage, stderr);
		return -1;
	}
	o->files[0] = argv[optind];
	o->files[1] = argv[optind + 1];
	return 0;
}

static int load(struct fmt_table *t, const char *path,
		const struct cmp_opts *o, enum format *used)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0, got;
	char *buf;
	int rc;

	if (!f)
		return error("cannot read \"%s\":", path);
	buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > FORMAT_MAX_BYTES)
			break;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return error("cannot read \"%s\":", path);
	}
	fclose(f);
	*used = o->have_format ? o->format : format_detect(buf, n);
	rc = format_parse(t, *used, buf, n, path, &o->fo);
	free(buf);
	if (rc == 0 && o->filter && fmt_table_filter(t, o->filter) < 0)
		return -1;
	return rc;
}

static double max_dev(const double *v, size_t n, double med)
{
	double d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(v[i] - med) > d)
			d = fabs(v[i] - med);
	return med > 0 ? d / med : NAN;
}

/* Statistics and verdict for one row with both sides present. */
static void analyse(struct row *w, double level, const struct cmp_opts *o,
		    size_t index)
{
	const struct fmt_case *a = w->c[0], *b = w->c[1];
	int hb = a->higher_better;
	size_t i, zeros = 0;
	gsl_rng *rng;
	char cap[1024];

	w->verdict = VERDICT_ERROR;
	w->med[0] = stats_median(a->values, a->n);
	w->med[1] = stats_median(b->values, b->n);
	w->spread[0] = max_dev(a->values, a->n, w->med[0]);
	w->spread[1] = max_dev(b->values, b->n, w->med[1]);
	for (i = 0; i < a->n; i++)
		zeros += a->values[i] == 0;
	for (i = 0; i < b->n; i++)
		zeros += b->values[i] == 0;
	if (zeros == a->n + b->n) {
		w->ratio = w->ci.low = w->ci.high = 1;
		w->mwu.p = 1;
		w->verdict = VERDICT_PASS;
		w->reason = xasprintf("0 %s in every value of both files",
				      a->unit);
		return;
	}
	if (zeros) {
		w->reason = xasprintf("0 in %zu of %zu values but not in all: "
				      "no ratio can be formed", zeros,
				      a->n + b->n);
		return;
	}
	if (a->n < 2 || b->n < 2) {
		w->reason = xasprintf("%zu value(s) in OLD and %zu in NEW: an "
				      "interval needs at least 2 on each side "
				      "(run the suite with repetitions or "
				      "-count)", a->n, b->n);
		return;
	}
	w->ratio = hb ? w->med[0] / w->med[1] : w->med[1] / w->med[0];
	stats_mann_whitney(&w->mwu, a->values, a->n, b->values, b->n);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng) {
		w->reason = xstrdup("cannot allocate a random generator");
		return;
	}
	/* each case its own stream, so adding a case changes no other */
	gsl_rng_set(rng, (o->seed * 2654435761UL + index) & 0xffffffffUL);
	error_capture(cap, sizeof(cap), 1);
	if ((hb ? stats_bootstrap_ratio(&w->ci, a->values, a->n, b->values,
					b->n, CONFIG_DEFAULT_RESAMPLES, level,
					rng)
		: stats_bootstrap_ratio(&w->ci, b->values, b->n, a->values,
					a->n, CONFIG_DEFAULT_RESAMPLES, level,
					rng)) < 0) {
		error_capture(NULL, 0, 0);
		w->reason = xasprintf("no interval: %s", cap);
		gsl_rng_free(rng);
		return;
	}
	error_capture(NULL, 0, 0);
	gsl_rng_free(rng);
	w->verdict = verdict_decide_rule(RULE_FLOOR, w->ratio, w->ci.low,
					 w->ci.high, o->floor, 2 * o->floor);
	if (w->verdict == VERDICT_FAIL)
		w->reason = xasprintf("slower by %+.1f%% (interval %+.1f%% to "
			"%+.1f%%, Mann-Whitney p=%.2g): the whole interval is "
			"above the %+.1f%% floor", ratio_pct(w->ratio),
			ratio_pct(w->ci.low), ratio_pct(w->ci.high), w->mwu.p,
			o->floor * 100);
	else if (w->verdict == VERDICT_NOISY)
		w->reason = xasprintf("estimate %+.1f%% is above the %+.1f%% "
			"floor but the interval reaches down to %+.1f%% "
			"(Mann-Whitney p=%.2g): more values per file would "
			"resolve it", ratio_pct(w->ratio), o->floor * 100,
			ratio_pct(w->ci.low), w->mwu.p);
	else if (w->ci.high < 1)
		w->reason = xasprintf("faster by %.1f%% (interval %+.1f%% to "
			"%+.1f%%)", -ratio_pct(w->ratio), ratio_pct(w->ci.low),
			ratio_pct(w->ci.high));
	else
		w->reason = xasprintf("estimate %+.1f%% is within the %+.1f%% "
			"floor; a regression above %+.1f%% is excluded",
			ratio_pct(w->ratio), o->floor * 100, ratio_pct(w->ci.high));
}

static const char *vname(const struct row *w)
{
	if (!w->c[0])
		return "new";
	if (!w->c[1])
		return "removed";
	switch (w->verdict) {
	case VERDICT_PASS:
		return w->ci.high < 1 ? "pass (faster)" : "pass";
	case VERDICT_FAIL:
		return "FAIL";
	case VERDICT_NOISY:
		return "NOISY";
	default:
		return "ERROR";
	}
}

/* "1.23 us ± 4%": a median and its largest deviation, as benchstat shows */
static const char *cell(const struct row *w, int side, char *buf, size_t sz)
{
	char v[48];

	if (!w->c[side])
		snprintf(buf, sz, "-");
	else if (isfinite(w->spread[side]))
		snprintf(buf, sz, "%s ± %.0f%%", format_value(w->med[side],
			 w->c[side]->unit, v, sizeof(v)),
			 w->spread[side] * 100);
	else
		snprintf(buf, sz, "%s", format_value(w->med[side],
			 w->c[side]->unit, v, sizeof(v)));
	return buf;
}

static void print_term(FILE *out, const struct row *rows, size_t n,
		       const struct cmp_opts *o, const enum format used[2],
		       double level, size_t compared, enum verdict suite,
		       int code)
{
	size_t i, count[VERDICT_NEW + 1] = { 0 }, added = 0, removed = 0;
	int w = 4, cw[2] = { (int)strlen(o->files[0]),
			     (int)strlen(o->files[1]) };
	char b[96], iv[48], p[24];

	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
		int len = (int)strlen(c->name) + (int)strlen(c->unit) + 3;
		int s;

		w = len > w ? len : w;
		for (s = 0; s < 2; s++) {
			len = (int)strlen(cell(r, s, b, sizeof(b)));
			cw[s] = len > cw[s] ? len : cw[s];
		}
	}
	fprintf(out, "\n%-*s  %*s  %*s  %8s  %-19s  %-10s  %s\n", w, "case",
		cw[0], o->files[0], cw[1], o->files[1], "vs base", "interval",
		"p (n)", "verdict");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
		char name[512], c0[96], c1[96], ch[16];

		snprintf(name, sizeof(name), "%s [%s]", c->name, c->unit);
		if (r->c[0] && r->c[1] && r->verdict != VERDICT_ERROR) {
			snprintf(ch, sizeof(ch), "%+.1f%%", ratio_pct(r->ratio));
			snprintf(iv, sizeof(iv), "%+.1f%% .. %+.1f%%",
				 ratio_pct(r->ci.low), ratio_pct(r->ci.high));
			snprintf(p, sizeof(p), "%.3f (%zu+%zu)", r->mwu.p,
				 r->c[0]->n, r->c[1]->n);
		} else {
			snprintf(ch, sizeof(ch), "-");
			snprintf(iv, sizeof(iv), "-");
			snprintf(p, sizeof(p), "-");
		}
		fprintf(out, "%-*s  %*s  %*s  %8s  %-19s  %-10s  %s\n", w,
			name, cw[0], cell(r, 0, c0, sizeof(c0)), cw[1],
			cell(r, 1, c1, sizeof(c1)), ch, iv, p, vname(r));
	}
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];

		if (!r->c[0]) {
			added++;
			fprintf(out, "%s [%s]: new: only in %s, not compared\n",
				c->name, c->unit, o->files[1]);
			continue;
		}
		if (!r->c[1]) {
			removed++;
			fprintf(out, "%s [%s]: removed: only in %s, not "
				"compared\n", c->name, c->unit, o->files[0]);
			continue;
		}
		count[r->verdict]++;
		fprintf(out, "%s [%s]: %s\n", c->name, c->unit, r->reason);
	}
	fprintf(out, "verdict: %s: %zu pass, %zu fail, %zu noisy, %zu error, "
		"%zu new, %zu removed", suite == VERDICT_PASS ? "PASS" :
		suite == VERDICT_FAIL ? "FAIL" : suite == VERDICT_NOISY ?
		"NOISY" : "ERROR", count[VERDICT_PASS], count[VERDICT_FAIL],
		count[VERDICT_NOISY], count[VERDICT_ERROR], added, removed);
	if (o->advisory && suite != VERDICT_PASS)
		fprintf(out, " (advisory: exit 0 instead of %d)\n",
			verdict_exit_code(suite));
	else
		fprintf(out, " (exit %d)\n", code);
	fprintf(out, "\nprotocol:\n  old: %s (%s)\n  new: %s (%s)\n",
		o->files[0], format_name(used[0]), o->files[1],
		format_name(used[1]));
	fprintf(out, "  values: every value in a file is one sample (unpaired: "
		"nothing matches a run of OLD with one of NEW); ± is the "
		"largest deviation from the median\n");
	fprintf(out, "  interval: bootstrap percentile of the ratio of "
		"medians, NEW/OLD (OLD/NEW for rates), both files resampled, "
		"%u resamples, seed %lu, %.4g%% per case (%.4g%% for the "
		"suite, Bonferroni over %zu)\n", CONFIG_DEFAULT_RESAMPLES,
		o->seed, level * 100, o->confidence * 100, compared);
	fprintf(out, "  p: two-sided Mann-Whitney U (exact when a side has at "
		"most 8 values and no ties); the verdict uses the interval: "
		"fail when its lower end is above the %+.1f%% floor\n",
		o->floor * 100);
	fprintf(out, "  gate %s\n", GATE_VERSION);
}

static cJSON *values_json(const struct fmt_case *c)
{
	return c ? cJSON_CreateDoubleArray(c->values, (int)c->n) :
		   cJSON_CreateArray();
}

static int write_json(const char *path, const struct row *rows, size_t n,
		      const struct cmp_opts *o, const enum format used[2],
		      double level, size_t compared, enum verdict suite,
		      int code)
{
	cJSON *root = cJSON_CreateObject(), *p, *list, *x;
	char *text;
	FILE *f;
	size_t i;
	int ret = -1;

	cJSON_AddNumberToObject(root, "schema", 1);
	cJSON_AddStringToObject(root, "gate_version", GATE_VERSION);
	cJSON_AddStringToObject(root, "command", "compare");
	cJSON_AddStringToObject(root, "verdict", verdict_name(suite));
	cJSON_AddNumberToObject(root, "exit_code", code);
	cJSON_AddBoolToObject(root, "advisory", o->advisory);
	x = cJSON_AddObjectToObject(root, "old");
	cJSON_AddStringToObject(x, "file", o->files[0]);
	cJSON_AddStringToObject(x, "format", format_name(used[0]));
	x = cJSON_AddObjectToObject(root, "new");
	cJSON_AddStringToObject(x, "file", o->files[1]);
	cJSON_AddStringToObject(x, "format", format_name(used[1]));
	p = cJSON_AddObjectToObject(root, "protocol");
	cJSON_AddStringToObject(p, "statistic", "ratio of medians");
	cJSON_AddStringToObject(p, "interval", "unpaired bootstrap percentile");
	cJSON_AddNumberToObject(p, "resamples", CONFIG_DEFAULT_RESAMPLES);
	cJSON_AddNumberToObject(p, "seed", (double)o->seed);
	cJSON_AddNumberToObject(p, "confidence", o->confidence);
	cJSON_AddNumberToObject(p, "adjusted_confidence", level);
	cJSON_AddStringToObject(p, "adjustment", "bonferroni");
	cJSON_AddNumberToObject(p, "compared", (double)compared);
	cJSON_AddStringToObject(p, "test", "Mann-Whitney U, two-sided");
	cJSON_AddNumberToObject(p, "min_effect", o->floor);
	list = cJSON_AddArrayToObject(root, "benchmarks");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct fmt_case *c = r->c[0] ? r->c[0] : r->c[1];
		cJSON *b = cJSON_CreateObject();

		cJSON_AddStringToObject(b, "name", c->name);
		cJSON_AddStringToObject(b, "unit", c->unit);
		cJSON_AddBoolToObject(b, "higher_is_better", c->higher_better);
		cJSON_AddStringToObject(b, "verdict", !r->c[0] ? "new" :
					!r->c[1] ? "removed" :
					verdict_name(r->verdict));
		if (r->reason)
			cJSON_AddStringToObject(b, "reason", r->reason);
		if (r->c[0] && r->c[1] && r->verdict != VERDICT_ERROR) {
			x = cJSON_AddObjectToObject(b, "ratio");
			cJSON_AddNumberToObject(x, "median", r->ratio);
			cJSON_AddNumberToObject(x, "low", r->ci.low);
			cJSON_AddNumberToObject(x, "high", r->ci.high);
			cJSON_AddNumberToObject(x, "level", level);
			x = cJSON_AddObjectToObject(b, "mann_whitney");
			cJSON_AddNumberToObject(x, "u", r->mwu.u);
			cJSON_AddNumberToObject(x, "p", r->mwu.p);
			cJSON_AddBoolToObject(x, "exact", r->mwu.exact);
		}
		x = cJSON_AddObjectToObject(b, "old");
		if (r->c[0])
			cJSON_AddNumberToObject(x, "median", r->med[0]);
		cJSON_AddItemToObject(x, "values", values_json(r->c[0]));
		x = cJSON_AddObjectToObject(b, "new");
		if (r->c[1])
			cJSON_AddNumberToObject(x, "median", r->med[1]);
		cJSON_AddItemToObject(x, "values", values_json(r->c[1]));
		cJSON_AddItemToArray(list, b);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return error("cannot format the JSON report: out of memory");
	if (!strcmp(path, "-")) {
		puts(text);
		ret = fflush(stdout) ? error("cannot write the JSON report to "
					     "stdout:") : 0;
	} else if (!(f = fopen(path, "w"))) {
		ret = error("cannot write the JSON report \"%s\":", path);
	} else {
		fputs(text, f);
		fputc('\n', f);
		ret = fclose(f) ? error("cannot write the JSON report \"%s\":",
					path) : 0;
	}
	free(text);
	return ret;
}

int cmd_compare(int argc, char **argv, struct gate_ctx *ctx)
{
	struct cmp_opts o;
	struct fmt_table t[2] = { FMT_TABLE_INIT, FMT_TABLE_INIT };
	enum format used[2] = { FORMAT_LINES, FORMAT_LINES };
	struct row *rows = NULL;
	enum verdict *v = NULL, suite;
	size_t n = 0, i, compared = 0;
	double level;
	int rc, code = EXIT_ERROR;

	(void)ctx;
	memset(&o, 0, sizeof(o));
	rc = parse_options(&o, argc, argv);
	if (rc)
		return rc > 0 ? EXIT_PASS : EXIT_ERROR;
	if (load(&t[0], o.files[0], &o, &used[0]) < 0 ||
	    load(&t[1], o.files[1], &o, &used[1]) < 0)
		goto cleanup;
	rows = xcalloc(t[0].n + t[1].n + 1, sizeof(*rows));
	for (i = 0; i < t[0].n; i++) {
		rows[n].c[0] = &t[0].cases[i];
		rows[n].c[1] = fmt_table_find(&t[1], t[0].cases[i].name,
					      t[0].cases[i].unit);
		compared += rows[n].c[1] != NULL;
		n++;
	}
	for (i = 0; i < t[1].n; i++)
		if (!fmt_table_find(&t[0], t[1].cases[i].name,
				    t[1].cases[i].unit))
			rows[n++].c[1] = &t[1].cases[i];
	if (compared == 0) {
		error("no case is in both %s (%zu cases) and %s (%zu cases)%s: "
		      "nothing to compare", o.files[0], t[0].n, o.files[1],
		      t[1].n, o.filter ? " after --filter" : "");
		goto cleanup;
	}
	level = stats_bonferroni(o.confidence, compared);
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		if (rows[i].c[0] && rows[i].c[1]) {
			analyse(&rows[i], level, &o, i);
			v[i] = rows[i].verdict;
		} else {
			v[i] = VERDICT_NEW;
		}
	}
	suite = verdict_suite(v, n);
	code = o.advisory ? EXIT_PASS : verdict_exit_code(suite);
	print_term(o.json && !strcmp(o.json, "-") ? stderr : stdout, rows, n,
		   &o, used, level, compared, suite, code);
	if (o.json && write_json(o.json, rows, n, &o, used, level, compared,
				 suite, code) < 0)
		code = EXIT_ERROR;
cleanup:
	for (i = 0; i < n; i++)
		free(rows[i].reason);
	free(rows);
	free(v);
	fmt_table_release(&t[0]);
	fmt_table_release(&t[1]);
	return code;
}
