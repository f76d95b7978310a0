/*
 * Reports of one run: the terminal table for people and the versioned JSON
 * report for machines. Both disclose the protocol (revisions, pairs, order
 * and seed, interval method and level, floor, parity, environment).
 */
#ifndef GATE_REPORT_H
#define GATE_REPORT_H

#include <stdio.h>

#include "gate/layout.h"
#include "gate/measure.h"
#include "gate/sysinfo.h"
#include "gate/verdict.h"

#define REPORT_SCHEMA 1

struct report_rev {
	const char *label;	/* what the user asked for */
	const char *commit;	/* commit id ("" when none) */
	const char *tree;
	const char *how;	/* how it was chosen, or NULL */
	int worktree, dirty;
};

struct run_report {
	struct report_rev rev[2];	/* by enum arm */
	const char *config_origin;
	unsigned long seed;
	double confidence;	/* suite-wide */
	double level;		/* per benchmark after Bonferroni */
	size_t compared;	/* benchmarks the adjustment covers */
	unsigned resamples;
	struct machine machine;
	struct bench_run *runs;
	struct bench_stats *stats;
	size_t n;
	enum verdict suite;
	int advisory;
	int exit_code;
	int interrupted;	/* the signal, or 0 */
	/* measuring conditions shared by both arms (gate/layout.h) */
	const char *arm_dir[2];	/* each arm's checkout, by enum arm */
	int arms_random;	/* 1: which directory holds base was drawn */
	int arms_swapped;	/* 1: base in b, head in a */
	struct layout *layout;	/* padding and scratch, or NULL */
	const char *pin;	/* --pin CPUS, or NULL */
	const char *pin_warning;
	const char *error;	/* a run-level error (build failure), or NULL */
};

/* "101.2 ms", "1.234 s", "850 us": a duration for people. */
const char *format_seconds(double s, char *buf, size_t size);
/* The terminal table, suite verdict line and protocol disclosure. */
void report_term(FILE *out, const struct run_report *r);
/* Write the JSON report to path ("-" for stdout). Returns 0 or -1. */
int report_json(const char *path, const struct run_report *r);

#endif
