# Two runs on one repository: the second stops at once with exit 3 and
# says which process holds the lock; after the first ends, runs work,
# even when it was killed with SIGKILL and left its lock files behind.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
printf '#!/bin/sh\nsleep 0.2173\n' >"$R/slow.sh"
chmod +x "$R/slow.sh"
cat >"$SCRATCH/slow.json" <<'JSON'
{ "defaults": { "pairs": 30, "warmup": 0, "min_effect": 1 },
  "benchmarks": [ { "name": "slow", "run": ["./slow.sh"] } ] }
JSON
commit_all "$R" slow
"$GATE" -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/slow.json" >/dev/null 2>&1 &
pid=$!
# the first run holds the lock once its benchmark runs: never test the
# second before that (a second run that started first would hold it)
wait_for pgrep -f "sleep 0.2173" || fail "the first run's benchmark never started"
gate_run 3 -C "$R" run --base HEAD --head HEAD
expect_in "$ERR" "another gate run"
expect_in "$ERR" "pid $pid"
kill -INT $pid
wait $pid
gate_measured -C "$R" run --base HEAD --head HEAD --pairs 2
# a run killed outright (SIGKILL: no cleanup at all) leaves its lock file
# and possibly a checkout index lock; the next run takes over both (its
# samples' temporary directory goes under $SCRATCH, not the machine's /tmp)
TMPDIR=$SCRATCH "$GATE" -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/slow.json" >/dev/null 2>&1 &
pid=$!
wait_for pgrep -f "sleep 0.2173" || fail "the benchmark never started"
kill -KILL $pid
wait $pid
[ -f "$R/.git/gate/lock" ] || fail "SIGKILL should leave the lock file"
: >"$R/.git/gate/a.index.lock"
: >"$R/.git/gate/b.index.lock"
gate_measured -C "$R" run --base HEAD --head HEAD --pairs 2
exit 0
