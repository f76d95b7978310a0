/*
 * The OS layer on Linux (see os.h): perf_event_open, sched_setaffinity,
 * /proc and /sys, /proc/self/exe, ELF headers, Landlock, the subreaper,
 * posix_spawn's chdir action and execvpe. Only the asking is here;
 * what an answer means is decided by the callers in gate/exec/.
 */
#define _GNU_SOURCE	/* cpu_set_t, sched_setaffinity */
#include "gate/os/os.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/landlock.h>
#include <linux/perf_event.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "common/banned.h"

int os_has(enum os_facility facility)
{
	(void)facility;
	return 1;
}

/*
 * GATE_SYSROOT (for tests; documented in gate-doctor(1)) names a directory
 * standing in for / when reading /proc and /sys, so that every doctor
 * line can be checked against faked machine files.
 */
static const char *sysroot(void)
{
	const char *r = getenv("GATE_SYSROOT");

	return r && *r ? r : NULL;
}

int os_faked(void)
{
	return sysroot() != NULL;
}

static FILE *open_sys(const char *path)
{
	char full[4096];

	if (!sysroot())
		return fopen(path, "r");
	snprintf(full, sizeof(full), "%s%s", sysroot(), path);
	return fopen(full, "r");
}

static const char *const fact_path[] = {
	[OS_FACT_SMT_ACTIVE] = "/sys/devices/system/cpu/smt/active",
	[OS_FACT_GOVERNOR] =
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	[OS_FACT_NO_TURBO] = "/sys/devices/system/cpu/intel_pstate/no_turbo",
	[OS_FACT_BOOST] = "/sys/devices/system/cpu/cpufreq/boost",
	[OS_FACT_ASLR] = "/proc/sys/kernel/randomize_va_space",
	[OS_FACT_ISOLATED] = "/sys/devices/system/cpu/isolated",
	[OS_FACT_ONLINE] = "/sys/devices/system/cpu/online",
	[OS_FACT_PERF_PARANOID] = "/proc/sys/kernel/perf_event_paranoid",
	[OS_FACT_VENDOR] = "/sys/class/dmi/id/sys_vendor",
	[OS_FACT_LOADAVG] = "/proc/loadavg",
};

int os_fact(enum os_fact fact, char *buf, size_t size)
{
	FILE *f;

	if ((unsigned)fact >= sizeof(fact_path) / sizeof(*fact_path) ||
	    size == 0 || size > INT32_MAX)
		return -1;
	f = open_sys(fact_path[fact]);
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int os_cpuinfo(struct os_cpuinfo *ci)
{
	char line[512];
	FILE *f = open_sys("/proc/cpuinfo");

	memset(ci, 0, sizeof(*ci));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "model name", 10) && !ci->model[0]) {
			char *v = colon + 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(ci->model, sizeof(ci->model), "%s", v);
		} else if (!strncmp(line, "flags", 5)) {
			if (strstr(colon, " hypervisor"))
				ci->hypervisor = 1;
			if (strstr(colon, " arch_perfmon"))
				ci->perfmon = 1;
		}
	}
	fclose(f);
	return 0;
}

static int exists_sys(const char *path)
{
	FILE *f = open_sys(path);

	if (f)
		fclose(f);
	return f != NULL;
}

int os_pmu_registered(void)
{
	/* x86 "cpu", hybrid "cpu_core", arm "armv8_pmuv3..." */
	return exists_sys("/sys/bus/event_source/devices/cpu/type") ||
	       exists_sys("/sys/bus/event_source/devices/cpu_core/type") ||
	       exists_sys("/sys/bus/event_source/devices/armv8_pmuv3_0/type");
}

