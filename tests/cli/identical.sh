# Identical code never fails: base and head run the same benchmark (only
# a non-code file differs). The promise is "never a fail", not "a pass":
# on a loaded machine a sleep's time may honestly be noisy (exit 2), and
# the report says which it gave.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.03 0.03
"$GATE" -C "$R" run -v --base HEAD~1 --head HEAD --seed 7 --json "$SCRATCH/r.json" \
	>"$OUT" 2>"$ERR"
rc=$?
case $rc in
0) verdict=pass ;;
2) verdict=noisy ;;
*) fail "identical code: gate exited $rc, want pass (0) or noisy (2), never fail" ;;
esac
expect_in "$OUT" "verdict: $(echo "$verdict" | tr a-z A-Z)"
expect_in "$OUT" "seed 7"
[ "$(json_get "$SCRATCH/r.json" 'd["verdict"]')" = $verdict ] || fail "JSON verdict"
[ "$(json_get "$SCRATCH/r.json" 'len(d["benchmarks"][0]["samples"])')" = 6 ] ||
	fail "JSON should hold every one of the 6 pairs"
[ "$(json_get "$SCRATCH/r.json" 'd["protocol"]["seed"]')" = 7 ] || fail "seed"
[ "$(json_get "$SCRATCH/r.json" 'd["base"]["commit"] == d["head"]["commit"]')" = False ] ||
	fail "base and head commits should differ"
exit 0
