# Issue 26 item 1: the terminal report fits $COLUMNS (60, 80, 120): every
# line of it, the benchmark's long name cut in the table; the last line is
# the verdict; the protocol is not printed without -v; a program's
# multi-line stderr is indented, never shown as \x0a; a failed write to
# stdout (/dev/full) is exit 3 with a message saying so.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
long=sleep-with-a-benchmark-name-much-longer-than-any-terminal-column-should-hold
new_repo "$R"
write_bench "$R" 0.01
write_config "$R"
sed -i "s/\"name\": \"sleep\"/\"name\": \"$long\"/" "$R/gate.json"
commit_all "$R" base
write_bench "$R" 0.3
commit_all "$R" head
for w in 60 80 120; do
	COLUMNS=$w "$GATE" -C "$R" run --base HEAD~1 -q >"$OUT" 2>"$ERR"
	got=$?
	[ "$got" -ge 1 ] && [ "$got" -le 2 ] || fail "COLUMNS=$w: exit $got, want a verdict (a 30x slower head)"
	awk -v w="$w" 'length($0) > w { print "line " NR " is " length($0) " columns: " $0; bad = 1 }
		END { exit bad }' "$OUT" >"$SCRATCH/wide" ||
		fail "COLUMNS=$w: $(cat "$SCRATCH/wide")"
	tail -n 1 "$OUT" | grep -Eq "^verdict: (FAIL|NOISY): " ||
		fail "COLUMNS=$w: the last line is not the verdict: $(tail -n 1 "$OUT")"
	expect_not_in "$OUT" "protocol:"
	expect_not_in "$OUT" "seed "
	expect_in "$OUT" "benchmark"
done
# the full name is in the reason (cut at half the width there too, at 120
# it fits) and whole in the JSON
COLUMNS=200 "$GATE" -C "$R" run --base HEAD~1 -q --json "$SCRATCH/r.json" >"$OUT" 2>"$ERR"
expect_in "$OUT" "$long: slower by"
expect_in "$SCRATCH/r.json" "\"$long\""

# a benchmark that fails with two lines on stderr: indented, not \x0a
E=$SCRATCH/err-repo
fixture "$E" 0.01 0.01
printf '#!/bin/sh\necho "first line of the trouble" >&2\necho "second line of the trouble" >&2\nexit 7\n' >"$E/bench.sh"
commit_all "$E" "broken bench"
COLUMNS=80 "$GATE" -C "$E" run --base HEAD~1 -q >"$OUT" 2>"$ERR"
[ $? -eq 3 ] || fail "a failing benchmark did not exit 3"
expect_not_in "$OUT" '\x0a'
grep -q '^    .*second line of the trouble' "$OUT" ||
	fail "the stderr's second line is not on an indented line of its own"
tail -n 1 "$OUT" | grep -q '^verdict: ERROR' || fail "the last line is not the verdict"

# a failed write to stdout is an error, and says so
"$GATE" -C "$R" run --base HEAD~1 -q >/dev/full 2>"$ERR"
got=$?
[ "$got" -eq 3 ] || fail "gate run >/dev/full exited $got, want 3"
expect_in "$ERR" "cannot write the report to stdout"
# issue 37: an error message is wrapped at the terminal's width (a config
# error was one 146-column line); in a log (no $COLUMNS, not a terminal)
# it stays one line, for grep
C=$SCRATCH/cfg-repo
fixture_value "$C" 10 10
toolong=$(printf 'b%.0s' $(seq 1 120))
sed -i "s/\"name\": \"sleep\"/\"name\": \"$toolong\"/" "$C/gate.json"
commit_all "$C" "a name too long"
COLUMNS=80 "$GATE" -C "$C" run --base HEAD~1 -q >"$OUT" 2>"$ERR"
[ $? -eq 3 ] || fail "a config error did not exit 3"
expect_in "$ERR" "more than 100"
awk 'length($0) > 80 { print NR ": " length($0); bad = 1 } END { exit bad }' \
	"$ERR" >"$SCRATCH/wide" || fail "COLUMNS=80: stderr lines wider: $(cat "$SCRATCH/wide")"
[ "$(grep -c 'gate: error:' "$ERR")" = 1 ] || fail "the error was not said once"
env -u COLUMNS "$GATE" -C "$C" run --base HEAD~1 -q >"$OUT" 2>"$ERR"
grep -q 'gate: error: .*characters long, more than 100: it becomes' "$ERR" ||
	fail "in a log the error is not one line"
exit 0
