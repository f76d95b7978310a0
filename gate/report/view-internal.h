/*
 * Between the view's files (gate/report/view*.c), not for printers.
 */
#ifndef GATE_REPORT_VIEW_INTERNAL_H
#define GATE_REPORT_VIEW_INTERNAL_H

#include "gate/report/view.h"

/* Every protocol line of r into v (view-protocol.c). */
/* the values view_severity gives, 0 (fail) to 5 (pass) */
#define NSEVERITY 6

void view_protocol_build(struct report_view *v, const struct run_report *r);

/* gate/report/view-row.c: one row's figures, and what the rows share with
   the rest of the view */
/* a median in the metric's unit (or a suite case's) into buf; buf */
const char *view_arm_value(const struct bench_cfg *c, enum metric m,
			   double v, char *buf, size_t size);
/* name, or a copy cut to VIEW_NAME_MAX bytes into *owned (freed by the
   caller) */
const char *view_bounded_name(const char *name, char **owned);
/* a noisy row's "to decide" estimate: the pairs and time its spread needs */
void view_decide_estimate(struct view_row *row, const struct bench_run *br,
			  const struct bench_stats *st, double level);

#endif
