/*
 * The model of one run: what was planned, measured and decided, per
 * benchmark in one array. The deciding code fills it; the report view and
 * the JSON report read it (gate/report/), and report_load reads it back.
 */
#ifndef GATE_MODEL_H
#define GATE_MODEL_H

#include <stddef.h>

#include "gate/exec/layout.h"
#include "gate/exec/sysinfo.h"
#include "gate/measure/measure.h"
#include "gate/decide/verdict.h"

/* One revision as the run saw it (strings borrowed from the workspace). */
struct report_rev {
	const char *label;	/* what the user asked for */
	const char *commit;	/* commit id ("" when none) */
	const char *tree;
	const char *how;	/* how it was chosen, or NULL */
	int worktree, dirty;
};

/*
 * One benchmark (or suite case) of the run: its plan (run.cfg), its
 * samples (run.pairs, owned by run) and its decision (result, every
 * metric; run_bench_primary names the one quoted for it).
 */
struct run_bench {
	struct bench_run run;
	struct bench_result result;
	size_t looks;		/* looks at its pairs so far */
	enum stop_reason stop;	/* why it stopped (STOP_NONE: it has not) */
	char *note;		/* heuristics (load, calibration), owned:
				   said beside the verdict, never changing it */
	long procs;		/* a go suite's case: the GOMAXPROCS of the
				   "-N" suffix dropped from its name (the CPU
				   count it ran at), 0: none (suite_fanout) */
};

struct report_loaded;

/* A suite whose cases gate run --shard split over the shards. */
struct run_split {
	const char *suite;	/* its name */
	size_t cases;		/* compared cases, in every shard together */
};

struct run_report {
	const char *command;	/* "compare": gate compare's two files, each
				   case unpaired (rev: the files; seed, looks
				   and machine unused); NULL: gate run's */
	const char *note;	/* said once for the whole report (gate
				   compare's values of one process), or
				   NULL */
	size_t one_process;	/* gate compare: times left noisy, their
				   values repetitions inside one process */
	struct report_rev rev[2];	/* by enum arm */
	const char *config_origin;
	const char *config_note;	/* static: how the config served both
					   arms, or NULL */
	/* where the time went, seconds (0: not reached) */
	double build_seconds[2];	/* each arm's build, by enum arm (the
					   two run at once) */
	double measure_seconds;	/* warm-ups, pairs and looks */
	double total_seconds;	/* the whole run, to the report */
	const char *policy;	/* which config decides, one sentence */
	const char *isolation;	/* how the arms were sealed, one line
				   (workspace_isolation), or NULL */
	char isolation_buf[256];
	const char *const *policy_diff;	/* every difference of head's
					   config from base's (borrowed) */
	size_t npolicy_diff;
	struct verdict_accept *accept;	/* Gate-Accept trailers of
					   base..head, newest first
					   (borrowed; adaptive_finish marks
					   the ones that match) */
	size_t naccept;
	unsigned long seed;
	double confidence;	/* suite-wide */
	double level;		/* per benchmark after Bonferroni */
	size_t compared;	/* gating metrics the adjustment covers */
	/* gate run --shard I/N: this run is shard I of N (0: not sharded);
	   elsewhere: the comparisons of the other shards, in compared */
	unsigned shard, nshards;
	size_t elsewhere;
	/* the suites split by case over the shards, each with its compared
	   cases in every shard together (gate merge checks them) */
	const struct run_split *split;
	size_t nsplit;
	const char *config_hash;	/* the plan's fingerprint (plan.h),
					   or NULL */
	unsigned resamples;
	struct machine machine;
	struct run_bench *b;	/* every benchmark and suite case */
	size_t n;
	enum verdict suite;	/* decided once, by adaptive_finish */
	int advisory;
	int strict;		/* --strict */
	double budget;		/* --budget seconds, 0: none */
	int exit_code;
	int interrupted;	/* the signal, or 0 */
	/* measuring conditions shared by both arms (gate/exec/layout.h) */
	const char *arm_dir[2];	/* each arm's checkout, by enum arm */
	int arms_random;	/* 1: which directory holds base was drawn;
				   2: kept from earlier builds of the trees */
	int arms_swapped;	/* 1: base in b, head in a */
	struct layout *layout;	/* padding and scratch, or NULL */
	const char *pin;	/* --pin CPUS, or NULL */
	const char *pin_warning;
	const char *error;	/* a run-level error (build failure), or NULL */
	int color;		/* report_term: ANSI colours */
	const char *gate_version;	/* a loaded report's, or NULL: this
					   gate's (GATE_VERSION) */
	struct report_loaded *loaded;	/* what report_load allocated (its
					   configs and strings), or NULL */
};

/* n zeroed entries in r->b (replacing none: r->b must be NULL). */
void run_alloc(struct run_report *r, size_t n);
/* Free every entry's samples, decision and note, and r->b itself. */
void run_release(struct run_report *r);
/*
 * b's first gating metric, whose figures stand for the benchmark where
 * one metric is quoted (its verdict is the metric's: the benchmark's is
 * b->result.verdict), or NULL while it has none.
 */
const struct bench_stats *run_bench_primary(const struct run_bench *b);
/* Append why to b's note ("; " between notes). */
void run_bench_note(struct run_bench *b, const char *why);

/*
 * Heuristics are notes, never verdicts: the paired random order already
 * keeps the comparison fair under changing load, and noise already widens
 * the interval. A sharp rise in load beyond what the benchmarks' own
 * processes explain is noted beside each compared benchmark's verdict.
 */
void run_note_load(struct run_report *r);

/*
 * A machine that slows whole processes: a suite's cases run in one
 * process, so a sample in which most of them ran 1.3 times slower or more
 * at once, against their arm's medians, was slowed by something outside
 * the code (another tenant of the host, a migration, the clock). Counted
 * over the pairs every case took (the first look: the same processes),
 * and noted beside the suite's noisy cases when one sample in ten or more
 * was such a one, with the count per arm. Head's change shifts head's
 * medians, not one sample against the others, so a uniform regression is
 * never counted; the verdict stands either way.
 */
void run_note_slow_processes(struct run_report *r);

/*
 * The measured, compared cases of the suite whose first such case is
 * r->b[i], as indices into idx (room for r->n): their number, or 0 when
 * r->b[i] is none or not its suite's first (so that a walk over i takes
 * each suite once).
 */
size_t run_suite_cases(const struct run_report *r, size_t i, size_t *idx);

/*
 * A benchmark that runs for a fixed time (zstd -b, a "run for 3 s" loop)
 * hides any change from wall-clock timing. Noted, never a verdict, when
 * both arms' wall times stay the same (within 2%) while their CPU time
 * (10%) or instruction counts (5%) differ, the same way in nearly every
 * pair (sign test p <= 0.01), or when the wall time sits at a
 * round number of seconds with far less spread (a fifth) than the CPU
 * time, or the CPU time at one with far less spread than the wall time.
 * Suites (their own figures) are left alone.
 */
void run_note_fixed_time(struct run_report *r);
/*
 * run_note_fixed_time's test on one benchmark's pairs: why it may run for
 * a fixed time (a sentence in why, at most size bytes) and 1, else 0.
 * gate calibrate asks it too: its A/A arms differ in nothing, so only
 * the round-number tests can fire there.
 */
int run_fixed_time(const struct bench_run *br, char *why, size_t size);

#endif
