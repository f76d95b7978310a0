/*
 * gate compare OLD NEW: offline statistics on two result files (any
 * supported format, or two gate JSON reports). Nothing pairs the runs, so
 * each case is the Hodges-Lehmann shift of the log values with the exact
 * Mann-Whitney bounds (stats_hl_shift), one-sided at the suite's alpha
 * over the cases compared, and decided by gate run's rule
 * (verdict_decide_rule): fail when the lower bound is above 1 + floor,
 * pass when the estimate is within it and the upper bound below
 * 1 + pass_excludes, noisy otherwise, including too few values for a bound.
 * Each case is a benchmark of gate run's model (gate/decide/model.h), so
 * gate run's view and printers report it and its loader reads it back.
 */
#include "gate/cmd/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "gate/config/options.h"
#include "gate/exec/signals.h"
#include "gate/config/config.h"
#include "gate/format/format.h"
#include "gate/decide/verdict.h"
#include "gate/report/load.h"
#include "gate/report/view.h"
#include "stats/stats.h"
#include "common/banned.h"

struct cmp_opts {
	const char *files[2], *filter, *json;
	int have_format, advisory, strict;
	enum format format;
	struct fmt_opts fo;
	double floor, excludes, confidence;
	unsigned long seed;	/* --seed, kept in the report only */
	int have_seed;
};

/* One case of the comparison: OLD's and NEW's, NULL when absent. */
struct cmp_case {
	const struct fmt_case *c[2];
};

#define ONE_PROCESS_NOTE "values are repetitions within one process: the " \
	"interval covers that process's noise, not run-to-run variation"

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

/* The side of case k whose values are repetitions inside one process (a
   timing then cannot keep the promise): 0, 1, or -1 for neither. */
static int one_process_side(const struct cmp_case *k)
{
	int s;

	for (s = 0; s < 2; s++)
		if (fmt_case_processes(k->c[s]) == 1 && k->c[s]->n > 1)
			return s;
	return -1;
}

/* How a file of format f holds more processes, in its reader's words. */
static const char *processes_how(enum format f)
{
	const char *how = format_reader(f)->processes_how;

	return how ? how : "each run's output one after another";
}

/* Why st's verdict, in one sentence (owned); units: the values compared
   per side, depth: the Mann-Whitney depth of its bounds (0: none). */
static char *explain(const struct bench_stats *st, const size_t units[2],
		     size_t depth, const struct run_report *r,
		     enum format used)
{
	double f = st->floor * 100, m = st->excludes * 100;
	char e[32], l[32], h[32];

	view_pct(e, sizeof(e), st->estimate, 1);
	view_pct(l, sizeof(l), st->low, 1);
	view_pct(h, sizeof(h), st->high, 1);
	switch (st->verdict) {
	case VERDICT_FAIL:
		return xasprintf("slower by %s (bounds %s to %s, Mann-Whitney "
			"p=%.2g): the lower bound is above the %+.1f%% floor",
			e, l, h, st->mann_whitney_p, f);
	case VERDICT_NOISY:
		if (depth == 0)
			return xasprintf("too few values: %zu per side needed "
				"at this level (%zu in OLD, %zu in NEW; each "
				"bound at %.4g%% over %zu cases); estimate "
				"%s: run the suite in more processes (%s)",
				st->min_n, units[0], units[1],
				r->level * 100, r->compared, e,
				processes_how(used));
		if (st->estimate > 1 + st->floor)
			return xasprintf("estimate %s is above the %+.1f%% "
				"floor but the lower bound reaches down to "
				"%s (Mann-Whitney p=%.2g): more values per "
				"file would resolve it", e, f, l,
				st->mann_whitney_p);
		return xasprintf("estimate %s is within the %+.1f%% floor "
			"but a regression of %+.1f%% is not excluded (the upper "
			"bound is %s): more values per file would resolve "
			"it", e, f, m, h);
	case VERDICT_PASS:
		if (st->high < 1)
			return xasprintf("faster by %.1f%% (bounds %s to %s)",
				-ratio_pct(st->estimate), l, h);
		return xasprintf("estimate %s is within the %+.1f%% "
			"floor; a regression above %s is excluded", e, f, h);
	default:
		return xstrdup("could not be compared");
	}
}

/* s and more, s freed (owned). */
static char *append(char *s, char *more)
{
	char *t = xasprintf("%s (%s)", s, more);

	free(s);
	free(more);
	return t;
}

/* A time whose values on side are one process's: not decided, its
   estimate the ratio of the medians. */
