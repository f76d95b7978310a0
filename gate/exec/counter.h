/*
 * Instruction counters: the perf backend (perf_event_open on the child
 * before it execs, counting user space from exec, inherited by children)
 * and the valgrind backend (cachegrind with the cache simulation off, or on
 * for the "cycles" estimate), with probes that say why a backend cannot be
 * used and what to do about it.
 */
#ifndef GATE_COUNTER_H
#define GATE_COUNTER_H

#include <stddef.h>
#include <sys/types.h>

#include "gate/config/metrics.h"

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
 * The cache geometry cachegrind simulates for "cycles": fixed, not the
 * host's (cachegrind reads the host's with cpuid, and virtual machines
 * report anything: this one says a 512 MiB L3), so an estimate means the
 * same on every machine and in every recorded run. 32 KiB 8-way L1s and
 * an 8 MiB 16-way last level with 64-byte lines: a common desktop or
 * server core of the last decade.
 */
#define COUNTER_SIM_I1 "--I1=32768,8,64"
#define COUNTER_SIM_D1 "--D1=32768,8,64"
#define COUNTER_SIM_LL "--LL=8388608,16,64"

/*
 * argv that runs argv (NULL-terminated) under valgrind's cachegrind, every
 * process traced, its counts in dir/cg.<pid> and its messages in
 * dir/vg.<pid>, so the benchmark's own stdout and stderr are untouched;
 * cache_sim: with the cache simulation (the geometry above), else
 * instructions only. The array is owned (free it with
 * counter_valgrind_argv_free); the benchmark's strings point into argv.
 */
char **counter_valgrind_argv(const char *valgrind, const char *dir,
			     char *const *argv, int cache_sim);
void counter_valgrind_argv_free(char **vargv);
/*
 * Sum the counts of every dir/cg.* (every process of the run) and remove
 * them and the vg.* logs: the instructions into *ir and, when sim is not
 * NULL, the simulation's events into sim[SIM_EVENTS] (an event the files
 * lack: the run was not simulated, an error). Returns 0, or -1 with why
 * (no count file, or one unreadable).
 */
int counter_valgrind_collect(const char *dir, double *ir, double *sim,
			     char *why, size_t size);
/*
 * cachegrind's "events:" header and "summary:" line (NUL-terminated
 * strings) added into sim[SIM_EVENTS] by name (and Ir into *ir). Returns
 * the events of enum sim_event found, or -1 when the summary does not
 * match the header.
 */
int counter_sim_parse(const char *events, const char *summary, double *ir,
		      double *sim);

#endif