int os_container(char *buf, size_t size)
{
	/* marks of a container's own cgroup, not of a service on a host
	   (a host's containerd.service or docker.service is not one) */
	static const char *const kinds[] = {
		"/kubepods", "kubernetes", "/docker/", "docker",
		"/docker-", "docker", "/cri-containerd-", "containerd",
		"/lxc/", "lxc", "/lxc.payload", "lxc"
	};
	char line[512];
	FILE *f;
	size_t i;

	if (exists_sys("/.dockerenv")) {
		snprintf(buf, size, "docker");
		return 0;
	}
	if (exists_sys("/run/.containerenv")) {
		snprintf(buf, size, "podman");
		return 0;
	}
	if (!(f = open_sys("/proc/self/cgroup")))
		return -1;
	snprintf(buf, size, "none");
	while (fgets(line, sizeof(line), f))
		for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i += 2)
			if (strstr(line, kinds[i])) {
				snprintf(buf, size, "%s", kinds[i + 1]);
				fclose(f);
				return 0;
			}
	fclose(f);
	return 0;
}

/* The first number pair of file path ("max 100000" reads as q < 0). */
static int read_pair(const char *path, double *q, double *period)
{
	char line[128];
	FILE *f = open_sys(path);
	int ok;

	if (!f)
		return -1;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	if (!strncmp(line, "max", 3)) {
		*q = -1;
		return 0;
	}
	return sscanf(line, "%lf %lf", q, period) >= 1 ? 0 : -1;
}

/* Tighten *cpus by the limit in dir: v2's cpu.max (v2 1), else v1's pair. */
static int quota_at(const char *dir, int v2, double *cpus)
{
	char path[4096];
	double q = -1, period = 100000;
	int found;

	if (v2) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpu.max", dir);
		found = read_pair(path, &q, &period) == 0;
	} else {
		snprintf(path, sizeof(path),
			 "/sys/fs/cgroup/cpu%s/cpu.cfs_quota_us", dir);
		found = read_pair(path, &q, &period) == 0;
		snprintf(path, sizeof(path),
			 "/sys/fs/cgroup/cpu%s/cpu.cfs_period_us", dir);
		if (found && read_pair(path, &period, &period) < 0)
			period = 100000;
	}
	if (found && q > 0 && period > 0 &&
	    (*cpus == 0 || q / period < *cpus))
		*cpus = q / period;
	return found;
}

/* From cgroup dir up to the root: the tightest limit (quota_at). */
static int quota_up(char *dir, int v2, double *cpus)
{
	char *slash;
	int found = 0;

	for (;;) {
		found |= quota_at(dir, v2, cpus);
		if (!dir[0] || !(slash = strrchr(dir, '/')))
			break;
		*slash = '\0';
	}
	return found;
}

/*
 * One line of /proc/self/cgroup ("ID:CONTROLLERS:PATH"): its path into
 * v2 (the unified hierarchy's "0::PATH") or v1 (a controller list that
 * holds "cpu", in any order: "cpu,cpuacct", RHEL 7's "cpuacct,cpu"); the
 * root is "". The path may itself hold ':'.
 */
static void cgroup_line(char *line, char *v2, char *v1, size_t size)
{
	char *ctl = strchr(line, ':'), *path, *c, *save;

	if (!ctl || !(path = strchr(ctl + 1, ':')))
		return;
	*ctl++ = '\0';
	*path++ = '\0';
	path[strcspn(path, "\n")] = '\0';
	if (!strcmp(path, "/"))
		path = (char *)"";
	if (!strcmp(line, "0") && !*ctl) {
		snprintf(v2, size, "%s", path);
		return;
	}
	for (c = strtok_r(ctl, ",", &save); c; c = strtok_r(NULL, ",", &save))
		if (!strcmp(c, "cpu"))
			snprintf(v1, size, "%s", path);
}

int os_cpu_quota(double *cpus)
{
	char line[4096], v2[2048] = "", v1[2048] = "";
	FILE *f = open_sys("/proc/self/cgroup");
	int found;

	*cpus = 0;
	if (f) {
		while (fgets(line, sizeof(line), f))
			cgroup_line(line, v2, v1, sizeof(v2));
		fclose(f);
	}
	/* each hierarchy at its own path: on a hybrid machine the cpu
	   controller is v1's, and the unified line names another cgroup */
	found = quota_up(v2, 1, cpus);
	found |= quota_up(v1, 0, cpus);
	return found ? 0 : -1;
}

