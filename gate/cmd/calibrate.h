/*
 * gate calibrate's parts (private to gate/cmd/calibrate.c and
 * calibrate-write.c): its advice, and writing it into gate.json.
 */
#ifndef GATE_CMD_CALIBRATE_H
#define GATE_CMD_CALIBRATE_H

#include "gate/config/config.h"

/* What calibrate recommends for one benchmark. */
struct advice {
	unsigned pairs;
	double min_effect;
	int set_metric;		/* 1: --write sets "metric" to metric */
	enum metric metric;
};

/*
 * Write adv (one per benchmark of cfg, in order) into the gate.json at
 * path: only the keys that change ("min_effect", "pairs", "max_pairs"
 * when pairs pass it, "metric" when the advice names one and the
 * benchmark has no "metrics" list), every other byte kept, never a file gate would
 * refuse, replaced atomically (through a symlink, its target). Says
 * what it did; returns 0, or -1 after error().
 */
int calibrate_write_advice(const char *path, const struct config *cfg,
			   const struct advice *adv);

#endif
