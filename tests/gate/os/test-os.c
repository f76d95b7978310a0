/*
 * The OS layer (gate/os/os.h) and its callers in gate/exec/, on whichever
 * layer this build holds: Linux's reads faked machine files under
 * GATE_SYSROOT and its ELF reader tells static from dynamic programs; the
 * stub (make check-os-stub, macOS) answers "not available" and every
 * caller degrades to "unknown" or an error that says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/tree.h"
#include "gate/exec/alloc.h"
#include "gate/exec/counter.h"
#include "gate/exec/layout.h"
#include "gate/exec/sysinfo.h"
#include "gate/os/os.h"
#include "tests/harness.h"

static int linux_layer(void)
{
	return os_has(OS_FACTS);
}

static void put(const char *root, const char *path, const char *text)
{
	char full[512], dir[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/'));
	     slash++) {
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
	}
	f = fopen(full, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* a faked machine: a VM at paranoid 3 with a PMU, 6 CPUs, ASLR partial */
static void fake_root(char *root, size_t size)
{
	snprintf(root, size, "%s", "/tmp/gate-test-os-XXXXXX");
	if (!mkdtemp(root)) {
		root[0] = '\0';
		return;
	}
	put(root, "/proc/cpuinfo", "model name\t: Faked CPU\n"
	    "flags\t\t: fpu hypervisor\n");
	put(root, "/proc/sys/kernel/perf_event_paranoid", "3\n");
	put(root, "/proc/sys/kernel/randomize_va_space", "1\n");
	put(root, "/proc/loadavg", "0.50 0.25 0.125 1/2 3\n");
	put(root, "/sys/devices/system/cpu/online", "0-3,6-7\n");
	put(root, "/sys/devices/system/cpu/isolated", "6-7\n");
	put(root, "/sys/bus/event_source/devices/cpu/type", "4\n");
	put(root, "/sys/class/dmi/id/sys_vendor", "QEMU\n");
	put(root, "/run/.containerenv", "");
	put(root, "/proc/self/cgroup", "0::/user.slice/job\n");
	put(root, "/sys/fs/cgroup/user.slice/job/cpu.max", "max 100000\n");
	put(root, "/sys/fs/cgroup/user.slice/cpu.max", "250000 100000\n");
}

static void rm_root(const char *root)
{
	if (root[0])
		tree_remove(root, NULL);
}

static void test_os__facts_come_from_the_layer(void)
{
	char root[64], v[64];
	struct os_cpuinfo ci;
	struct machine m;

	fake_root(root, sizeof(root));
	CHECK(root[0]);
	setenv("GATE_SYSROOT", root, 1);
	machine_read(&m);
	if (linux_layer()) {
		CHECK(os_faked());
		CHECK(os_fact(OS_FACT_ASLR, v, sizeof(v)) == 0);
		CHECK_STR(v, "1");
		CHECK(os_fact(OS_FACT_GOVERNOR, v, sizeof(v)) == -1);
		CHECK(os_cpuinfo(&ci) == 0);
		CHECK_STR(ci.model, "Faked CPU");
		CHECK(ci.hypervisor && !ci.perfmon);
		CHECK(os_pmu_registered());
		CHECK_STR(m.cpu, "Faked CPU");
		CHECK_STR(m.virt, "hypervisor (QEMU)");
		CHECK_STR(m.aslr, "partial");
		CHECK_STR(m.isolated, "6-7");
		CHECK_STR(m.container, "podman");
		/* the job has none, its parent slice 2.5 CPUs */
		CHECK_STR(m.cpu_quota, "2.5 CPUs");
		CHECK_STR(m.governor, "unknown");
		CHECK(m.cores == 6);
		CHECK(m.perf_paranoid == 3);
		CHECK_STR(m.counters, "unavailable (not permitted)");
		CHECK_NEAR(m.load_before[2], 0.125, 0);
	} else {
		/* the stub reads no file, faked or not */
		CHECK(!os_faked());
		CHECK(os_fact(OS_FACT_ASLR, v, sizeof(v)) == -1);
		CHECK(os_cpuinfo(&ci) == -1);
		CHECK(!os_pmu_registered());
		CHECK_STR(m.cpu, "unknown");
		CHECK_STR(m.virt, "unknown");
		CHECK_STR(m.aslr, "unknown");
		CHECK_STR(m.smt, "unknown");
		CHECK_STR(m.turbo, "unknown");
		CHECK_STR(m.isolated, "unknown");
		CHECK_STR(m.container, "unknown");
		CHECK_STR(m.cpu_quota, "unknown");
		CHECK(m.perf_paranoid == -99);
		CHECK_STR(m.counters,
			  "unavailable (not supported on this system)");
	}
	unsetenv("GATE_SYSROOT");
	rm_root(root);
}

/*
 * The CPUs counted runs may fill: the online ones (6 faked), fewer under
 * the affinity mask, fewer still under the cgroup quota (2.5: 2 whole).
 */
