/*
 * The metric table. Exact metrics are counts of work that do not depend on
 * machine speed; resource metrics come from rusage and vary a little, so
 * they are decided with intervals like times.
 */
#include "gate/config/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/banned.h"

/* A timing's floor; an exact count's is METRIC_EXACT_FLOOR. */
#define TIMED(src) .floor = 0.05, .source = SOURCE_##src
#define EXACT(src) .exact = 1, .floor = METRIC_EXACT_FLOOR, \
	.source = SOURCE_##src

static const struct metric_desc table[METRIC_COUNT] = {
	[METRIC_WALL] = { .name = "wall", .unit = "s", TIMED(CLOCK),
		.what = "wall-clock time, spawn to exit (monotonic clock)" },
	[METRIC_CPU] = { .name = "cpu", .unit = "s", TIMED(CLOCK),
		.what = "user + system time of the process and its reaped "
		"children" },
	[METRIC_INSTRUCTIONS] = { .name = "instructions",
		.unit = "instructions", EXACT(COUNTER),
		.what = "user-space instructions of every process and thread" },
	[METRIC_CYCLES] = { .name = "cycles", .unit = "cycles",
		EXACT(CACHESIM), .what = "estimated cycles: instructions plus "
		"cache misses weighted (cachegrind's L1 and last-level "
		"simulation)" },
	[METRIC_ALLOCS] = { .name = "allocs", .unit = "allocations",
		EXACT(ALLOC), .what = "calls to malloc, calloc, realloc and "
		"the aligned allocators" },
	[METRIC_ALLOC_BYTES] = { .name = "alloc_bytes", .unit = "bytes",
		EXACT(ALLOC), .what = "bytes requested from those allocators" },
	[METRIC_FREES] = { .name = "frees", .unit = "frees", EXACT(ALLOC),
		.what = "calls to free with a non-null pointer" },
	[METRIC_MAX_RSS] = { .name = "max_rss", .unit = "KiB", TIMED(RUSAGE),
		.what = "peak resident set of the largest process in the "
		"tree" },
	[METRIC_MINOR_FAULTS] = { .name = "minor_faults", .unit = "faults",
		TIMED(RUSAGE), .what = "page faults served without I/O" },
	[METRIC_MAJOR_FAULTS] = { .name = "major_faults", .unit = "faults",
		TIMED(RUSAGE), .what = "page faults that needed I/O" },
	[METRIC_CTX_SWITCHES] = { .name = "ctx_switches", .unit = "switches",
		TIMED(RUSAGE),
		.what = "voluntary + involuntary context switches" },
	[METRIC_VALUE] = { .name = "value", .unit = "", TIMED(SUITE),
		.what = "a suite case's value, in the unit the suite printed" },
#define VALUE_SLOT(k) [METRIC_VALUE_##k] = { .name = "value" #k, \
		.unit = "", TIMED(SUITE), \
		.what = "a suite case's further value (a counter)" }
	VALUE_SLOT(1), VALUE_SLOT(2), VALUE_SLOT(3), VALUE_SLOT(4),
	VALUE_SLOT(5), VALUE_SLOT(6), VALUE_SLOT(7),
#undef VALUE_SLOT
};
#undef TIMED
#undef EXACT

const char *sim_event_name(enum sim_event e)
{
	static const char *const names[SIM_EVENTS] = {
		"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr",
		"DLmw"
	};

	return (unsigned)e < SIM_EVENTS ? names[e] : "?";
}

double metric_cycles(const double *sim)
{
	double refs, l1_miss, ll_miss;
	int e;

	for (e = 0; e < SIM_EVENTS; e++)
		if (!isfinite(sim[e]))
			return NAN;
	refs = sim[SIM_IR] + sim[SIM_DR] + sim[SIM_DW];
	l1_miss = sim[SIM_I1MR] + sim[SIM_D1MR] + sim[SIM_D1MW];
	ll_miss = sim[SIM_ILMR] + sim[SIM_DLMR] + sim[SIM_DLMW];
	return (refs - l1_miss) + CYCLES_LL_HIT * (l1_miss - ll_miss) +
	       CYCLES_RAM * ll_miss;
}

const struct metric_desc *metric_desc(enum metric m)
{
	return (unsigned)m < METRIC_COUNT ? &table[m] : &table[0];
}

int metric_lookup(const char *name)
{
	int i;

	for (i = 0; i < METRIC_COUNT; i++)
		if (!METRIC_IS_VALUE(i) && !strcmp(name, table[i].name))
			return i;
	return -1;
}

const char *metric_name(enum metric m)
{
	return (unsigned)m < METRIC_COUNT ? table[m].name : "unknown";
}

const char *metric_unit(enum metric m)
{
	return (unsigned)m < METRIC_COUNT ? table[m].unit : "";
}

const char *metric_names(void)
{
	static char buf[256];
	size_t o = 0;
	int i;

	if (buf[0])
		return buf;
	for (i = 0; i < METRIC_COUNT; i++)
		if (!METRIC_IS_VALUE(i))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s",
					      i ? ", " : "", table[i].name);
	return buf;
}

const char *metric_format(enum metric m, double v, char *buf, size_t size)
{
	static const char *const si[] = { "", " k", " M", " G", " T" };
	static const char *const bin[] = { " KiB", " MiB", " GiB", " TiB" };
	int k = 0;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
	} else if (!strcmp(metric_unit(m), "s")) {
		if (v >= 1.0)
			snprintf(buf, size, "%.3f s", v);
		else if (v >= 1e-3)
			snprintf(buf, size, "%.1f ms", v * 1e3);
		else
			snprintf(buf, size, "%.0f us", v * 1e6);
	} else if (m == METRIC_MAX_RSS) {
		while (v >= 1024 && k < 3) {
			v /= 1024;
			k++;
		}
		snprintf(buf, size, "%.1f%s", v, bin[k]);
	} else if (v < 10000) {
		snprintf(buf, size, "%.0f", v);
	} else {
		while (v >= 1000 && k < 4) {
			v /= 1000;
			k++;
		}
		snprintf(buf, size, "%.4g%s", v, si[k]);
	}
	return buf;
}

const char *counter_name(enum counter c)
{
	switch (c) {
	case COUNTER_AUTO:
		return "auto";
	case COUNTER_PERF:
		return "perf";
	case COUNTER_VALGRIND:
		return "valgrind";
	}
	return "?";
}
