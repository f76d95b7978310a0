/*
 * The OS layer where Linux's facilities are absent (see os.h): macOS, the
 * BSDs, and Linux built with `make OS=stub` to prove that the rest of gate
 * builds and works without them. Every answer is "not available on this
 * system": no counters, no pinning, no preload, every fact unknown. The
 * callers in gate/exec/ already degrade on these answers (valgrind counts
 * instructions, reports say "unknown", allocation metrics say why they
 * are missing). Only standard C and POSIX here.
 */
#include "gate/os/os.h"

#include <errno.h>
#include <string.h>

#include "common/banned.h"

int os_has(enum os_facility facility)
{
	(void)facility;
	return 0;
}

const char *os_name(void)
{
	return "stub";
}

int os_fact(enum os_fact fact, char *buf, size_t size)
{
	(void)fact;
	if (size)
		buf[0] = '\0';
	return -1;
}

int os_cpuinfo(struct os_cpuinfo *ci)
{
	memset(ci, 0, sizeof(*ci));
	return -1;
}

int os_container(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return -1;
}

int os_cpu_quota(double *cpus)
{
	*cpus = 0;
	return -1;
}

int os_pmu_registered(void)
{
	return 0;
}

int os_faked(void)
{
	return 0;
}

int os_perf_instructions(pid_t pid, unsigned flags)
{
	(void)pid;
	(void)flags;
	errno = ENOSYS;
	return -1;
}

int os_set_affinity(const unsigned char *cpus, int n)
{
	(void)cpus;
	(void)n;
	errno = ENOSYS;
	return -1;
}

int os_self_exe(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return -1;
}

int os_static_program(const char *path)
{
	(void)path;
	return 0;
}
