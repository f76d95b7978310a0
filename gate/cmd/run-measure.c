/*
 * gate run's measuring and deciding: the suites first at their planned
 * pairs (their cases known only then), then the adaptive loop (which
 * benchmark needs more pairs, measured, looked at), then the notes beside
 * the verdicts (calibration, load, fixed time). See ARCHITECTURE.md,
 * "The pipeline".
 */
#include "gate/cmd/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/decide/adaptive.h"
#include "gate/decide/advice.h"
#include "gate/decide/calibration.h"
#include "gate/cmd/cmd.h"
#include "gate/measure/measure.h"
#include "gate/decide/plan.h"
#include "gate/decide/model.h"
#include "gate/decide/relative.h"
#include "gate/decide/suite.h"
#include "gate/decide/verdict.h"
#include "gate/workspace/workspace.h"
#include "gate/exec/signals.h"
#include "gate/exec/sysinfo.h"
#include "gate/report/progress.h"
#include "common/banned.h"

/* How the run measures: one pair order, the progress line, the clock. */
struct measuring {
	struct measure_opts mo;
	struct progress *prog;
	double start;		/* measuring began (the budget's clock) */
	double budget;		/* seconds, 0: none */
	struct suite_owned *own;	/* suites kept for their rounds */
	size_t pos, count;	/* the progress line's [pos/count]: the
				   benchmarks measured this round */
	size_t last;		/* the benchmark pos counted last: a
				   probe and its look are one */
};

/* Compared: neither new in head nor a case only base printed. */
static int compared(const struct bench_run *br)
{
	return !br->is_new && !br->is_removed;
}

/* Still to be measured for its next look: compared, not the same build
   in both arms (identical), no error, not stopped, short of its pairs. */
static int wants_pairs(const struct run_bench *b)
{
	const struct bench_run *br = &b->run;

	return compared(br) && br->identical != 1 && !br->error &&
	       b->stop == STOP_NONE &&
	       br->npairs < adaptive_look_pairs(br->cfg, b->looks);
}

/*
 * How many measurements a round still takes at most: the benchmarks that
 * want pairs, a suite's cases in a row at the same pairs once (suite_grow
 * measures them together). The round may end sooner (a budget skips a
 * look that does not fit), never later: [pos/count] never jumps or
 * passes its count.
 */
static size_t round_count(const struct run_report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct bench_run *br = &r->b[i].run, *prev;

		if (!wants_pairs(&r->b[i]))
			continue;
		prev = i ? &r->b[i - 1].run : NULL;
		if (br->suite_name && prev && prev->suite_name &&
		    wants_pairs(&r->b[i - 1]) && prev->npairs == br->npairs &&
		    !strcmp(prev->suite_name, br->suite_name))
			continue;
		n++;
	}
	return n;
}

/* A new round of the progress line's count. */
static void round_begin(struct measuring *m, size_t count)
{
	m->pos = 0;
	m->count = count;
	m->last = (size_t)-1;
}

/* Seconds a pair of br took, or -1 before any is measured. */
static double pair_cost(const struct bench_run *br)
{
	double s;

	if (!br->npairs)
		return -1;
	s = (br->seconds - br->warmup_seconds) / (double)br->npairs;
	return s > 0 ? s : 0;
}

/* n more pairs of br: seconds at its rate, or pairs when it has none. */
static void add_pairs(double *seconds, double *pairs,
		      const struct bench_run *br, double n)
{
	double s = pair_cost(br);

	if (n <= 0)
		return;
	if (s < 0)
		*pairs += n;
	else
		*seconds += s * n;
}

/*
 * For the progress line: what the run measures after benchmark cur is
 * brought to total pairs (of a look of full pairs: more when total is the
 * budget's probe), from the looks still possible. lo: every benchmark
 * decided at its next look (cur at this one); hi: every one not stopped
 * takes its looks to max_pairs. A suite's cases in a row count once.
 */
