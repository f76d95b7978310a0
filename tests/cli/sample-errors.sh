# A sample that crashes, exits non-zero, times out or changes its stdout
# is an error (exit 3) naming the benchmark, arm and pair or warm-up.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.01
commit_all "$R" base
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 1, "min_effect": 5 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON

set_bench() {
	printf '#!/bin/sh\n%s\n' "$1" >"$R/bench.sh"
	chmod +x "$R/bench.sh"
}

set_bench 'echo "segfault coming" >&2; kill -SEGV $$'
gate_run 3 -C "$R" run -v --base HEAD --config "$R/gate.json"
expect_in "$OUT" 'benchmark "b": head sample (pair 1) was killed by signal 11'
expect_in "$OUT" "segfault coming"

set_bench 'echo "cannot open data file" >&2; exit 4'
gate_run 3 -C "$R" run -v --base HEAD --config "$R/gate.json"
expect_in "$OUT" "exited with code 4"
expect_in "$OUT" "cannot open data file"

set_bench 'sleep 300'
start=$(date +%s)
gate_run 3 -C "$R" run -v --base HEAD --config "$R/gate.json"
[ $(( $(date +%s) - start )) -lt 120 ] || fail "timeout should stop the sample after 1 s"
expect_in "$OUT" "timed out after 1 s"
expect_in "$OUT" 'raise "timeout"'

# parity: stdout must be the same in every sample of an arm
set_bench 'cat /proc/sys/kernel/random/uuid'
gate_run 3 -C "$R" run -v --base HEAD --config "$R/gate.json"
expect_in "$OUT" "differs from its first sample"
expect_in "$OUT" '"parity": false'
# the protocol tells the truth after a parity failure
expect_not_in "$OUT" "stdout identical within each arm"
expect_in "$OUT" "stdout NOT identical within"
sed -i 's/"run": \[".\/bench.sh"\]/"run": [".\/bench.sh"], "parity": false/' "$R/gate.json"
set_bench 'cat /proc/sys/kernel/random/uuid; sleep 0.01'
gate_run 0 -C "$R" run -v --base HEAD --config "$R/gate.json"

# a command that does not exist
sed -i 's/"run": \[".\/bench.sh"\]/"run": [".\/no-such-program"]/' "$R/gate.json"
gate_run 3 -C "$R" run -v --base HEAD --config "$R/gate.json"
expect_in "$OUT" "could not be started"
exit 0
