/*
 * Instruction counters: the perf backend (perf_event_open on the child
 * before it execs, counting user space from exec, inherited by children)
 * and the valgrind backend (cachegrind with the cache simulation off), with
 * probes that say why a backend cannot be used and what to do about it.
 */
#ifndef GATE_COUNTER_H
#define GATE_COUNTER_H

#include <stddef.h>
#include <sys/types.h>

#include "gate/metrics.h"

struct gate_err;

/*
 * Choose a backend for want: perf when its probe passes, else valgrind
 * (auto); or exactly the one asked for. *valgrind gets valgrind's path
 * (owned) when valgrind is chosen. who names the asker in messages
 * ("benchmark \"parse\""). Returns 0, or -1 after one error() saying why
 * each candidate is unusable and what to install or set.
 */
int counter_select(enum counter *out, char **valgrind, enum counter want,
		   const char *who, struct gate_err *err);
/* 0 when perf can count this process's user-space instructions; else -1
   with why (a sentence with the fix) in buf. GATE_PERF=0 disables it. */
int counter_perf_probe(char *buf, size_t size);
/* valgrind's path (owned) in *path, from GATE_VALGRIND or PATH; else -1
   with why in buf. */
int counter_valgrind_find(char **path, char *buf, size_t size);

/*
 * A counter of pid's user-space instructions, disabled until pid execs and
 * inherited by the threads and children it creates afterwards. pid must not
 * have exec'd yet. Returns the fd, or -1 with errno set.
 */
int counter_perf_open(pid_t pid);
/* The count so far of the counter fd (children included once they have
   exited). Returns 0, or -1. */
int counter_perf_read(int fd, double *out);

/*
 * argv that runs argv (NULL-terminated) under valgrind's cachegrind, every
 * process traced, its counts in dir/cg.<pid> and its messages in
 * dir/vg.<pid>, so the benchmark's own stdout and stderr are untouched.
 * The array is owned (free it and its first 6 strings with
 * counter_valgrind_argv_free); the rest point into argv.
 */
char **counter_valgrind_argv(const char *valgrind, const char *dir,
			     char *const *argv);
void counter_valgrind_argv_free(char **vargv);
/* Sum the instruction counts of every dir/cg.* and remove them and the
   vg.* logs. Returns 0, or -1 (no count file: *why says so). */
int counter_valgrind_collect(const char *dir, double *out, char *why,
			     size_t size);

#endif
