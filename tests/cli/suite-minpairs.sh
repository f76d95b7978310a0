# Enough pairs: a filterable suite whose pairs are below the minimum for an
# interval at the level (Bonferroni over its cases) has them raised before
# its cases' first look: the suite re-runs through its filter for the
# missing pairs, and the report says from what to what.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\necho "a 10 ms"\necho "b 10 ms"\necho "c 10 ms"\n' >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 3, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
gate_run 0 -C "$R" run -v --base HEAD --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "pairs raised from 3 to"
[ "$(json_get "$SCRATCH/r.json" 'sorted(set((b["verdict"], b["pairs"] > 3) for b in d["benchmarks"]))')" = "[('pass', True)]" ] ||
	fail "every case should pass on raised pairs: $(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"], b["pairs"]) for b in d["benchmarks"]]')"
expect_not_in "$ERR" "too few"

# --list prints the plan and runs no benchmark: no sample; a suite's cases
# come from a listing run of its harness in the built arms, with the level
# of all of them and the pairs an interval needs there
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 3, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "t", "run": ["sh", "-c", "echo x >>ran"] },
                  { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
rm -rf "$R/.git/gate"
gate_run 0 -C "$R" run -v --base HEAD --head WORKTREE --list
[ ! -e "$R/ran" ] && [ ! -e "$R/.git/gate/a/ran" ] && [ ! -e "$R/.git/gate/b/ran" ] ||
	fail "--list ran a benchmark"
expect_in "$OUT" "one-sided level 95% per comparison"
expect_in "$OUT" "with the suites' cases (listed in the built arms): 4 comparisons; one-sided level 98.75% per comparison"
expect_in "$OUT" "s: 3 cases compared (3 comparisons), pairs 3..2000, at least 8 pairs for an interval at this level (raised)"
expect_in "$OUT" "  s/b"
expect_in "$OUT" "  each case: value gating, floor +10.0%"
expect_in "$OUT" "t: one process per sample, pairs 3..2000, 0 warm-up, at least 6 pairs for an interval at this level (raised)"
expect_in "$OUT" "  wall: gating, floor +10.0%, pass_excludes +20.0%"
expect_in "$OUT" "s: lines, pairs 3..2000"
exit 0