static void one_process(struct bench_stats *st, const struct cmp_case *k,
			int side, const struct cmp_opts *o, enum format used)
{
	st->estimate = st->median;
	st->low = 0;		/* no bound, as gate run says it */
	st->high = INFINITY;
	st->verdict = VERDICT_NOISY;
	st->interval_why = "1 process";
	st->reason = xasprintf("not decided: the %zu values in %s are "
		"repetitions inside one process, whose spread misses the "
		"effect each process has of its own (a %+.0f%% promise cannot "
		"be kept on them); estimate %+.1f%% from the medians; run "
		"the benchmark in several processes (%s) and concatenate "
		"their output", k->c[side]->n, o->files[side],
		o->excludes * 100, ratio_pct(st->estimate),
		processes_how(used));
}

/* The shift's estimate, bounds and verdict of case k into st. */
static void shift(struct bench_stats *st, const struct cmp_case *k,
		  size_t zeros, const struct run_report *r, enum format used)
{
	const struct fmt_case *a = k->c[0], *b = k->c[1];
	struct stats_shift sh;
	struct stats_mwu mwu;
	struct gate_err err = { "" };
	size_t units[2];
	double *v[2], *lo, *ln, alpha = 1 - r->level;
	int rc;

	units[0] = unit_values(&v[0], a);
	units[1] = unit_values(&v[1], b);
	stats_mann_whitney(&mwu, v[0], units[0], v[1], units[1]);
	st->mann_whitney_p = mwu.p;
	/* the shift of log NEW against log OLD (the reverse for rates) */
	lo = logs(v[0], units[0], zeros != 0);
	ln = logs(v[1], units[1], zeros != 0);
	rc = a->higher_better ?
	     stats_hl_shift(&sh, ln, units[1], lo, units[0], alpha, &err) :
	     stats_hl_shift(&sh, lo, units[0], ln, units[1], alpha, &err);
	free(lo);
	free(ln);
	free(v[0]);
	free(v[1]);
	if (rc < 0) {
		st->reason = xasprintf("no interval: %s", err.msg);
		return;
	}
	st->estimate = exp(sh.estimate);
	st->low = exp(sh.low);		/* 0 when no bound */
	st->high = exp(sh.high);	/* INFINITY when no bound */
	st->verdict = verdict_decide_rule(RULE_FLOOR, st->estimate, st->low,
					  st->high, st->floor, st->excludes);
	st->improved = st->verdict == VERDICT_PASS && st->high < 1;
	st->reason = explain(st, units, sh.depth, r, used);
	if (!sh.depth)
		st->interval_why = "too few values";
	if (zeros)
		st->reason = append(st->reason, xasprintf("0 %s in %zu of %zu "
			"values: compared as (new + 1) / (old + 1)", a->unit,
			zeros, a->n + b->n));
	if (units[0] != a->n || units[1] != b->n)
		st->reason = append(st->reason, xasprintf("the process is the "
			"unit: medians of %zu and %zu processes' repetitions",
			units[0], units[1]));
}

/* Case k's one metric decided into b's result: the figures gate run
   shows, of two files' values taken unpaired. */
