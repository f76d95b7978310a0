/*
 * A suite's noisy case against the suite's other cases: its change in each
 * pair less the median change of the cases the same pair of processes
 * measured, and the signed-rank interval of that at the case's own level.
 * A note beside the verdict, never a verdict.
 */
#ifndef GATE_RELATIVE_H
#define GATE_RELATIVE_H

#include "gate/decide/model.h"

/*
 * Notes each noisy case of a suite of 3 or more compared cases whose
 * relative interval shows a regression of the floor against the others,
 * or excludes pass_excludes against them. A machine that slows a whole
 * process slows every case it measured alike, so the relative figure is
 * free of it; a change that slowed every case alike, or sped up the
 * others, reads differently in it, which is why it never decides.
 */
void run_note_relative(struct run_report *r);

#endif
