# "check" (issue 13 item 4): a benchmark's correctness command runs once
# per arm after the build and before any timing; a failing check is an
# error naming the arm, with the tail of its output, and nothing is timed.
. "$(dirname "$0")/lib.sh"
# the fallback's seals (Landlock, manifests): this test's builds write to
# files outside their arm (or read a repository there), which a sandbox
# per arm hides; gaming-sandbox.sh tests the sandbox
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
R=$SCRATCH/repo
L=$SCRATCH/order.log
fixture "$R" 0.01 0.01
printf '#!/bin/sh\necho "check $(basename "$PWD")" >>"%s"\necho roundtrip ok\n' "$L" >"$R/check.sh"
printf '#!/bin/sh\necho sample >>"%s"\nsleep 0.01\necho done\n' "$L" >"$R/bench.sh"
chmod +x "$R/check.sh" "$R/bench.sh"
commit_all "$R" "base with a check"
cat >"$SCRATCH/c.json" <<'JSON'
{ "defaults": { "pairs": 2, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [ { "name": "rt", "run": ["./bench.sh"], "check": ["./check.sh"] } ] }
JSON
gate_measured -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/c.json"
[ "$(grep -c '^check' "$L")" = 2 ] || fail "the check ran $(grep -c '^check' "$L") times, want once per arm"
[ "$(head -n 2 "$L" | grep -c '^check')" = 2 ] || fail "a sample ran before the checks"
# head breaks the round trip
printf '#!/bin/sh\necho "decoded 17 bytes, want 42" >&2\nexit 1\n' >"$R/check.sh"
commit_all "$R" "head breaks the round trip"
: >"$L"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/c.json"
expect_in "$ERR" 'the check of benchmark "rt" failed in head'
expect_in "$ERR" "decoded 17 bytes, want 42"
expect_not_in "$L" sample
exit 0
