/*
 * What gate can measure per sample: a table of metric descriptors (name,
 * unit, exact or not, default floor, how it is sampled), so that config,
 * measurement, verdicts and reports all read one definition.
 */
#ifndef GATE_METRICS_H
#define GATE_METRICS_H

#include <stddef.h>

/* Every metric is a cost: a higher value in head is worse. */
enum metric {
	METRIC_WALL,
	METRIC_CPU,
	METRIC_INSTRUCTIONS,
	METRIC_CYCLES,		/* estimated from cachegrind's simulation */
	METRIC_ALLOCS,
	METRIC_ALLOC_BYTES,
	METRIC_FREES,
	METRIC_MAX_RSS,
	METRIC_MINOR_FAULTS,
	METRIC_MAJOR_FAULTS,
	METRIC_CTX_SWITCHES,
	METRIC_VALUE,		/* what a suite printed for a case (gate sets
				   it on a suite's per-case benchmarks) */
	METRIC_VALUE_1,		/* a case's further values: its counters */
	METRIC_VALUE_2, METRIC_VALUE_3, METRIC_VALUE_4, METRIC_VALUE_5,
	METRIC_VALUE_6, METRIC_VALUE_7,
	METRIC_COUNT
};

/* Values a suite case may carry: its time and up to 7 counters. */
#define METRIC_VALUES 8
/* 1 when m is one of a suite case's values (METRIC_VALUE + k). */
#define METRIC_IS_VALUE(m) ((unsigned)(m) - METRIC_VALUE < METRIC_VALUES)

/* How a metric's value is obtained for one sample. */
enum metric_source {
	SOURCE_CLOCK,		/* the runner's clock and wait4 times */
	SOURCE_RUSAGE,		/* wait4's rusage: the tree's reaped processes */
	SOURCE_COUNTER,		/* an instruction counter backend */
	SOURCE_CACHESIM,	/* cachegrind's cache simulation (valgrind) */
	SOURCE_ALLOC,		/* the libgate-alloc.so preload library */
	SOURCE_SUITE,		/* parsed from a suite's stdout */
};

struct metric_desc {
	const char *name;	/* as written in gate.json */
	const char *unit;	/* "s", "instructions", "KiB", ... */
	int exact;		/* a count that repeats exactly: decided exactly */
	double floor;		/* default min_effect */
	enum metric_source source;
	const char *what;	/* one line for --help and gate.json(5) */
};

/* Instruction counter backends ("counter" in gate.json). */
enum counter { COUNTER_AUTO, COUNTER_PERF, COUNTER_VALGRIND };

/*
 * Samples of an exact metric agree when (max - min) / max within an arm is
 * at most this; beyond it the count is said to vary and the interval
 * machinery decides instead.
 */
#define METRIC_EXACT_TOLERANCE 0.001
/*
 * The smallest floor of a count decided exactly: counts within the
 * tolerance are taken as exact, so identical code can show a ratio up to
 * 1 / (1 - tolerance); twice the tolerance is above that.
 */
#define METRIC_EXACT_MIN_FLOOR (2 * METRIC_EXACT_TOLERANCE)
/* Default floor of exact counts: 1%. */
#define METRIC_EXACT_FLOOR 0.01
/* Default pairs and warm-ups of a benchmark whose metrics are all exact. */
#define METRIC_EXACT_PAIRS 3
#define METRIC_EXACT_WARMUP 0
/* Pairs that also take a valgrind-counted run when timing is measured too. */
#define METRIC_COUNTED_PAIRS 3

/*
 * The events of cachegrind's cache simulation (--cache-sim=yes), in its
 * own names: instruction reads, data reads and writes, their first-level
 * misses and their last-level misses. A sample keeps them beside the
 * cycles estimated from them.
 */
enum sim_event {
	SIM_IR, SIM_DR, SIM_DW,
	SIM_I1MR, SIM_D1MR, SIM_D1MW,
	SIM_ILMR, SIM_DLMR, SIM_DLMW,
	SIM_EVENTS
};

/*
 * The weights of the cycles estimate (iai-callgrind's "estimated cycles",
 * after Itamar Turner-Trauring's formula on pythonspeed.com): an access
 * that hits L1 costs 1, one that misses L1 and hits the last level costs
 * CYCLES_LL_HIT, one that misses both (RAM) costs CYCLES_RAM.
 */
#define CYCLES_LL_HIT 5
#define CYCLES_RAM 35

/* "Ir", "Dr", ... as cachegrind names the event. */
const char *sim_event_name(enum sim_event e);
/*
 * The estimated cycles of sim[SIM_EVENTS]:
 *   L1 hits  = Ir + Dr + Dw - (I1mr + D1mr + D1mw)
 *   LL hits  = (I1mr + D1mr + D1mw) - (ILmr + DLmr + DLmw)
 *   RAM      = ILmr + DLmr + DLmw
 *   cycles   = L1 hits + 5 LL hits + 35 RAM
 * NAN when an event is missing.
 */
double metric_cycles(const double *sim);

const struct metric_desc *metric_desc(enum metric m);
/* The metric named name as gate.json may name it, or -1 ("value" is
   gate's own, for suite cases). */
int metric_lookup(const char *name);
/* "wall", "instructions", ...: as written in gate.json. */
const char *metric_name(enum metric m);
const char *metric_unit(enum metric m);
/* "wall, cpu, instructions, ...": every name gate.json may use. */
const char *metric_names(void);
/* A value in its unit for people: "101.2 ms", "12.35 M", "3.4 MiB". */
const char *metric_format(enum metric m, double v, char *buf, size_t size);
/* "auto", "perf" or "valgrind". */
const char *counter_name(enum counter c);

#endif
