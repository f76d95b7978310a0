/*
 * The gate side of allocation counting: finding libgate-alloc.so, the
 * environment that preloads it into a sample, reading the records its
 * processes leave behind, and spotting static programs it cannot see.
 */
#ifndef GATE_ALLOC_H
#define GATE_ALLOC_H

#include <stddef.h>

struct gate_err;

/* Counts from one sample: every process that exited normally. */
struct alloc_counts {
	double allocs, bytes, frees;
	size_t processes;	/* records read */
};

/*
 * The absolute path of libgate-alloc.so (owned): GATE_ALLOC_LIB, else beside
 * the gate binary (the build tree), else ../lib/gate/ from it (installed).
 * Returns 0, or -1 after error() saying where it looked.
 */
int alloc_lib_find(char **path, struct gate_err *err);
/*
 * A copy of base (NULL: environ) with lib prepended to LD_PRELOAD and
 * GATE_ALLOC_OUT set to out. Free with strv_free.
 */
char **alloc_env(const char *lib, const char *out, char *const *base);
/* What alloc_collect found. */
enum alloc_collected {
	ALLOC_BAD_RECORD = -1,	/* a record that does not read */
	ALLOC_COUNTED = 0,
	ALLOC_NO_RECORD = 1,	/* no process left one (missing or empty) */
};
/* Sum the records in path into out and remove it. */
enum alloc_collected alloc_collect(const char *path, struct alloc_counts *out);
/*
 * 1 when prog (resolved through PATH like execvp, relative names against
 * cwd) is a statically linked ELF program, which no preload reaches; 0
 * when it is dynamic, a script or cannot be read (then the missing records
 * tell instead).
 */
int alloc_is_static(const char *prog, const char *cwd);

#endif
