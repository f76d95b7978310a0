# Identical code passes: base and head run the same benchmark (only a
# non-code file differs), exit 0, and the report says so.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.03 0.03
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --seed 7 --json "$SCRATCH/r.json"
expect_in "$OUT" "verdict: PASS"
expect_in "$OUT" "seed 7"
[ "$(json_get "$SCRATCH/r.json" 'd["verdict"]')" = pass ] || fail "JSON verdict"
[ "$(json_get "$SCRATCH/r.json" 'len(d["benchmarks"][0]["samples"])')" = 6 ] ||
	fail "JSON should hold every one of the 6 pairs"
[ "$(json_get "$SCRATCH/r.json" 'd["protocol"]["seed"]')" = 7 ] || fail "seed"
[ "$(json_get "$SCRATCH/r.json" 'd["base"]["commit"] == d["head"]["commit"]')" = False ] ||
	fail "base and head commits should differ"
exit 0
