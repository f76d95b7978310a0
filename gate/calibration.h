/*
 * What gate calibrate measured, kept in $GIT_DIR/gate/calibration.json so
 * gate run can warn of a floor below the noise and of a run far noisier
 * than calibrated; and the noise model behind its power table.
 */
#ifndef GATE_CALIBRATION_H
#define GATE_CALIBRATION_H

#include <stddef.h>

#include "gate/config.h"
#include "gate/run.h"

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
