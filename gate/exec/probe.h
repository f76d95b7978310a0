/*
 * Counted suite cases: the gate side of libgate-probe.so (lib/gate-probe.h).
 * A suite runs under callgrind with counting off; the probe counts between
 * each case's start and stop and dumps the counts under the case's name.
 * This finds the library and the pytest plugin, builds valgrind's argv,
 * and reads the dumps back into one count per case (doc/counted.md).
 */
#ifndef GATE_PROBE_H_GATE
#define GATE_PROBE_H_GATE

#include <stddef.h>

#include "gate/config/metrics.h"

struct gate_err;

/* One case's counts, summed over the brackets it had in the run. */
struct probe_case {
	char *name;		/* as the harness named it (owned) */
	size_t calls;		/* brackets: start..stop pairs */
	double ir;		/* instructions, summed over the calls */
	double sim[SIM_EVENTS];	/* the cache simulation's events, summed;
				   NAN when a bracket was not simulated */
};

/* A dump callgrind took on entering a function (--dump-before). */
struct probe_dump {
	double ir;
	double sim[SIM_EVENTS];	/* NAN when not simulated */
};

/* Every case of one run, in the order first seen (by process, then dump). */
struct probe_counts {
	struct probe_case *cases;
	size_t n, cap;
	size_t processes;	/* callgrind output files of processes read */
	/* the dumps --dump-before=PROBE_GBENCH_LOOP_END took, in order: one
	   per loop of a Google Benchmark case (PROBE_GBENCH) */
	struct probe_dump *loops;
	size_t nloops, loops_cap;
};
#define PROBE_COUNTS_INIT { 0 }

void probe_counts_release(struct probe_counts *pc);

/*
 * Add the probe's dumps in one callgrind output file (text, len bytes:
 * one dump, or several parts with --combine-dumps=yes) to pc; dumps gate's
 * probe did not ask for (program termination, the program's own) are
 * skipped. origin names the file in messages. Returns 0, or -1 with why
 * in err (a case stopped under another name than it started with, a
 * dump without its totals).
 */
int probe_parse(struct probe_counts *pc, const char *text, size_t len,
		const char *origin, struct gate_err *err);
/*
 * Read every callgrind output file in dir (cg.PID and cg.PID.N, by process
 * then dump) into pc with probe_parse, and remove them and valgrind's
 * logs (vg.PID). Returns 0, or -1 with why in err.
 */
int probe_collect(struct probe_counts *pc, const char *dir,
		  struct gate_err *err);
/* The case named name, or NULL. */
const struct probe_case *probe_find(const struct probe_counts *pc,
				    const char *name);
/*
 * Case c's count of metric m per bracket: instructions, or the cycles
 * estimated from its simulation (metric_cycles); NAN for another metric
 * or a cycles count that was not simulated.
 */
double probe_case_value(const struct probe_case *c, enum metric m);

/*
 * Where a case's count begins and ends:
 *  PROBE_MARKS   the harness calls libgate-probe.so (lib/gate-probe.h):
 *                collection off but inside a case (--collect-atstart=no,
 *                and --instr-atstart=no: start-up uninstrumented);
 *  PROBE_GBENCH  Google Benchmark, unchanged: a dump after each
 *                State::StartKeepRunning and one before each
 *                FinishKeepRunning, so that the second holds the case's
 *                loop alone (probe_counts.loops).
 */
enum probe_mode { PROBE_MARKS, PROBE_GBENCH };
#define PROBE_GBENCH_LOOP_START "benchmark::State::StartKeepRunning*"
#define PROBE_GBENCH_LOOP_END "benchmark::State::FinishKeepRunning*"

/*
 * argv that runs argv (NULL-terminated) under callgrind, every process
 * traced, each process's dumps in one file dir/cg.<pid> and valgrind's
 * messages in dir/vg.<pid>; cache_sim: with counter.h's cache geometry
 * (for "cycles"); prefix (NULL-terminated, or NULL): the programs and
 * options valgrind runs under ("setarch", "-R": address-space
 * randomisation off; "taskset", "-c", "0": on one CPU). Free with
 * counter_valgrind_argv_free (gate/exec/counter.h: the same shape as the
 * counter's argv); argv's strings are borrowed.
 */
char **probe_valgrind_argv(const char *valgrind, const char *dir,
			   char *const *argv, int cache_sim,
			   enum probe_mode mode, const char *const *prefix);

/*
 * The absolute path (owned) of libgate-probe.so (file PROBE_LIB) or of the
 * pytest plugin (PROBE_PYTEST): from GATE_PROBE_DIR when set, else beside
 * the gate binary (the build tree), else ../lib/gate/ from it (installed).
 * Returns 0, or -1 with where it looked in err.
 */
#define PROBE_LIB "libgate-probe.so"
#define PROBE_PYTEST "gate_probe_pytest.py"
int probe_file_find(char **path, const char *file, struct gate_err *err);

#endif
