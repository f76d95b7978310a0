# A benchmark stopped by a signal (SIGTTIN: it read the terminal) is an
# error naming the signal and the cause, at once: not "timed out" after
# the timeout, and not a hang when there is none.
. "$(dirname "$0")/lib.sh"
# the fallback's runner: in a sandbox per arm a sample is in a session of
# its own with no terminal, where the kernel discards a stop signal of
# the terminal's (an orphaned process group), so it never stops
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.01
commit_all "$R" base
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 300, "min_effect": 5 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON
printf '#!/bin/sh\nkill -TTIN $$\necho after\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"

start=$(date +%s)
gate_run 3 -C "$R" run --base HEAD --config "$R/gate.json"
[ $(( $(date +%s) - start )) -lt 120 ] ||
	fail "a stopped sample should be killed at once, not at the timeout"
expect_in "$OUT" 'benchmark "b": head sample (pair 1) was stopped by SIGTTIN: it read the terminal; gate gives benchmarks no terminal, stdin is /dev/null'
expect_not_in "$OUT" "timed out"

# the real case: reading /dev/tty on a terminal (script(1) gives a pty)
if command -v script >/dev/null 2>&1; then
	printf '#!/bin/sh\nread x </dev/tty\n' >"$R/bench.sh"
	script -qec "COLUMNS=1000 \"$GATE\" -C \"$R\" run --base HEAD --config \"$R/gate.json\"" \
		"$SCRATCH/tty" >/dev/null 2>&1 </dev/null
	expect_in "$SCRATCH/tty" "was stopped by SIGTTIN: it read the terminal"
	expect_not_in "$SCRATCH/tty" "timed out"
fi
