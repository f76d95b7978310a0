/*
 * The measurement loop: warm-up runs per arm, then pairs of base and head
 * samples in a seeded, balanced random order, checking each arm's stdout
 * against its first sample (output parity) as it goes.
 */
#ifndef GATE_MEASURE_H
#define GATE_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "gate/config/config.h"

enum arm { ARM_BASE = 0, ARM_HEAD = 1 };

struct sample {
	double wall, cpu;	/* seconds */
	long maxrss_kb;
	double value[METRIC_COUNT];	/* every metric; NAN: not measured */
	double sim[SIM_EVENTS];	/* cachegrind's events behind "cycles"
				   (NAN: not simulated) */
};

struct suite_data;

struct pair_result {
	int head_first;		/* order the pair ran in */
	struct sample s[2];	/* indexed by enum arm */
};

/* One file of a benchmark's "artifacts", as each arm's build left it. */
struct artifact_hash {
	char *path;		/* relative to the checkout (owned) */
	char sha256[2][65];	/* by enum arm; "": no such file there */
};

struct bench_run {
	const struct bench_cfg *cfg;
	int is_new;		/* only head's config declares it */
	struct pair_result *pairs;
	size_t npairs;		/* pairs completed */
	uint64_t out_hash[2];	/* stdout signature of each arm */
	uint64_t out_bytes[2];
	size_t nsamples[2];	/* samples checked for parity, warm-ups in */
	int parity_differs;	/* 1: base and head printed different stdout */
	int parity_failed;	/* an arm's sample printed other stdout than
				   its first: arm + 1 (1 base, 2 head) */
	char *error;		/* non-NULL: could not be measured (owned) */
	/* set by measure_prepare */
	enum counter counter;	/* backend counting instructions, if any */
	char *valgrind;		/* valgrind's path, with COUNTER_VALGRIND or
				   simulate (owned) */
	int simulate;		/* 1: "cycles": the valgrind runs simulate
				   the caches (they then count the
				   instructions too when valgrind does) */
	char *alloc_lib;	/* libgate-alloc.so for alloc metrics (owned) */
	struct suite_probe *probe;	/* a suite counted per case: what its
					   runs under valgrind need (owned;
					   gate/measure/measure-counted.c) */
	int plain_runs;		/* 1: samples include an uninstrumented run */
	unsigned parallel;	/* counted runs at once (1: one at a
				   time; set by measure_bench) */
	size_t counted_pairs;	/* the first pairs that get a valgrind run
				   (every pair added later too once the
				   counts are seen to vary) */
	double seconds;		/* spent measuring it, warm-ups included */
	double warmup_seconds;	/* of which warm-ups */
	double counted_seconds;	/* of which runs under valgrind in pairs
				   (warm-ups' not included) */
	size_t counted_done;	/* pairs whose runs under valgrind ran */
	unsigned pairs_needed;	/* the plan-time minimum when above the
				   configured pairs (else 0) */
	unsigned pairs_raised_from;	/* the configured pairs, when gate
					   raised them to pairs_needed */
	unsigned max_pairs_set;	/* the configured max_pairs, when the
				   budget planned the looks to fewer (the
				   cfg's is then the budget's) */
	struct suite_data *suite;	/* suite formats: the cases (owned) */
	int is_removed;		/* a suite case only base printed */
	int judged;		/* decided by the arms' rules, not measured:
				   removed or redefined (gate/decide/arms.c), a
				   fail or accepted */
	const char *suite_name;	/* a suite case: its suite's name */
	struct artifact_hash *artifacts;	/* sorted by path (owned) */
	size_t nartifacts;
	int identical;		/* every artifact byte-identical in both
				   arms: 1 passed unmeasured, 2 measured
				   anyway (--measure-identical) */
};

struct layout;

struct measure_opts {
	const char *dir[2];	/* each arm's checkout, by enum arm */
	struct layout *layout;	/* padding and scratch per sample, or NULL */
	gsl_rng *order_rng;	/* draws the pair order */
	double grace;		/* SIGTERM to SIGKILL on timeout, seconds */
	int quiet;		/* no progress lines on stderr */
	/* after each pair, both samples reaped: outside any timed interval */
	void (*on_pair)(void *arg, const struct bench_run *br, size_t done,
			size_t total);
	void *on_pair_arg;
};

