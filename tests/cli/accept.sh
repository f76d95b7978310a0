# Gate-Accept trailers: a regression accepted on purpose by a commit in
# base..head passes as "accepted" (exit 0) within its bound, fails beyond
# it, and a trailer outside base..head, or naming nothing, changes nothing.
# The benchmark prints its own time (write_value), so the verdicts are
# decided whatever the machine's load.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_value "$R" 50
write_config "$R" '"format": "lines"'
git -C "$R" add -A
# a trailer in base itself is not in base..head: ignored
git -C "$R" commit -q -m base -m "Gate-Accept: sleep/t +1000% too early"
git -C "$R" tag base
write_value "$R" 200
commit_all "$R" "four times the work"
git -C "$R" tag slower

gate_run 1 -C "$R" run -v --base base --head slower
expect_not_in "$OUT" "accepted"

# within the bound (a glob names the benchmark): accepted, exit 0
git -C "$R" commit -q --allow-empty -m "accept it" \
	-m "Gate-Accept: sl*p/t +1000% the new format is worth it"
git -C "$R" tag within
gate_run 0 -C "$R" run -v --base base --head within --json "$SCRATCH/r.json" \
	--markdown "$SCRATCH/r.md"
expect_in "$OUT" "accepted"
expect_in "$OUT" "verdict: ACCEPTED"
expect_in "$OUT" "within the +1000% that commit"
expect_in "$OUT" "the new format is worth it"
expect_in "$SCRATCH/r.md" "ACCEPTED"
expect_in "$SCRATCH/r.md" "the new format is worth it"
[ "$(json_get "$SCRATCH/r.json" 'd["verdict"]')" = accepted ] ||
	fail "the suite verdict should be accepted"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["verdict"]')" = accepted ] ||
	fail "the benchmark's verdict should be accepted"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["accepted"]["commit"]')" = \
  "$(git -C "$R" rev-parse within)" ] || fail "the accepting commit"
[ "$(json_get "$SCRATCH/r.json" 'd["exit_code"]')" = 0 ] || fail "exit code"

# beyond the bound: still a fail, saying by how much was accepted
git -C "$R" checkout -q slower
git -C "$R" commit -q --allow-empty -m "accept a little" \
	-m "Gate-Accept: sleep/t +100% a little slower"
git -C "$R" tag beyond
gate_run 1 -C "$R" run -v --base base --head beyond --json "$SCRATCH/b.json"
expect_in "$OUT" "exceeds the accepted +100%"
[ "$(json_get "$SCRATCH/b.json" 'd["benchmarks"][0]["accepted"]["within"]')" = False ] ||
	fail "the trailer's bound should be exceeded"

# a trailer naming no benchmark is a warning, and accepts nothing
git -C "$R" checkout -q slower
git -C "$R" commit -q --allow-empty -m "accept a typo" \
	-m "Gate-Accept: slep +1000% typo"
gate_run 1 -C "$R" run -v --base base --head HEAD
expect_in "$ERR" 'names no benchmark: "slep"'
expect_in "$OUT" "names no benchmark: ignored"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$SCRATCH/summary gate_run 1 -C "$R" \
	run --base base --head HEAD
expect_in "$OUT" "::warning"
expect_in "$OUT" "names no benchmark"

# a malformed trailer is a warning naming its commit
git -C "$R" commit -q --allow-empty -m "no bound" -m "Gate-Accept: sleep/t lots"
gate_run 1 -C "$R" run -v --base base --head HEAD
expect_in "$ERR" "gives no bound"
exit 0
