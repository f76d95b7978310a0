/*
 * Between the view's files (gate/report/view*.c), not for printers.
 */
#ifndef GATE_REPORT_VIEW_INTERNAL_H
#define GATE_REPORT_VIEW_INTERNAL_H

#include "gate/report/view.h"

/* Every protocol line of r into v (view-protocol.c). */
void view_protocol_build(struct report_view *v, const struct run_report *r);

#endif