static void estimate_left(const struct run_report *r,
			  const struct measuring *m, size_t cur,
			  unsigned total, unsigned full)
{
	struct progress_left l = { .budget_end = INFINITY };
	const char *suite = NULL;
	size_t i;

	if (m->budget > 0)
		l.budget_end = m->start + m->budget;
	for (i = 0; i < r->n; i++) {
		const struct run_bench *b = &r->b[i];
		const struct bench_run *br = &b->run;
		const struct bench_cfg *c = br->cfg;
		double most = c->max_pairs > c->pairs ? c->max_pairs :
			      c->pairs, next;

		if (i == cur) {
			/* cur's own pairs at the rate the line measures */
			l.lo_pairs += full > total ? full - total : 0;
			l.hi_pairs += most > total ? most - total : 0;
			suite = br->suite_name;
			continue;
		}
		if (!compared(br) || br->identical == 1 || br->error ||
		    b->stop != STOP_NONE)
			continue;
		if (br->suite_name && suite && !strcmp(suite, br->suite_name))
			continue;	/* measured with the one before */
		suite = br->suite_name;
		next = adaptive_look_pairs(c, b->looks);
		add_pairs(&l.lo_seconds, &l.lo_pairs, br,
			  next - (double)br->npairs);
		add_pairs(&l.hi_seconds, &l.hi_pairs, br,
			  most - (double)br->npairs);
	}
	progress_set_left(m->prog, &l);
}

/* The progress line for benchmark i, brought to total of full pairs. */
static void progress_begin(struct run_report *r, struct measuring *m,
			   size_t i, unsigned total, unsigned full)
{
	if (i != m->last) {
		m->pos++;
		m->last = i;
	}
	if (m->pos > m->count)	/* never past its count, whatever */
		m->count = m->pos;
	/* the estimate walks every benchmark: only where it is drawn */
	if (m->prog->mode == PROGRESS_TTY)
		estimate_left(r, m, i, total, full);
	progress_bench_start(m->prog, m->pos - 1, m->count);
}

/* Benchmark i of r to total pairs, for a look of full pairs. */
static enum measured measure_to(struct run_report *r, struct measuring *m,
				size_t i, unsigned total, unsigned full)
{
	struct bench_run *br = &r->b[i].run;
	enum measured rc;

	if (br->suite_name && br->npairs < total && m->own) {
		/* a round of a suite's unresolved cases, through its filter */
		progress_begin(r, m, i, total, full);
		rc = suite_grow(r, i, total, m->own, &m->mo);
		progress_clear(m->prog);
		return rc;
	}
	if (!measure_pending(br, total))
		return measure_grow(br, &m->mo, total);
	progress_begin(r, m, i, total, full);
	rc = measure_grow(br, &m->mo, total);
	progress_clear(m->prog);
	return rc;
}

/*
 * Suites first, at their planned pairs: the number of comparisons (the
 * Bonferroni correction) is known only once they have printed their
 * cases. Each then fans out into its cases, which take their suite's
 * measuring time. Returns 0 or the interrupting signal.
 */
static int measure_suites(struct run_report *r, struct measuring *m,
			  struct suite_owned *own, const char *filter)
{
	struct { const char *name; double seconds; } *st = NULL;
	size_t i, j, nst = 0;
	size_t cap = 0, count = 0;
	enum measured rc = MEASURED;

	for (i = 0; i < r->n; i++)
		count += !r->b[i].run.is_new &&
			 r->b[i].run.cfg->format != FORMAT_TIME &&
			 measure_pending(&r->b[i].run, r->b[i].run.cfg->pairs);
	round_begin(m, count);
	for (i = 0; i < r->n && rc != MEASURE_INTERRUPTED; i++) {
		struct bench_run *br = &r->b[i].run;

		if (br->is_new || br->cfg->format == FORMAT_TIME)
			continue;
		rc = measure_to(r, m, i, br->cfg->pairs, br->cfg->pairs);
		XGROW(st, cap, nst + 1);
		st[nst].name = br->cfg->name;
		st[nst++].seconds = br->seconds;
	}
	/* the plan checked the filter: this cannot fail */
	suite_fanout(&r->b, &r->n, own, filter);
	for (i = 0; i < r->n; i++)
		for (j = 0; r->b[i].run.suite_name && j < nst; j++)
			if (!strcmp(st[j].name, r->b[i].run.suite_name))
				r->b[i].run.seconds = st[j].seconds;
	free(st);
	return rc == MEASURE_INTERRUPTED ? signals_pending() : 0;
}

