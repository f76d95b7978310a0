/*
 * gate run's options: what the user typed (gate/cmd/run-options.c parses
 * it), read by the pipeline in gate/cmd/run.c.
 */
#ifndef GATE_CMD_RUN_H
#define GATE_CMD_RUN_H

#include "gate/config/options.h"
#include "gate/decide/plan.h"

struct progress;

struct run_opts {
	const char *base, *head, *config, *json;
	const char *markdown, *html, *color;	/* reports and --color */
	int verbose, github;
	struct progress *prog;
	unsigned long seed;
	int have_seed, advisory, quiet;
	int fixed_arms, no_env_pad, no_scratch;
	int list;		/* --list: print the plan, run nothing */
	int measure_identical;	/* measure identical builds anyway */
	const char *pin;
	struct plan_overrides ov;	/* --pairs, --warmup, --budget,
					   --strict, --filter */
};

/*
 * Parse gate run's argv into o (zeroed first by the caller): OPTS_GO,
 * OPTS_HELP after --help was printed, or OPTS_ERROR after a usage error
 * was printed.
 */
enum opts_result run_parse_options(struct run_opts *o, int argc,
				   char **argv);

struct run_report;
struct workspace;
struct suite_owned;
/*
 * Measure and decide every benchmark of r in the built workspace w
 * (run-measure.c): suites first, then the looks, then the notes beside
 * the verdicts. Returns the exit code (128 + a signal when interrupted).
 */
int run_measure_all(struct run_report *r, struct plan *p,
		    struct workspace *w, const struct run_opts *o,
		    struct suite_owned *own);

#endif
