# The batch of counted runs respects the CPU affinity mask: under
# `taskset -c 0` gate may keep one CPU busy, so its runs under valgrind go
# one at a time and the protocol says no "at a time", where the same run
# unpinned on a machine of 2 or more usable CPUs runs them 2 or more at
# a time. (The faked masks and quotas: gate/os/test-os.)
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || [ -n "${GATE_VALGRIND:-}" ] ||
	skip "valgrind is not installed"
command -v taskset >/dev/null 2>&1 || skip "taskset is not installed"
needs_os "CPU pinning"
unset GATE_COUNT_JOBS
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\necho done\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<JSON
{ "benchmarks": [ { "name": "count", "run": ["./bench.sh"],
    "metric": "instructions", "counter": "valgrind", "min_effect": 0.5,
    "pairs": 2, "max_pairs": 2, "warmup": 0 } ] }
JSON
commit_all "$R" base
echo "# head" >>"$R/bench.sh"
commit_all "$R" head
export GATE_PERF=0

gate_measured -C "$R" run -v --base HEAD~1 --head HEAD
grep -q "valgrind runs [0-9]* at a time" "$OUT" ||
	skip "one usable CPU here (one core, a mask or a quota): nothing to narrow"
CPU=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
taskset -c "$CPU" "$GATE" -C "$R" run -v --base HEAD~1 --head HEAD \
	>"$OUT" 2>"$ERR"
[ $? -le 2 ] || fail "gate under taskset -c $CPU gave no verdict"
expect_in "$OUT" "each sample one run under valgrind"
expect_not_in "$OUT" "at a time"
exit 0
