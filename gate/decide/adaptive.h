/*
 * Adaptive pairs: every benchmark gets its minimum `pairs`, then rounds of
 * more pairs go only to the unresolved ones, each round half as many pairs
 * again as the benchmark has, until it is resolved, max_pairs, or the time
 * budget (shared fairly between the unresolved ones) is spent; the
 * false-fail chance is spent across the looks so it stays promised.
 */
#ifndef GATE_ADAPTIVE_H
#define GATE_ADAPTIVE_H

#include <stddef.h>

#include "gate/decide/model.h"

/*
 * Number of looks at the data, fixed before any change is seen: at pairs,
 * then each look adds half the pairs in hand (rounded up to even, at least
 * 2) until max_pairs: 20, 30, 46, 70, 106, ... Under a budget, the run's
 * cfg gets the max_pairs the budget can reach at the first look's pace
 * (from time alone), when fewer. A run stops early on its verdict or the
 * budget, never looks anywhere else.
 */
size_t adaptive_looks(const struct bench_cfg *cfg);
/* Pairs in hand at look k (0-based; max_pairs from the last look on). */
unsigned adaptive_look_pairs(const struct bench_cfg *cfg, size_t k);
/*
 * 1 - the error look k may spend when the benchmark may spend alpha (1 -
 * its Bonferroni level) over all its looks: half at the first look, the
 * other half in equal shares over the later looks up to max_pairs (all of
 * it when there is one look). The shares sum to alpha whatever the budget
 * lets a run reach, so by the union bound the chance of a false fail at
 * any look is within alpha whatever the looks' correlation.
 */
double adaptive_look_level(const struct bench_cfg *cfg, double alpha,
			   size_t k);
/*
 * The error each comparison of r may spend over all its looks: sets
 * r->compared (gating metrics of the benchmarks compared) and r->level
 * (Bonferroni at r->confidence); returns 1 - r->level.
 */
double adaptive_alpha(struct run_report *r);
/*
 * The fewest `pairs` with which cfg's first look gives an interval (finite
 * bounds) when each comparison may spend alpha over all its looks: cfg's
 * own pairs when they suffice. 0 when every gating metric is an exact
 * count (decided without an interval when the counts repeat).
 */
unsigned adaptive_min_pairs(const struct bench_cfg *cfg, double alpha);
/*
 * The fewest pairs whose first look can decide cfg at alpha (an interval
 * exists at the look's level: stats_interval_min_n), whatever its
 * "pairs"; 0 when every gating metric is an exact count. A budget never
 * cuts a first look below it.
 */
unsigned adaptive_decide_pairs(const struct bench_cfg *cfg, double alpha);

struct adaptive_opts {
	double budget;		/* seconds of measuring for the whole run,
				   first looks included; 0: no limit */
	int strict;		/* --strict */
	int quiet;		/* no progress lines */
};

/* The decision's state between looks (adaptive_begin sets it). */
struct adaptive {
	struct adaptive_opts opt;
	double alpha;		/* each comparison's, over all its looks */
	size_t round;		/* 0: first looks */
	size_t next;		/* the next benchmark this round considers */
	size_t ran;		/* looks given this round */
	int fresh;		/* a round starts at the next call */
	double left, share;	/* this round's time left and fair share */
	int probed;		/* the first look's probe is measured */
	int last;		/* the shorter last look is taken */
};

/* What the decision asks the pipeline to measure next. */
struct adaptive_want {
	size_t i;		/* the benchmark, in r->b */
	unsigned total;		/* bring it to this many pairs */
	size_t look;		/* the look those pairs are for (0-based) */
	int probe;		/* the first pairs of a first look under a
				   budget: timed, not analysed (adaptive_look
				   only records them) */
};

/* Pairs a first look under a budget measures before it knows the time a
   pair takes (balanced: one each way round). */
#define ADAPTIVE_PROBE_PAIRS 2
/*
 * The pairs br's first look should have under a budget once its probe is
 * measured (br->npairs, br->seconds): full when they fit its even share
 * of left seconds between benchmarks (it included) still to have their
 * first look, else fewer (even, never fewer than measured). For the
 * suites' first run too, which the pipeline measures before the decision.
 */
unsigned adaptive_first_look_pairs(const struct bench_run *br, unsigned full,
				   double left, size_t benchmarks);

/*
 * Start deciding r (r->b with its plan set, suites fanned out, new
 * benchmarks marked; r->confidence, r->resamples and r->seed set): sets
 * r->compared and r->level.
 */
void adaptive_begin(struct adaptive *a, struct run_report *r,
		    const struct adaptive_opts *ao);
/*
 * Which benchmark needs how many pairs next: 1 with *want set, 0 when
 * every benchmark is decided. First looks for every one, then rounds for
 * the unresolved ones while the budget lasts. In a round, each unresolved
 * benchmark gets its next look when its time so far plus the look's pairs
 * (at its own time per pair, r->b[i].run.seconds) fit its fair share: the
 * budget less the time of the others, split evenly between the unresolved
 * ones. When no look fits its share, the one that used the least time of
 * those whose look fits what is left goes; when none fits whole, the
 * least served takes what is left as a shorter last look (2 pairs at
 * least), then every unresolved one stops with "budget". Under a budget a
 * first look measures ADAPTIVE_PROBE_PAIRS first (want->probe), then only
 * the pairs that fit the time left split evenly between the benchmarks
 * still to have theirs (fewer than `pairs`: said on stderr and in the
 * benchmark's note). A benchmark stops once no later
 * look can change its verdict: a gating metric has failed (a fail is
 * final) or every gating metric is resolved. elapsed: seconds of
 * measuring so far (read only with a budget).
 */
int adaptive_next(struct adaptive *a, struct run_report *r, double elapsed,
		  struct adaptive_want *want);
/*
 * After the pipeline measured want (measured 1), or could not (0: the
 * run's error set, or gate interrupted): the look's analysis into
 * r->b[want->i].result and its view, or an error verdict. Decisions are
 * made here and nowhere after.
 */
void adaptive_look(struct adaptive *a, struct run_report *r,
		   const struct adaptive_want *want, int measured);
/*
 * Once every look is taken: the accepted regressions (r->accept) applied
 * to the failing benchmarks (verdict_accept_bench), then the suite verdict
 * r->suite. Nothing changes a decision after this.
 */
void adaptive_finish(struct run_report *r);

/* A run interrupted before its decision ended: each benchmark that cannot
   be measured (its run has an error) or was never looked at is an error,
   as adaptive_look makes one that the decision could not measure, not a
   pass of nothing. Before adaptive_finish. */
void adaptive_stopped(struct run_report *r);

#endif
