# SIGINT during a bisect step: gate bisect exits 130 as gate run does (not
# 3), says which step it stopped in, leaves no benchmark process behind,
# and the next bisect works (the lock and the arm checkouts recover);
# SIGTERM gives 143.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
# a marker only this test's benchmark processes carry
printf '#!/bin/sh\nsleep 0.1\nsleep 6.5151\n' >"$R/slow.sh"
chmod +x "$R/slow.sh"
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "slow", "run": ["./slow.sh"] } ] }
JSON
for k in 0 1 2 3; do
	echo "$k" >"$R/v"
	commit_all "$R" "commit $k"
done
interrupt() {	# interrupt SIGNAL WANT
	"$GATE" -C "$R" bisect --good HEAD~3 --bad HEAD >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for pgrep -f "sleep 6.5151" || fail "the benchmark never started"
	kill "-$1" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$2" ] || fail "gate bisect exited $rc after SIG$1, want $2"
	no_process "sleep 6.5151"
	expect_in "$ERR" "interrupted by signal"
	expect_in "$ERR" "during step 1"
}
interrupt INT 130
interrupt TERM 143
# the next bisect works: nothing regressed, it stops at the first check
# (both arms print the same time, so the interval excludes a regression
# of the floor whatever the machine's load; a wall time of 2 pairs would
# exclude nothing)
printf '#!/bin/sh\necho "x 10 ms"\n' >"$R/slow.sh"
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 6, "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "slow", "format": "lines", "run": ["./slow.sh"] } ] }
JSON
git -C "$R" commit -qam "fast" || fail "cannot commit"
echo 5 >"$R/v"
commit_all "$R" "commit 5"
gate_run 0 -C "$R" bisect --good HEAD~1 --bad HEAD
expect_in "$OUT" "the regression does not reproduce"
expect_in "$OUT" "nothing to bisect"
