# gate calibrate on a suite calibrates its cases, not its process: each
# case's spread, the pairs it needs to reach the floor and whether they
# fit the budget, the suite's recommendation and its time; on a wall-time
# benchmark whose wall time cannot settle while its cpu time can, it
# advises cpu, and --write sets "metric": "cpu" (the run after decides on
# it; nothing is switched within a run).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
STATE=$SCRATCH/state
mkdir -p "$STATE"
export STATE
# a lines suite: "steady" prints the same value every time, "wild" one of
# 1 to 8 ms at random; the 0.1 s sleep makes a pair take at least 0.2 s,
# so at most 25 pairs fit the 5 s budget whatever the machine's speed
# (without it a fast build fitted the ~100 pairs "wild" needs)
cat >"$R/suite.sh" <<'SH'
#!/bin/sh
sleep 0.1
r=$(od -An -N1 -tu1 /dev/urandom)
echo "steady 2.0 ms"
echo "wild $((r % 8 + 1)).0 ms"
SH
# the same CPU work every time (a few ms idle, about 60 ms at load 7);
# a 0.6 s sleep in every other sample, so a pair's wall ratio is far from 1
# either way, whatever the load (40,000 steps with a 0.3 s sleep took
# about 0.5 s of a loaded CPU, and the sleep no longer set the ratio)
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
k=$(cat "$STATE/k" 2>/dev/null || echo 0)
echo $((k + 1)) >"$STATE/k"
i=0
while [ $i -lt 5000 ]; do i=$((i+1)); done
[ $((k % 2)) = 0 ] && sleep 0.6
exit 0
SH
chmod +x "$R/suite.sh" "$R/bench.sh"
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "writable": ["$STATE"], "pass_env": ["STATE"],
  "defaults": { "pairs": 8, "warmup": 1, "min_effect": 0.2, "timeout": 20,
                "budget": 5 },
  "benchmarks": [
    { "name": "cases", "run": ["./suite.sh"], "format": "lines" }
  ]
}
JSON
commit_all "$R" suite
gate_run 0 -C "$R" calibrate --pairs 8 --seed 5
expect_in "$OUT" "cases: a suite"
expect_in "$OUT" "per case (2 cases"
grep -q "cases/steady: paired spread 0.00%, 2 pairs" "$OUT" || fail "steady case"
grep -q "cases/wild: paired spread .*beyond the budget; at .* pairs it supports a floor of" "$OUT" ||
	fail "wild case: beyond the budget"
expect_in "$OUT" "1 of 2 cases reach the floor within it"
expect_in "$OUT" 'recommend for the suite: "pairs": 8'
# a plain benchmark whose wall time alternates: cpu advised and written
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "writable": ["$STATE"], "pass_env": ["STATE"],
  "defaults": { "pairs": 10, "warmup": 1, "min_effect": 0.2, "timeout": 20 },
  "benchmarks": [
    { "name": "spin", "run": ["./bench.sh"] }
  ]
}
JSON
commit_all "$R" plain
# 5 pairs to start (calibrate takes up to 4x, 20, as the alternating wall
# time keeps its halves apart): a wall ratio far from 1 in every pair
# against cpu's spread leaves wall needing many times cpu's pairs, where
# the advice needs 4x
gate_run 0 -C "$R" calibrate --pairs 5 --seed 5 --write
expect_in "$OUT" "metric: cpu time would decide where wall time cannot"
expect_in "$OUT" "time: "
expect_in "$OUT" "wrote the recommendations"
[ "$(json_get "$R/gate.json" 'd["benchmarks"][0]["metric"]')" = cpu ] ||
	fail "--write should set \"metric\": \"cpu\""
exit 0
