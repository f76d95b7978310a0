# Issue 14 item 7: --config from /dev/zero or a 1 GB (sparse) file is
# refused at the 16 MiB bound without reading it all; a FIFO that never
# delivers holds no lock while gate waits, and SIGTERM/SIGINT stop gate
# with 143/130, not exit 3 "Interrupted system call".
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 3 -C "$R" run --base HEAD --config /dev/zero
expect_in "$ERR" '"/dev/zero" is larger than 16777216 bytes'
truncate -s 1G "$SCRATCH/big.json"
gate_run 3 -C "$R" run --base HEAD --config "$SCRATCH/big.json"
expect_in "$ERR" "is larger than 16777216 bytes"
mkfifo "$SCRATCH/fifo"
# long enough for gate to be blocked on the FIFO (valgrind starts slowly:
# make memcheck sets GATE_TEST_TIME_SCALE)
settle=${GATE_TEST_TIME_SCALE:-1}
for sig in TERM INT; do
	want=143
	[ $sig = INT ] && want=130
	# the writer opens the FIFO and never writes: gate blocks in read
	sleep 30 >"$SCRATCH/fifo" &
	writer=$!
	"$GATE" -C "$R" run --base HEAD --config "$SCRATCH/fifo" >"$OUT" 2>"$ERR" &
	pid=$!
	sleep "$settle"
	# no lock is held while gate waits for its config
	if [ -e "$R/.git/gate/lock" ] && ! flock -n "$R/.git/gate/lock" true; then
		kill -9 $pid $writer
		fail "the lock is held while the config is read"
	fi
	kill -$sig $pid
	wait $pid
	rc=$?
	kill $writer 2>/dev/null
	wait $writer 2>/dev/null
	[ $rc -eq $want ] || fail "SIG$sig while reading a FIFO config: exit $rc, want $want"
	expect_in "$ERR" "interrupted by signal"
	expect_not_in "$ERR" "Interrupted system call"
done
# without a writer gate blocks in open(): a signal stops it too
"$GATE" -C "$R" run --base HEAD --config "$SCRATCH/fifo" >"$OUT" 2>"$ERR" &
pid=$!
sleep "$settle"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM in open() of a FIFO config: exit $rc, want 143"
# a FIFO that delivers a config is read as before (process substitution)
cat "$R/gate.json" >"$SCRATCH/fifo" &
gate_measured -C "$R" run --base HEAD --config "$SCRATCH/fifo" -q
exit 0
