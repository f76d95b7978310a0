# "build_timeout" (issue 14 item 9): a build that outlasts it is stopped
# with its whole process group, and the run is an error naming the arm;
# a bad value is refused where it is written.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
cat >"$SCRATCH/hang.json" <<'JSON'
{ "build": "sleep 4711.25 & sleep 4711.5",
  "build_timeout": 1,
  "defaults": { "pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
start=$(date +%s)
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/hang.json"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the build was not stopped"
expect_in "$ERR" "the build of"
expect_in "$ERR" "timed out"
no_process "sleep 4711"
printf '{ "build_timeout": 0, "benchmarks": [ { "name": "x", "run": "true" } ] }' \
	>"$SCRATCH/bad.json"
gate_run 3 -C "$R" run --config "$SCRATCH/bad.json"
expect_in "$ERR" '"build_timeout" must be a number of seconds'
exit 0
