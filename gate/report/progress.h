/*
 * Progress of a run on stderr: on a terminal a redrawn line (the
 * benchmark's place in this round, pair i of n with a bar, the whole
 * run's elapsed time and what is left of it) never wider than the
 * terminal; one line per benchmark in a pipe or GitHub Actions. -v adds
 * one line per pair.
 */
#ifndef GATE_PROGRESS_H
#define GATE_PROGRESS_H

#include <stdio.h>

#include "gate/measure/measure.h"
#include "gate/decide/model.h"

enum progress_mode { PROGRESS_OFF, PROGRESS_TTY, PROGRESS_LINES };

/*
 * What the run still measures after the pairs being measured now, in two
 * bounds: lo when every benchmark is decided at its next look, hi when each
 * takes every look it still may (to max_pairs). Pairs of benchmarks with
 * no pair measured yet are counted in pairs, priced at the current
 * benchmark's rate when drawn; the others in seconds at their own rate.
 * The budget caps both.
 */
struct progress_left {
	double lo_seconds, hi_seconds;
	double lo_pairs, hi_pairs;
	double budget_end;	/* clock_seconds() when the budget is spent;
				   INFINITY without one */
};

struct progress {
	FILE *out;
	enum progress_mode mode;
	int verbose;
	int color;
	size_t index, count;	/* the benchmark's place (1-based) among
				   the count measured this round */
	double start;		/* of the current benchmark, monotonic */
	double run_start;	/* of the run (progress_init) */
	double last_draw;	/* when the line was last redrawn */
	int drawn;		/* a redrawable line is on the terminal */
	size_t done0;		/* pairs the benchmark had before this
				   round: the rate is of this round's */
	int have_done0;
	struct progress_left left;	/* progress_set_left */
};

/*
 * Choose the mode: off when quiet; a redrawn line when out is a terminal;
 * else lines (a pipe, a file, Actions' log: nothing redraws there).
 * verbose adds per-pair lines in any mode but quiet.
 */
void progress_init(struct progress *p, FILE *out, int quiet, int verbose,
		   int github);
/* A benchmark starts: index (0-based) of count, as the line shows them. */
void progress_bench_start(struct progress *p, size_t index, size_t count);
/* What is left after the benchmark being measured (set before it starts;
   none until set). */
void progress_set_left(struct progress *p, const struct progress_left *l);
/* measure_opts.on_pair: called after each pair is reaped, never inside. */
void progress_pair(void *arg, const struct bench_run *br, size_t done,
		   size_t total);
/* After a benchmark's verdict: erase the line, or print one line. */
void progress_bench_end(struct progress *p, const struct run_bench *b);
/* Erase a drawn line before other output. */
void progress_clear(struct progress *p);

#endif
