# A slow tail on the real binary (issue 38 item 1): a lines benchmark
# reports its own time, 10 ms with a seeded jitter of up to 2%; head's is
# 20 ms in a seeded tenth of its runs (run k of the arm when
# (7919 k + 104729) mod 100 < 10: exactly 6 of the 60 measured here),
# +10% in mean time, the typical run unchanged. Hodges-Lehmann alone
# passes it, and so did the 5%-trimmed mean of the log-ratios (3 of the 6
# slow pairs set aside: +3.9%, upper bound +9.2%); the ratio of the arms'
# means does not exclude +10%: noisy, saying the tail grew. Identical code
# still passes (20 pairs). Reported values, not timed: nothing here
# depends on the machine's load.
. "$(dirname "$0")/lib.sh"
# the benchmark counts its runs in $SCRATCH, outside its checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<EOF2
#!/bin/sh
a=\$(cat arm); k=\$(cat "$SCRATCH/count.\$a" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count.\$a"
v=\$(( 1000 + 4 * ((37 * k) % 11) - 20 ))
[ "\$(cat tail)" = 1 ] && [ \$(( (7919 * k + 104729) % 100 )) -lt 10 ] && v=\$((2 * v))
echo "tail \$((v / 100)).\$((v % 100 / 10))\$((v % 10)) ms"
EOF2
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 60, "max_pairs": 60, "warmup": 0, "min_effect": 0.05 },
  "benchmarks": [ { "name": "t", "format": "lines", "run": ["./bench.sh"] } ]
}
JSON
echo 0 >"$R/arm"
echo 0 >"$R/tail"
commit_all "$R" base
echo 1 >"$R/arm"
commit_all "$R" "head: identical"
git -C "$R" tag identical
echo 1 >"$R/tail"
commit_all "$R" "head: a slow tail"
gate_run 2 -C "$R" run --base HEAD~2 --head HEAD --json "$SCRATCH/t.json"
expect_in "$OUT" "the typical run is unchanged"
expect_in "$OUT" "but the slow tail grew by +"
[ "$(json_get "$SCRATCH/t.json" 'd["benchmarks"][0]["pairs"]')" = 60 ] ||
	fail "want 60 pairs"
rm -f "$SCRATCH"/count.*
gate_run 0 -C "$R" run --base HEAD~2 --head identical --pairs 20
exit 0
