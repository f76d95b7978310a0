/*
 * The one clock gate measures with: CLOCK_MONOTONIC in seconds (samples'
 * wall times, budgets, progress, time spent).
 */
#ifndef COMMON_CLOCK_H
#define COMMON_CLOCK_H

/* Seconds on the monotonic clock, from an arbitrary start. */
double clock_seconds(void);

#endif
