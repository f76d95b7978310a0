/*
 * gate doctor: the environment's noise sources, each checked, explained
 * (what it does to results) and, where it can be fixed, how. Read-only:
 * it changes nothing on the machine.
 */
#include "gate/cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/exec/counter.h"
#include "gate/exec/runner.h"
#include "gate/exec/sysinfo.h"
#include "gate/config/options.h"
#include "common/banned.h"

const struct opts_cmd cmd_doctor_opts = {
	.name = "doctor",
	.intro = "Checks SMT, the frequency governor, turbo, virtualisation, "
		 "the load\naverage, CPU count and isolation, a container and "
		 "its CPU quota,\nhardware counters, valgrind (its version) and "
		 "ASLR, and says what\neach means for measurements and how to "
		 "fix it: \"ok\", \"WARN\",\n\"??\" (gate cannot tell) or "
		 "\"note\" (a way around it).\nexit: 0 (advice only)\n",
};
enum state { OK, WARN, UNKNOWN, NOTE };
static int problems, unknowns;

/*
 * One line, true on this machine: "ok" only when gate knows it is fine;
 * "??" when it cannot tell (an unknown is never ok); "WARN" with what it
 * means and gate's own remedy; "note" for a fact with a way around it.
 */
static void line(const char *name, const char *value, enum state st,
		 const char *meaning, const char *fix)
{
	static const char *const mark[] = { "ok", "WARN", "??", "note" };

	printf("%-4s %-14s %s\n", mark[st], name, value);
	if (st == OK)
		return;
	if (meaning)
		printf("     %s\n", meaning);
	if (fix)
		printf("     fix: %s\n", fix);
	problems += st == WARN;
	unknowns += st == UNKNOWN;
}

static void item(const char *name, const char *value, int ok,
		 const char *meaning, const char *fix)
{
	line(name, value, ok ? OK : WARN, meaning, fix);
}

/* Counters: what instruction counting will use here, and why. */
static void counters_line(const struct machine *m)
{
	char buf[192], vbuf[256], *vg = NULL;
	int have_vg = counter_valgrind_find(&vg, vbuf, sizeof(vbuf)) == 0;
	int vm = strcmp(m->virt, "none") != 0;

	snprintf(buf, sizeof(buf), "%s (perf_event_paranoid %d)", m->counters,
		 m->perf_paranoid);
	if (!strcmp(m->counters, "available")) {
		line("counters", buf, OK, NULL, NULL);
	} else if (strstr(m->counters, "not permitted") &&
		   m->perf_paranoid > 2) {
		line("counters", buf, have_vg ? NOTE : WARN,
		     have_vg ? "perf may not count instructions for this user; "
		     "gate counts them with valgrind instead (installed: "
		     "exact, but each sample runs tens of times slower)" :
		     "perf may not count instructions for this user, and "
		     "valgrind is not installed: \"instructions\" cannot be "
		     "measured here",
		     "sysctl kernel.perf_event_paranoid=2 (as root; 2 is "
		     "enough for gate)");
	} else if (strstr(m->counters, "no hardware counters")) {
		line("counters", buf, have_vg ? NOTE : WARN,
		     have_vg ? (vm ? "this virtual machine exposes no hardware "
		     "counters (PMU); gate counts instructions with valgrind "
		     "instead (installed: exact, but each sample runs tens of "
		     "times slower)" : "no hardware counters (PMU) are exposed; "
		     "gate counts instructions with valgrind instead (installed: "
		     "exact, but slower)") :
		     (vm ? "this virtual machine exposes no hardware counters "
		     "(PMU), and valgrind is not installed: \"instructions\" "
		     "cannot be measured here" : "no hardware counters (PMU) "
		     "are exposed, and valgrind is not installed: "
		     "\"instructions\" cannot be measured here"),
		     have_vg ? (vm ? "optional: have the host expose its PMU "
		     "to the VM (e.g. KVM -cpu host) for faster counting" : NULL) :
		     (vm ? "install valgrind (gate uses it, \"counter\": "
		     "\"valgrind\"), or have the host expose its PMU to the VM"
		     : "install valgrind (gate uses it, \"counter\": "
		     "\"valgrind\")"));
	} else {
		line("counters", buf, have_vg ? NOTE : UNKNOWN,
		     have_vg ? "perf cannot count here; gate counts instructions "
		     "with valgrind instead (installed)" :
		     "perf cannot count here and valgrind is not installed",
		     have_vg ? NULL : "install valgrind (gate uses it, "
		     "\"counter\": \"valgrind\")");
	}
	free(vg);
}

