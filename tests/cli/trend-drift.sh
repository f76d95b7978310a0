# gate trend's creep test under a drifting machine (issue 38 item 3): 12
# recorded commits of identical code whose machine gets 1% slower every
# record (both files of a record scaled alike: head's level rises +11%),
# each file 6 runs with a seeded jitter of up to 8% (so each step's
# interval is wide and the sum of them wider than the rise). The level's
# trend (gate trend before issue 38) flagged it as creep, since the rise
# did not exceed the paired steps' cumulative interval; the paired steps
# (Student's t on their mean) see no change: exit 0. A real creep, head
# 2% slower than base at each of 8 records at 1% jitter, is flagged from
# the steps: exit 1. Seeded values, not timed.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
# values SEED LEVEL JITTER: 6 runs of one "parse V ms" line each
values() {
	awk -v k="$1" -v f="$2" -v j="$3" 'BEGIN { srand(k); for (i = 0; i < 6; i++)
		printf "# run\nparse %.6f ms\n", 100 * f * (1 + j * (2 * rand() - 1)) }'
}
record_chain() {	# record_chain LABEL RECORDS MACHINE_STEP CODE_STEP JITTER
	for i in $(seq 1 "$2"); do
		echo "$1 $i" >"$R/v"
		commit_all "$R" "$1 commit $i"
		m=$(awk -v i="$i" -v s="$3" 'BEGIN { print (1 + s) ^ i }')
		values "$((i * 31))" "$m" "$5" >"$SCRATCH/old.txt"
		values "$((i * 31 + 7))" "$(awk -v m="$m" -v c="$4" 'BEGIN { print m * (1 + c) }')" "$5" >"$SCRATCH/new.txt"
		rm -f "$SCRATCH/r.json"
		"$GATE" compare "$SCRATCH/old.txt" "$SCRATCH/new.txt" --json "$SCRATCH/r.json" >"$OUT" 2>"$ERR"
		[ -s "$SCRATCH/r.json" ] || fail "gate compare wrote no report"
		"$GATE" -C "$R" record --label "$1" "$SCRATCH/r.json" --commit HEAD >"$OUT" 2>"$ERR" ||
			fail "gate record failed"
	done
}
# identical code, the machine 1% slower each record
record_chain drift 12 0.01 0 0.08
gate_run 0 -C "$R" trend --label drift
expect_not_in "$OUT" "creep:"
# head 2% slower than base at every record, a steady machine
record_chain creep 8 0 0.02 0.01
gate_run 1 -C "$R" trend --label creep
expect_in "$OUT" "creep: parse: the paired steps of"
exit 0
