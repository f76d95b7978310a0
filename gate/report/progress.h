/*
 * Progress of a run on stderr: a redrawn line (benchmark, pair i of n,
 * elapsed, estimate left, the whole run's time) never wider than the
 * terminal; one line per benchmark in a pipe or GitHub Actions. -v adds
 * one line per pair.
 */
#ifndef GATE_PROGRESS_H
#define GATE_PROGRESS_H

#include <stdio.h>

#include "gate/measure.h"
#include "gate/verdict.h"

enum progress_mode { PROGRESS_OFF, PROGRESS_TTY, PROGRESS_LINES };

struct progress {
	FILE *out;
	enum progress_mode mode;
	int verbose;
	int color;
	size_t index, count;	/* benchmark index + 1 of count */
	double start;		/* of the current benchmark, monotonic */
	double run_start;	/* of the run (progress_init) */
	double last_draw;	/* when the line was last redrawn */
	int drawn;		/* a redrawable line is on the terminal */
	size_t done0;		/* pairs the benchmark had before this
				   round: the rate is of this round's */
	int have_done0;
};

/*
 * Choose the mode: off when quiet; a redrawn line when out is a terminal;
 * else lines (a pipe, a file, Actions' log: nothing redraws there).
 * verbose adds per-pair lines in any mode but quiet.
 */
void progress_init(struct progress *p, FILE *out, int quiet, int verbose,
		   int github);
void progress_bench_start(struct progress *p, size_t index, size_t count);
/* measure_opts.on_pair: called after each pair is reaped, never inside. */
void progress_pair(void *arg, const struct bench_run *br, size_t done,
		   size_t total);
/* After a benchmark's verdict: erase the line, or print one line. */
void progress_bench_end(struct progress *p, const struct bench_run *br,
			const struct bench_stats *st);
/* Erase a drawn line before other output. */
void progress_clear(struct progress *p);

#endif
