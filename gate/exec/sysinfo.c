/*
 * The environment disclosure: what each fact the OS layer (gate/os/os.h)
 * reads means. Every fact is optional: a missing one reads "unknown", so
 * gate builds and behaves the same where the layer is the stub.
 */
#include "gate/exec/sysinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "gate/os/os.h"
#include "common/error.h"
#include "common/banned.h"

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

static void read_cpuinfo(struct machine *m)
{
	struct os_cpuinfo ci;

	if (os_cpuinfo(&ci) < 0) {
		copy(m->virt, sizeof(m->virt), "unknown");
		return;
	}
	copy(m->cpu, sizeof(m->cpu), ci.model);
	copy(m->virt, sizeof(m->virt), ci.hypervisor ? "hypervisor" : "none");
	if (ci.perfmon)
		m->pmu = 1;
}

static void read_virt_vendor(struct machine *m)
{
	char vendor[64];

	if (strcmp(m->virt, "hypervisor") != 0)
		return;
	if (os_fact(OS_FACT_VENDOR, vendor, sizeof(vendor)) == 0 && vendor[0])
		snprintf(m->virt, sizeof(m->virt), "hypervisor (%.40s)", vendor);
}

static void read_smt(struct machine *m)
{
	char v[16];

	if (os_fact(OS_FACT_SMT_ACTIVE, v, sizeof(v)))
		copy(m->smt, sizeof(m->smt), "unknown");
	else
		copy(m->smt, sizeof(m->smt), v[0] == '1' ? "on" : "off");
}

static void read_turbo(struct machine *m)
{
	char v[16];

	if (!os_fact(OS_FACT_NO_TURBO, v, sizeof(v)))
		copy(m->turbo, sizeof(m->turbo), v[0] == '1' ? "off" : "on");
	else if (!os_fact(OS_FACT_BOOST, v, sizeof(v)))
		copy(m->turbo, sizeof(m->turbo), v[0] == '1' ? "on" : "off");
	else
		copy(m->turbo, sizeof(m->turbo), "unknown");
}

static void read_aslr(struct machine *m)
{
	char v[16];

	if (os_fact(OS_FACT_ASLR, v, sizeof(v)))
		copy(m->aslr, sizeof(m->aslr), "unknown");
	else
		copy(m->aslr, sizeof(m->aslr), v[0] == '0' ? "off" :
		     v[0] == '1' ? "partial" : "on");
}

/* The container and the CPU time its cgroup may use. */
static void read_container(struct machine *m)
{
	double cpus;

	if (os_container(m->container, sizeof(m->container)) < 0)
		copy(m->container, sizeof(m->container), "unknown");
	if (os_cpu_quota(&cpus) < 0)
		copy(m->cpu_quota, sizeof(m->cpu_quota), "unknown");
	else if (cpus <= 0)
		copy(m->cpu_quota, sizeof(m->cpu_quota), "none");
	else
		snprintf(m->cpu_quota, sizeof(m->cpu_quota), "%.3g CPU%s",
			 cpus, cpus == 1 ? "" : "s");
}

/*
 * Whether this process may count instructions: a real perf_event_open of
 * the hardware instruction counter on itself, closed at once. Denied,
 * absent (many VMs) and a system without it all degrade to a reason,
 * never an error.
 */
