# A suite case below the resolution of the benchmark's own timer (0 ms):
# reported as unmeasurable with the reason, the other cases still decided,
# exit 3 until gate.json's "ignore" accepts it (issue 16, point 3).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\necho "tiny 0 ms"\necho "big 10 ms"\necho "slow 10 ms"\n' >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 6, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
printf '#!/bin/sh\necho "tiny 0 ms"\necho "big 10 ms"\necho "slow 20 ms"\n' >"$R/suite.sh"
commit_all "$R" head
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
[ "$(json_get "$SCRATCH/r.json" 'sorted((b["name"], b["verdict"]) for b in d["benchmarks"])')" = \
  "[('s/big', 'pass'), ('s/slow', 'fail'), ('s/tiny', 'error')]" ] ||
	fail "per-case verdicts: $(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')"
expect_in "$OUT" 'unmeasurable: case "tiny" is 0 s in 12 of 12 samples'
expect_in "$OUT" '"ignore": ["^tiny$"]'

# accepted: "ignore" sets it aside, the rest decides the exit code
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 6, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"],
                    "ignore": ["^tiny$"] } ]
}
JSON
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --config "$R/gate.json" \
	--json "$SCRATCH/r2.json"
[ "$(json_get "$SCRATCH/r2.json" 'sorted(b["name"] for b in d["benchmarks"])')" = \
  "['s/big', 's/slow']" ] || fail "ignored case still compared"
expect_in "$ERR" 'case "tiny" not compared'

# "ignore" on a benchmark without a suite format is refused
cat >"$SCRATCH/bad.json" <<'JSON'
{ "benchmarks": [ { "name": "t", "run": ["./suite.sh"], "ignore": ["x"] } ] }
JSON
gate_run 3 -C "$R" run --config "$SCRATCH/bad.json"
expect_in "$ERR" '"ignore" lists cases of a suite'
exit 0
