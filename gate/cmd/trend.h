/*
 * gate trend's shared types: one chain of ratios per benchmark along the
 * recorded history, with its change points. The command (gate/cmd/trend.c)
 * builds them and prints the terminal's lines; gate/cmd/trend-report.c
 * writes them as JSON and HTML.
 */
#ifndef GATE_CMD_TREND_H
#define GATE_CMD_TREND_H

#include <stddef.h>

#include "gate/report/history.h"
#include "stats/changepoint.h"
#include "stats/stats.h"

/* One benchmark's chain. */
struct chain {
	const char *name, *metric, *unit;
	double floor;
	size_t n;		/* steps with this benchmark */
	size_t lcap;		/* room in l */
	struct link {
		const struct history_step *st;
		const struct run_bench *b;
		const struct bench_stats *f;	/* its figures */
		const char *verdict;
		int identical;	/* an identical build passed unmeasured:
				   a step of exactly no change */
		double cum, low, high;	/* cumulative ratio and interval */
	} *l;
	int failed, noisy, creep;
	/* the creep test: the mean of the records' paired log-ratios
	   against 0 (stats_steps), when there are at least
	   TREND_MIN_RECORDS; else the cumulative interval decides creep */
	int trend_tested;
	struct stats_trend trend;
	double trend_alpha;	/* its one-sided alpha, corrected over the
				   benchmarks tested */
	int creep_chain, creep_trend;	/* which test flagged creep */
	/* change points: records with samples (the groups), the points */
	size_t cp_records;
	int cp_sought;		/* 1 when enough records carried samples */
	struct stats_changepoint *cp;
	size_t ncp;
	size_t *cp_link;	/* cp_link[g]: the link of group g */
};

/* e-divisive's settings: records per segment at least, permutations,
   significance, the seed the generator is derived from, and the samples
   a record needs to count */
#define CP_MIN_RECORDS 3
#define CP_PERMUTATIONS 999
#define CP_SIG 0.01
#define CP_SEED 20261130UL
#define CP_MIN_SAMPLES 3
/* records with a step the steps' test needs (else the cumulative
   interval decides) */
#define TREND_MIN_RECORDS 5

/* The link where change point i's new level starts. */
const struct link *trend_cp_at(const struct chain *c, size_t i);
/* The first and last links where change point i's new level may start
   (its location range, stats_changepoint lo and hi). */
const struct link *trend_cp_first(const struct chain *c, size_t i);
const struct link *trend_cp_last(const struct chain *c, size_t i);
/* Whether change point i is likely the machine's, not the code's. */
int trend_cp_machine(const struct chain *c, size_t i);
/* The shift at change point i: "+10.0%". */
void trend_cp_shift(char *buf, size_t size, const struct chain *c, size_t i);
/* A ratio as a percentage change, "+1.2%", or "?" when unknown. */
void trend_pct(char *buf, size_t size, double ratio);

/* The trend as JSON, or an HTML page of one chart per benchmark, to path
   ('-': stdout). 0 or -1 after an error. */
int trend_write_json(const char *path, const struct history *h,
		     const struct chain *c, size_t nc, double confidence,
		     const char *range);
int trend_write_html(const char *path, const struct history *h,
		     const struct chain *c, size_t nc, double confidence);

#endif
