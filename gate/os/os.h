/*
 * The OS layer: every system call and system file gate uses that only
 * Linux has (perf_event_open, sched_setaffinity, /proc, /sys, the ELF
 * header of a program, LD_PRELOAD) sits behind this interface, and nowhere
 * else. gate/os/linux.c implements it on Linux; gate/os/stub.c everywhere
 * else (and on Linux with `make OS=stub`), where each facility is absent.
 *
 * The layer only asks the system: it never decides what an answer means
 * for a measurement, never prints and never exits. Its callers (counter.c,
 * sysinfo.c, layout.c, alloc.c in gate/exec/) check os_has() and word the
 * "not available here" themselves, and degrade as they always did.
 */
#ifndef GATE_OS_H
#define GATE_OS_H

#include <spawn.h>
#include <stddef.h>
#include <sys/types.h>

enum os_facility {
	OS_PERF,	/* hardware instruction counters (perf_event_open) */
	OS_AFFINITY,	/* pinning to CPUs (sched_setaffinity) */
	OS_PRELOAD,	/* preloading libgate-alloc.so (LD_PRELOAD, glibc) */
	OS_FACTS	/* the machine's facts in system files (/proc, /sys) */
};

/* 1 when this system has the facility, 0 when the stub stands in. */
int os_has(enum os_facility facility);

/*
 * The machine's facts, each the first line of a system file, trimmed.
 * GATE_SYSROOT=DIR (tests fake a machine) reads them under DIR instead of
 * /. Returns 0, or -1 when unknown (unreadable; always in the stub).
 */
enum os_fact {
	OS_FACT_SMT_ACTIVE,	/* "1" when SMT siblings are online */
	OS_FACT_GOVERNOR,	/* cpu0's frequency governor */
	OS_FACT_NO_TURBO,	/* intel_pstate: "1" turbo is off */
	OS_FACT_BOOST,		/* cpufreq: "1" turbo is on */
	OS_FACT_ASLR,		/* randomize_va_space: "0", "1", "2" */
	OS_FACT_ISOLATED,	/* isolated CPU list, "" for none */
	OS_FACT_ONLINE,		/* online CPU list ("0-3,6") */
	OS_FACT_PERF_PARANOID,	/* perf_event_paranoid ("2") */
	OS_FACT_VENDOR,		/* the system vendor (DMI) */
	OS_FACT_LOADAVG		/* "1.00 0.50 0.25 ..." */
};
int os_fact(enum os_fact fact, char *buf, size_t size);

/* What the CPU description says; -1 when unknown. */
struct os_cpuinfo {
	char model[128];	/* "" when not given */
	int hypervisor;		/* runs under a hypervisor */
	int perfmon;		/* the architectural performance monitor */
};
int os_cpuinfo(struct os_cpuinfo *ci);
/* 1 when a hardware PMU is registered with perf, else 0. */
int os_pmu_registered(void);
/*
 * The container this process runs in, from its marks: "docker"
 * (/.dockerenv), "podman" (/run/.containerenv), or a container's cgroup
 * in /proc/self/cgroup ("kubernetes", "docker", "containerd", "lxc"; a
 * host's containerd.service is none); "none" when there is no mark. Returns 0, or -1 when unknown (the stub).
 */
int os_container(char *buf, size_t size);
/*
 * The CPU time this process's cgroup may use, in CPUs (1.5: 150 ms per
 * 100 ms period), the tightest limit on the path from its cgroup up to
 * the root (v2 cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us); 0 when
 * there is none. Returns 0, or -1 when unknown (no cgroup files; the
 * stub).
 */
int os_cpu_quota(double *cpus);
/*
 * 1 when GATE_SYSROOT fakes the machine's files: then nothing may be
 * probed on the real machine (counters, load, CPU count come from the
 * files). Always 0 in the stub.
 */
int os_faked(void);

/*
 * Open the hardware instruction counter (user space only) on pid (0:
 * this process), disabled; OS_PERF_INHERIT counts threads and children
 * created later, OS_PERF_ENABLE_ON_EXEC starts it at pid's exec. Returns
 * a file descriptor (close-on-exec; read(2) gives a uint64_t count), or
 * -1 with errno (ENOSYS in the stub).
 */
#define OS_PERF_INHERIT 1u
#define OS_PERF_ENABLE_ON_EXEC 2u
int os_perf_instructions(pid_t pid, unsigned flags);

/*
 * Run this process (and so what it starts) only on the CPUs i < n with
 * cpus[i] set. Returns 0, or -1 with errno (ENOSYS in the stub).
 */
#define OS_CPU_MAX 1024
int os_set_affinity(const unsigned char *cpus, int n);

/*
 * The CPUs this process may run on (its affinity mask: taskset, a
 * cpuset), as a list like OS_FACT_ONLINE's ("0-1,4"), into buf. Faked
 * (GATE_SYSROOT): the "Cpus_allowed_list:" line of DIR/proc/self/status.
 * Returns 0, or -1 when unknown (the stub; a list longer than buf).
 */
int os_affinity(char *buf, size_t size);

/* This program's own absolute path into buf; 0, or -1 when unknown. */
int os_self_exe(char *buf, size_t size);
/*
 * 1 when the program file at path has no program interpreter (a static
 * program, which no preload reaches); 0 when dynamic, unreadable or not a
 * 64-bit ELF file, and always in the stub.
 */
int os_static_program(const char *path);

/*
 * The write sandbox (Linux's Landlock LSM, unprivileged since 5.13): its
 * ABI version (1, 2, ...), or 0 when there is none, with why in why (the
 * kernel has no Landlock, it is disabled at boot, the stub). Asked once.
 */
int os_sandbox_abi(char *why, size_t size);
/*
 * In a child between fork and exec: from now on this process and all it
 * starts may write (create, change, remove, rename, link) only beneath
 * the directories and files in paths (NULL-terminated; one that does not
 * exist is left out). Reading and executing stay unrestricted. Uses only
 * async-signal-safe calls. 0, or -1 with errno (ENOSYS: no sandbox).
 */
int os_sandbox_apply(const char *const *paths);
/*
 * Make this process the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER): a process a child leaves behind, even in a
 * session of its own, becomes gate's child and can be found and killed.
 * 0, or -1 with errno (ENOSYS in the stub).
 */
int os_subreaper(void);
/*
 * This process's children, up to max of them, into pids: how many there
 * are (which may be more than max), or -1 with errno (ENOSYS in the stub).
 */
long os_children(pid_t *pids, size_t max);
/*
 * posix_spawn_file_actions_addchdir_np: the spawned child starts in dir.
 * 0, or an errno value (ENOSYS where the C library has no such action:
 * the caller starts the child by fork and chdir instead).
 */
int os_spawn_addchdir(posix_spawn_file_actions_t *fa, const char *dir);
/*
 * execvpe: exec file (searched on PATH when it has no '/') with envp.
 * Returns only on failure, -1 with errno. Async-signal-safe in the stub's
 * own version; glibc's on Linux.
 */
int os_execvpe(const char *file, char *const argv[], char *const envp[]);

#endif
