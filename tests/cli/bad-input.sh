# Bad input is an error (exit 3) saying what and where: an unknown
# revision, a malformed gate.json (with line:column), usage mistakes.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 3 -C "$R" run --base no-such-rev --head HEAD
expect_in "$ERR" '"no-such-rev"'
gate_run 3 -C "$R" run --base HEAD --head 'HEAD~9'
expect_in "$ERR" 'HEAD~9'

printf '{\n  "benchmarks": [\n    { "name": "x", "run": ["./b"], "pairs": 1.5 }\n  ]\n}\n' >"$SCRATCH/bad.json"
gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/bad.json"
expect_in "$ERR" "bad.json:3:"
expect_in "$ERR" '"pairs"'

printf '{ "benchmarks": [ { "name": "x", "run": ["./b"] }, ] }\n' >"$SCRATCH/syntax.json"
gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/syntax.json"
expect_in "$ERR" "syntax.json:1:"

gate_run 3 -C "$R" run --no-such-option
expect_in "$ERR" "usage: gate"
gate_run 3 -C "$R" run --pairs 1
expect_in "$ERR" "--pairs"
gate_run 3 -C "$R" frobnicate
expect_in "$ERR" 'unknown command "frobnicate"'
gate_run 3 -C "$SCRATCH/nowhere" run
gate_run 0 --help
expect_in "$OUT" "usage: gate"
gate_run 0 run --help
expect_in "$OUT" "--base REV"
gate_run 0 help run
expect_in "$OUT" "--seed N"
gate_run 0 --version
expect_in "$OUT" "gate "
# no gate.json in head
git -C "$R" rm -q gate.json
git -C "$R" commit -q -m "no config"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD
expect_in "$ERR" "no gate.json"
exit 0