static void analyse(struct run_bench *b, const struct cmp_case *k,
		    const struct cmp_opts *o, struct run_report *r,
		    const enum format used[2])
{
	const struct fmt_case *a = k->c[0], *n = k->c[1];
	struct bench_stats *st = xcalloc(1, sizeof(*st));
	size_t i, zeros = 0;
	int side;

	b->result.m = st;
	b->result.n = 1;
	st->metric = METRIC_VALUE;
	st->gating = 1;
	st->statistic = STATS_HL;
	st->interval = st->interval_used = INTERVAL_MANN_WHITNEY;
	st->strict = o->strict;
	st->floor = o->floor;
	st->excludes = o->excludes;
	st->level = r->level;
	st->min_n = stats_shift_min_n(1 - r->level);
	st->stop = b->stop = STOP_RESOLVED;
	b->looks = 1;
	st->estimate = st->low = st->high = st->geomean = NAN;
	st->wilcoxon_p = st->mann_whitney_p = st->sign_p = st->drift = NAN;
	st->base_cv = st->head_cv = NAN;
	st->base_median = stats_median(a->values, a->n);
	st->head_median = stats_median(n->values, n->n);
	st->base_spread = verdict_spread(a->values, a->n);
	st->head_spread = verdict_spread(n->values, n->n);
	/* the ratio of the medians, for reading: nothing pairs values */
	st->median = a->higher_better ? st->base_median / st->head_median :
		     st->head_median / st->base_median;
	st->ratios = verdict_pair_ratios(&b->run, METRIC_VALUE, &st->n);
	st->verdict = VERDICT_ERROR;
	for (i = 0; i < a->n; i++)
		zeros += a->values[i] == 0;
	for (i = 0; i < n->n; i++)
		zeros += n->values[i] == 0;
	if (zeros == a->n + n->n) {
		st->estimate = st->low = st->high = 1;
		st->exact = 1;
		st->verdict = VERDICT_PASS;
		st->reason = xasprintf("0 %s in every value of both files",
				       a->unit);
	} else if (zeros && !unit_may_be_zero(a->unit)) {
		st->reason = xasprintf("0 %s in %zu of %zu values but not in "
				       "all: below the resolution of the "
				       "benchmark's own timer, no ratio can be "
				       "formed", a->unit, zeros, a->n + n->n);
	} else if (!unit_may_be_zero(a->unit) &&
		   (side = one_process_side(k)) >= 0) {
		/* counts do not vary by process; a time does, unseen here */
		r->one_process++;
		one_process(st, k, side, o, used[side]);
	} else {
		shift(st, k, zeros, r, used[1]);
	}
	b->result.verdict = st->verdict;
}

/* Case k's values as b's samples, index by index (NaN where a side has
   fewer): nothing pairs them, they are stored so. */
static void values(struct bench_run *br, const struct cmp_case *k)
{
	size_t n = 0, i;
	int a, m;

	for (a = 0; a < 2; a++)
		if (k->c[a] && k->c[a]->n > n)
			n = k->c[a]->n;
	br->pairs = xcalloc(n ? n : 1, sizeof(*br->pairs));
	br->npairs = n;
	for (a = 0; a < 2; a++)
		br->nsamples[a] = k->c[a] ? k->c[a]->n : 0;
	for (i = 0; i < n; i++)
		for (a = 0; a < 2; a++) {
			struct sample *s = &br->pairs[i].s[a];

			s->wall = s->cpu = NAN;
			for (m = 0; m < METRIC_COUNT; m++)
				s->value[m] = NAN;
			if (i < br->nsamples[a])
				s->value[METRIC_VALUE] = k->c[a]->values[i];
		}
}

/* Case k as entry b, with its configuration c (borrowing k's strings). */
static void bench(struct run_bench *b, struct bench_cfg *c,
		  const struct cmp_case *k, const struct cmp_opts *o)
{
	const struct fmt_case *x = k->c[0] ? k->c[0] : k->c[1];

	c->name = x->name;
	c->unit = x->unit;
	c->metric = METRIC_VALUE;
	c->higher_better = x->higher_better;
	c->min_effect = o->floor;
	c->statistic = STATS_HL;
	c->interval = INTERVAL_MANN_WHITNEY;
	c->rule = RULE_FLOOR;
	c->metrics[0].id = METRIC_VALUE;
	c->metrics[0].gating = 1;
	c->metrics[0].min_effect = o->floor;
	c->metrics[0].pass_excludes = o->excludes;
	c->nmetrics = 1;
	b->run.cfg = c;
	b->run.is_new = !k->c[0];
	b->run.is_removed = !k->c[1];
	b->result.verdict = VERDICT_NEW;
	values(&b->run, k);
}

/*
 * The cases: OLD's in its order, each with NEW's case of the same name
 * and unit or none, then NEW's cases OLD lacks. Returns how many (room
 * for both tables' cases); *compared counts those with both sides.
 */
static size_t pair_cases(struct cmp_case *cases, const struct fmt_table t[2],
			 size_t *compared)
{
	const struct fmt_case **ix[2];
	size_t n = 0, i;

	ix[0] = index_cases(&t[0]);
	ix[1] = index_cases(&t[1]);
	for (i = 0; i < t[0].n; i++) {
		cases[n].c[0] = &t[0].cases[i];
		cases[n].c[1] = find(ix[1], t[1].n, &t[0].cases[i]);
		*compared += cases[n].c[1] != NULL;
		n++;
	}
	for (i = 0; i < t[1].n; i++)
		if (!find(ix[0], t[0].n, &t[1].cases[i]))
			cases[n++].c[1] = &t[1].cases[i];
	free(ix[0]);
	free(ix[1]);
	return n;
}

/* Every case into r (its configurations into cfg); -1 when SIGINT or
   SIGTERM stopped it (a file may hold 100k cases). */
