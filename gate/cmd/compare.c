/*
 * gate compare OLD NEW: offline statistics on two result files (any
 * supported format, or two gate JSON reports). Nothing pairs the runs, so
 * each case is the Hodges-Lehmann shift of the log values with the exact
 * Mann-Whitney bounds (stats_hl_shift), one-sided at the suite's alpha
 * over the cases compared, and decided by gate run's rule
 * (verdict_decide_rule): fail when the lower bound is above 1 + floor,
 * pass when the estimate is within it and the upper bound below
 * 1 + pass_excludes, noisy otherwise, including too few values for a bound.
 */
#include "gate/cmd/cmd.h"
#include "gate/cmd/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "common/error.h"
#include "common/file.h"
#include "gate/config/options.h"
#include "gate/exec/signals.h"
#include "gate/config/config.h"
#include "gate/format/format.h"
#include "gate/decide/verdict.h"
#include "gate/report/load.h"
#include "stats/stats.h"
#include "common/banned.h"

static int compare_format(void *opts, const char *arg)
{
	struct cmp_opts *o = opts;

	if (format_lookup(&o->format, arg) < 0 ||
	    (format_reader(o->format)->flags & FMT_NOT_A_SUITE))
		return error("--format must be one of %s; got \"%s\"",
			     format_names_compare(), arg);
	o->have_format = 1;
	return 0;
}

static int compare_metric(void *opts, const char *arg)
{
	struct cmp_opts *o = opts;

	if (strcmp(arg, "cpu") && strcmp(arg, "wall"))
		return error("--metric must be wall or cpu, got \"%s\"", arg);
	o->fo.cpu_time = !strcmp(arg, "cpu");
	return 0;
}

static int compare_confidence(void *opts, const char *arg)
{
	struct cmp_opts *o = opts;

	if (options_parse_number(&o->confidence, "--confidence", arg, 0.5,
				 1) < 0)
		return -1;
	if (o->confidence == 0.5)
		return error("--confidence must be above 0.5 and below 1");
	return 0;
}

/* The formats compare reads: the format table's rows. */
static void compare_formats(FILE *out)
{
	int f;

	fputs("\nformats of OLD and NEW (detected unless --format F):\n", out);
	for (f = 0; f < FORMAT_COUNT; f++)
		if (!(format_reader((enum format)f)->flags & FMT_NOT_A_SUITE))
			options_item(out, 20, format_name((enum format)f),
				     format_reader((enum format)f)->what);
}

#define O struct cmp_opts
static const struct opt compare_rows[] = {
	OPT_CALL("format", "F", compare_format,
		 "read both files as F instead of detecting", "<format>"),
	OPT_CALL("metric", "wall|cpu", compare_metric, "gbench: compare "
		 "real_time (wall, the default) or cpu_time (cpu)", "wall cpu"),
	OPT_STRING("filter", "REGEX", O, filter,
		   "only cases whose name matches (POSIX extended)", NULL),
	OPT_FLOOR("min-effect", O, floor,
		  "the floor, a fraction (default 0.05)"),
	OPT_NUMBER("pass-excludes", "F", O, excludes, 0, 10, "a pass must "
		   "exclude a regression of F (default twice the floor)"),
	OPT_FLAG(0, "strict", O, strict, "pass only when the interval "
		 "excludes regressions above the floor (--pass-excludes = the "
		 "floor)"),
	OPT_CALL("confidence", "C", compare_confidence,
		 "suite-wide confidence (default 0.95)", NULL),
	OPT_SEED("seed", O, seed, have_seed, "accepted for scripts of older "
		 "versions; the interval is exact and draws nothing"),
	OPT_STRING("json", "FILE", O, json,
		   "write the JSON report to FILE ('-' for stdout)", "<file>"),
	OPT_FLAG(0, "advisory", O, advisory, "report the verdict but exit 0"),
};
#undef O

const struct opts_cmd cmd_compare_opts = {
	.name = "compare",
	.operands = "OLD NEW",
	.operand_values = "<file>",
	.operand_help = "result files, or gate JSON reports (their head "
			"samples)",
	.rows = compare_rows,
	.n = sizeof(compare_rows) / sizeof(compare_rows[0]),
	.more = compare_formats,
	.footer = "exit: 0 pass, 1 fail, 2 noisy, 3 error\n",
};

/* The margin a pass must exclude: the floor under --strict, twice the
   floor by default, never below the floor; 0 or -1. */
static int settle_excludes(struct cmp_opts *o)
{
	if (o->strict && o->excludes >= 0)
		return error("--strict sets --pass-excludes to the floor: give "
			     "one or the other");
	if (o->strict)
		o->excludes = o->floor;
	else if (o->excludes < 0)
		o->excludes = 2 * o->floor;
	else if (o->excludes < o->floor)
		return error("--pass-excludes %g is below the floor %g: a pass "
			     "must exclude at least the floor", o->excludes,
			     o->floor);
	return 0;
}

