/*
 * The steps gate run and gate calibrate share: option values, the seed,
 * gate.json from a revision or a file, and building checkouts.
 */
#ifndef GATE_PIPELINE_H
#define GATE_PIPELINE_H

#include <stddef.h>

#include "gate/config.h"
#include "gate/measure.h"
#include "git/repo.h"

/* One checkout: its revision and where it is built and logged (owned). */
struct arm_state {
	struct repo_rev rev;
	char *how;		/* how the base was chosen */
	char *dir, *index, *log;
};

/* A whole number in [lo, hi] from option opt's argument s; 0 or -1. */
int pipeline_parse_count(long *out, const char *opt, const char *s, long lo,
			 long hi);
/* "90", "90s", "10m", "1.5h", "250ms": a positive, finite duration (as
   config_parse_duration), or -1 after error() naming opt. */
int pipeline_parse_duration(double *out, const char *opt, const char *s);
/* A fresh seed from /dev/urandom (time and pid when it cannot be read). */
unsigned long pipeline_seed(void);
/* mkdir path (0700) unless it exists; 0 or -1. */
int pipeline_mkdir(const char *path);
/* Read the file at path into *data (NUL-terminated, caller frees). */
int pipeline_read_file(char **data, size_t *len, const char *path);
/*
 * The config: the file at path when non-NULL, else gate.json in head's
 * tree. *origin names it in messages (caller frees). 0 or -1.
 */
int pipeline_load_config(struct config *cfg, char **origin,
			 struct repo *repo, const char *path,
			 const struct repo_rev *head);
/*
 * Run cfg's build command in each of arm[0..narms) concurrently, logs to
 * arm[i].log. Returns 0, -1 (said why, with the log's tail) or a signal.
 */
int pipeline_build(const struct config *cfg, struct arm_state *arm,
		   size_t narms, int quiet);
/* Free what a owns. */
void pipeline_arm_release(struct arm_state *a);

#endif
