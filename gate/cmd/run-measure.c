/*
 * gate run's measuring and deciding: the suites first at their planned
 * pairs (their cases known only then), then the adaptive loop (which
 * benchmark needs more pairs, measured, looked at), then the notes beside
 * the verdicts (calibration, load, fixed time). See ARCHITECTURE.md,
 * "The pipeline".
 */
#include "gate/cmd/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "common/clock.h"
#include "common/error.h"
#include "gate/adaptive.h"
#include "gate/calibration.h"
#include "gate/cmd.h"
#include "gate/measure.h"
#include "gate/plan.h"
#include "gate/run.h"
#include "gate/suite.h"
#include "gate/verdict.h"
#include "gate/workspace.h"
#include "gate/exec/signals.h"
#include "gate/exec/sysinfo.h"
#include "gate/report/progress.h"
#include "common/banned.h"

/* How the run measures: one pair order, the progress line, the clock. */
struct measuring {
	struct measure_opts mo;
	struct progress *prog;
	double start;		/* measuring began (the budget's clock) */
	struct suite_owned *own;	/* suites kept for their rounds */
};

/* Benchmark i of r to total pairs. */
static enum measured measure_to(struct run_report *r, struct measuring *m,
				size_t i, unsigned total)
{
	struct bench_run *br = &r->b[i].run;
	enum measured rc;

	if (br->suite_name && br->npairs < total && m->own) {
		/* a round of a suite's unresolved cases, through its filter */
		progress_bench_start(m->prog, i, r->n);
		rc = suite_grow(r, i, total, m->own, &m->mo);
		progress_clear(m->prog);
		return rc;
	}
	if (!measure_pending(br, total))
		return measure_grow(br, &m->mo, total);
	progress_bench_start(m->prog, i, r->n);
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
	enum measured rc = MEASURED;

	for (i = 0; i < r->n && rc != MEASURE_INTERRUPTED; i++) {
		struct bench_run *br = &r->b[i].run;

		if (br->is_new || br->cfg->format == FORMAT_TIME)
			continue;
		rc = measure_to(r, m, i, br->cfg->pairs);
		st = xrealloc(st, (nst + 1) * sizeof(*st));
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
		}
		rc = measure_to(r, m, want.i, want.total);
		adaptive_look(&a, r, &want, rc == MEASURED);
	}
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
	struct measuring m = { { { w->arm[0].dir, w->arm[1].dir }, r->layout,
				 NULL, 2.0, o->quiet, progress_pair,
				 o->prog }, o->prog, 0, own };
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
	if (!r->interrupted)
		r->interrupted = decide(r, &m, p, w, o->quiet);
	else
		adaptive_finish(r);
	r->measure_seconds = clock_seconds() - m.start;
	machine_read_load_after(&r->machine);
	gsl_rng_free(m.mo.order_rng);
	calibration_check_run(r, calib);
	free(calib);
	run_note_load(r);
	run_note_fixed_time(r);
	run_note_metric_advice(r);
	for (i = 0; i < r->n; i++) {
		/* one line per compared benchmark or suite case (Actions) */
		progress_bench_start(o->prog, i, r->n);
		progress_bench_end(o->prog, &r->b[i].run, &r->b[i].primary);
	}
	/* a signal during the statistics stops the run too */
	signals_test_stall("statistics");
	if (!r->interrupted)
		r->interrupted = signals_pending();
	if (r->interrupted)
		return signals_exit_code(r->interrupted);
	return o->advisory ? EXIT_PASS : verdict_exit_code(r->suite);
}
