/*
 * A suite split by its cases over the shards of gate run --shard I/N: a
 * listing run of the harness in each arm names the cases (one iteration
 * of each benchmark: gbench's --benchmark_min_time=0, go's
 * -test.benchtime=1x; the lines protocol's GATE_LIST=1: the row's list
 * hook), the cases are dealt over the shards in byte order (in
 * turn, from the shard a hash of the suite's name picks: balanced within
 * one, and a case keeps its shard while the set of names does), and the
 * shard measures only its cases through the harness's own filter, at the
 * level of every shard's cases together.
 */
#ifndef GATE_SUITE_SHARD_H
#define GATE_SUITE_SHARD_H

#include <stddef.h>
#include <stdio.h>

#include "gate/config/config.h"
#include "gate/decide/model.h"

/* 1 when a suite of cfg's format can list its cases (and so be split). */
int suite_can_list(const struct bench_cfg *cfg);
/*
 * The cases a listing run of cfg's harness prints in directory dir (arm
 * names it in messages), into *names, each with its comparisons in
 * *weights (*n of them, unique, in the order printed; free with
 * suite_names_release): gbench's and go's one iteration of each
 * benchmark, and lines printed as results, count a case's time and its
 * further units as its comparisons will (a throughput restating the time
 * none, counts one in all beside no time); a lines listing of names alone
 * one a case. 0, or -1 after error_to(err, ...).
 */
int suite_list_cases(char ***names, unsigned **weights, size_t *n,
		     const struct bench_cfg *cfg, const char *dir,
		     const char *arm, struct gate_err *err);
void suite_names_release(char **names, unsigned *weights, size_t n);
/* Whether names[0..n) holds s (len bytes, not NUL-ended). */
int suite_names_have(char *const *names, size_t n, const char *s,
		     size_t len);

/* One split suite's cases dealt to this shard (what it keeps). */
struct suite_shard_cases {
	const char *suite;	/* the suite's name (the plan's) */
	size_t (*group)(const char *name);	/* the format's: cases
				   dealt by the part of the name its filter
				   selects (go's top-level benchmark, with its
				   sub-benchmarks), or NULL */
	char **names;		/* owned, n of them */
	size_t n;
};

/* What splitting allocated: the shards' commands, the split list. */
struct suite_shard_owned {
	struct bench_cfg *cfg;	/* one per split suite, its command
				   filtered to this shard's cases */
	size_t n;
	struct run_split *split;
	size_t nsplit;
	struct suite_shard_cases *mine;	/* per split suite measured here */
	size_t nmine;
};
#define SUITE_SHARD_OWNED_INIT { 0 }

/*
 * 1 when case name of suite is this shard's (or suite is not split): a
 * harness that prints more than its filter asked for (a lines suite
 * ignoring GATE_FILTER) still leaves the other shards' cases to them.
 */
int suite_shard_keeps(const struct suite_shard_owned *own,
		      const char *suite, const char *name);

void suite_shard_release(struct suite_shard_owned *own);

#endif
