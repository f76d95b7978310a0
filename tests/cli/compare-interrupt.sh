# Issue 14 item 8: gate compare stops on SIGINT and SIGTERM (130, 143)
# instead of finishing a long comparison; GATE_TEST_STALL=compare holds it
# where the per-case loop starts, so the signal lands inside the loop on
# any machine. (Its speed on 20k and 100k cases is in make bench.)
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data" && pwd)
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	GATE_TEST_STALL=compare "$GATE" compare "$D/gotest-old.txt" \
		"$D/gotest-new.txt" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for grep -q "test stall: compare" "$ERR" ||
		{ kill -9 $pid; fail "compare never reached its loop"; }
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -eq $want ] || fail "SIG$sig gave exit $rc, want $want"
	expect_in "$ERR" "interrupted by signal"
	expect_not_in "$OUT" "verdict:"
done
exit 0