static void read_counters(struct machine *m)
{
	char v[16];
	int fd;

	m->perf_paranoid = -99;
	if (!os_fact(OS_FACT_PERF_PARANOID, v, sizeof(v)))
		m->perf_paranoid = (int)strtol(v, NULL, 10);
	/* a hardware PMU registered with perf, or the CPU flag for it */
	if (os_pmu_registered())
		m->pmu = 1;
	if (!os_has(OS_PERF)) {
		copy(m->counters, sizeof(m->counters),
		     "unavailable (not supported on this system)");
		return;
	}
	if (os_faked()) {
		/* faked: judge from the files alone */
		if (!m->pmu)
			copy(m->counters, sizeof(m->counters),
			     "unavailable (no hardware counters exposed)");
		else if (m->perf_paranoid > 2)
			copy(m->counters, sizeof(m->counters),
			     "unavailable (not permitted)");
		else
			copy(m->counters, sizeof(m->counters), "available");
		return;
	}
	fd = os_perf_instructions(0, 0);
	if (fd >= 0) {
		close(fd);
		copy(m->counters, sizeof(m->counters), "available");
	} else if ((errno == EACCES || errno == EPERM) && m->pmu) {
		copy(m->counters, sizeof(m->counters),
		     "unavailable (not permitted)");
	} else if (errno == ENOENT || errno == EOPNOTSUPP ||
		   errno == ENODEV || !m->pmu) {
		copy(m->counters, sizeof(m->counters),
		     "unavailable (no hardware counters exposed)");
	} else {
		snprintf(m->counters, sizeof(m->counters),
			 "unavailable (%s)", strerror(errno));
	}
}

static void read_load(double load[3])
{
	char v[128];

	if (os_faked()) {
		if (os_fact(OS_FACT_LOADAVG, v, sizeof(v)) ||
		    sscanf(v, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
			load[0] = load[1] = load[2] = -1;
		return;
	}
	if (getloadavg(load, 3) != 3)
		load[0] = load[1] = load[2] = -1;
}

/* "0-3,6" from /sys/devices/system/cpu/online: how many CPUs. */
static long count_cpu_list(const char *list)
{
	long n = 0, a, b;
	const char *p = list;
	char *end;

	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p)
			return -1;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		p = end + (*end == ',');
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

void machine_read(struct machine *m)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	read_cpuinfo(m);
	read_virt_vendor(m);
	if (!m->cpu[0])
		copy(m->cpu, sizeof(m->cpu), "unknown");
	m->cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (os_faked()) {
		char list[256];

		m->cores = os_fact(OS_FACT_ONLINE, list, sizeof(list)) ? -1 :
			   count_cpu_list(list);
	}
	read_smt(m);
	if (os_fact(OS_FACT_GOVERNOR, m->governor, sizeof(m->governor)))
		copy(m->governor, sizeof(m->governor), "unknown");
	read_turbo(m);
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%.20s %.60s %.20s", u.sysname,
			 u.release, u.machine);
	else
		copy(m->kernel, sizeof(m->kernel), "unknown");
	read_aslr(m);
	if (os_fact(OS_FACT_ISOLATED, m->isolated, sizeof(m->isolated)))
		copy(m->isolated, sizeof(m->isolated), "unknown");
	else if (!m->isolated[0])
		copy(m->isolated, sizeof(m->isolated), "none");
	read_container(m);
	read_counters(m);
	read_load(m->load_before);
	m->load_after[0] = m->load_after[1] = m->load_after[2] = -1;
}

void machine_read_load_after(struct machine *m)
{
	read_load(m->load_after);
}

unsigned sysinfo_usable_cpus(void)
{
	const char *env = getenv("GATE_COUNT_JOBS");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), allowed;
	double quota;
	char list[1024];

	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v >= 1 && v <= 1024)
			return (unsigned)v;
		warning("GATE_COUNT_JOBS=%s is not a whole number from 1 to "
			"1024: ignored (the usable CPUs decide)", env);
	}
	if (os_faked())
		cpus = os_fact(OS_FACT_ONLINE, list, sizeof(list)) ? 1 :
		       count_cpu_list(list);
	/* taskset, a cpuset: the CPUs this process may run on at all */
	if (os_affinity(list, sizeof(list)) == 0 &&
	    (allowed = count_cpu_list(list)) >= 1 && allowed < cpus)
		cpus = allowed;
	if (os_cpu_quota(&quota) == 0 && quota > 0 && quota < (double)cpus)
		cpus = (long)quota;
	return cpus >= 1 ? (unsigned)cpus : 1;
}