const char *arm_name(enum arm a);
/* The value of metric m in sample s (NAN when it was not measured). */
double sample_value(const struct sample *s, enum metric m);
/*
 * The resolution of metric m's clock, in seconds: clock_getres of the
 * monotonic clock for wall, 1 us (what wait4 reports) for cpu.
 */
double measure_resolution(enum metric m);
/* Gate's rule: v is usable when finite and at least 100 x resolution
 * (quantisation error at most 1%). */
int measure_resolvable(double v, double resolution);
/*
 * Before checkouts and builds: choose br->cfg's instruction counter backend
 * and find the allocation library, as its metrics need. Returns 0, or -1
 * after one error() saying what is missing and how to get it.
 */
int measure_prepare(struct bench_run *br);
/* The same, its message in *err (error_to) when err is not NULL. */
int measure_prepare_to(struct bench_run *br, struct gate_err *err);
/* 1 when br's samples include a run under valgrind (instructions counted
   by valgrind, or "cycles"). */
int measure_valgrind(const struct bench_run *br);
/*
 * 1 when br's samples have a plain run and every metric is a count of
 * the program's own work (instructions, cycles, the allocation counts):
 * nothing timed is gated, so its plain runs may run both arms at once as
 * its runs under valgrind do. rusage metrics are not (context switches
 * and faults follow the load), nor a suite's cases (times).
 */
int measure_counts_only(const struct bench_run *br);
/* How samples are taken, for the report ("one run per sample", ...). */
const char *measure_scheme(const struct bench_run *br, char *buf,
			   size_t size);
/*
 * Fill order[0..n) with 1 (head first) or 0 (base first): floor(n/2) of
 * each, the odd one out drawn at random, shuffled with rng.
 */
void measure_order(int *order, size_t n, gsl_rng *rng);
/* What measuring br came to. */
enum measured {
	MEASURE_ERROR = -1,	/* not measured: br->error says why */
	MEASURED = 0,
	MEASURE_INTERRUPTED = 1	/* gate was: signals_pending() names it */
};

/*
 * Measure br->cfg (after measure_prepare) up to `total` pairs: warm-ups
 * first when it has none yet, then the missing pairs in a balanced order
 * of their own, each sample one uninstrumented run (timings, rusage, perf
 * counts, allocations) and/or, in the first counted_pairs pairs, one run
 * under valgrind for the instruction count; the pairs a later call adds
 * are all counted when the counts so far vary (or when valgrind is the
 * only run), so a varying count is decided on every pair it needs. Adds
 * the time taken to br->seconds. Returns MEASURED, MEASURE_ERROR with
 * br->error set when it could not be, or MEASURE_INTERRUPTED when gate was
 * (signals_pending() names the signal).
 */
enum measured measure_bench(struct bench_run *br,
			    const struct measure_opts *opt, unsigned total);
/*
 * Seconds br's next `more` pairs should take, from its own: the plain
 * runs' time per pair for each, and the runs under valgrind's time per
 * counted pair for those measure_bench will count (every one once the
 * counts vary, or when valgrind is the only run; else those of the first
 * counted_pairs still to come). 0 before any pair.
 */
double measure_pairs_cost(const struct bench_run *br, unsigned more);
/* 1 when br needs pairs taken to reach total (not a suite case, which
   ran with its suite, and not failed). */
int measure_pending(const struct bench_run *br, unsigned total);
/*
 * Bring br to total pairs as measure_bench does, when pending: MEASURED
 * (a suite case or a benchmark already there, with at least 2 pairs),
 * MEASURE_ERROR (br->error says why, or too few pairs) or
 * MEASURE_INTERRUPTED.
 */
enum measured measure_grow(struct bench_run *br,
			   const struct measure_opts *opt, unsigned total);
void bench_run_release(struct bench_run *br);

#endif
