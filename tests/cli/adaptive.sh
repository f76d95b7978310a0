# Adaptive pairs: unresolved benchmarks get more pairs in rounds up to
# max_pairs, or until --budget runs out; the report gives the stopping
# reason. --budget is validated; --strict calls an unbounded pass noisy.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
# a target no data can reach: rounds continue to max_pairs (4, 6, 8)
printf '{ "defaults": { "pairs": 4, "max_pairs": 8, "warmup": 0, "min_effect": 1,\n  "target_halfwidth": 0.0001 },\n  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }\n' >"$SCRATCH/adapt.json"
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/adapt.json" --json "$SCRATCH/a.json"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["pairs"]')" = 8 ] || fail "should run to max_pairs 8"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["stopped"]')" = max_pairs ] || fail "stop reason"
[ "$(json_get "$SCRATCH/a.json" 'd["benchmarks"][0]["looks"]')" = 3 ] || fail "looks at 4, 6, 8"
expect_in "$OUT" "stopped: max_pairs after 3 looks"
expect_in "$ERR" "round 1"
# a budget already spent by the first look: no rounds
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/adapt.json" --budget 0.001s --json "$SCRATCH/b.json"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["pairs"]')" = 4 ] || fail "budget should stop at 4"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["stopped"]')" = budget ] || fail "stop reason budget"
for bad in nan inf -inf 0 -5m 10x ""; do
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --budget "$bad"
	expect_in "$ERR" "--budget must be a positive, finite duration"
done
# 4 pairs cannot exclude anything at 95%: --strict will not call it a pass
printf '{ "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 1 },\n  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }\n' >"$SCRATCH/fixed.json"
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/fixed.json"
expect_in "$OUT" "too few pairs to exclude any regression"
gate_run 2 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/fixed.json" --strict
expect_in "$OUT" "--strict"
exit 0
