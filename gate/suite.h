/*
 * Suites in gate run: after measuring, each suite benchmark fans out into
 * one compared benchmark per case ("suite/case"), keeping the pairing (one
 * process per sample gives each case one value per arm per pair).
 */
#ifndef GATE_SUITE_H
#define GATE_SUITE_H

#include <regex.h>
#include <stddef.h>

#include "gate/exec/runner.h"
#include "gate/format/format.h"
#include "gate/measure.h"
#include "gate/run.h"

/* One case of a suite: its value in each pair and arm, after reduction. */
struct suite_case {
	char *name, *unit;
	int higher_better;
	int in[2];		/* present in that arm's output */
	double *v[2];		/* [pair], by enum arm */
	size_t vcap[2];
	size_t inner;		/* most values one process gave (repetitions) */
};

struct suite_data {
	struct suite_case *cases;
	size_t n, cap;
	size_t samples[2];	/* samples parsed per arm, warm-ups in */
	long procs[2];		/* go: GOMAXPROCS each arm's names carried
				   ("-8", dropped from them), 0: none */
	/* a round of more pairs: only these cases must be printed (NULL:
	   every case of the manifest) */
	const char *const *want;
	size_t nwant;
};

struct suite_shard_owned;

/* The per-case configurations fan-out creates, and what they own. */
struct suite_owned {
	struct suite_derived **d;
	size_t n, cap;
	struct bench_run *suites;	/* the fanned-out suites, kept for
					   their rounds of more pairs */
	size_t nsuites, suites_cap;
	/* gate run --shard: each split suite's cases dealt to this shard,
	   the only ones fan-out keeps (borrowed), or NULL */
	const struct suite_shard_owned *shard;
};
#define SUITE_OWNED_INIT { NULL, 0, 0, NULL, 0, 0, NULL }

/*
 * Replace every measured suite in the entries runs[0..*n) by its cases: those in both
 * arms compared, those only in head new, only in base removed; in a shard
 * (own->shard) only the cases dealt to it, whatever the harness printed. filter
 * (POSIX ERE, or NULL) keeps matching cases; each "expect" pattern must
 * match a case head printed. A suite that fails these stays one row with
 * its error set. *runs is reallocated; released runs are freed; own keeps
 * the new configurations alive. Returns 0, or -1 when filter is invalid.
 */
int suite_fanout(struct run_bench **runs, size_t *n, struct suite_owned *own,
		 const char *filter);
/*
 * 1 when a suite of cfg's format gets rounds of more pairs for its
 * unresolved cases (so "max_pairs" and --budget reach them), re-running
 * through its harness's filter: gbench's --benchmark_filter, go's -bench,
 * pytest's -k (through PYTEST_ADDOPTS), the GATE_FILTER of the lines
 * protocol and of a hyperfine wrapper (one that ignores it runs every
 * case again; only the unresolved take the pairs). 0: each case has one
 * look (no suite format today).
 */
int suite_can_filter(const struct bench_cfg *cfg);
/*
 * The harness's filter for the cases names[0..n), into out (a copy of
 * cfg with its command changed; free with suite_filter_release):
 * gbench: --benchmark_filter=^(a|b)$; gotest: -bench=^(A|B)$ (-test.bench
 * for a test binary) anchored at the top-level names, sub-benchmarks
 * included; lines and hyperfine: the environment variable
 * GATE_FILTER=^(a|b)$ (a POSIX extended regex); pytest: GATE_FILTER and
 * PYTEST_ADDOPTS="-k '(t.py and test_a) or ...'" before any of its own.
 * A shell command gets GATE_FILTER exported and the flag appended.
 */
void suite_filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		      const char *const *names, size_t n);
/*
 * The length of a go case's top-level benchmark name, the part go's -bench
 * filter selects: "BenchmarkX/sub" -> 10 ("BenchmarkX"), "BenchmarkX-8"
 * -> 10 (a -GOMAXPROCS suffix, which the reader drops from names unless
 * the output has several counts).
 */
size_t suite_go_top(const char *name);
/*
 * The same for a shard's share of a suite's cases (gate run --shard): a
 * later filter still wins (go's and gbench's flag last; the lines
 * protocol's GATE_FILTER when a round has already set it), so a round of
 * more pairs runs only its cases.
 */
void suite_shard_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		     const char *const *names, size_t n);
void suite_filter_release(struct bench_cfg *out);
struct measure_opts;
struct gate_err;
/*
 * A round of more pairs for suite case i of r, to total: the suite re-runs
 * with its harness's filter on the unresolved cases of the suite at case
 * i's look (they share its schedule), and each gets the new pairs:
 * MEASURED, MEASURE_ERROR (the cases' error set) or MEASURE_INTERRUPTED.
 */
enum measured suite_grow(struct run_report *r, size_t i, unsigned total,
			 struct suite_owned *own,
			 const struct measure_opts *opt);
/*
 * Raise suite case br's pairs to need (its first look then re-runs the
 * suite through its filter for the missing pairs): 1 when raised, 0 when
 * its harness cannot filter.
 */
int suite_raise_pairs(struct bench_run *br, unsigned need);
/* Compile --filter into rx (regfree it); 0, or -1 after error_to(err). */
int suite_filter_compile(regex_t *rx, const char *filter,
			 struct gate_err *err);
/* The case of sd named name with unit unit, or NULL. */
struct suite_case *suite_case_find(struct suite_data *sd, const char *name,
				   const char *unit);
void suite_owned_release(struct suite_owned *own);
/*
 * 1 when unit, printed by a suite of format f beside a case's time,
 * restates that time as a throughput (gbench's items/s and B/s, go's
 * MB/s): shown beside the case, never decided apart from it.
 */
int suite_restates_time(enum format f, const char *unit);
/* Which time a suite case reports: "cpu_time", "real_time", "as printed". */
const char *suite_time(const struct bench_run *br);
/* "median of 5 repetitions per process" or "1 value per process". */
const char *suite_reduction(const struct bench_run *br, char *buf,
			    size_t size);

/*
 * Parse a suite sample's stdout (res) into br->suite and check it against
 * the arm's manifest (the case list of its first sample): every case in
 * every sample, no case added. pair is the pair index, or -1 for a warm-up
 * (values not kept). 0, or -1 with br->error set.
 */
int suite_parse_sample(struct bench_run *br, enum arm a, const char *label,
		       const struct run_result *res, long pair);

#endif