static enum opts_result parse_options(struct cmp_opts *o, int argc,
				       char **argv)
{
	enum opts_result res;
	int i;

	o->excludes = -1;
	o->floor = CONFIG_DEFAULT_MIN_EFFECT;
	o->confidence = CONFIG_DEFAULT_CONFIDENCE;
	o->seed = 1;
	res = options_parse(&cmd_compare_opts, o, argc, argv, &i);
	if (res != OPTS_GO)
		return res;
	if (settle_excludes(o) < 0)
		return OPTS_ERROR;
	if (argc - i != 2) {
		error("compare needs two files, OLD and NEW, got %d", argc - i);
		options_usage(&cmd_compare_opts, stderr);
		return OPTS_ERROR;
	}
	o->files[0] = argv[i];
	o->files[1] = argv[i + 1];
	return OPTS_GO;
}

static int load(struct fmt_table *t, const char *path,
		const struct cmp_opts *o, enum format *used, int *single)
{
	char *buf;
	size_t n;
	int rc;

	if (file_read(&buf, &n, path, FORMAT_MAX_BYTES) < 0)
		return -1;
	*used = o->have_format ? o->format : format_detect(buf, n);
	rc = format_parse(t, *used, buf, n, path, &o->fo);
	/* every case's values repetitions of one process: as its reader
	   says (struct format_reader's values; go's "pkg:" sections, the
	   lines protocol's "# run" lines) */
	*single = rc == 0 && fmt_table_one_process(t);
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

/* The log of each value; of each value + 1 when plus1 (a count with a 0,
   compared as (new + 1) / (old + 1) like gate run's counts). */
static double *logs(const double *v, size_t n, int plus1)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));
	size_t i;

	for (i = 0; i < n; i++)
		l[i] = plus1 ? log1p(v[i]) : log(v[i]);
	return l;
}

static int cmp_case(const void *a, const void *b)
{
	const struct fmt_case *x = *(const struct fmt_case *const *)a;
	const struct fmt_case *y = *(const struct fmt_case *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->unit, y->unit);
}

/* t's cases sorted by (name, unit), for find (a file may hold 100k). */
static const struct fmt_case **index_cases(const struct fmt_table *t)
{
	const struct fmt_case **ix = xmalloc((t->n + 1) * sizeof(*ix));
	size_t i;

	for (i = 0; i < t->n; i++)
		ix[i] = &t->cases[i];
	qsort(ix, t->n, sizeof(*ix), cmp_case);
	return ix;
}

static const struct fmt_case *find(const struct fmt_case **ix, size_t n,
				   const struct fmt_case *key)
{
	const struct fmt_case **hit = bsearch(&key, ix, n, sizeof(*ix),
					      cmp_case);

	return hit ? *hit : NULL;
}

/*
 * Case c's values as the unit of comparison into *out (owned), their
 * number returned: the median of each process's repetitions when c's
 * values came from several processes with repetitions (the process is
 * the unit: a per-process effect shows between processes, not within
 * one), else the values themselves.
 */
static size_t unit_values(double **out, const struct fmt_case *c)
{
	size_t np = fmt_case_processes(c), i, from, k = 0;

	*out = xmalloc((c->n ? c->n : 1) * sizeof(**out));
	if (np < 2 || np == c->n) {
		memcpy(*out, c->values, c->n * sizeof(**out));
		return c->n;
	}
	for (from = 0, i = 1; i <= c->n; i++)
		if (i == c->n || c->proc[i] != c->proc[from]) {
			(*out)[k++] = stats_median(c->values + from,
						   i - from);
			from = i;
		}
	return k;
}

/* The side of row w whose values are repetitions inside one process (a
   timing then cannot keep the promise): 0, 1, or -1 for neither. */
static int one_process_side(const struct row *w)
{
	int s;

	for (s = 0; s < 2; s++)
		if (fmt_case_processes(w->c[s]) == 1 && w->c[s]->n > 1)
			return s;
	return -1;
}

/* Why this verdict, in one sentence (owned). The changes go through
   compare_pct: a ratio of 1e300 prints as +1e+302%, not 300 digits. */
/* How a file of format f holds more processes, in its reader's words. */
static const char *processes_how(enum format f)
{
	const char *how = format_reader(f)->processes_how;

	return how ? how : "each run's output one after another";
}

