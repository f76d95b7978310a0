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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/banned.h"

int os_has(enum os_facility facility)
{
	(void)facility;
	return 0;
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

int os_affinity(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
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

int os_sandbox_abi(char *why, size_t size)
{
	if (why && size)
		snprintf(why, size, "gate was built with the OS layer's stub, "
			 "which has no Landlock");
	return 0;
}

int os_sandbox_apply(const char *const *paths)
{
	(void)paths;
	errno = ENOSYS;
	return -1;
}

int os_subreaper(void)
{
	errno = ENOSYS;
	return -1;
}

long os_children(pid_t *pids, size_t max)
{
	(void)pids;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int os_spawn_addchdir(posix_spawn_file_actions_t *fa, const char *dir)
{
	(void)fa;
	(void)dir;
	return ENOSYS;
}

/* execvpe by hand (macOS and the BSDs lack it): the PATH search with a
   fixed buffer, no allocation, so it is safe between fork and exec. */
int os_execvpe(const char *file, char *const argv[], char *const envp[])
{
	const char *path = getenv("PATH"), *p, *end;
	char full[PATH_MAX];
	size_t dlen, flen = strlen(file);
	int err = ENOENT;

	if (strchr(file, '/'))
		return execve(file, argv, envp);
	for (p = path && *path ? path : "/usr/bin:/bin"; ; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		dlen = (size_t)(end - p);
		if (dlen + flen + 2 <= sizeof(full)) {
			memcpy(full, dlen ? p : ".", dlen ? dlen : 1);
			dlen = dlen ? dlen : 1;
			full[dlen] = '/';
			memcpy(full + dlen + 1, file, flen + 1);
			execve(full, argv, envp);
			if (errno != ENOENT)
				err = errno;
		}
		if (!*end)
			break;
	}
	errno = err;
	return -1;
}
