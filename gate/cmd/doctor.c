/*
 * gate doctor: the environment's noise sources, each checked, explained
 * (what it does to results) and, where it can be fixed, how. Read-only:
 * it changes nothing on the machine.
 */
#include "gate/cmd.h"

#include <stdio.h>
#include <string.h>

#include "gate/exec/sysinfo.h"
#include "common/banned.h"

const char cmd_doctor_usage[] =
	"usage: gate doctor\n"
	"\n"
	"Checks SMT, the frequency governor, turbo, virtualisation, the load\n"
	"average, CPU count and isolation, hardware counters and ASLR, and\n"
	"says what each means for measurements and how to fix it.\n"
	"exit: 0 (advice only)\n";

static int problems;

static void item(const char *name, const char *value, int ok,
		 const char *meaning, const char *fix)
{
	printf("%-4s %-14s %s\n", ok ? "ok" : "WARN", name, value);
	if (!ok) {
		printf("     %s\n", meaning);
		if (fix)
			printf("     fix: %s\n", fix);
		problems++;
	}
}

int cmd_doctor(int argc, char **argv, struct gate_ctx *ctx)
{
	struct machine m;
	char buf[128];

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(cmd_doctor_usage, stdout);
		return EXIT_PASS;
	}
	if (argc > 1) {
		fprintf(stderr, "gate: error: unexpected argument \"%s\"\n",
			argv[1]);
		fputs(cmd_doctor_usage, stderr);
		return EXIT_ERROR;
	}
	if (gate_ctx_ready(ctx) != 0)
		return EXIT_PASS;
	problems = 0;
	machine_read(&m);
	printf("gate doctor: %s, %s\n\n", m.cpu, m.kernel);
	snprintf(buf, sizeof(buf), "%ld online", m.cores);
	item("cpus", buf, m.cores >= 2,
	     "with one CPU, gate, the benchmark and everything else share it: "
	     "every sample waits on the scheduler",
	     "use a machine (or runner) with at least 2 CPUs");
	item("smt", m.smt, strcmp(m.smt, "on") != 0,
	     "a sibling hyperthread's work slows the benchmark by 10-40% at "
	     "random",
	     "echo off > /sys/devices/system/cpu/smt/control (as root)");
	item("governor", m.governor, !strcmp(m.governor, "performance") ||
	     !strcmp(m.governor, "unknown"),
	     "a dynamic governor changes clock speed under the benchmark: the "
	     "first samples run slower than the rest",
	     "cpupower frequency-set -g performance (as root)");
	item("turbo", m.turbo, strcmp(m.turbo, "on") != 0,
	     "turbo depends on temperature and on the other cores' load, so "
	     "speed drifts during a run (pairing cancels slow drift, not fast)",
	     "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo, or 0 > "
	     ".../cpufreq/boost (as root)");
	item("virtualisation", m.virt, !strcmp(m.virt, "none"),
	     "a virtual machine shares its host: neighbours' load shows up as "
	     "noise gate cannot see; expect CVs of 5-30%",
	     "use a dedicated machine for tight floors, or raise \"pairs\" "
	     "and \"min_effect\" (gate calibrate measures how much)");
	snprintf(buf, sizeof(buf), "%.2f (1 min) on %ld CPUs", m.load_before[0],
		 m.cores);
	item("load", buf, m.load_before[0] >= 0 &&
	     m.load_before[0] < (double)m.cores / 2,
	     "other work competes for the CPUs now; results will be noisier "
	     "and gate may call them noisy", "wait for a quieter moment or "
	     "stop the other work");
	item("isolation", m.isolated, strcmp(m.isolated, "none") != 0 &&
	     strcmp(m.isolated, "unknown") != 0,
	     "no CPU is reserved for benchmarks, so the kernel may run other "
	     "tasks beside them",
	     "boot with isolcpus=N and run gate under taskset -c N (optional)");
	snprintf(buf, sizeof(buf), "%s (perf_event_paranoid %d)", m.counters,
		 m.perf_paranoid);
	item("counters", buf, !strcmp(m.counters, "available"),
	     "instruction counts (exact, noise-free) cannot be measured here",
	     "sysctl kernel.perf_event_paranoid=1 (as root); in a VM the host "
	     "must expose the PMU");
	item("aslr", m.aslr, strcmp(m.aslr, "on") != 0,
	     "address randomisation changes memory layout per process, a "
	     "source of a few % variance between samples (gate's pairs "
	     "average it out; disabling only helps very tight floors)",
	     "setarch -R gate run ... for a run without it (optional)");
	printf("\n%d warning%s. gate run records these facts in its report; "
	       "gate calibrate measures their combined effect.\n", problems,
	       problems == 1 ? "" : "s");
	return EXIT_PASS;
}