static char *explain(const struct row *w, const struct cmp_opts *o,
		     const struct cmp_run *run)
{
	double f = o->floor * 100, m = o->excludes * 100;
	char e[32], l[32], h[32];

	compare_pct(e, sizeof(e), w->ratio);
	compare_pct(l, sizeof(l), w->low);
	compare_pct(h, sizeof(h), w->high);
	switch (w->verdict) {
	case VERDICT_FAIL:
		return xasprintf("slower by %s (bounds %s to %s, Mann-Whitney "
			"p=%.2g): the lower bound is above the %+.1f%% floor",
			e, l, h, w->mwu.p, f);
	case VERDICT_NOISY:
		if (w->sh.depth == 0)
			return xasprintf("too few values: %zu per side needed "
				"at this level (%zu in OLD, %zu in NEW; each "
				"bound at %.4g%% over %zu cases); estimate "
				"%s: run the suite in more processes (%s)",
				run->min_n, w->units[0], w->units[1],
				(1 - run->alpha) * 100, run->compared, e,
				processes_how(run->used[1]));
		if (w->ratio > 1 + o->floor)
			return xasprintf("estimate %s is above the %+.1f%% "
				"floor but the lower bound reaches down to "
				"%s (Mann-Whitney p=%.2g): more values per "
				"file would resolve it", e, f, l, w->mwu.p);
		return xasprintf("estimate %s is within the %+.1f%% floor "
			"but a regression of %+.1f%% is not excluded (the upper "
			"bound is %s): more values per file would resolve "
			"it", e, f, m, h);
	case VERDICT_PASS:
		if (w->high < 1)
			return xasprintf("faster by %.1f%% (bounds %s to %s)",
				-ratio_pct(w->ratio), l, h);
		return xasprintf("estimate %s is within the %+.1f%% "
			"floor; a regression above %s is excluded", e, f, h);
	default:
		return xstrdup("could not be compared");
	}
}

/* Statistics and verdict for one row with both sides present. */
static void analyse(struct row *w, const struct cmp_opts *o,
		    struct cmp_run *run)
{
	const struct fmt_case *a = w->c[0], *b = w->c[1];
	int hb = a->higher_better, side;
	size_t i, zeros = 0, na, nb;
	double *lo, *ln, *va, *vb;
	struct gate_err err = { "" };
	int rc;

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
		w->ratio = w->low = w->high = 1;
		w->sh.depth = 1;
		w->mwu.p = 1;
		w->verdict = VERDICT_PASS;
		w->reason = xasprintf("0 %s in every value of both files",
				      a->unit);
		return;
	}
	if (zeros && !unit_may_be_zero(a->unit)) {
		w->reason = xasprintf("0 %s in %zu of %zu values but not in "
				      "all: below the resolution of the "
				      "benchmark's own timer, no ratio can be "
				      "formed", a->unit, zeros, a->n + b->n);
		return;
	}
	if (!unit_may_be_zero(a->unit) && (side = one_process_side(w)) >= 0) {
		/* counts do not vary by process; a time does, unseen here */
		run->single++;
		w->single = 1;
		w->ratio = w->med[1] / w->med[0];
		if (hb)
			w->ratio = 1 / w->ratio;
		w->low = 0;
		w->high = INFINITY;
		w->mwu.p = NAN;
		w->verdict = VERDICT_NOISY;
		w->reason = xasprintf("not decided: the %zu values in %s are "
			"repetitions inside one process, whose spread misses "
			"the effect each process has of its own (a %+.0f%% "
			"promise cannot be kept on them); estimate %+.1f%% "
			"from the medians; run the benchmark in several "
			"processes (%s) and concatenate their output",
			w->c[side]->n, o->files[side], o->excludes * 100,
			ratio_pct(w->ratio),
			processes_how(run->used[side]));
		return;
	}
	na = w->units[0] = unit_values(&va, a);
	nb = w->units[1] = unit_values(&vb, b);
	stats_mann_whitney(&w->mwu, va, na, vb, nb);
	/* the shift of log NEW against log OLD (the reverse for rates); a
	   count with a 0 compares (new + 1) / (old + 1) */
	w->plus1 = zeros != 0;
	lo = logs(va, na, w->plus1);
	ln = logs(vb, nb, w->plus1);
	rc = hb ? stats_hl_shift_to(&w->sh, ln, nb, lo, na, run->alpha,
				    &err) :
		  stats_hl_shift_to(&w->sh, lo, na, ln, nb, run->alpha,
				    &err);
	free(lo);
	free(ln);
	free(va);
	free(vb);
	if (rc < 0) {
		w->reason = xasprintf("no interval: %s", err.msg);
		return;
	}
	run->normal += !w->sh.exact;
	w->ratio = exp(w->sh.estimate);
	w->low = exp(w->sh.low);	/* 0 when no bound */
	w->high = exp(w->sh.high);	/* INFINITY when no bound */
	w->verdict = verdict_decide_rule(RULE_FLOOR, w->ratio, w->low,
					 w->high, o->floor, o->excludes);
	w->reason = explain(w, o, run);
	if (w->plus1) {
		char *r = xasprintf("%s (0 %s in %zu of %zu values: compared "
				    "as (new + 1) / (old + 1))", w->reason,
				    a->unit, zeros, a->n + b->n);

		free(w->reason);
		w->reason = r;
	}
	if (na != a->n || nb != b->n) {
		char *r = xasprintf("%s (the process is the unit: medians of "
				    "%zu and %zu processes' repetitions)",
				    w->reason, na, nb);

		free(w->reason);
		w->reason = r;
	}
}

