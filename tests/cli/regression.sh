# Head doing four times the work fails (exit 1), with the figures shown; with
# --advisory the same verdict is reported but gate exits 0.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.1 0.4
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "FAIL"
expect_in "$OUT" "verdict: FAIL"
low=$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["ratio"]["low"]')
python3 -c "import sys; sys.exit(0 if float('$low') > 1.5 else 1)" ||
	fail "interval lower bound $low should be above the 1.5 floor"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["wins"]["head_slower"]')" = 6 ] ||
	fail "head should be slower in all 6 pairs"
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --advisory
expect_in "$OUT" "advisory: exit 0 instead of 1"
# the reverse direction is an improvement: a pass, labelled so
gate_run 0 -C "$R" run --base HEAD --head HEAD~1
expect_in "$OUT" "pass (faster)"
exit 0
