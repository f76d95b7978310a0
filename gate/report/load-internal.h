/*
 * The loader's parts (private to gate/report/load.c and load-run.c): the
 * state of one load, and reading values out of cJSON with their defaults
 * and bounds. load.c reads a benchmark, load-run.c the report around it.
 */
#ifndef GATE_REPORT_LOAD_INTERNAL_H
#define GATE_REPORT_LOAD_INTERNAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "gate/exec/layout.h"
#include "gate/decide/model.h"

/* What the model borrows, owned here: configs, strings, the layout. */
struct report_loaded {
	struct bench_cfg *cfg;	/* one per entry of the report */
	size_t ncfg;
	char **str;
	size_t nstr, capstr;
	struct layout layout;
};

/* The context of one load, for messages. */
struct loading {
	const char *origin;
	struct gate_err *err;	/* NULL: messages are printed */
	struct report_loaded *L;
	int failed;
	int slot;		/* the suite value the metric read is, or -1 */
	unsigned flags;		/* REPORT_LOAD_* */
};

/* A copy of s (not NULL), owned by L. */
const char *load_keep(struct report_loaded *L, const char *s);
/* size zeroed bytes, owned with the strings. */
void *load_keep_mem(struct report_loaded *L, size_t size);
/* o's member k, or NULL. */
const cJSON *load_get(const cJSON *o, const char *k);
/* A number; null (JSON's NaN) and absent give def. */
double load_num(const cJSON *o, const char *k, double def);
/* A JSON true. */
int load_flag(const cJSON *o, const char *k);
/* A string, or NULL. */
const char *load_text(const cJSON *o, const char *k);
/* A whole number within [lo, hi], else def. */
long load_whole(const cJSON *o, const char *k, long def, long lo, long hi);
/* A count: a positive whole number below 1e18, else 0. */
size_t load_count(const cJSON *o, const char *k);

/* s's index among the n names at(0..n) gives; def when s is NULL, or def
   after an error naming what when it is none of them. */
int load_name(struct loading *ld, const char *s, int n, int def,
	      const char *what, const char *(*at)(int));
/* The names of enum value i, for load_name. */
const char *metric_at(int i);
const char *verdict_at(int i);
const char *stop_at(int i);
const char *counter_at(int i);
const char *format_at(int i);
const char *rule_at(int i);
const char *interval_at(int i);
const char *statistic_at(int i);
/* A verdict's name: its value, def when absent, or def after an error. */
enum verdict load_verdict(struct loading *ld, const char *s, enum verdict def);
/* One benchmark entry o of the report into b, with its config c. */
int load_bench(struct loading *ld, struct run_bench *b, struct bench_cfg *c,
	       const cJSON *o);
/* b's per-pair ratios computed again from its samples. */
void load_ratios(struct run_bench *b, const struct run_report *r);
/* "protocol": seed, levels, shards, conditions. */
void load_protocol(struct loading *ld, struct run_report *r, const cJSON *p);

#endif
