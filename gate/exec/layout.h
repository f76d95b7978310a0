/*
 * Conditions shared by both arms, so that nothing but the code differs:
 * per-sample environment padding drawn independently of the arm (stack
 * alignment luck becomes noise, not bias), a fresh scratch directory at
 * one path for every sample ($GATE_TMPDIR), and optional CPU pinning.
 */
#ifndef GATE_LAYOUT_H
#define GATE_LAYOUT_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#define LAYOUT_PAD_MAX 4095	/* bytes of GATE_PAD, at most one page */

/*
 * What one arm's runs get beyond the shared conditions: variables of its
 * own (GIT_DIR...), the directories it may write (the sandbox), and a
 * file restored before each run (its ".git" file). All owned.
 */
struct box_run;

struct layout_arm {
	char **vars;		/* "NAME=value", NULL-terminated, or NULL */
	char **sandbox;		/* writable paths, NULL-terminated, or NULL:
				   not sandboxed; sandbox[0] is a free slot
				   layout_arm_before fills */
	char *restore_path;	/* written with restore_text before each
				   run, or NULL */
	char *restore_text;
	const struct box_run *box;	/* the arm's sandbox for samples
					   (borrowed), or NULL */
};

struct layout {
	int env_pad;		/* 1: GATE_PAD of random length per sample */
	char *scratch_root;	/* the run's private directory, or NULL */
	char *scratch;		/* scratch_root/t: $GATE_TMPDIR per sample */
	gsl_rng *rng;		/* draws the padding; never the arm */
	char **env;		/* gate's environment + our two variables */
	size_t nenv;		/* entries of env before ours */
	char *pad_var;		/* "GATE_PAD=xxxx" */
	char *tmp_var;		/* "GATE_TMPDIR=..." */
	unsigned long pad_total, samples;	/* for the report */
	struct layout_arm arm[2];	/* by arm, set by layout_arm_set */
	char *tmpdir_var;	/* gate's own "TMPDIR=...", or NULL */
	char *sandbox_tmp_var;	/* "TMPDIR=<scratch>" for sandboxed runs */
	size_t nsent;		/* entries of env in the last sample */
};
struct gate_err;

#define LAYOUT_INIT { 0 }

/*
 * Set up for a run: env_pad turns padding on; scratch creates a private
 * directory under $GATE_SCRATCH_ROOT if set, else under parent (gate puts
 * it beside the checkouts), else $TMPDIR or /tmp. seed seeds the padding's
 * own RNG. Messages go to *err when err is not NULL (error_to).
 */
int layout_init(struct layout *l, int env_pad, int scratch,
		unsigned long seed, const char *parent, struct gate_err *err);
/*
 * Before a sample: draw the padding, create an empty $GATE_TMPDIR, and set
 * *envp to the environment the sample gets. Returns 0 or -1.
 */
int layout_before(struct layout *l, char *const **envp);
/*
 * Arm arm's own conditions (layout_arm; l takes ownership of every
 * field). A sandboxed arm's runs get TMPDIR=$GATE_TMPDIR (when there is a
 * scratch directory), since they may not write to the system's /tmp.
 */
void layout_arm_set(struct layout *l, size_t arm, struct layout_arm *set);
/*
 * After layout_before, for a run of arm: add the arm's variables to
 * *envp (the same array), restore its file, and set *sandbox to the paths
 * it may write (NULL: not sandboxed), with extra (the sample's own files
 * directory, or NULL) among them. Returns 0 or -1 (cannot restore).
 */
int layout_arm_before(struct layout *l, size_t arm, const char *extra,
		      char *const **envp, const char *const **sandbox);
/*
 * The variables gate takes out of every run's environment because an
 * arm sets them: git's repository variables (GIT_DIR, GIT_INDEX_FILE...,
 * which a hook running gate may have set to the user's repository).
 */
int layout_git_var(const char *var);

/* Arm arm's sandbox for samples (gate/exec/box.h), or NULL. */
const struct box_run *layout_arm_box(const struct layout *l, size_t arm);

/* After a sample: remove everything the sample left in $GATE_TMPDIR. */
int layout_after(struct layout *l);
/* Remove the scratch directory and free everything. */
void layout_release(struct layout *l);

/*
 * Pin gate and so every benchmark process it starts to the CPUs in list
 * ("1", "0-1", "0,2-3"). Sets *warn (malloc'd) to a warning when pinning
 * is likely to hurt (a CPU that is not isolated), else NULL. Linux only;
 * elsewhere an error. Returns 0 or -1 (its message in *err, when not
 * NULL).
 */
int layout_pin(const char *list, char **warn, struct gate_err *err);

#endif