/* The CPUs themselves: how many, and whether a sibling thread shares one. */
static void cpu_lines(const struct machine *m)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%ld online", m->cores);
	if (m->cores < 1)
		line("cpus", "unknown", UNKNOWN, "gate cannot tell how many "
		     "CPUs are online", NULL);
	else
		item("cpus", buf, m->cores >= 2,
		     "with one CPU, gate, the benchmark and everything else "
		     "share it: every sample waits on the scheduler",
		     "use a machine (or runner) with at least 2 CPUs");
	if (!strcmp(m->smt, "unknown"))
		line("smt", m->smt, UNKNOWN, "gate cannot read "
		     "/sys/devices/system/cpu/smt: a sibling hyperthread, if "
		     "any, would slow the benchmark at random", NULL);
	else
		item("smt", m->smt, strcmp(m->smt, "on") != 0,
		     "a sibling hyperthread's work slows the benchmark by "
		     "10-40% at random",
		     "echo off > /sys/devices/system/cpu/smt/control (as "
		     "root), or gate run --pin CPUS on one thread per core");
}

/* What moves the clock under a benchmark: the governor and turbo. */
static void clock_lines(const struct machine *m)
{
	if (!strcmp(m->governor, "unknown"))
		line("governor", m->governor, UNKNOWN, "gate cannot read the "
		     "frequency governor (no cpufreq in /sys: a VM or "
		     "container hides it); the clock may still change under "
		     "the benchmark, which gate's pairs only partly cancel",
		     NULL);
	else
		item("governor", m->governor,
		     !strcmp(m->governor, "performance"),
		     "a dynamic governor changes clock speed under the "
		     "benchmark: the first samples run slower than the rest",
		     "cpupower frequency-set -g performance (as root)");
	if (!strcmp(m->turbo, "unknown"))
		line("turbo", m->turbo, UNKNOWN, "gate cannot read whether "
		     "turbo is on (no intel_pstate or cpufreq boost in /sys); "
		     "if it is, speed drifts with temperature and load", NULL);
	else
		item("turbo", m->turbo, strcmp(m->turbo, "on") != 0,
		     "turbo depends on temperature and on the other cores' "
		     "load, so speed drifts during a run (pairing cancels slow "
		     "drift, not fast)",
		     "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo, "
		     "or 0 > .../cpufreq/boost (as root)");
}

/* Who else runs beside the benchmark: a host's neighbours, the load now,
   and whether any CPU is kept for benchmarks alone. */
static void neighbour_lines(const struct machine *m)
{
	char buf[128];

	if (!strcmp(m->virt, "unknown"))
		line("virtualisation", m->virt, UNKNOWN, "gate cannot read "
		     "the CPU's description (/proc/cpuinfo): in a virtual "
		     "machine, neighbours' load would show up as noise", NULL);
	else
		item("virtualisation", m->virt, !strcmp(m->virt, "none"),
		     "a virtual machine shares its host: neighbours' load "
		     "shows up as noise gate cannot see; expect CVs of 5-30%",
		     "use a dedicated machine for tight floors, or raise "
		     "\"pairs\" and \"min_effect\" (gate calibrate measures "
		     "how much)");
	if (m->load_before[0] < 0) {
		line("load", "unknown", UNKNOWN, "gate cannot read the load "
		     "average", NULL);
	} else {
		snprintf(buf, sizeof(buf), "%.2f (1 min) on %ld CPUs",
			 m->load_before[0], m->cores);
		item("load", buf, m->load_before[0] < (double)m->cores / 2,
		     "other work competes for the CPUs now; results will be "
		     "noisier and gate may call them noisy", "wait for a "
		     "quieter moment or stop the other work");
	}
	if (!strcmp(m->isolated, "unknown"))
		line("isolation", m->isolated, UNKNOWN, "gate cannot read "
		     "/sys/devices/system/cpu/isolated", NULL);
	else
		line("isolation", m->isolated, strcmp(m->isolated, "none") ?
		     OK : NOTE, "no CPU is reserved for benchmarks, so the "
		     "kernel may run other tasks beside them",
		     "optional: boot with isolcpus=N and run gate run --pin N");
}

