/*
 * The environment disclosure. This is the one OS layer for descriptive
 * data: each Linux file read is optional, and a missing one reads
 * "unknown" so gate builds and behaves the same on macOS.
 */
#include "gate/exec/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef __linux__
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

#include "common/banned.h"

/*
 * GATE_SYSROOT (for tests; documented in gate-doctor(1)) names a directory
 * standing in for / when reading /proc and /sys, so that every doctor
 * line can be checked against faked machine files. Under it nothing is
 * probed on the real machine: counters are judged from the faked files.
 */
static const char *sysroot(void)
{
	const char *r = getenv("GATE_SYSROOT");

	return r && *r ? r : NULL;
}

static FILE *open_sys(const char *path)
{
	char full[4096];

	if (!sysroot())
		return fopen(path, "r");
	snprintf(full, sizeof(full), "%s%s", sysroot(), path);
	return fopen(full, "r");
}

static int exists_sys(const char *path)
{
	FILE *f = open_sys(path);

	if (f)
		fclose(f);
	return f != NULL;
}

/* First line of path into buf, trimmed; 0 or -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = open_sys(path);
	size_t len;

	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strcspn(buf, "\n");
	buf[len] = '\0';
	return 0;
}

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

static void read_cpuinfo(struct machine *m)
{
	char line[512];
	FILE *f = open_sys("/proc/cpuinfo");

	copy(m->virt, sizeof(m->virt), "unknown");
	if (!f)
		return;
	copy(m->virt, sizeof(m->virt), "none");
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "model name", 10) && !m->cpu[0]) {
			char *v = colon + 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			copy(m->cpu, sizeof(m->cpu), v);
		} else if (!strncmp(line, "flags", 5)) {
			if (strstr(colon, " hypervisor"))
				copy(m->virt, sizeof(m->virt), "hypervisor");
			if (strstr(colon, " arch_perfmon"))
				m->pmu = 1;
		}
	}
	fclose(f);
}

static void read_virt_vendor(struct machine *m)
{
	char vendor[64];

	if (strcmp(m->virt, "hypervisor") != 0)
		return;
	if (read_line("/sys/class/dmi/id/sys_vendor", vendor,
		      sizeof(vendor)) == 0 && vendor[0])
		snprintf(m->virt, sizeof(m->virt), "hypervisor (%.40s)", vendor);
}

static void read_smt(struct machine *m)
{
	char v[16];

	if (read_line("/sys/devices/system/cpu/smt/active", v, sizeof(v)))
		copy(m->smt, sizeof(m->smt), "unknown");
	else
		copy(m->smt, sizeof(m->smt), v[0] == '1' ? "on" : "off");
}

static void read_turbo(struct machine *m)
{
	char v[16];

	if (!read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v,
		       sizeof(v)))
		copy(m->turbo, sizeof(m->turbo), v[0] == '1' ? "off" : "on");
	else if (!read_line("/sys/devices/system/cpu/cpufreq/boost", v,
			    sizeof(v)))
		copy(m->turbo, sizeof(m->turbo), v[0] == '1' ? "on" : "off");
	else
		copy(m->turbo, sizeof(m->turbo), "unknown");
}

static void read_aslr(struct machine *m)
{
	char v[16];

	if (read_line("/proc/sys/kernel/randomize_va_space", v, sizeof(v)))
		copy(m->aslr, sizeof(m->aslr), "unknown");
	else
		copy(m->aslr, sizeof(m->aslr), v[0] == '0' ? "off" :
		     v[0] == '1' ? "partial" : "on");
}

/*
 * Whether this process may count instructions: a real perf_event_open of
 * the hardware instruction counter on itself, closed at once. Denied,
 * absent (many VMs) and non-Linux all degrade to a reason, never an error.
 */
static void read_counters(struct machine *m)
{
	char v[16];

	m->perf_paranoid = -99;
	if (!read_line("/proc/sys/kernel/perf_event_paranoid", v, sizeof(v)))
		m->perf_paranoid = (int)strtol(v, NULL, 10);
	/* a hardware PMU registered with perf (x86 "cpu", hybrid
	 * "cpu_core", arm "armv8_pmuv3..."), or the CPU flag for it */
	if (exists_sys("/sys/bus/event_source/devices/cpu/type") ||
	    exists_sys("/sys/bus/event_source/devices/cpu_core/type") ||
	    exists_sys("/sys/bus/event_source/devices/armv8_pmuv3_0/type"))
		m->pmu = 1;
	if (sysroot()) {
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
#ifdef __linux__
	{
		struct perf_event_attr a;
		long fd;

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_HARDWARE;
		a.size = sizeof(a);
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd >= 0) {
			close((int)fd);
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
#else
	copy(m->counters, sizeof(m->counters), "unknown");
#endif
}

static void read_load(double load[3])
{
	char v[128];

	if (sysroot()) {
		if (read_line("/proc/loadavg", v, sizeof(v)) ||
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
	if (sysroot()) {
		char list[256];

		m->cores = read_line("/sys/devices/system/cpu/online", list,
				     sizeof(list)) ? -1 : count_cpu_list(list);
	}
	read_smt(m);
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		      m->governor, sizeof(m->governor)))
		copy(m->governor, sizeof(m->governor), "unknown");
	read_turbo(m);
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%.20s %.60s %.20s", u.sysname,
			 u.release, u.machine);
	else
		copy(m->kernel, sizeof(m->kernel), "unknown");
	read_aslr(m);
	if (read_line("/sys/devices/system/cpu/isolated", m->isolated,
		      sizeof(m->isolated)))
		copy(m->isolated, sizeof(m->isolated), "unknown");
	else if (!m->isolated[0])
		copy(m->isolated, sizeof(m->isolated), "none");
	read_counters(m);
	read_load(m->load_before);
	m->load_after[0] = m->load_after[1] = m->load_after[2] = -1;
}

void machine_read_load_after(struct machine *m)
{
	read_load(m->load_after);
}
