# Policy comes from base: a pull request that raises its own floor is
# still judged by base's floor, and every report says what head changed;
# --policy head restores head's keys for a local run and says so.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.05
printf '#!/bin/sh\nsleep 0.01\n' >"$R/old.sh"
chmod +x "$R/old.sh"
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 6, "max_pairs": 6, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] },
                  { "name": "old", "run": ["./old.sh"] } ] }
JSON
commit_all "$R" base
# head does 4x the work, raises the floor to 500% and drops "old"
write_bench "$R" 0.2
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 6, "max_pairs": 6, "warmup": 0, "min_effect": 5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
commit_all "$R" "slower, and a looser gate"

gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json" \
	--markdown "$SCRATCH/r.md"
raised='head changes "min_effect" of `sleep` from {"wall": 0.5} to {"wall": 5}: base'"'"'s value is used'
expect_in "$OUT" "$raised"
expect_in "$OUT" 'head removes benchmark `old`, which base declares: a fail unless'
# and the removal is a fail of its own, named
expect_in "$OUT" 'old: removed: base declares `old`, head no longer does'
[ "$(json_get "$SCRATCH/r.json" '[b["verdict"] for b in d["benchmarks"] if b["name"] == "old"][0]')" = fail ] ||
	fail "the removed benchmark is not a fail"
expect_in "$OUT" "policy: base's gate.json decides"
expect_in "$SCRATCH/r.md" 'head changes "min\_effect"'
expect_in "$ERR" "$raised"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["min_effect"]')" = 0.5 ] ||
	fail "base's floor should decide"
json_get "$SCRATCH/r.json" '"\n".join(d["protocol"]["policy_differences"])' >"$SCRATCH/diff"
expect_in "$SCRATCH/diff" "$raised"
expect_in "$SCRATCH/diff" 'head removes benchmark `old`'

# in GitHub Actions each difference is a warning annotation
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$SCRATCH/summary gate_run 1 -C "$R" \
	run --base HEAD~1 --head HEAD
expect_in "$OUT" "::warning"
expect_in "$OUT" 'head changes "min_effect"'

# --policy head: head's floor, and the report says so
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --policy head \
	--json "$SCRATCH/h.json"
expect_in "$OUT" "policy: head's gate.json decides (--policy head)"
expect_in "$OUT" "head's value is used (--policy head)"
# a floor of 5 is +500%: legal, but said (a percentage written as a number)
expect_in "$ERR" 'benchmark "sleep": the floor of wall is +500% ("min_effect": 5): a fraction is meant'

[ "$(json_get "$SCRATCH/h.json" 'd["benchmarks"][0]["min_effect"]')" = 5 ] ||
	fail "head's floor should decide with --policy head"
gate_run 3 -C "$R" run -v --policy nobody
expect_in "$ERR" '--policy takes "base" or "head"'
# and never in a pull request's check
GITHUB_ACTIONS=true gate_run 3 -C "$R" run -v --base HEAD~1 --head HEAD --policy head
expect_in "$ERR" "--policy head is for local experiments"

# base without gate.json: head's policy, said so
N=$SCRATCH/nobase
new_repo "$N"
write_bench "$N" 0.01
commit_all "$N" "no gate yet"
write_config "$N"
commit_all "$N" "add gate.json"
gate_measured -C "$N" run -v --base HEAD~1 --head HEAD
expect_in "$OUT" "policy: head's gate.json decides: base has no gate.json"
exit 0