static int decide(struct run_report *r, struct bench_cfg *cfg,
		  const struct cmp_case *cases, const struct cmp_opts *o,
		  const enum format used[2])
{
	enum verdict *v = xcalloc(r->n + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (signals_pending()) {
			free(v);
			return -1;
		}
		bench(&r->b[i], &cfg[i], &cases[i], o);
		if (cases[i].c[0] && cases[i].c[1])
			analyse(&r->b[i], &cases[i], o, r, used);
		v[i] = r->b[i].result.verdict;
	}
	r->suite = verdict_suite(v, r->n);
	free(v);
	return 0;
}

/* "in old.txt and new.txt, <note>", "in old.txt, ..." or NULL: the files
   whose values are one process's. */
static char *one_process_note(const struct cmp_opts *o, const int single[2])
{
	if (single[0] && single[1])
		return xasprintf("in %s and %s, " ONE_PROCESS_NOTE,
				 o->files[0], o->files[1]);
	if (single[0] || single[1])
		return xasprintf("in %s, " ONE_PROCESS_NOTE,
				 o->files[single[1]]);
	return NULL;
}

/* The terminal report (the protocol always: compare has no -v) and the
   JSON report; 0 or -1 after error(). */
static int print(const struct run_report *r, const struct cmp_opts *o)
{
	FILE *out = o->json && !strcmp(o->json, "-") ? stderr : stdout;
	struct report_view v;
	int ret = 0;

	report_view_build(&v, r);
	report_term(out, &v, report_use_color(NULL, out), 1);
	report_view_release(&v);
	if (o->json && report_json(o->json, r) < 0)
		ret = -1;
	return ret;
}

int cmd_compare(int argc, char **argv, struct gate_ctx *ctx)
{
	struct cmp_opts o;
	struct run_report r;
	struct fmt_table t[2] = { FMT_TABLE_INIT, FMT_TABLE_INIT };
	struct cmp_case *cases = NULL;
	struct bench_cfg *cfg = NULL;
	enum format used[2];
	int single[2], rc, code = EXIT_ERROR, s;
	char how[2][64], *note = NULL;
	size_t n;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	o.fo.gate_report = report_format_parse;
	rc = parse_options(&o, argc, argv);
	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if ((rc = gate_ctx_ready(ctx)) != CTX_READY)
		return gate_ctx_exit(rc);
	if (load(&t[0], o.files[0], &o, &used[0], &single[0]) < 0 ||
	    load(&t[1], o.files[1], &o, &used[1], &single[1]) < 0)
		goto cleanup;
	if (signals_pending())
		goto interrupted;
	cases = xcalloc(t[0].n + t[1].n + 1, sizeof(*cases));
	n = pair_cases(cases, t, &r.compared);
	if (r.compared == 0) {
		error("no case is in both %s (%zu cases) and %s (%zu cases)%s: "
		      "nothing to compare", o.files[0], t[0].n, o.files[1],
		      t[1].n, o.filter ? " after --filter" : "");
		goto cleanup;
	}
	r.command = "compare";
	for (s = 0; s < 2; s++) {
		snprintf(how[s], sizeof(how[s]), "format %s, %s",
			 format_name(used[s]), o.have_format ? "--format" :
			 "detected");
		r.rev[s] = (struct report_rev){ .label = o.files[s],
						.commit = "", .tree = "",
						.how = how[s] };
	}
	r.note = note = one_process_note(&o, single);
	r.seed = o.seed;
	r.confidence = o.confidence;
	/* one-sided, each bound: the whole alpha per case (gate run's rule) */
	r.level = 1 - (1 - o.confidence) / (double)r.compared;
	r.strict = o.strict;
	r.advisory = o.advisory;
	cfg = xcalloc(n, sizeof(*cfg));
	run_alloc(&r, n);
	signals_test_stall("compare");
	if (decide(&r, cfg, cases, &o, used) < 0)
		goto interrupted;
	r.exit_code = code = o.advisory ? EXIT_PASS :
			     verdict_exit_code(r.suite);
	if (print(&r, &o) < 0)
		code = EXIT_ERROR;
	goto cleanup;
interrupted:
	error("interrupted by signal %d: no verdict", signals_pending());
	code = signals_exit_code(signals_pending());
cleanup:
	run_release(&r);
	free(cfg);
	free(note);
	free(cases);
	fmt_table_release(&t[0]);
	fmt_table_release(&t[1]);
	return code;
}
