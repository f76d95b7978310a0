/*
 * gate init's parts (private to gate/cmd/init.c and init-make.c): what it
 * found, and the makefile scanning that init-make.c does for it.
 */
#ifndef GATE_CMD_INIT_H
#define GATE_CMD_INIT_H

#include <stddef.h>

#define MAX_BENCH 16

struct found {
	const char *system;	/* "make", ... or NULL */
	const char *build;
	char *build_owned;	/* build with extra targets, or NULL */
	const char *artifacts[4];	/* globs of what the benchmarks
				   run, built or not (static) */
	size_t nartifacts;
	const char *sources[4];	/* with artifacts: the build's inputs and
				   files no benchmark reads (static) */
	size_t nsources;
	char *extra;		/* " t1 t2": targets the build must also make */
	char *sub_build;	/* " && make -C DIR PROG" for each program a
				   makefile below the top makes, or NULL */
	char *names[MAX_BENCH];
	char **runs[MAX_BENCH];	/* argv, NULL-terminated, owned */
	int parity[MAX_BENCH];
	const char *format[MAX_BENCH];	/* a suite's "format", or NULL */
	char *why[MAX_BENCH];	/* why it was proposed, owned */
	char *skipped[4 * MAX_BENCH];	/* candidates left out, and why */
	size_t n, nskipped;
	double pair_seconds;	/* measured: what a pair of every measured
				   suite takes (0: not measured) */
	size_t unmeasured;	/* suites whose work init could not measure */
};

/* Leave a candidate out, saying why (why is owned: freed here or later). */
void init_skip(struct found *f, char *why);
/* Whether dir/name exists. */
int init_exists(const char *dir, const char *name);
/* Whether a file matching dir/pattern (glob(3)) exists. */
int init_exists_glob(const char *dir, const char *pattern);
/*
 * argv (NULL-ended) run once in dir, as init measures a proposal: its
 * stdout (at most 1 MiB; malloc'd), or NULL with *why said on one line
 * (what names the step). *wall gets the time it took.
 */
char *init_run(char **argv, const char *dir, const char *what,
	       double *wall, char **why);
/*
 * Add a benchmark called called for target (its index, or -1 when it was
 * left out), running argv (NULL-ended,
 * "%s" replaced by target), with why it was proposed (owned).
 */
long init_add_as(struct found *f, const char *called, const char *target,
		 int parity, const char *const *argv, char *why);
void init_add_why(struct found *f, const char *target, int parity,
		  const char *const *argv, char *why);

/* init-make.c: a makefile's targets, checked with make -n. */
char *init_dry_run(const char *top, const char *target, char **why);
void init_scan_linked(struct found *f, const char *commands,
		      const char *source);
void init_scan_make(struct found *f, const char *top, const char *text,
		    int dry, const char *all);
void init_scan_subdirs(struct found *f, const char *top, const char *sub,
		       int depth);

/*
 * init-go.c: a Go module's packages with benchmarks (top and one below),
 * each measured once with go test and proposed as gotest suites of fixed
 * work (-benchtime=Nx), sized to fit the default budget. gomod is
 * go.mod's text.
 */
void init_scan_go(struct found *f, const char *top, const char *gomod);

/*
 * init-py.c: a Python project's pytest-benchmark tests (the top, tests/,
 * test/, benchmarks/, bench/), a pytest suite of fixed rounds per
 * directory, measured once. 1 when it proposed one (f->system set).
 */
int init_scan_python(struct found *f, const char *top);

#endif