int os_perf_instructions(pid_t pid, unsigned flags)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.inherit = !!(flags & OS_PERF_INHERIT);
	a.enable_on_exec = !!(flags & OS_PERF_ENABLE_ON_EXEC);
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int os_set_affinity(const unsigned char *cpus, int n)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < n; i++) {
		if (!cpus[i])
			continue;
		if (i >= CPU_SETSIZE) {
			errno = EINVAL;
			return -1;
		}
		CPU_SET(i, &set);
	}
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The faked mask: DIR/proc/self/status's "Cpus_allowed_list:" line. */
static int affinity_faked(char *buf, size_t size)
{
	static const char key[] = "Cpus_allowed_list:";
	char line[1024];
	FILE *f = open_sys("/proc/self/status");
	int rc = -1;

	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, sizeof(key) - 1)) {
			char *v = line + sizeof(key) - 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			rc = (size_t)snprintf(buf, size, "%s", v) < size ? 0 : -1;
		}
	fclose(f);
	return rc;
}

int os_affinity(char *buf, size_t size)
{
	cpu_set_t *set = CPU_ALLOC(OS_CPU_MAX);
	size_t setsize = CPU_ALLOC_SIZE(OS_CPU_MAX), len = 0;
	int i, a = -1, rc = -1;

	if (sysroot() || !set) {
		CPU_FREE(set);
		return affinity_faked(buf, size);
	}
	if (!size || sched_getaffinity(0, setsize, set) < 0)
		goto cleanup;
	buf[0] = '\0';
	/* each run of set CPUs as "a" or "a-b", comma-separated */
	for (i = 0; i <= OS_CPU_MAX; i++) {
		int in = i < OS_CPU_MAX && CPU_ISSET_S((size_t)i, setsize, set);
		int n;

		if (in && a < 0)
			a = i;
		if (in || a < 0)
			continue;
		n = a == i - 1 ?
		    snprintf(buf + len, size - len, "%s%d", len ? "," : "", a) :
		    snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", a,
			     i - 1);
		if (n < 0 || (size_t)n >= size - len)
			goto cleanup;
		len += (size_t)n;
		a = -1;
	}
	rc = 0;
cleanup:
	CPU_FREE(set);
	return rc;
}

int os_self_exe(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

int os_static_program(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i, ret = 0, dyn = 0;

	if (!f)
		return 0;
	/* 64-bit ELF only; anything else is left to the missing records */
	if (fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph))
		goto done;
	for (i = 0; i < eh.e_phnum; i++) {
		if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * sizeof(ph)),
			  SEEK_SET) || fread(&ph, sizeof(ph), 1, f) != 1)
			goto done;
		if (ph.p_type == PT_INTERP)
			dyn = 1;
	}
	ret = !dyn;
done:
	fclose(f);
	return ret;
}

/* Landlock's rights by the ABI that brought them (older headers lack the
   later ones: their values are the kernel's, fixed forever) */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#define SANDBOX_FILE_RIGHTS (LANDLOCK_ACCESS_FS_WRITE_FILE | \
			     LANDLOCK_ACCESS_FS_TRUNCATE)
#define SANDBOX_ABI1_RIGHTS (LANDLOCK_ACCESS_FS_WRITE_FILE | \
	LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | \
	LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | \
	LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | \
	LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | \
	LANDLOCK_ACCESS_FS_MAKE_SYM)

static int sandbox_abi = -1;	/* asked once, before any fork */
static int sandbox_errno;

int os_sandbox_abi(char *why, size_t size)
{
	if (sandbox_abi < 0) {
		long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
				 LANDLOCK_CREATE_RULESET_VERSION);

		sandbox_errno = v < 0 ? errno : 0;
		sandbox_abi = v < 0 ? 0 : (int)v;
	}
	if (!sandbox_abi && why && size)
		snprintf(why, size, "%s", sandbox_errno == EOPNOTSUPP ?
			 "Landlock is disabled in this kernel: add landlock "
			 "to its lsm= boot option" : sandbox_errno == ENOSYS ?
			 "this kernel has no Landlock: it needs Linux 5.13 or "
			 "later built with CONFIG_SECURITY_LANDLOCK" :
			 strerror(sandbox_errno));
	return sandbox_abi;
}

