# A machine that slows whole processes (another tenant of the host): a
# suite's noisy cases get a note when one sample in ten or more ran 1.3
# times slower or more in most of its cases at once. The suite (the same
# in both arms but for the file "arm" naming it) counts each arm's runs:
# every third run of an arm prints all four cases at 2x, the others 1x
# with a little jitter, base's slow runs in other pairs than head's, so
# the cases end noisy whatever order each pair's arms ran in (a shared
# count made one arm take 7 of 12 slow runs in some orders, which moved
# that arm's median). A suite whose slow runs slow one case alone gets no
# note: that is the case's own noise, not the machine's.
. "$(dirname "$0")/lib.sh"
# the suites count their runs in $SCRATCH, outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/all.sh" <<EOF2
#!/bin/sh
a=\$(cat arm); k=\$(cat "$SCRATCH/all.\$a" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/all.\$a"
n=\$(( a == 0 ? k : k + 2 ))
f=\$(( n % 3 == 0 ? 20 : 10 )); j=\$(( k % 5 ))
for c in a b c d; do echo "\$c \$f.\$j ms"; done
EOF2
cat >"$R/one.sh" <<EOF2
#!/bin/sh
a=\$(cat arm); k=\$(cat "$SCRATCH/one.\$a" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/one.\$a"
n=\$(( a == 0 ? k : k + 2 ))
f=\$(( n % 3 == 0 ? 20 : 10 )); j=\$(( k % 5 ))
echo "a \$f.\$j ms"
for c in b c d; do echo "\$c 10.\$j ms"; done
EOF2
chmod +x "$R/all.sh" "$R/one.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 12, "max_pairs": 12, "warmup": 0, "min_effect": 0.05 },
  "benchmarks": [ { "name": "all", "format": "lines", "run": ["./all.sh"] },
                  { "name": "one", "format": "lines", "run": ["./one.sh"] } ]
}
JSON
echo 0 >"$R/arm"
commit_all "$R" base
echo 1 >"$R/arm"
commit_all "$R" "head: the same suites"
gate_run 2 -C "$R" run --base HEAD~1 --head HEAD -v --json "$SCRATCH/r.json"
expect_in "$OUT" "all/a: "
# 24 samples, every third of each arm's slow: 8, 4 in each arm
expect_in "$OUT" "8 of the first 24 samples of suite \"all\" (base 4, head 4)"
expect_in "$OUT" "ran 1.3 times slower or more in most of its 4 cases at once"
n=$(json_get "$SCRATCH/r.json" "sum(1 for b in d['benchmarks'] if b['name'].startswith('all/') and 'the machine slowed whole processes' in (b['environment_note'] or ''))")
[ "$n" -ge 1 ] || fail "no noisy case of \"all\" has the note"
n=$(json_get "$SCRATCH/r.json" "sum(1 for b in d['benchmarks'] if b['name'].startswith('one/') and 'the machine slowed whole processes' in (b['environment_note'] or ''))")
[ "$n" -eq 0 ] || fail "a case of \"one\" has the note: its slow runs slow one case alone"
exit 0
