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
# blocked PID: wait (at most a minute) until PID sleeps in the kernel on
# the FIFO: open() waiting for a writer, or poll()/read() for data. A
# fixed sleep was too short for valgrind on a loaded machine: the signal
# came before gate's handlers were installed, and killed it.
blocked() {
	tries=0
	while [ $tries -lt 600 ]; do
		case $(cat "/proc/$1/wchan" 2>/dev/null) in
		*wait_for_partner* | *pipe_read* | *pipe_wait* | *poll*) return 0 ;;
		esac
		sleep 0.1
		tries=$((tries + 1))
	done
	kill -9 "$1"
	fail "gate (pid $1) never blocked on the FIFO config"
}
for sig in TERM INT; do
	want=143
	[ $sig = INT ] && want=130
	# the writer opens the FIFO and never writes: gate blocks in read
	sleep 30 >"$SCRATCH/fifo" &
	writer=$!
	"$GATE" -C "$R" run --base HEAD --config "$SCRATCH/fifo" >"$OUT" 2>"$ERR" &
	pid=$!
	blocked $pid
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
blocked $pid
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM in open() of a FIFO config: exit $rc, want 143"
# a FIFO that delivers a config is read as before (process substitution)
cat "$R/gate.json" >"$SCRATCH/fifo" &
gate_measured -C "$R" run --base HEAD --config "$SCRATCH/fifo" -q
exit 0