/*
 * The decision: the adaptive module says which benchmark needs how many
 * pairs next, the pipeline measures them, the module looks; then the
 * suite verdict, once. Returns 0 or the interrupting signal.
 */
static int decide(struct run_report *r, struct measuring *m,
		  const struct plan *p, struct workspace *w, int quiet)
{
	struct adaptive_opts ao = { p->budget, p->strict, quiet };
	struct adaptive a;
	struct adaptive_want want;
	enum measured rc = MEASURED;
	size_t round = 0;

	adaptive_begin(&a, r, &ao);
	round_begin(m, round_count(r));
	while (rc != MEASURE_INTERRUPTED &&
	       adaptive_next(&a, r, clock_seconds() - m->start, &want)) {
		/*
		 * Between rounds, each arm's files as its build left them:
		 * a change made and undone within a run is caught while it
		 * stands. On a mismatch measuring stops; gate run's
		 * workspace_verify then names the arm and the file (exit 3).
		 */
		if (a.round != round) {
			round = a.round;
			if (workspace_manifest_verify(w) < 0)
				break;
			round_begin(m, round_count(r));
		}
		rc = measure_to(r, m, want.i, want.total, want.probe ?
				adaptive_look_pairs(r->b[want.i].run.cfg,
						    want.look) : want.total);
		adaptive_look(&a, r, &want, rc == MEASURED);
	}
	if (rc == MEASURE_INTERRUPTED)
		adaptive_stopped(r);
	adaptive_finish(r);
	return rc == MEASURE_INTERRUPTED ? signals_pending() : 0;
}

/*
 * Measure and decide every benchmark, then the notes beside the verdicts
 * (calibration, load). Returns the exit code.
 */
int run_measure_all(struct run_report *r, struct plan *p,
		    struct workspace *w, const struct run_opts *o,
		    struct suite_owned *own)
{
	struct measuring m = {
		.mo = { .dir = { w->arm[0].dir, w->arm[1].dir },
			.layout = r->layout, .grace = 2.0, .quiet = o->quiet,
			.on_pair = progress_pair, .on_pair_arg = o->prog },
		.prog = o->prog, .budget = p->budget, .own = own,
	};
	char *calib = workspace_path(w, "calibration.json");
	size_t i;

	m.mo.order_rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!m.mo.order_rng) {
		free(calib);
		return error("cannot allocate a random generator"), EXIT_ERROR;
	}
	gsl_rng_set(m.mo.order_rng, r->seed);
	m.start = clock_seconds();
	r->interrupted = measure_suites(r, &m, own, p->filter);
	r->strict = p->strict;
	r->budget = p->budget;
	plan_pairs(p, r);
	if (!r->interrupted) {
		r->interrupted = decide(r, &m, p, w, o->quiet);
	} else {
		adaptive_stopped(r);
		adaptive_finish(r);
	}
	r->measure_seconds = clock_seconds() - m.start;
	machine_read_load_after(&r->machine);
	gsl_rng_free(m.mo.order_rng);
	calibration_check_run(r, calib);
	free(calib);
	run_note_load(r);
	run_note_slow_processes(r);
	run_note_relative(r);
	run_note_fixed_time(r);
	run_note_metric_advice(r);
	for (i = 0; i < r->n; i++) {
		/* one line per compared benchmark or suite case (Actions) */
		progress_bench_start(o->prog, i, r->n);
		progress_bench_end(o->prog, &r->b[i]);
	}
	/* a signal during the statistics stops the run too */
	signals_test_stall("statistics");
	if (!r->interrupted)
		r->interrupted = signals_pending();
	if (r->interrupted)
		return signals_exit_code(r->interrupted);
	return o->advisory ? EXIT_PASS : verdict_exit_code(r->suite);
}
