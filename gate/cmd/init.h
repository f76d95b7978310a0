/*
 * gate init's parts (private to gate/cmd/init*.c): what it found, the
 * cases of a program it measures once (Go, Google Benchmark), and the
 * scanners of each build system.
 */
#ifndef GATE_CMD_INIT_H
#define GATE_CMD_INIT_H

#include <stddef.h>

#define MAX_BENCH 16
/* The time one case of a suite init sizes should take: 100 ms at most,
   50 ms at least (cases within a factor of 2 share a suite and its N). */
#define INIT_CASE_SECONDS 0.1

struct found {
	const char *system;	/* "make", ... or NULL */
	const char *build;
	char *build_owned;	/* build with extra targets, or NULL */
	const char *artifacts[MAX_BENCH];	/* globs of what the
				   benchmarks run, built or not (static, or
				   kept in owned) */
	size_t nartifacts;
	const char *sources[16];	/* with artifacts: the build's inputs and
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
	char *owned[MAX_BENCH];	/* strings artifacts[] points into */
	size_t nowned;
};

/* A case of a program init measures once: its name (owned), and what one
   iteration of it costs (its slowest variant's; ns, 0: unknown). */
struct init_case {
	char *name;
	double ns;
};

/* A program whose cases init measures once (a Go package's test binary, a
   Google Benchmark program), to size the fixed work its suites run. */
struct init_prog {
	char *dir;		/* go: "." or "./sub"; gbench: its path (owned) */
	struct init_case *c;	/* by cost once measured (init_prog_sort) */
	size_t n, cap;
	double overhead;	/* seconds a run takes beyond its cases' work
				   (start, link, setup); NAN: unknown */
	double extra;		/* iterations a run adds to its N (go: 1) */
	char *why;		/* why it is not measured, or NULL (owned) */
};

/* init-prog.c: the case called name (len bytes) of p, or NULL. */
struct init_case *init_case_find(struct init_prog *p, const char *name,
				 size_t len);
/* Add a case called name (len bytes) to p, unless it has it already. */
void init_case_add(struct init_prog *p, const char *name, size_t len);
/* Sort p's cases by cost, cheapest first (the groups need that order). */
void init_prog_sort(struct init_prog *p);
/* Free p and everything it owns. */
void init_prog_free(struct init_prog *p);
/* The end of the group of p's (sorted) cases starting at g: those within
   2x of c[g]'s cost, which share one suite and its N. */
size_t init_group_end(const struct init_prog *p, size_t g);
/* The iterations that make the case of cost ns take t seconds (at least 1). */
double init_iterations(double t, double ns);
/*
 * The time a case should take, and what a pair of every measured program's
 * suites then takes (*pair): INIT_CASE_SECONDS, shortened (down to 10 ms)
 * so that the first look fits half of the default budget.
 */
double init_fit(struct init_prog *const *p, size_t np, double *pair);
/*
 * flag followed by "^(a|b)$" over the names of c[0..n), each escaped as a
 * POSIX extended regex (gbench's "BM_x/min_time:0.500" has a dot). Owned.
 */
char *init_anchored(const char *flag, const struct init_case *c, size_t n);
/* Keep s (owned) for as long as f, and return it. */
const char *init_keep(struct found *f, char *s);
/* Drop the benchmark at index i (a program now proposed as a suite). */
void init_drop(struct found *f, size_t i);
/*
 * Add the documentation at top that exists to f->sources (a pattern that
 * matches no file is an error in gate.json): *.md, *.rst and docs/.
 */
void init_add_docs(struct found *f, const char *top);

/* Leave a candidate out, saying why (why is owned: freed here or later). */
void init_skip(struct found *f, char *why);
/* Whether dir/name exists. */
int init_exists(const char *dir, const char *name);
/* Whether a directory named name is passed over in a walk: a hidden one
   (.git, .venv), or one of names (NULL-terminated). */
int init_dir_skipped(const char *name, const char *const *names);
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

/*
 * init-cargo.c: a cargo crate's criterion benches ([[bench]] targets with
 * harness = false, criterion among its dev-dependencies), each target
 * measured once and proposed as a criterion suite, its warm-up and
 * measurement times sized to fit the default budget. toml is Cargo.toml's
 * text. 1 when it proposed one (f->build set), else 0.
 */
int init_scan_cargo(struct found *f, const char *top, const char *toml);

/*
 * init-js.c: vitest bench in an npm project (vitest in package.json, a
 * "vitest bench" script or *.bench.js/ts files): a vitest suite, not
 * measured. pkg is package.json's text. 1 when it proposed one.
 */
int init_scan_vitest(struct found *f, const char *top, const char *pkg);

/*
 * init-jvm.c: JMH in a Maven project (jmh-core in pom.xml): a jmh suite
 * running the benchmarks jar, not measured. 1 when it proposed one
 * (f->system and f->build set).
 */
int init_scan_jmh(struct found *f, const char *top);

/*
 * init-gbench.c: Google Benchmark programs among what the build makes (a
 * proposed ./PROG, a program make -n links with -lbenchmark, a CMake
 * target linking benchmark), each measured once and proposed as gbench
 * suites of fixed work (--benchmark_min_time=Nx) where the library takes
 * it, else of fixed time, said so. commands: make -n's output, or NULL;
 * cmake: CMakeLists.txt's text, or NULL.
 */
void init_scan_gbench(struct found *f, const char *top, const char *commands,
		      const char *cmake);

#endif
