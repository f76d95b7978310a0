# Adaptive pairs: unresolved benchmarks get more pairs in rounds up to
# max_pairs, or until --budget runs out; the report gives the stopping
# reason and the time used. --budget is validated; pairs too few for an
# interval at the first look are raised, and the report says so.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
# a target no data can reach: rounds continue to max_pairs (6, 10, 12)
printf '{ "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 1,\n  "target_halfwidth": 0.0001 },\n  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }\n' >"$SCRATCH/adapt.json"
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/adapt.json" --json "$SCRATCH/a.json"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["pairs"]')" = 12 ] || fail "should run to max_pairs 12"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["stopped"]')" = max_pairs ] || fail "stop reason"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["looks"]')" = 3 ] || fail "looks at 6, 10, 12"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["seconds"] > 0')" = True ] || fail "time used"
expect_in "$OUT" "12 pairs (6..12) in "
expect_in "$OUT" "stopped: max_pairs after 3 looks"
expect_in "$ERR" "round 1"
# a budget the first look's probe already spends: the first look is not
# cut below the fewest pairs that can decide (here its own 6; the probe's
# 2 give no interval, issue 34) and says so, no rounds (issue 25 item 7)
# (the verdict of identical sleeps under load is not the point here)
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/adapt.json" --budget 1ms --json "$SCRATCH/b.json"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["pairs"]')" = 6 ] || fail "budget should stop at the first look's 6"
expect_in "$ERR" "first look kept at 6 pairs past --budget 0.001 s: fewer cannot decide at its level"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["looks"]')" = 1 ] || fail "budget: one look"
[ "$(json_get "$SCRATCH/b.json" 'd["protocol"]["budget_seconds"]')" = 0.001 ] || fail "budget in the protocol"
expect_not_in "$ERR" "round 1"
# the same from gate.json ("budget" in "defaults")
sed 's/"warmup": 0,/"warmup": 0, "budget": "1ms",/' "$SCRATCH/adapt.json" >"$SCRATCH/adapt-b.json"
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/adapt-b.json" --json "$SCRATCH/b.json"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["stopped"]')" = budget ] || fail "budget from gate.json"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["pairs"]')" = 6 ] || fail "gate.json budget should stop at 6"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["stopped"]')" = budget ] || fail "stop reason budget"
for bad in nan inf -inf 0 -5m 10x ""; do
	gate_run 3 -C "$R" run -v --base HEAD~1 --head HEAD --budget "$bad"
	expect_in "$ERR" "--budget must be a positive, finite duration"
done
# 4 pairs give no interval at 95% one-sided (2^-4 > 0.05): raised to 5,
# and the report says so
printf '{ "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 1 },\n  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }\n' >"$SCRATCH/fixed.json"
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/fixed.json" --json "$SCRATCH/c.json"
expect_in "$OUT" "pairs raised from 4 to 5: fewer give no interval at this level"
[ "$(json_get "$SCRATCH/c.json" 'd["benchmarks"][0]["pairs"]')" = 5 ] || fail "raised to 5 pairs"
[ "$(json_get "$SCRATCH/c.json" 'd["benchmarks"][0]["pairs_raised_from"]')" = 4 ] || fail "pairs_raised_from"
# two benchmarks share alpha: 0.025 one-sided needs 6
printf '{ "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 1 },\n  "benchmarks": [ { "name": "a", "run": ["./bench.sh"] }, { "name": "b", "run": ["./bench.sh"] } ] }\n' >"$SCRATCH/two.json"
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --config "$SCRATCH/two.json" --json "$SCRATCH/d.json"
[ "$(json_get "$SCRATCH/d.json" '[b["pairs"] for b in d["benchmarks"]]')" = "[6, 6]" ] || fail "two benchmarks: raised to 6"
exit 0
