/*
 * What gate calibrate measured, kept in $GIT_DIR/gate/calibration.json so
 * gate run can warn of a floor below the noise and of a run far noisier
 * than calibrated; and the noise model behind its power table.
 */
#ifndef GATE_CALIBRATION_H
#define GATE_CALIBRATION_H

#include <stddef.h>

#include "gate/config/config.h"
#include "gate/decide/model.h"

struct calib_bench {
	char *name;		/* owned */
	enum metric metric;	/* the metric whose noise was measured */
	char *command;		/* owned: calibration_command of its "run" */
	double spread;		/* robust sd of the log-ratios (1.4826 MAD) */
	double base_cv, head_cv;
	size_t pairs;
};

/* Robust sd of the log-ratios of st's ratios (1.4826 MAD); NAN if n < 2. */
double calibration_spread(const double *ratios, size_t n);
/*
 * Smallest regression (fraction) whose interval at `level` excludes no
 * change with probability `power`, from n pairs of log-ratio spread sd:
 * (z_level + z_power) * 1.023 sd / sqrt(n), 1.023 being the
 * Hodges-Lehmann estimator's standard error factor under normal noise.
 */
double calibration_mde(double spread, size_t n, double level, double power);
/*
 * The fewest pairs (at least 2) at which calibration_mde(spread, n, level,
 * 0.8) is within floor: a regression of twice the floor then fails 80% of
 * the time. SIZE_MAX when spread is not a number or it takes more than
 * CALIBRATION_PAIRS_MAX.
 */
#define CALIBRATION_PAIRS_MAX 100000
size_t calibration_pairs_needed(double spread, double floor, double level);
/*
 * The pairs benchmark i of r can spend in its run: up to max_pairs, as far
 * as its share of the budget (split evenly over the compared benchmarks)
 * goes at its measured time per pair, never fewer than its "pairs".
 * *by_budget is 1 when the budget, not max_pairs, is the limit.
 */
size_t calibration_reachable(const struct run_report *r, size_t i,
			     int *by_budget);
/*
 * The benchmark's "run" as one string a record is matched on (malloc'd):
 * "sh -c TEXT" for a shell string, else the arguments joined by spaces,
 * each in double quotes when it holds a space, quote or backslash.
 */
char *calibration_command(const struct command *c);
/* Write the record to path (replaced atomically); 0 or -1. */
int calibration_save(const char *path, const char *commit,
		     const struct calib_bench *b, size_t n);
/* Read the record at path: 0 (*n 0 when there is none), -1 when
   unreadable. */
int calibration_load(struct calib_bench **b, size_t *n, const char *path);
void calibration_free(struct calib_bench *b, size_t n);
/*
 * gate run's use of the record at path, for each benchmark whose record
 * matches its name, first gating metric and command (a record of another
 * metric or command says nothing of this one): warn on stderr of floors
 * below what the calibrated noise can resolve at the pairs the run can
 * spend (max_pairs, or its share of the budget at its time per pair),
 * and note beside the verdict of a benchmark whose spread is over 3x the
 * calibrated one (a note only: the verdict stands). Silent when there is
 * no record.
 */
void calibration_check_run(struct run_report *r, const char *path);

#endif
