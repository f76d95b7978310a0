# Issue 26 item 6, interruptions: a cancelled job (or one past its
# timeout-minutes) is the runner signalling the step's shell, SIGINT and
# later SIGTERM, the shell only. action.yml's "Run gate" step, run as the
# runner runs it with its files faked, signalled that way while gate is
# measuring: gate is told, stops, and the step still leaves the outputs
# (verdict interrupted, gate's exit code), a job summary and an
# annotation, and fails. Before, the signal never reached gate and the
# shell died with the outputs unwritten.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
python3 - "$root/action.yml" >"$SCRATCH/run.sh" <<'PY' || fail "action.yml has no step \"Run gate\""
import sys, yaml
for s in yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]:
    if s.get("name") == "Run gate":
        sys.stdout.write(s["run"])
        break
else:
    sys.exit(1)
PY
A=$SCRATCH/action
mkdir -p "$A/build" "$SCRATCH/runner/temp"
ln -s "$GATE" "$A/build/gate"
R=$SCRATCH/repo
fixture "$R" 0.3 0.3
# a job started in the background here has SIGINT ignored, and a shell
# cannot trap a signal ignored at its start: the runner's shell starts with
# it at its default, so this one does too
dfl='import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'
for sig in INT TERM; do
	: >"$SCRATCH/runner/output"
	: >"$SCRATCH/runner/summary"
	rm -rf "$SCRATCH/runner/temp/gate-report"
	(cd "$R" && exec env GITHUB_ACTIONS=true GITHUB_ACTION_PATH="$A" \
		RUNNER_TEMP="$SCRATCH/runner/temp" \
		GITHUB_OUTPUT="$SCRATCH/runner/output" \
		GITHUB_STEP_SUMMARY="$SCRATCH/runner/summary" \
		GATE_CONFIG= GATE_BASE=HEAD~1 GATE_HEAD= GATE_ADVISORY=false \
		GATE_NOISY=failure GATE_ARGS= GATE_SHARD= GATE_MERGE= \
		python3 -c "$dfl" bash --noprofile --norc -eo pipefail \
		"$SCRATCH/run.sh" >"$OUT" 2>"$ERR") &
	step=$!
	wait_for grep -q 'measuring "sleep"' "$SCRATCH/runner/temp/gate-report/stderr.log" ||
		{ kill "$step"; fail "SIG$sig: gate never started measuring"; }
	kill -"$sig" "$step"	# the shell only, as the runner does
	wait "$step"
	got=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	[ "$got" -eq "$want" ] || fail "SIG$sig: the step exited $got, want $want"
	grep -qx 'verdict=interrupted' "$SCRATCH/runner/output" ||
		fail "SIG$sig: no verdict=interrupted output: $(cat "$SCRATCH/runner/output")"
	grep -qx "exit-code=$want" "$SCRATCH/runner/output" ||
		fail "SIG$sig: no exit-code=$want output"
	grep -q '^report<<' "$SCRATCH/runner/output" || fail "SIG$sig: no report output"
	[ -s "$SCRATCH/runner/summary" ] || fail "SIG$sig: no job summary"
	grep -q '^::error' "$OUT" || fail "SIG$sig: no annotation of the cause"
	no_process "$R/.git/gate"
done
exit 0
