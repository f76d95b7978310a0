/*
 * The Monte-Carlo harness behind tests/bench/test-sim.c and bench/bench-sim.c:
 * synthetic paired timings fed through gate's own adaptive_run and
 * verdict code, so the rates it reports are the binary's rates.
 */
#ifndef BENCH_SIM_H
#define BENCH_SIM_H

#include <stddef.h>

#include "gate/config/config.h"

enum sim_noise {
	SIM_LOGNORMAL,	/* log-normal per sample */
	SIM_HEAVY,	/* Student t with 3 df in the log, same log-sd */
	SIM_DRIFT,	/* log-normal plus a 30% linear slowdown over the run */
	SIM_BIMODAL,	/* log-normal, and 1.25x in a random 30% of samples
			   (two states of the machine: a frequency step) */
	SIM_AR1,	/* log-normal, autocorrelated 0.7 from one sample to
			   the next drawn (AR(1) in the log, same log-sd) */
};

struct sim_cell {
	enum sim_noise noise;
	double cv;		/* per-sample coefficient of variation */
	double effect;		/* true slowdown of head: 0.05 is +5% */
	size_t suite;		/* benchmarks in the suite, all alike */
	double outlier;		/* > 0: one head sample of each benchmark's
				   first look, at a pair drawn uniformly, is
				   this many times its value (an extreme
				   sample: a page fault storm, a preemption) */
	double tail_p, tail_x;	/* a slow tail: each head sample is tail_x
				   times its value with probability tail_p
				   (0.1 and 2: +10% mean, the typical run
				   unchanged) */
	double common;		/* > 0: a suite's cases share each pair's
				   processes: every case's sample at pair j
				   of an arm is also times that process's
				   factor, log-normal with this log-sd (a
				   machine slowing a whole process) */
	double others;		/* != 0: a suite's cases but the first have
				   this effect instead of `effect` (the
				   first keeps it): -0.10 speeds the others
				   up by 10% */
};

/* Gate's procedure, or a rule users apply by hand. */
enum sim_rule {
	SIM_GATE,		/* adaptive_run with the config given */
	SIM_SINGLE,		/* one run each, fail when head/base > 1.05 */
	SIM_BEST5,		/* best of five each, fail when ratio > 1.05 */
};

struct sim_result {
	double fail, noisy, pass;	/* suite verdict rates */
	double any_pass;	/* rate of suites where a benchmark passed */
	double pairs;		/* mean pairs per benchmark */
	size_t trials;
};

const char *sim_noise_name(enum sim_noise n);
/*
 * Run `trials` suites of cell c under rule with benchmark settings proto
 * (name and run unused) at suite confidence, with a fixed seed. Returns 0
 * or -1 when the procedure reported an error.
 */
int sim_run(struct sim_result *out, const struct sim_cell *c,
	    enum sim_rule rule, const struct bench_cfg *proto,
	    double confidence, unsigned resamples, size_t trials,
	    unsigned long seed);
/*
 * Coverage of the two-sided interval at level from n pairs: the share of
 * `trials` datasets whose interval of proto's statistic holds the true
 * ratio 1 + effect.
 */
double sim_coverage(const struct sim_cell *c, const struct bench_cfg *proto,
		    size_t n, double level, unsigned resamples, size_t trials,
		    unsigned long seed);
struct sim_cover {
	double below;		/* share whose lower bound is above the truth */
	double above;		/* share whose upper bound is below it */
	double fallback;	/* share analysed with another interval than
				   the one configured (interval_used) */
	size_t trials;
};

/*
 * One-sided errors of proto's interval from n pairs, each bound at error
 * alpha (gate's two-sided interval at 1 - 2 alpha), over `trials` datasets
 * of cell c analysed by gate's own verdict_analyse. Returns 0, or -1 when
 * an analysis failed.
 */
int sim_coverage_onesided(struct sim_cover *out, const struct sim_cell *c,
			  const struct bench_cfg *proto, size_t n,
			  double alpha, unsigned resamples, size_t trials,
			  unsigned long seed);
/* A benchmark config with gate's defaults (floor 5%, pairs 20..60). */
void sim_default_cfg(struct bench_cfg *b);


/* gate bisect's outcomes over many searches. */
struct sim_bisect {
	double right;		/* the culprit named is the true one */
	double wrong;		/* another commit named as the culprit */
	double range;		/* only a range (a step could not separate) */
	double none;		/* "does not reproduce": the regression
				   missed at the confirming run */
	double unconfirmed;	/* "could not confirm the regression at the
				   bad end" (exit 2) */
	double runs;		/* paired runs per search, mean */
	size_t trials;
};
/* Which of gate bisect's rules decides each run of the search. */
enum sim_bisect_rule {
	SIM_BISECT_NOW,		/* verdict_bisect_call on every run, the
				   confirming one too: bad shows, good
				   excludes a regression of the floor,
				   unsure runs again with twice the pairs */
	SIM_BISECT_PASS_GOOD,	/* before issue 25: a step's pass good, a
				   fail bad, one run a step */
	SIM_BISECT_CONFIRM_FAIL,/* issues 25 to 40: one confirming run,
				   reproduced only when it fails; a step good
				   below its lower bound, else as now */
};
/*
 * `trials` bisections of `commits` first-parent commits of which one,
 * drawn uniformly, slows the benchmark by c->effect (c->suite unused):
 * each run a simulated gate run (adaptive pairs up to proto's max_pairs)
 * decided by `rule`, with VERDICT_BISECT_TRIES runs of doubling pairs
 * where the rule retries, as gate bisect decides. 0 or -1.
 */
int sim_bisect(struct sim_bisect *out, const struct sim_cell *c,
	       const struct bench_cfg *proto, size_t commits,
	       enum sim_bisect_rule rule, size_t trials, unsigned long seed);


/*
 * Exact counts near the floor: `trials` runs of n pairs of a count of 1e6
 * (head 1 + effect times it), each sample off by a uniform jitter of up
 * to +-jitter (within the exact tolerance when jitter <= 0.0005), decided
 * by verdict_analyse_metric as allocs at floor and one-sided alpha. The
 * share of fails into *fail, of passes into *pass. 0 or -1.
 */
int sim_exact(double *fail, double *pass, double effect, double jitter,
	      double floor, size_t n, double alpha, size_t trials,
	      unsigned long seed);

#endif
