/*
 * The plan of a run: every benchmark of gate.json with the command line's
 * overrides applied (--pairs, --warmup, --budget, --strict, --filter),
 * fixed before anything runs; the config itself is never changed. Once
 * suites have printed their cases, plan_pairs raises the pairs of the
 * benchmarks whose first look could give no interval.
 */
#ifndef GATE_PLAN_H
#define GATE_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "gate/config/config.h"
#include "gate/decide/model.h"

/* What the command line overrides; -1 or 0: gate.json's. */
struct plan_overrides {
	long pairs, warmup;	/* -1: gate.json's */
	double budget;		/* seconds; 0: gate.json's */
	int strict;		/* --strict */
	const char *filter;	/* --filter REGEX, or NULL */
	int policy_head;	/* --policy head: head's decision keys */
	unsigned shard, nshards;	/* --shard I/N (1-based); 0: all */
};
#define PLAN_OVERRIDES_INIT { .pairs = -1, .warmup = -1 }

struct plan {
	struct bench_cfg *bench;	/* copies of cfg's benchmarks with the
					   overrides (strings borrowed from
					   the config, which must outlive
					   the plan) */
	size_t n;
	double budget;		/* measuring seconds for the whole run */
	int strict;
	const char *filter;	/* checked: a valid POSIX ERE, or NULL */
	double confidence;	/* suite-wide, from the policy's config */
	char *policy;		/* which config decides, one sentence (owned) */
	char **diff;		/* every difference between base's and
				   head's config, one sentence each (owned) */
	size_t ndiff;
	unsigned shard, nshards;	/* --shard I/N; 0: not sharded */
	size_t elsewhere;	/* comparisons of the other shards' plain
				   benchmarks (their suites' cases are
				   known only to the shard that runs them) */
	char hash[17];		/* the whole plan's (every shard's) decision
				   and command keys, 16 hex digits */
	unsigned char *split;	/* --shard: per benchmark, 1 for a suite
				   kept in every shard and split by its
				   cases (suite-shard.h); owned, or NULL */
	struct config eff;	/* head's config with base's top-level and
				   suite-wide policy keys: a shallow copy,
				   never released (its strings are the
				   configs'); read, never parse into it */
	const struct bench_cfg **removed;	/* base declares, head
				   does not: each a fail unless accepted
				   (base's config's; the array owned) */
	size_t nremoved;
	size_t diff_cap, removed_cap;	/* capacities (XGROW) */
};
#define PLAN_INIT { .eff = CONFIG_INIT }

/*
 * The plan of cfg with o applied. --filter is compiled now, so a bad
 * pattern costs no run. Returns 0, or -1 after error_to(err, ...).
 *
 * The policy: base's config (NULL: none, and no_base is the sentence
 * saying what decides instead) decides the decision keys of every benchmark
 * it declares: floors (min_effect), pass_excludes, gate (the gating
 * metrics), rule and max_pairs, and the suite's confidence, so a pull
 * request cannot loosen its own gate. cfg (head's) says how to build and
 * run, and declares new benchmarks. Every difference is one sentence in
 * p->diff ("head raises the floor of `parse` from 5% to 50%: base's
 * floor is used"), a benchmark only base declares among them; with
 * o->policy_head they are listed and head's keys are used.
 */
int plan_make(struct plan *p, const struct config *cfg,
	      const struct config *base, const char *no_base,
	      const struct plan_overrides *o, struct gate_err *err);
/*
 * --shard I/N, after the policy: p keeps only shard I's benchmarks. The
 * whole plan's names are sorted and dealt round-robin (the k-th name in
 * byte order goes to shard k mod N + 1): balanced within one, and stable
 * while the set of names is. A suite whose harness lists its cases
 * (suite_can_list) and that base declares stays in every shard, marked in
 * p->split: suite_shard splits it by case once both arms are built; any
 * other suite goes whole to one shard. Sets
 * p->hash (of the whole plan, so every shard of one config and command
 * line has the same) and p->elsewhere: the comparisons of the other
 * shards' plain benchmarks that base (NULL: none) also declares, so each
 * shard decides at the whole run's Bonferroni level. Call once, after
 * plan_make; a no-op (but the hash) when o is not sharded.
 */
void plan_shard(struct plan *p, const struct config *base,
		const struct plan_overrides *o);
/* "I/N" of --shard into *shard, *nshards (1 <= I <= N <= 256); 0 or -1
   after error(). */
int plan_parse_shard(unsigned *shard, unsigned *nshards, const char *s);
/* Shard k (1-based) of n that the benchmark name goes to among names. */
unsigned plan_shard_of(const char *name, const char *const *names, size_t n,
		       unsigned nshards);
/*
 * The plan-time minimum, once the comparisons are known (suites have
 * printed their cases): a benchmark of p whose first look could give no
 * interval at its share of alpha gets its pairs raised to the fewest that
 * can (r->b[i].run says from what); suite cases ran at their suite's
 * pairs already, so a warning says how many the suite needs.
 */
void plan_pairs(struct plan *p, struct run_report *r);
/*
 * gate run --list: the plan of p on out, running nothing: every benchmark
 * with its pairs (the minimum for an interval at the level too), warm-ups,
 * format, and every metric with its floor and whether it gates; the
 * level per comparison (Bonferroni at confidence over the benchmarks'
 * comparisons; a suite adds one per case, known once it has run, or
 * listed: suite_list_plan).
 */
void plan_print(FILE *out, const struct plan *p, double confidence);
/* The comparisons of p's plain benchmarks, the other shards' included. */
size_t plan_comparisons(const struct plan *p);
/* 1 when p has a suite whose harness lists its cases (suite-shard.h). */
int plan_lists(const struct plan *p);
void plan_release(struct plan *p);

#endif
