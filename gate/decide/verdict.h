/*
 * From paired samples to a verdict: ratios head/base oriented so > 1 is
 * worse, their median and bootstrap interval, the sign test, each arm's CV,
 * and the rules for pass, fail, noisy and error (verdict_decide_rule).
 */
#ifndef GATE_VERDICT_H
#define GATE_VERDICT_H

#include <stddef.h>

#include "gate/config/config.h"
#include "gate/measure/measure.h"

enum verdict {
	VERDICT_PASS,
	VERDICT_NOISY,
	VERDICT_FAIL,
	VERDICT_ERROR,
	VERDICT_NEW,		/* declared only by head: not compared */
	VERDICT_ACCEPTED,	/* a fail within the regression a
				   Gate-Accept trailer accepts: exit 0 */
};

/*
 * A regression accepted on purpose: a Gate-Accept trailer of a commit in
 * base..head (strings borrowed from git/'s struct repo_accept).
 */
struct verdict_accept {
	const char *pattern;	/* a benchmark name or fnmatch(3) glob */
	double bound;		/* the regression accepted, a fraction */
	const char *reason;	/* "" when none was given */
	const char *commit;	/* the commit carrying the trailer */
	int matched;		/* set by verdict_accept_bench: it names a
				   benchmark of the run */
};

/* Why a benchmark stopped taking pairs. */
enum stop_reason {
	STOP_NONE,		/* still running */
	STOP_RESOLVED,		/* a verdict, and the interval narrow enough */
	STOP_MAX_PAIRS,		/* unresolved at max_pairs */
	STOP_BUDGET,		/* unresolved when --budget ran out */
	STOP_ERROR,		/* could not be measured */
};

/* How one look at the data is analysed. */
struct verdict_opts {
	double alpha;		/* one-sided error allowed to each bound at
				   this look: the lower bound decides a fail,
				   the upper bound a pass, so each gets the
				   whole alpha (an interval at 1 - 2 alpha) */
	unsigned resamples;	/* bootstrap resamples (bootstrap intervals) */
	unsigned long seed;	/* bootstrap RNG seed */
	int strict;		/* m = f: a pass excludes the floor itself */
};

/* One metric of one benchmark. */
struct bench_stats {
	enum metric metric;
	int gating;		/* 0: informational, never decides */
	int exact;		/* decided exactly: every sample of each arm
				   agreed within METRIC_EXACT_TOLERANCE */
	int varies;		/* an exact metric whose counts varied: the
				   interval decided instead */
	int straddles;		/* with varies: the counts agreed within the
				   tolerance but their pair ratios lay on
				   both sides of the floor */
	double base_spread, head_spread;	/* (max - min) / max per arm */
	double *ratios;		/* per pair that measured it, in order (owned) */
	size_t n;
	double median, geomean;	/* of the ratios */
	double estimate;	/* the statistic of the log-ratios, as a ratio */
	double low, high, level;	/* its interval, as ratios */
	enum stats_estimator statistic;
	enum interval_method interval;	/* as configured */
	enum interval_method interval_used;	/* what gave low and high:
				   the exact interval when the bootstrap
				   cannot hold its level at this n */
	const char *interval_why;	/* static: why interval_used differs
					   from interval (gate compare's:
					   why there is none), else NULL */
	enum rule rule;
	int strict;
	int tail;		/* a Hodges-Lehmann pass made noisy: the
				   ratio of the arms' means does not
				   exclude pass_excludes (a slow tail) */
	double tail_mean, tail_high;	/* that ratio and its upper
				   bound; 0 when not computed */
	double wilcoxon_p;	/* signed-rank test of the log-ratios */
	double mann_whitney_p;	/* U test of base against head samples */
	size_t outliers;	/* pairs > 3 robust sd from the median */
	size_t aside_low, aside_high;	/* of them, the pairs left out of
				   the lower bound (high outliers, which
				   would push it up towards a fail) and of
				   the upper bound (low ones, towards a
				   pass): verdict.c's robust_bounds */
	double drift;		/* correlation of base's value with pair index */
	double target;		/* target half-width (fraction) */
	int one_look;		/* a suite case whose harness cannot re-run
				   only some cases (suite_can_filter): more
				   pairs come only from the first look
				   ("pairs"), never from "max_pairs" or
				   --budget, so the advice names "pairs" */
	enum stop_reason stop;	/* its benchmark's (run_bench.stop), for the
				   advice in reason */
	int explained;		/* reason is verdict_explain's: said again
				   when the benchmark stops (its advice
				   depends on why) */
	char *note;		/* heuristic notes (load, calibration): shown
				   beside the verdict, never change it */
	size_t head_slower, of;	/* pairs where head > base, non-tied */
	double sign_p;
	double base_median, head_median, base_cv, head_cv;
	double floor;		/* min_effect */
	double excludes;	/* pass_excludes m in force (f when strict) */
	size_t min_n;		/* pairs an interval needs at this level
				   (0: not computed) */
	enum verdict verdict;
	int improved;		/* pass with the whole interval below 1 */
	char *reason;		/* one sentence: why this verdict (owned) */
	const struct verdict_accept *accept;	/* the trailer that named
				   this failing metric (accepted when within
				   its bound, else a fail beyond it), or
				   NULL */
};

