# Accepted means accepted (issue 23 item 6): with "Gate-Accept: NAME +X%" a
# regression passes as accepted when its upper bound is within +X%, even
# when it is merely noisy (its lower bound below the floor); it fails only
# when its lower bound is above +X%, and is noisy only in between. The
# values come from a lines suite, so the ratios are what the script
# prints: head alternates 10 and 30 ms against base's 10, pair ratios 1
# and 3, an interval from about 1 to 3 (noisy at the 10% floor).
. "$(dirname "$0")/lib.sh"
# the suite counts its runs in $SCRATCH, outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\necho "x 10 ms"\n' >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 12, "max_pairs": 12, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
git -C "$R" tag base
cat >"$R/suite.sh" <<EOF2
#!/bin/sh
n=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$SCRATCH/count"
if [ \$((n % 2)) -eq 0 ]; then echo "x 10 ms"; else echo "x 30 ms"; fi
EOF2
commit_all "$R" "sometimes three times slower"
git -C "$R" tag noisy

# without a trailer: noisy (exit 2), neither shown nor excluded
gate_run 2 -C "$R" run -v --base base --head noisy
expect_in "$OUT" "noisy"

# accepted up to +1000%: the upper bound (about +200%) is within, so
# accepted (exit 0), though the lower bound is below the floor
git -C "$R" commit -q --allow-empty -m "accept it" \
	-m "Gate-Accept: s/x +1000% the tail is worth it"
git -C "$R" tag within
gate_run 0 -C "$R" run -v --base base --head within --json "$SCRATCH/r.json"
expect_in "$OUT" "within the +1000% that commit"
[ "$(json_get "$SCRATCH/r.json" 'd["benchmarks"][0]["verdict"]')" = accepted ] ||
	fail "the case's verdict should be accepted"
[ "$(json_get "$SCRATCH/r.json" 'd["exit_code"]')" = 0 ] || fail "exit code"

# accepted up to +100%: the upper bound is above it, the lower below it:
# noisy, saying the acceptance may be exceeded
git -C "$R" checkout -q noisy
git -C "$R" commit -q --allow-empty -m "accept a little" \
	-m "Gate-Accept: s/x +100% a little slower"
gate_run 2 -C "$R" run -v --base base --head HEAD
expect_in "$OUT" "may exceed the accepted +100%"
exit 0
