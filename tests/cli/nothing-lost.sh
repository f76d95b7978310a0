# Nothing lost: gate is interrupted by SIGINT and by SIGTERM in every phase
# (checkout, build, warm-up, measuring, statistics), and also meets a
# failing build, a crash, a timeout escalated past an ignored SIGTERM and
# a daemon. Each time: the documented exit code, no child left, and the
# user's working tree, index, refs and stash exactly as they were.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
# the benchmark counts its runs in $T_COUNTER and becomes a long sleep (a
# marker no other process carries) on run number $T_STALL_AT
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
n=$(cat "$T_COUNTER" 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >"$T_COUNTER"
[ "$n" = "${T_STALL_AT:-0}" ] && exec sleep 7.5151
echo ok
SH
cat >"$R/build.sh" <<'SH'
#!/bin/sh
[ -n "${T_BUILD_STALL:-}" ] && sleep 7.5151
[ -n "${T_BUILD_FAIL:-}" ] && { echo "build broke" >&2; exit 1; }
echo built >built.txt
SH
chmod +x "$R/bench.sh" "$R/build.sh"
echo one >"$R/NOTES"
commit_all "$R" base
echo two >>"$R/NOTES"
commit_all "$R" second
# the user's work in progress: a stash, staged, unstaged, untracked,
# ignored and deleted files
echo stash-me >"$R/stashed" && git -C "$R" add stashed && git -C "$R" stash -q
echo staged >"$R/staged.txt" && git -C "$R" add staged.txt
echo unstaged >>"$R/NOTES"
mkdir -p "$R/newdir" && echo untracked >"$R/newdir/file"
echo "ignored.log" >"$R/.gitignore" && echo ignored >"$R/ignored.log"
cat >"$SCRATCH/gate.json" <<'JSON'
{ "build": ["./build.sh"],
  "defaults": { "pairs": 2, "warmup": 1, "min_effect": 5, "timeout": 60 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON
export T_COUNTER="$SCRATCH/counter"
user_state "$R" >"$SCRATCH/before"

same_state() {
	user_state "$R" >"$SCRATCH/after"
	cmp -s "$SCRATCH/before" "$SCRATCH/after" || {
		diff "$SCRATCH/before" "$SCRATCH/after" >&2
		fail "$1: the user's working tree, index, refs or stash changed"
	}
}

# interrupt PHASE SIGNAL WANT TRIGGER...: start gate, wait until TRIGGER
# holds, send SIGNAL, expect exit WANT.
interrupt() {
	phase=$1 sig=$2 want=$3
	shift 3
	rm -f "$T_COUNTER"
	"$GATE" -C "$R" run --base HEAD --config "$SCRATCH/gate.json" \
		>"$OUT" 2>"$ERR" &
	pid=$!
	wait_for "$@" || { kill -9 $pid; fail "$phase: never reached"; }
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$want" ] || fail "$phase: SIG$sig gave exit $rc, want $want"
	no_process "sleep 7.5151"
	same_state "$phase, SIG$sig"
}

for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	GATE_TEST_STALL=checkout interrupt checkout $sig $want \
		grep -q "test stall: checkout" "$ERR"
	T_BUILD_STALL=1 interrupt build $sig $want pgrep -f "sleep 7.5151"
	T_STALL_AT=1 interrupt warm-up $sig $want pgrep -f "sleep 7.5151"
	T_STALL_AT=4 interrupt measuring $sig $want pgrep -f "sleep 7.5151"
	expect_in "$OUT" "interrupted"
	GATE_TEST_STALL=statistics interrupt statistics $sig $want \
		grep -q "test stall: statistics" "$ERR"
	expect_in "$OUT" "interrupted"
done

# the failures of the catalogue leave the user's state alone as well
T_BUILD_FAIL=1 gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/gate.json"
expect_in "$ERR" "build broke"
same_state "failing build"
cat >"$SCRATCH/bad.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 1 },
  "benchmarks": [ { "name": "b", "run": "trap '' TERM; sleep 7.5151" } ] }
JSON
gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/bad.json"
expect_in "$OUT" "timed out after 1 s"
no_process "sleep 7.5151"
same_state "timeout with SIGTERM ignored"
sed -i 's/"run": .*/"run": "sleep 7.5151 \& kill -SEGV $$" } ] }/' "$SCRATCH/bad.json"
gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/bad.json"
expect_in "$OUT" "killed by signal 11"
no_process "sleep 7.5151"
same_state "crash leaving a daemon"

# and a whole run, after all that, works and still changes nothing
gate_run 0 -C "$R" run --base HEAD --config "$SCRATCH/gate.json"
same_state "a complete run"
exit 0
