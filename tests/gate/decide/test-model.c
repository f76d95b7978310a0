/*
 * run_note_fixed_time (gate/decide/model.c): a benchmark that runs for a set time
 * gets a note, whichever clock it keeps: wall time (zstd -b, a "loop for
 * 3 seconds" harness) or CPU time (xxhsum -b counts clock() to 1 s per
 * hash, so its wall time follows the machine's load); an ordinary
 * benchmark near a whole second does not. tests/test-view.c checks the
 * note reaches every printer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate/config/config.h"
#include "gate/decide/model.h"
#include "tests/harness.h"

#define NPAIRS 12

/* One benchmark of NPAIRS pairs: wall and cpu of each arm, pair i being
 * base + spread * (i % 4 - 1.5), so each CV is set by its spread. */
struct one {
	struct bench_cfg cfg;
	struct pair_result pairs[NPAIRS];
	struct run_bench b;
	struct run_report r;
};

static void one_init(struct one *o, const double wall[2],
		     double wall_spread, const double cpu[2],
		     double cpu_spread)
{
	static char name[] = "bench";
	size_t i, a;

	memset(o, 0, sizeof(*o));
	o->cfg.name = name;
	o->cfg.format = FORMAT_TIME;
	for (i = 0; i < NPAIRS; i++)
		for (a = 0; a < 2; a++) {
			double k = (double)(i % 4) - 1.5;

			o->pairs[i].s[a].wall = wall[a] + wall_spread * k;
			o->pairs[i].s[a].cpu = cpu[a] + cpu_spread * k;
			o->pairs[i].s[a].value[METRIC_INSTRUCTIONS] = NAN;
		}
	o->b.run.cfg = &o->cfg;
	o->b.run.pairs = o->pairs;
	o->b.run.npairs = NPAIRS;
	o->r.b = &o->b;
	o->r.n = 1;
}

/* xxhsum -b3 -i1 as measured on a loaded 2-core VM: CPU time 1.00-1.01 s
 * in both arms (head's hash 30% slower does not show), wall 5-7 s. */
static void test_run__fixed_cpu_time_is_noted(void)
{
	static const double wall[2] = { 5.5, 5.6 }, cpu[2] = { 1.004, 1.003 };
	struct one o;

	one_init(&o, wall, 0.5, cpu, 0.002);
	run_note_fixed_time(&o.r);
	CHECK(o.b.note != NULL);
	CHECK_CONTAINS(o.b.note, "CPU time sits at 1 s");
	CHECK_CONTAINS(o.b.note, "may run for a fixed time");
	free(o.b.note);
}

/* The wall clock's case still holds: 3 s in both arms, CPU time spread. */
static void test_run__fixed_wall_time_is_noted(void)
{
	static const double wall[2] = { 3.01, 3.0 }, cpu[2] = { 2.0, 2.6 };
	struct one o;

	one_init(&o, wall, 0.001, cpu, 0.2);
	run_note_fixed_time(&o.r);
	CHECK(o.b.note != NULL);
	CHECK_CONTAINS(o.b.note, "wall time");
	free(o.b.note);
}

/* An ordinary CPU-bound benchmark near 1 s: CPU and wall spread alike;
 * and one whose arms sit at different whole seconds: no note. */
static void test_run__ordinary_benchmark_is_not_noted(void)
{
	static const double wall[2] = { 1.01, 1.0 }, cpu[2] = { 1.0, 0.99 },
			    wall2[2] = { 5.0, 5.2 }, cpu2[2] = { 1.0, 2.0 };
	struct one o;

	one_init(&o, wall, 0.01, cpu, 0.01);
	run_note_fixed_time(&o.r);
	CHECK(o.b.note == NULL);
	one_init(&o, wall2, 0.5, cpu2, 0.001);
	run_note_fixed_time(&o.r);
	CHECK(o.b.note == NULL);
	free(o.b.note);
}

/* Identical code, noisy: the CPU medians 30% apart, but head above base
 * in only 7 of 12 pairs (lz4 -b on identical code, +13.9% in 13 of 20):
 * no note. The same gap in every pair is one. */
static void test_run__noisy_cpu_gap_is_not_noted(void)
{
	static const double wall[2] = { 2.37, 2.37 }, cpu[2] = { 1.0, 1.0 };
	struct one o;
	size_t i;

	one_init(&o, wall, 0.01, cpu, 0);
	for (i = 0; i < NPAIRS; i++)
		o.pairs[i].s[1].cpu = i < 7 ? 1.3 : 0.9;
	run_note_fixed_time(&o.r);
	CHECK(o.b.note == NULL);
	for (i = 0; i < NPAIRS; i++)
		o.pairs[i].s[1].cpu = 1.3;
	run_note_fixed_time(&o.r);
	CHECK(o.b.note != NULL);
	CHECK_CONTAINS(o.b.note, "CPU time changes by +30.0%");
	free(o.b.note);
}

static const struct harness_test tests[] = {
	TEST(test_run__noisy_cpu_gap_is_not_noted),
	TEST(test_run__fixed_cpu_time_is_noted),
	TEST(test_run__fixed_wall_time_is_noted),
	TEST(test_run__ordinary_benchmark_is_not_noted),
};

HARNESS_MAIN(tests)
