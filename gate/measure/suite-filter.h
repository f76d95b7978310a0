/*
 * A suite's cases through its harness's own filter (suite-filter.c): which
 * formats can re-run some cases, and the command that does.
 */
#ifndef GATE_SUITE_FILTER_H
#define GATE_SUITE_FILTER_H

#include <stddef.h>

#include "gate/config/config.h"

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
 * gbench: --benchmark_filter=^(a|b)$; gotest: -bench (-test.bench for a
 * test binary) with suite_go_pattern; lines and hyperfine: the environment
 * variable GATE_FILTER=^(a|b)$ (a POSIX extended regex); pytest: GATE_FILTER and
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
 * go's -bench pattern selecting the cases names[0..n) (owned): top-level
 * names only, "^(A|B)$" (each once, sub-benchmarks included); with
 * sub-benchmarks, exactly those named, so a suite proposed for one size
 * of a benchmark never runs its other sizes at its N: "^A$/^(x|y)$" for
 * one level, alternatives of whole paths joined by a top-level "|" where
 * needed ("^A$/^(x)$|^B$", which go 1.19 and later read as either path).
 * A last element ending in "-N" also matches without it (a GOMAXPROCS
 * count the reader kept).
 */
char *suite_go_pattern(const char *const *names, size_t n);
/*
 * The same for a shard's share of a suite's cases (gate run --shard): a
 * later filter still wins (go's and gbench's flag last; the lines
 * protocol's GATE_FILTER when a round has already set it), so a round of
 * more pairs runs only its cases.
 */
void suite_shard_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		     const char *const *names, size_t n);
void suite_filter_release(struct bench_cfg *out);

#endif