/*
 * The rows: OLD's cases in its order, each with NEW's case of the same
 * name and unit or none, then NEW's cases OLD lacks. Returns how many
 * rows; *compared counts those with both sides.
 */
static size_t pair_cases(struct row *rows, const struct fmt_table t[2],
			 size_t *compared)
{
	const struct fmt_case **ix[2];
	size_t n = 0, i;

	ix[0] = index_cases(&t[0]);
	ix[1] = index_cases(&t[1]);
	for (i = 0; i < t[0].n; i++) {
		rows[n].c[0] = &t[0].cases[i];
		rows[n].c[1] = find(ix[1], t[1].n, &t[0].cases[i]);
		*compared += rows[n].c[1] != NULL;
		n++;
	}
	for (i = 0; i < t[1].n; i++)
		if (!find(ix[0], t[0].n, &t[1].cases[i]))
			rows[n++].c[1] = &t[1].cases[i];
	free(ix[0]);
	free(ix[1]);
	return n;
}

/* Each row's verdict into v[] (new for a case on one side only); -1 when
   SIGINT/SIGTERM stopped it (a file may hold 100k cases). */
static int decide_rows(struct row *rows, size_t n, enum verdict *v,
		       const struct cmp_opts *o, struct cmp_run *run)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (signals_pending())
			return -1;
		if (rows[i].c[0] && rows[i].c[1]) {
			analyse(&rows[i], o, run);
			v[i] = rows[i].verdict;
		} else {
			v[i] = VERDICT_NEW;
		}
	}
	return 0;
}

int cmd_compare(int argc, char **argv, struct gate_ctx *ctx)
{
	struct cmp_opts o;
	struct cmp_run run;
	struct fmt_table t[2] = { FMT_TABLE_INIT, FMT_TABLE_INIT };
	struct row *rows = NULL;
	enum verdict *v = NULL, suite;
	size_t n = 0, i;
	int rc, code = EXIT_ERROR;

	(void)ctx;
	memset(&o, 0, sizeof(o));
	o.fo.gate_report = report_format_parse;
	memset(&run, 0, sizeof(run));
	rc = parse_options(&o, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((rc = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(rc);
	if (load(&t[0], o.files[0], &o, &run.used[0],
		 &run.one_process[0]) < 0 ||
	    load(&t[1], o.files[1], &o, &run.used[1],
		 &run.one_process[1]) < 0)
		goto cleanup;
	if (signals_pending())
		goto interrupted;
	rows = xcalloc(t[0].n + t[1].n + 1, sizeof(*rows));
	n = pair_cases(rows, t, &run.compared);
	if (run.compared == 0) {
		error("no case is in both %s (%zu cases) and %s (%zu cases)%s: "
		      "nothing to compare", o.files[0], t[0].n, o.files[1],
		      t[1].n, o.filter ? " after --filter" : "");
		goto cleanup;
	}
	/* one-sided, each bound: the whole alpha per case (gate run's rule) */
	run.alpha = (1 - o.confidence) / (double)run.compared;
	run.min_n = stats_shift_min_n(run.alpha);
	v = xcalloc(n, sizeof(*v));
	signals_test_stall("compare");
	if (decide_rows(rows, n, v, &o, &run) < 0)
		goto interrupted;
	suite = verdict_suite(v, n);
	code = o.advisory ? EXIT_PASS : verdict_exit_code(suite);
	compare_print_term(o.json && !strcmp(o.json, "-") ? stderr : stdout, rows, n,
		   &o, &run, suite, code);
	if (o.json && compare_write_json(o.json, rows, n, &o, &run, suite, code) < 0)
		code = EXIT_ERROR;
	goto cleanup;
interrupted:
	error("interrupted by signal %d: no verdict", signals_pending());
	code = signals_exit_code(signals_pending());
cleanup:
	for (i = 0; i < n; i++)
		free(rows[i].reason);
	free(rows);
	free(v);
	fmt_table_release(&t[0]);
	fmt_table_release(&t[1]);
	return code;
}