/* A container, and the CPU time its cgroup may use (CFS quota). */
static void container_lines(const struct machine *m)
{
	double cpus = strtod(m->cpu_quota, NULL);
	char meaning[320];

	if (!strcmp(m->container, "unknown"))
		line("container", m->container, UNKNOWN, "gate cannot read "
		     "/proc/self/cgroup", NULL);
	else
		line("container", m->container, strcmp(m->container, "none") ?
		     NOTE : OK, "a container shares its host's kernel and "
		     "CPUs with the other containers there: their load is "
		     "noise gate cannot see", "none needed; gate calibrate "
		     "measures how much noise this machine has");
	if (!strcmp(m->cpu_quota, "unknown")) {
		line("cpu quota", m->cpu_quota, UNKNOWN, "gate cannot read "
		     "the cgroup's cpu.max or cpu.cfs_quota_us", NULL);
		return;
	}
	snprintf(meaning, sizeof(meaning), "this cgroup may use %s per "
		 "period; whatever runs beyond that (a benchmark's threads, "
		 "gate, a build beside it) is paused until the next period, "
		 "tens of milliseconds added to a sample's wall time at "
		 "random", m->cpu_quota);
	item("cpu quota", m->cpu_quota, cpus <= 0 || cpus >= (double)m->cores,
	     meaning, "run the job without a CPU limit (docker --cpus, "
	     "Kubernetes limits.cpu) or with one above the CPUs it uses, or "
	     "gate \"metric\": \"cpu\", which such pauses do not add to");
}

/*
 * valgrind: what counts "instructions" where perf cannot, and the only
 * source of "cycles" (cachegrind's cache simulation). Its version, since
 * a count recorded under one valgrind may differ under another.
 */
static void valgrind_line(void)
{
	char why[256], ver[64], buf[384], *vg = NULL;

	if (counter_valgrind_find(&vg, why, sizeof(why)) < 0) {
		line("valgrind", "not installed", NOTE, "\"cycles\" "
		     "(cachegrind's cache simulation) cannot be measured "
		     "here, nor \"instructions\" where perf cannot count "
		     "them", "apt-get install valgrind (Debian/Ubuntu), or "
		     "set GATE_VALGRIND to its path");
		return;
	}
	if (run_first_line((char *[]){ vg, (char *)"--version", NULL }, ver,
			   sizeof(ver)) < 0)
		snprintf(ver, sizeof(ver), "version unknown");
	snprintf(buf, sizeof(buf), "%s (%s)", ver, vg);
	line("valgrind", buf, OK, NULL, NULL);
	free(vg);
}

static void aslr_line(const struct machine *m)
{
	if (!strcmp(m->aslr, "unknown"))
		line("aslr", m->aslr, UNKNOWN, "gate cannot read "
		     "/proc/sys/kernel/randomize_va_space", NULL);
	else
		line("aslr", m->aslr, strcmp(m->aslr, "on") ? OK : NOTE,
		     "address randomisation changes memory layout per process, "
		     "a source of a few % variance between samples (gate's "
		     "pairs average it out, and gate run pads the environment "
		     "per sample to vary the rest)",
		     "none needed; for very tight floors, setarch -R gate "
		     "run ... (optional)");
}

int cmd_doctor(int argc, char **argv, struct gate_ctx *ctx)
{
	struct machine m;

	int rc = options_parse(&cmd_doctor_opts, NULL, argc, argv, NULL);

	if (rc != OPTS_GO)
		return rc == OPTS_HELP ? EXIT_PASS : EXIT_ERROR;
	if (gate_ctx_ready(ctx) != CTX_READY)
		return EXIT_PASS;
	problems = unknowns = 0;
	machine_read(&m);
	printf("gate doctor: %s, %s\n\n", m.cpu, m.kernel);
	cpu_lines(&m);
	clock_lines(&m);
	neighbour_lines(&m);
	container_lines(&m);
	counters_line(&m);
	valgrind_line();
	aslr_line(&m);
	printf("\n%d warning%s, %d unknown%s. gate run records these facts "
	       "in its report; gate calibrate measures their combined "
	       "effect.\n", problems, problems == 1 ? "" : "s", unknowns,
	       unknowns == 1 ? "" : "s");
	return EXIT_PASS;
}