/*
 * Only writes are handled (so denied outside the rules): reading and
 * executing stay free, so the toolchain and the benchmark's inputs work
 * as before. REFER (ABI 2) keeps a rename or link from moving a file
 * across the fence; TRUNCATE (ABI 3) an O_TRUNC on a file opened for
 * reading elsewhere. IOCTL_DEV (ABI 5) is not handled: ioctls on the
 * terminal or /dev/null write no file.
 */
int os_sandbox_apply(const char *const *paths)
{
	struct landlock_ruleset_attr attr;
	unsigned long long handled = SANDBOX_ABI1_RIGHTS;
	int abi = os_sandbox_abi(NULL, 0), rs, e;
	size_t i;

	if (!abi) {
		errno = ENOSYS;
		return -1;
	}
	if (abi >= 2)
		handled |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = handled;
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (rs < 0)
		return -1;
	for (i = 0; paths[i]; i++) {
		struct landlock_path_beneath_attr pb;
		struct stat st;
		int fd = open(paths[i], O_PATH | O_CLOEXEC);

		if (fd < 0)
			continue;	/* absent: nothing to allow */
		if (fstat(fd, &st) < 0) {
			close(fd);
			continue;
		}
		memset(&pb, 0, sizeof(pb));
		pb.parent_fd = fd;
		/* a file takes only the rights that apply to a file */
		pb.allowed_access = S_ISDIR(st.st_mode) ? handled :
				    handled & SANDBOX_FILE_RIGHTS;
		if (syscall(SYS_landlock_add_rule, rs,
			    LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0) {
			e = errno;
			close(fd);
			close(rs);
			errno = e;
			return -1;
		}
		close(fd);
	}
	/* unprivileged: the process gives up gaining privileges first */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, rs, 0) < 0) {
		e = errno;
		close(rs);
		errno = e;
		return -1;
	}
	close(rs);
	return 0;
}

int os_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* The children of one thread ("pid pid ..."), from
   /proc/self/task/TID/children; -1 when the file is not there. */
static long task_children(const char *tid, pid_t *pids, size_t max,
			  long n)
{
	char path[300], buf[4096];
	FILE *f;
	size_t len;
	char *p, *end;

	snprintf(path, sizeof(path), "/proc/self/task/%s/children", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (p = buf; ; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if ((size_t)n < max)
			pids[n] = (pid_t)v;
		n++;
	}
	return n;
}

/*
 * Every thread's children file (CONFIG_PROC_CHILDREN, in every common
 * kernel): an orphan may be given to any thread of the reaper. Without
 * the files, the ppid of every process in /proc.
 */
long os_children(pid_t *pids, size_t max)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");
	long n = 0, r;
	pid_t self = getpid();

	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			r = task_children(de->d_name, pids, max, n);
			if (r < 0) {
				closedir(d);
				goto scan;
			}
			n = r;
		}
		closedir(d);
		return n;
	}
scan:
	n = 0;
	if (!(d = opendir("/proc")))
		return -1;
	while ((de = readdir(d))) {
		char path[300], buf[512], *close_paren;
		FILE *f;
		long ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		buf[0] = '\0';
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		/* "pid (comm) state ppid": comm may hold anything */
		close_paren = strrchr(buf, ')');
		if (!close_paren ||
		    sscanf(close_paren + 1, " %*c %ld", &ppid) != 1 ||
		    ppid != self)
			continue;
		if ((size_t)n < max)
			pids[n] = (pid_t)strtol(de->d_name, NULL, 10);
		n++;
	}
	closedir(d);
	return n;
}

int os_spawn_addchdir(posix_spawn_file_actions_t *fa, const char *dir)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 29)
	return posix_spawn_file_actions_addchdir_np(fa, dir);
#else
	(void)fa;
	(void)dir;
	return ENOSYS;
#endif
}

int os_execvpe(const char *file, char *const argv[], char *const envp[])
{
	return execvpe(file, argv, envp);
}
