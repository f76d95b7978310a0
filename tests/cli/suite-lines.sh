# The lines protocol through gate run: each case is compared on its own
# (b doubles in head and fails, a is unchanged and passes, c is new, r
# only base printed: removed, a fail unless accepted); a
# case that disappears from one sample is an error, not a smaller table.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\necho "a 10 ms"\necho "b 10 ms"\necho "r 5 ms"\n' >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
printf '#!/bin/sh\necho "a 10 ms"\necho "b 20 ms"\necho "c 1 ms"\n' >"$R/suite.sh"
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "s/b"
expect_in "$OUT" "s/c: new: only head's suite printed this case"
expect_in "$OUT" "s/r: removed: base's suite printed case \`s/r\`, head's does not"
expect_in "$OUT" "1 value per process"
[ "$(json_get "$SCRATCH/r.json" 'sorted((b["name"], b["verdict"]) for b in d["benchmarks"])')" = \
  "[('s/a', 'pass'), ('s/b', 'fail'), ('s/c', 'new'), ('s/r', 'fail')]" ] ||
	fail "per-case verdicts: $(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')"
[ "$(json_get "$SCRATCH/r.json" 'abs([b for b in d["benchmarks"] if b["name"] == "s/b"][0]["ratio"]["low"] - 2) < 1e-9')" = True ] ||
	fail "s/b should be exactly 2x"

# the third run of each arm drops case "a": a manifest error (exit 3)
cat >"$R/suite.sh" <<EOF2
#!/bin/sh
n=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$SCRATCH/count"
[ "\$n" -eq 2 ] || echo "a 10 ms"
echo "b 10 ms"
EOF2
commit_all "$R" flaky
gate_run 3 -C "$R" run -v --base HEAD --head HEAD
expect_in "$OUT" 'case "a" (s) is missing from'
# malformed output names the line
printf '#!/bin/sh\necho "a 10"\n' >"$R/suite.sh"
gate_run 3 -C "$R" run -v --base HEAD --head WORKTREE
expect_in "$OUT" 'stdout in pair 1:1: expected "name value unit"'

# a count going to 0 is a value, not "below the resolution" (issue 25
# item 3): 1 fault -> 0 faults is compared as (0 + 1) / (1 + 1), a pass
Z=$SCRATCH/zero
new_repo "$Z"
printf '#!/bin/sh\necho "x 1 faults"\n' >"$Z/suite.sh"
chmod +x "$Z/suite.sh"
cp "$R/gate.json" "$Z/gate.json"
commit_all "$Z" base
printf '#!/bin/sh\necho "x 0 faults"\n' >"$Z/suite.sh"
commit_all "$Z" head
gate_run 0 -C "$Z" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/z.json"
expect_not_in "$OUT" "below the resolution"
[ "$(json_get "$SCRATCH/z.json" '[b["verdict"] for b in d["benchmarks"] if b["name"] == "s/x"][0]')" = pass ] ||
	fail "1 -> 0 faults should pass"
exit 0
