# SIGINT while measuring: gate exits 130, leaves no child process behind,
# and the next run works (the lock and the checkouts recover).
. "$(dirname "$0")/lib.sh"
# stop_at MARK SIG WANT ARGS...: gate ARGS in the background, signal SIG
# once a process matching MARK runs; gate exits WANT and leaves no MARK
stop_at() {
	mark=$1 sig=$2 want=$3
	shift 3
	"$GATE" "$@" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for pgrep -f "$mark" || fail "\"$mark\" never started"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$want" ] || fail "gate exited $rc after SIG$sig, want $want"
	no_process "$mark"
}
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
# a marker that only this test's benchmark processes carry
printf '#!/bin/sh\nsleep 0.3\nsleep 7.4242\n' >"$R/slow.sh"
chmod +x "$R/slow.sh"
cat >"$SCRATCH/slow.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "slow", "run": ["./slow.sh"] },
                  { "name": "later", "run": ["true"] } ] }
JSON
commit_all "$R" "slow bench"
stop_at "sleep 7.4242" INT 130 -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/slow.json"
expect_in "$OUT" "interrupted"
# a benchmark the run never reached is not a pass of nothing
expect_in "$OUT" "later: error: not measured: the run was interrupted first"
expect_not_in "$ERR" "later: pass"
# SIGTERM gives 143
stop_at "sleep 7.4242" TERM 143 -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/slow.json"
# SIGTERM during the first of two builds one after the other
# ("serial_build"): interrupted (143), said so, the build stopped
cat >"$SCRATCH/serial.json" <<'JSON'
{ "build": "sleep 7.4343", "serial_build": true,
  "defaults": { "pairs": 2, "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "slow", "run": ["./slow.sh"] } ] }
JSON
stop_at "sleep 7.4343" TERM 143 -C "$R" run --base HEAD~1 --head HEAD \
	--config "$SCRATCH/serial.json" --json "$SCRATCH/serial-report.json"
expect_in "$ERR" "interrupted by signal 15"
[ "$(json_get "$SCRATCH/serial-report.json" "d['exit_code']")" = 143 ] ||
	fail "the report's exit code is not 143"
# SIGTERM while a suite's second arm takes its first sample: the arm that
# printed nothing says nothing of its cases. Before, every case of the
# first arm read "removed" (or "new") and the progress "pass after 0
# pairs". The suite's first run prints at once, the next ones hang; it
# counts its runs outside the checkout (unsealed)
printf '#!/bin/sh\n[ -e "%s/ran" ] && sleep 7.4444\n: >"%s/ran"\necho "x 10 ms"\necho "y 20 ms"\n' \
	"$SCRATCH" "$SCRATCH" >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$SCRATCH/suite.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 1, "timeout": 60 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ] }
JSON
commit_all "$R" "a suite"
GATE_SANDBOX=off
export GATE_SANDBOX
stop_at "sleep 7.4444" TERM 143 -C "$R" run --base HEAD --head HEAD \
	--config "$SCRATCH/suite.json" --json "$SCRATCH/suite-report.json"
expect_in "$OUT" "suite had printed no cases when measuring stopped"
expect_not_in "$OUT" "removed"
expect_not_in "$OUT" "new:"
expect_not_in "$ERR" "pass after 0 pairs"
expect_in "$OUT" "ERROR"
[ "$(json_get "$SCRATCH/suite-report.json" "sorted(b['verdict'] for b in d['benchmarks'])")" = "['error', 'error']" ] ||
	fail "the suite's cases are not errors in the report: $(cat "$SCRATCH/suite-report.json")"
# the next run works
gate_measured -C "$R" run --base HEAD~1 --head HEAD~1
exit 0
