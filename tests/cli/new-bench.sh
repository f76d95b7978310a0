# A benchmark that base's gate.json does not declare is reported as new
# and not compared; the others are compared as usual.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
# base's floor of +500% (base's policy decides): two 10 ms sleeps pass
# however loaded the machine; only "new" is under test here
new_repo "$R"
write_bench "$R" 0.01
write_config "$R" '"min_effect": 5'
commit_all "$R" base
cat >"$R/gate.json" <<'JSON'
{ "defaults": { "pairs": 4, "warmup": 0, "min_effect": 5 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] },
                  { "name": "fresh", "run": ["./fresh.sh"] } ] }
JSON
printf '#!/bin/sh\nsleep 0.01\n' >"$R/fresh.sh"
chmod +x "$R/fresh.sh"
commit_all "$R" "add fresh benchmark"
gate_run 0 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "fresh: new in head"
[ "$(json_get "$SCRATCH/r.json" '[b["verdict"] for b in d["benchmarks"]]')" = "['pass', 'new']" ] ||
	fail "verdicts should be pass and new"
[ "$(json_get "$SCRATCH/r.json" 'd["protocol"]["compared"]')" = 1 ] || fail "compared count"

# a base whose gate.json is not valid cannot say what it declares: gate
# warns, with base's own error, and compares every benchmark head declares
B=$SCRATCH/broken
fixture "$B" 0.01 0.01
git -C "$B" checkout -q HEAD~1
printf '{ "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"], "pairs": 1 } ] }\n' >"$B/gate.json"
git -C "$B" commit -q -am "base with an invalid gate.json"
git -C "$B" tag broken-base
git -C "$B" checkout -q main
gate_measured -C "$B" run -v --base broken-base --head HEAD --json "$SCRATCH/b.json"
expect_in "$ERR" "base's gate.json is not valid"
expect_in "$ERR" '"pairs"'
[ "$(json_get "$SCRATCH/b.json" 'd["protocol"]["compared"]')" = 1 ] ||
	fail "every benchmark of head should be compared"

# a base without gate.json: head's serves both arms, and the report says so
N=$SCRATCH/nocfg
new_repo "$N"
write_bench "$N" 0.01
commit_all "$N" "before gate"
write_config "$N"
commit_all "$N" "add gate.json"
gate_measured -C "$N" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/n.json"
expect_in "$OUT" "config: gate.json (base has no gate.json: head's is used for both arms"
[ "$(json_get "$SCRATCH/n.json" 'd["protocol"]["config_note"]')" != "" ] ||
	fail "the JSON report should say head's config served both arms"
exit 0
