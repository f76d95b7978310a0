# Issue 14 item 6: an option's value is never taken for --help. Each of
# these crashed (SIGSEGV: --help was spotted anywhere in argv, so the
# command ran without its repository). Now the command's own parser reads
# the value, and the repository is opened after parsing.
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH" || fail "cannot enter $SCRATCH"	# not a repository

for args in "run --base --help" "run --json -h" "run --filter -h" \
	    "run --markdown --help" "calibrate --rev --help" \
	    "run --head -h" "calibrate --config --help"; do
	# shellcheck disable=SC2086 # one argument a word
	"$GATE" $args >"$OUT" 2>"$ERR"
	got=$?
	[ "$got" -eq 3 ] || fail "gate $args exited $got, want 3 (no crash)"
	expect_in "$ERR" "not a git repository"
done
gate_run 3 init -- --help
expect_in "$ERR" 'unexpected argument "--help"'
# in a repository the value is a value: --base --help is a revision
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 3 -C "$R" run --base --help -q
expect_in "$ERR" "--help"
expect_not_in "$OUT" "usage: gate"
gate_run 3 -C "$R" compare --json --help a b
expect_not_in "$OUT" "usage: gate"
# --help itself still needs no repository, and clusters work
gate_run 0 run --help
expect_in "$OUT" "usage: gate [-C DIR] run"
gate_run 0 run -qh
expect_in "$OUT" "usage: gate [-C DIR] run"
gate_run 0 calibrate --write --help
expect_in "$OUT" "calibrate"
gate_run 0 doctor -h
exit 0
