/*
 * A suite's cases counted each on its own (doc/counted.md): the suite runs
 * under callgrind with libgate-probe.so bracketing each case (pytest's
 * plugin, the lines protocol) or with dumps around each Google Benchmark
 * loop, in an environment made repeatable; the dumps become each case's
 * "instructions" and "cycles" values, beside its times.
 */
#ifndef GATE_SUITE_COUNTED_H
#define GATE_SUITE_COUNTED_H

#include <stddef.h>

#include "gate/exec/runner.h"
#include "gate/measure/measure.h"

struct gate_err;

/*
 * 1 when br is a suite whose metrics count (instructions, cycles): its
 * runs under valgrind count each case.
 */
int suite_counted(const struct bench_run *br);
/*
 * 1 when cfg is a suite of counts alone: every sample one counted run
 * (no plain run), so its rounds run the whole suite (suite_grow), as a
 * case's count follows the cases before it in its process.
 */
int suite_counted_alone(const struct bench_cfg *cfg);
/*
 * Before measuring a counted suite: its format can mark its cases, and
 * the probe library and pytest plugin are found (br->probe_lib). 0, or -1
 * with what is missing or unsupported (Go, hyperfine) and what to do.
 */
int suite_counted_prepare(struct bench_run *br, const char *who,
			  struct gate_err *err);
/*
 * valgrind's argv for one counted run of argv (the arm's command, or sh -c
 * for a string), its stdout and stderr written to files in dir and copied
 * out at its end: owned, free with counter_valgrind_argv_free (dir and
 * argv are borrowed).
 */
char **suite_counted_argv(const struct bench_run *br, const char *dir,
			  char *const *argv, int shell);
/* env (NULL-terminated, borrowed) with the counted run's variables set:
   owned array and strings, free with strv_free. */
char **suite_counted_env(const struct bench_run *br, char *const *env);
/*
 * Read the counts a counted run of arm a left in dir (its stdout in res,
 * for Google Benchmark's case names) into br->suite: every case a value
 * of unit "instructions" (and "cycles") in pair (none kept for -1, a
 * warm-up). 0, or -1 with br->error.
 */
int suite_counted_collect(struct bench_run *br, enum arm a, const char *label,
			  const char *dir, const struct run_result *res,
			  long pair);
/* Free what suite_counted_prepare found (bench_run_release). */
void suite_counted_release(struct bench_run *br);
/* 1 when a suite case's unit is a count this file gives. */
int suite_counted_unit(const char *unit);
/* How a counted suite of format f was counted, for the protocol. */
const char *suite_counted_scheme(enum format f, int simulate, char *buf,
				 size_t size);
/* The same for suite case br (its value slots' units say it was
   counted; a loaded report too), or NULL when it was not. */
const char *suite_counted_case(const struct bench_run *br, char *buf,
			       size_t size);

#endif
