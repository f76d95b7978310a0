/*
 * The environment a run was measured in, for the protocol disclosure: CPU,
 * cores, SMT, frequency governor, turbo, virtualisation, kernel, load,
 * ASLR, CPU isolation and hardware counter availability.
 * Linux sources (/proc, /sys) are optional: elsewhere fields read "unknown".
 * GATE_SYSROOT=DIR reads them under DIR instead (tests fake a machine).
 */
#ifndef GATE_SYSINFO_H
#define GATE_SYSINFO_H

struct machine {
	char cpu[128];
	long cores;		/* online logical CPUs */
	char smt[16];		/* "on", "off", "unknown" */
	char governor[32];
	char turbo[16];		/* "on", "off", "unknown" */
	char virt[64];		/* "none", "kvm", "hypervisor", "unknown" */
	char kernel[128];
	char aslr[16];		/* "on", "partial", "off", "unknown" */
	char isolated[64];	/* isolated CPU list, "none", "unknown" */
	char container[32];	/* "docker", "kubernetes", ..., "none",
				   "unknown" */
	char cpu_quota[48];	/* the cgroup's CPU limit: "1.5 CPUs",
				   "none", "unknown" */
	int perf_paranoid;	/* perf_event_paranoid, or -99 unknown */
	char counters[96];	/* "available", "unavailable (why)", ... */
	int pmu;		/* a hardware PMU is exposed (perf's "cpu"
				   event source, or the arch_perfmon flag) */
	double load_before[3], load_after[3];
};

/* Read everything but load_after. Never fails: unknowns say so. */
void machine_read(struct machine *m);
/* Record the load average after measuring. */
void machine_read_load_after(struct machine *m);

/*
 * The CPUs gate may keep busy at once: the online CPUs, fewer when its
 * affinity mask allows fewer (taskset -c 0: 1) and under a cgroup CPU
 * quota (its whole CPUs, at least 1). Counted runs (valgrind)
 * run this many at a time. GATE_COUNT_JOBS=N sets it (1: one at a time).
 */
unsigned sysinfo_usable_cpus(void);

#endif