/* Every metric of one benchmark, and the verdict its gating ones give. */
struct bench_result {
	struct bench_stats *m;	/* one per metric, in gate.json's order */
	size_t n;
	enum verdict verdict;	/* worst of the gating metrics' verdicts */
};

/* A ratio as a percentage change: 1.12 -> +12. */
static inline double ratio_pct(double ratio)
{
	return (ratio - 1.0) * 100.0;
}

const char *verdict_name(enum verdict v);
/* (max - min) / max of x[0..n) (n > 0), an arm's spread: 0 when all agree. */
double verdict_spread(const double *x, size_t n);
/* "running", "resolved", "max_pairs", "budget", "error". */
const char *stop_name(enum stop_reason s);
/*
 * The verdict from one-sided bounds, floor f and pass_excludes m:
 * fail when low > 1 + f (RULE_SIGNIFICANT: low > 1 and est > 1 + f);
 * pass when est <= 1 + f and high < 1 + m; noisy otherwise. An infinite
 * bound (no interval at this level) can therefore give noisy, never a
 * pass or a fail; a NaN is an error.
 */
enum verdict verdict_decide_rule(enum rule r, double est, double low,
				 double high, double floor, double excludes);
/*
 * Compute st from a measured br's first gating metric with br->cfg's
 * statistic, interval and rule, at vo->alpha (already adjusted for the
 * number of comparisons and the look). Returns 0 or -1 (st->verdict is
 * then VERDICT_ERROR with st->reason saying why). st must be zeroed or
 * released first. Release with bench_stats_release.
 */
int verdict_analyse(struct bench_stats *st, const struct bench_run *br,
		    const struct verdict_opts *vo);
/*
 * Unresolved: noisy, or a pass interval wider than +-target (a fail is
 * resolved: the data already shows it).
 */
int verdict_unresolved(const struct bench_stats *st);
/*
 * 1 when metric m of cfg is a count decided exactly when its samples
 * agree: instructions, allocation counts, and suite cases in counting
 * units (cfg->counted).
 */
int verdict_exact_metric(const struct bench_cfg *cfg, enum metric m);
/*
 * Relative slack of the exact rule's comparison with the floor, so that
 * 100 -> 101 at a 1% floor fails whatever the rounding of 1.01.
 */
#define VERDICT_EXACT_SLACK 1e-9
/*
 * Share of a benchmark's alpha that its gating counts draw on when they
 * turn out to vary and beside them a timed metric gates (the timed
 * metrics keep the rest); see verdict_comparisons.
 */
#define VERDICT_COUNT_SHARE 0.1
/*
 * The same for metric mc of br. An exact metric whose samples agree within
 * METRIC_EXACT_TOLERANCE in each arm is decided on its pair ratios alone:
 * fail when the smallest is at least 1 + floor (VERDICT_EXACT_SLACK), pass
 * when the largest is below it (no interval, never noisy); ratios on both
 * sides of the floor (a true change near it, within the tolerance's
 * jitter) are decided by the interval, at the metric's alpha, so a change
 * within the floor fails no more often than the promise allows. One that
 * varies is said to, and decided like a time. Counts are
 * compared as (head + 1) / (base + 1) when either arm counted 0. Without
 * an interval at vo->alpha (too few pairs) the verdict is noisy.
 */
int verdict_analyse_metric(struct bench_stats *st, const struct bench_run *br,
			   const struct metric_cfg *mc,
			   const struct verdict_opts *vo);
