/*
 * The reason under a metric's verdict, decided by gate/decide/verdict.c and
 * worded here (private to gate/verdict*.c).
 */
#ifndef GATE_VERDICT_EXPLAIN_H
#define GATE_VERDICT_EXPLAIN_H

#include "gate/decide/verdict.h"

/* The statistic's name in a reason: "median", "Hodges-Lehmann", "mean-log". */
const char *verdict_stat_label(enum stats_estimator e);
/* The reason for st's verdict (malloc'd): its interval or exact counts,
   and why counts that vary were decided by the interval. */
char *verdict_explain(const struct bench_stats *st);

#endif
