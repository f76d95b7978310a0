# gate doctor on faked /proc and /sys (GATE_SYSROOT, read through the OS
# layer): every line true for the machine the files describe, with gate's
# own remedy: a VM without a PMU, with and without valgrind, and a bare
# machine with a PMU at perf_event_paranoid 3 and 2.
. "$(dirname "$0")/lib.sh"
needs_os "/proc and /sys"
cd "$SCRATCH"

# fake_machine DIR: a VM (hypervisor flag, no PMU), paranoid 2, no cpufreq
fake_machine() {
	mkdir -p "$1/proc/sys/kernel" "$1/sys/devices/system/cpu/smt"
	printf 'model name\t: Fake CPU\nflags\t\t: fpu sse2 hypervisor\n' >"$1/proc/cpuinfo"
	echo 2 >"$1/proc/sys/kernel/perf_event_paranoid"
	echo 2 >"$1/proc/sys/kernel/randomize_va_space"
	echo "0.10 0.20 0.30 1/100 999" >"$1/proc/loadavg"
	echo 0-3 >"$1/sys/devices/system/cpu/online"
	echo 0 >"$1/sys/devices/system/cpu/smt/active"
	echo >"$1/sys/devices/system/cpu/isolated"
	# cgroup v2, no container, no CPU limit
	mkdir -p "$1/proc/self" "$1/sys/fs/cgroup"
	echo "0::/" >"$1/proc/self/cgroup"
	echo "max 100000" >"$1/sys/fs/cgroup/cpu.max"
}
VM=$SCRATCH/vm
fake_machine "$VM"
mkdir -p "$SCRATCH/vgbin" "$SCRATCH/empty"
printf '#!/bin/sh\nexit 0\n' >"$SCRATCH/vgbin/valgrind"
chmod +x "$SCRATCH/vgbin/valgrind"

# VM without a PMU, valgrind installed: counting works, through valgrind
GATE_SYSROOT=$VM GATE_VALGRIND=$SCRATCH/vgbin/valgrind gate_run 0 doctor
expect_in "$OUT" "Fake CPU"
expect_in "$OUT" "4 online"
grep -q '^??   governor *unknown' "$OUT" || fail "an unknown governor must not be ok"
grep -q '^??   turbo *unknown' "$OUT" || fail "an unknown turbo must not be ok"
grep -q '^ok   load' "$OUT" || fail "load 0.10 on 4 CPUs is ok"
grep -q '^note counters' "$OUT" || fail "counters through valgrind are a note"
expect_in "$OUT" "counts instructions with valgrind instead"
expect_in "$OUT" "exposes no hardware counters"
expect_not_in "$OUT" "perf_event_paranoid=1"
expect_not_in "$OUT" "cannot be measured here"
expect_not_in "$OUT" "taskset"
expect_in "$OUT" "--pin"
grep -q '^ok   container *none' "$OUT" || fail "no container mark: none"
grep -q '^ok   cpu quota *none' "$OUT" || fail "cpu.max max: no quota"

# docker (/.dockerenv, empty) with 1.5 CPUs of 4 (cgroup v2): a warning
DK=$SCRATCH/docker
fake_machine "$DK"
: >"$DK/.dockerenv"
echo "150000 100000" >"$DK/sys/fs/cgroup/cpu.max"
GATE_SYSROOT=$DK gate_run 0 doctor
grep -q '^note container *docker' "$OUT" || fail "/.dockerenv: docker"
grep -q '^WARN cpu quota *1.5 CPUs' "$OUT" || fail "1.5 of 4 CPUs: a warning"
expect_in "$OUT" "paused until the next period"
# the same limit on 1 CPU cannot bind: ok
echo 0 >"$DK/sys/devices/system/cpu/online"
echo "100000 100000" >"$DK/sys/fs/cgroup/cpu.max"
GATE_SYSROOT=$DK gate_run 0 doctor
grep -q '^ok   cpu quota *1 CPU$' "$OUT" || fail "1 CPU of 1: ok"