void bench_stats_release(struct bench_stats *st);
/*
 * Metric m's ratio in each pair of br that measured it in both arms, in
 * run order, as verdict_analyse_metric forms them (st->ratios): malloc'd,
 * never NULL, their number in *n.
 */
double *verdict_pair_ratios(const struct bench_run *br, enum metric m,
			    size_t *n);
/*
 * Every metric of a measured br (each with its own seed derived from
 * seed), and the benchmark's verdict. Release with bench_result_release.
 */
enum verdict verdict_bench(struct bench_result *res, const struct bench_run *br,
			   const struct verdict_opts *vo);
void bench_result_release(struct bench_result *res);
/*
 * Shares of the suite's alpha (Bonferroni) that benchmark cfg takes: one
 * per gating metric decided by an interval. Counts decided exactly take
 * none. Should a count vary (and be decided by its interval), it draws
 * on its own benchmark's shares, fixed before any data is seen so the
 * union bound holds: beside timed gating metrics, VERDICT_COUNT_SHARE of
 * them split among its counts (the timed ones keep the rest); in a
 * benchmark that gates only on counts, one share split among them.
 */
size_t verdict_comparisons(const struct bench_cfg *cfg);
/*
 * The one-sided alpha of gating metric i of cfg when each of cfg's shares
 * carries alpha (as verdict_comparisons describes). Informational
 * metrics get alpha.
 */
double verdict_metric_alpha(const struct bench_cfg *cfg, size_t i,
			    double alpha);
/*
 * The accepted regressions a (n of them, newest first) applied to the
 * decided benchmark name's result res: the first trailer whose pattern
 * matches name decides each failing or noisy gating metric by
 * verdict_accept_rule, its reason naming the trailer ("within the +15%
 * that commit ... accepts", "exceeds the accepted +15%", "may exceed the
 * accepted +15%"). res->verdict is then the worst of the gating metrics
 * again. Every trailer matching name is marked matched (a trailer
 * matching no benchmark is the caller's warning). Returns res->verdict.
 */
/*
 * br's build is byte-identical in both arms (its "artifacts"): a pass
 * without samples, its reason "identical build: 2 files, sha256 ...".
 * res must be zeroed or released first.
 */
void verdict_identical(struct bench_result *res, const struct bench_run *br);
enum verdict verdict_accept_bench(struct bench_result *res, const char *name,
				  struct verdict_accept *a, size_t n);
/*
 * "Accepted means accepted": a metric whose verdict v is a fail or noisy
 * (or already accepted), with bounds low and high (an exact count: its
 * ratio for both), under a trailer accepting bound: accepted when high
 * is at most 1 + bound (VERDICT_EXACT_SLACK), a fail when low is above
 * it, noisy in between (and when high is infinite: too few pairs show
 * nothing within); any other v is returned as it is, a NaN bound is an
 * error. gate merge decides a stored interval again with it.
 */
enum verdict verdict_accept_rule(enum verdict v, double low, double high,
				 double bound);
/*
 * Worst of n verdicts: error > fail > noisy > accepted > pass; new counts
 * as pass.
 */
enum verdict verdict_suite(const enum verdict *v, size_t n);
/*
 * Exit code for a suite verdict: 0 pass (and accepted), 1 fail, 2 noisy,
 * 3 error.
 */
int verdict_exit_code(enum verdict v);

/*
 * What one run of gate bisect (the confirming run or a step) shows about a
 * regression of the floor (a ratio of 1 + floor): bad when it shows one,
 * as gate's fail does (the lower bound above 1 + floor; an accepted
 * result only when its lower bound is: a Gate-Accept trailer gates, it
 * does not hide the commit bisect looks for); good only when it excludes
 * one (the upper bound below 1 + floor; a pass only excludes
 * pass_excludes, twice the floor, and a noisy result with no interval
 * excludes nothing); an identical build good (nothing changed); an error
 * or no figure to read (a redefined or removed benchmark's fail, never
 * measured: NaN) a skip; anything else unsure (more pairs, then "could
 * not confirm" or "could not separate").
 */
enum bisect_call { BISECT_GOOD, BISECT_BAD, BISECT_UNSURE, BISECT_SKIP };
enum bisect_call verdict_bisect_call(enum verdict v, double low, double high,
				     int identical, double floor);
/* Runs of one bisect step, each with twice the pairs of the one before,
   before bisect gives up separating it. */
#define VERDICT_BISECT_TRIES 3

#endif