static void test_os__usable_cpus_respect_affinity_and_quota(void)
{
	char root[64], list[64];

	fake_root(root, sizeof(root));
	CHECK(root[0]);
	unsetenv("GATE_COUNT_JOBS");
	setenv("GATE_SYSROOT", root, 1);
	if (linux_layer()) {
		/* no status file: the mask is unknown, the quota decides */
		CHECK(os_affinity(list, sizeof(list)) == -1);
		CHECK(sysinfo_usable_cpus() == 2);
		put(root, "/proc/self/status", "Name:\tgate\n"
		    "Cpus_allowed:\t1\nCpus_allowed_list:\t0\n");
		CHECK(os_affinity(list, sizeof(list)) == 0);
		CHECK_STR(list, "0");
		CHECK(sysinfo_usable_cpus() == 1);
		/* a mask wider than the quota: the quota */
		put(root, "/proc/self/status", "Cpus_allowed_list:\t0-2,6\n");
		CHECK(sysinfo_usable_cpus() == 2);
		put(root, "/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
		CHECK(sysinfo_usable_cpus() == 4);
		/* the real mask, as a list of this process's CPUs */
		unsetenv("GATE_SYSROOT");
		CHECK(os_affinity(list, sizeof(list)) == 0);
		CHECK(strchr("0123456789", list[0]) != NULL);
	} else {
		CHECK(os_affinity(list, sizeof(list)) == -1);
		CHECK(sysinfo_usable_cpus() >= 1);
	}
	setenv("GATE_COUNT_JOBS", "3", 1);
	CHECK(sysinfo_usable_cpus() == 3);
	unsetenv("GATE_COUNT_JOBS");
	unsetenv("GATE_SYSROOT");
	rm_root(root);
}

static void test_os__pinning_says_when_it_cannot(void)
{
	char msg[512] = "", *warn = NULL;

	error_capture(msg, sizeof(msg), 1);
	CHECK(layout_pin("0-x", &warn, NULL) == -1);
	error_capture(NULL, 0, 0);
	CHECK(warn == NULL);
	if (linux_layer()) {
		CHECK_CONTAINS(msg, "is not a CPU list");
	} else {
		CHECK_CONTAINS(msg, "CPU pinning is not available on this system");
		CHECK_CONTAINS(msg, "leave --pin out");
	}
}

static void test_os__counters_without_perf_fall_to_valgrind(void)
{
	char why[512] = "", msg[1024] = "", *vg = NULL;
	enum counter got = COUNTER_AUTO;
	int r;

	setenv("GATE_PERF", "0", 1);
	CHECK(counter_perf_probe(why, sizeof(why)) == -1);
	CHECK_STR(why, "disabled by GATE_PERF=0");
	unsetenv("GATE_PERF");
	if (linux_layer())
		return;	/* the real counter: tests/test-runner.c */
	CHECK(counter_perf_probe(why, sizeof(why)) == -1);
	CHECK_CONTAINS(why, "not available on this system");
	CHECK(counter_perf_open(0) == -1);
	error_capture(msg, sizeof(msg), 1);
	r = counter_select(&got, &vg, COUNTER_PERF, "benchmark \"b\"", NULL);
	error_capture(NULL, 0, 0);
	CHECK(r == -1);
	CHECK_CONTAINS(msg, "\"counter\": \"valgrind\"");
	CHECK_CONTAINS(msg, "not available on this system");
	free(vg);
}

static void test_os__allocation_counting_needs_the_preload(void)
{
	char msg[1024] = "", *lib = NULL;
	int r;

	setenv("GATE_ALLOC_LIB", "/nonexistent/libgate-alloc.so", 1);
	error_capture(msg, sizeof(msg), 1);
	r = alloc_lib_find(&lib, NULL);
	error_capture(NULL, 0, 0);
	unsetenv("GATE_ALLOC_LIB");
	CHECK(r == -1);
	CHECK(lib == NULL);
	if (linux_layer())
		CHECK_CONTAINS(msg, "is not a readable absolute path");
	else
		CHECK_CONTAINS(msg, "allocation counting is not available "
			       "on this system");
}

/* A 64-bit ELF header with no program headers: no interpreter, static. */
static void write_elf(const char *path, int phnum_interp)
{
	unsigned char h[64 + 56];
	unsigned short phentsize = 56, phnum = (unsigned short)phnum_interp;
	unsigned long long phoff = 64;
	unsigned int pt_interp = 3;
	FILE *f = fopen(path, "wb");

	memset(h, 0, sizeof(h));
	memcpy(h, "\177ELF", 4);
	h[4] = 2;		/* ELFCLASS64 */
	h[5] = 1;		/* little-endian (written as the host's) */
	h[6] = 1;
	memcpy(h + 32, &phoff, 8);
	memcpy(h + 54, &phentsize, 2);
	memcpy(h + 56, &phnum, 2);
	memcpy(h + 64, &pt_interp, 4);	/* p_type of the one header */
	if (!f)
		return;
	fwrite(h, 1, sizeof(h), f);
	fclose(f);
}

static void test_os__static_programs_are_told_from_dynamic(void)
{
	char dir[] = "/tmp/gate-test-elf-XXXXXX", path[64];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/static", dir);
	write_elf(path, 0);
	CHECK(os_static_program(path) == linux_layer());
	snprintf(path, sizeof(path), "%s/dynamic", dir);
	write_elf(path, 1);
	CHECK(os_static_program(path) == 0);
	CHECK(alloc_is_static(path, NULL) == 0);
	snprintf(path, sizeof(path), "%s/missing", dir);
	CHECK(os_static_program(path) == 0);
	tree_remove(dir, NULL);
}

static const struct harness_test tests[] = {
	TEST(test_os__facts_come_from_the_layer),
	TEST(test_os__usable_cpus_respect_affinity_and_quota),
	TEST(test_os__pinning_says_when_it_cannot),
	TEST(test_os__counters_without_perf_fall_to_valgrind),
	TEST(test_os__allocation_counting_needs_the_preload),
	TEST(test_os__static_programs_are_told_from_dynamic),
};

HARNESS_MAIN(tests)