# Kubernetes on cgroup v1: the tightest limit from the pod's cgroup up
K8=$SCRATCH/k8s
fake_machine "$K8"
rm "$K8/sys/fs/cgroup/cpu.max"
printf '5:memory:/kubepods/burstable/pod1/c1\n4:cpu,cpuacct:/kubepods/burstable/pod1/c1\n' >"$K8/proc/self/cgroup"
mkdir -p "$K8/sys/fs/cgroup/cpu/kubepods/burstable/pod1/c1"
echo 200000 >"$K8/sys/fs/cgroup/cpu/kubepods/burstable/pod1/c1/cpu.cfs_quota_us"
echo 100000 >"$K8/sys/fs/cgroup/cpu/kubepods/burstable/pod1/c1/cpu.cfs_period_us"
echo 50000 >"$K8/sys/fs/cgroup/cpu/kubepods/burstable/pod1/cpu.cfs_quota_us"
echo 100000 >"$K8/sys/fs/cgroup/cpu/kubepods/burstable/pod1/cpu.cfs_period_us"
echo -1 >"$K8/sys/fs/cgroup/cpu/cpu.cfs_quota_us"
GATE_SYSROOT=$K8 gate_run 0 doctor
grep -q '^note container *kubernetes' "$OUT" || fail "kubepods: kubernetes"
grep -q '^WARN cpu quota *0.5 CPUs' "$OUT" || fail "the pod's 0.5 CPUs, not the container's 2"
# cgroup v1 as RHEL 7 lists it ("cpuacct,cpu"): the cpu controller's line
R7=$SCRATCH/rhel7
fake_machine "$R7"
rm "$R7/sys/fs/cgroup/cpu.max"
printf '4:cpuacct,cpu:/system.slice/runner.service\n1:name=systemd:/system.slice/runner.service\n' >"$R7/proc/self/cgroup"
mkdir -p "$R7/sys/fs/cgroup/cpu/system.slice/runner.service"
echo 50000 >"$R7/sys/fs/cgroup/cpu/system.slice/runner.service/cpu.cfs_quota_us"
echo 100000 >"$R7/sys/fs/cgroup/cpu/system.slice/runner.service/cpu.cfs_period_us"
GATE_SYSROOT=$R7 gate_run 0 doctor
grep -q '^WARN cpu quota *0.5 CPUs' "$OUT" || fail "cpuacct,cpu names the cpu controller: 0.5 CPUs"
# hybrid v1/v2: the cpu limit is v1's, at the cpu controller's path, even
# when the unified hierarchy's line ("0::/...", listed last) names another
HY=$SCRATCH/hybrid
fake_machine "$HY"
rm "$HY/sys/fs/cgroup/cpu.max"
printf '4:cpu,cpuacct:/docker/c1\n1:name=systemd:/docker/c1\n0::/system.slice/containerd.service\n' >"$HY/proc/self/cgroup"
mkdir -p "$HY/sys/fs/cgroup/cpu/docker/c1" "$HY/sys/fs/cgroup/cpu/system.slice/containerd.service"
echo 150000 >"$HY/sys/fs/cgroup/cpu/docker/c1/cpu.cfs_quota_us"
echo 100000 >"$HY/sys/fs/cgroup/cpu/docker/c1/cpu.cfs_period_us"
echo -1 >"$HY/sys/fs/cgroup/cpu/system.slice/containerd.service/cpu.cfs_quota_us"
GATE_SYSROOT=$HY gate_run 0 doctor
grep -q '^WARN cpu quota *1.5 CPUs' "$OUT" || fail "hybrid: v1's cpu path, not v2's: 1.5 CPUs"
# no cgroup files at all: unknown, never ok
rm -r "$K8/sys/fs/cgroup" "$K8/proc/self"
GATE_SYSROOT=$K8 gate_run 0 doctor
grep -q '^??   container *unknown' "$OUT" || fail "no cgroup file: container unknown"
grep -q '^??   cpu quota *unknown' "$OUT" || fail "no cgroup file: quota unknown"

# the same VM without valgrind: cannot be measured, and what to install
GATE_SYSROOT=$VM GATE_VALGRIND= PATH=$SCRATCH/empty gate_run 0 doctor
grep -q '^WARN counters' "$OUT" || fail "no PMU, no valgrind: a warning"
expect_in "$OUT" "install valgrind"
expect_not_in "$OUT" "perf_event_paranoid=1"

# a bare machine with a PMU and paranoid 3 (Debian's default): the fix is 2
BM=$SCRATCH/bare
fake_machine "$BM"
printf 'model name\t: Fake CPU\nflags\t\t: fpu sse2 arch_perfmon\n' >"$BM/proc/cpuinfo"
echo 3 >"$BM/proc/sys/kernel/perf_event_paranoid"
mkdir -p "$BM/sys/devices/system/cpu/cpu0/cpufreq"
echo performance >"$BM/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
GATE_SYSROOT=$BM GATE_VALGRIND=/nonexistent gate_run 0 doctor
grep -q '^ok   governor *performance' "$OUT" || fail "governor performance is ok"
grep -q '^ok   virtualisation *none' "$OUT" || fail "no hypervisor flag: none"
expect_in "$OUT" "not permitted"
expect_in "$OUT" "perf_event_paranoid=2"
echo 2 >"$BM/proc/sys/kernel/perf_event_paranoid"
GATE_SYSROOT=$BM gate_run 0 doctor
grep -q '^ok   counters *available' "$OUT" || fail "PMU and paranoid 2: available"
# a process of the host's containerd or docker service is in no container
printf '0::/system.slice/containerd.service\n' >"$DK/proc/self/cgroup"
rm -f "$DK/.dockerenv"
GATE_SYSROOT=$DK gate_run 0 doctor
grep -q '^ok   container *none' "$OUT" || fail "containerd.service on a host: no container"
printf '0::/system.slice/docker-0123abcd.scope\n' >"$DK/proc/self/cgroup"
GATE_SYSROOT=$DK gate_run 0 doctor
grep -q '^note container *docker' "$OUT" || fail "docker-ID.scope: docker"
exit 0
