# Issue 27 item 4: every number on the command line is read strictly, in
# plain decimal: hex ("0x10" is not 16), inf, nan, a sign '+', leading
# space and trailing text are refused with a message naming the option and
# the value (exit 3), before gate looks for a repository.
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH" || fail "cannot enter $SCRATCH"	# not a repository

# refused CMD OPT VALUE WANT: gate CMD OPT VALUE exits 3 saying WANT
refused() {
	"$GATE" "$1" "$2" "$3" >"$OUT" 2>"$ERR"
	got=$?
	[ "$got" -eq 3 ] || fail "gate $1 $2 \"$3\" exited $got, want 3"
	expect_in "$ERR" "$2 $4"
	expect_in "$ERR" "got \"$3\""
	expect_not_in "$ERR" "not a git repository"
}
for v in 0x10 0X10 " 8" "+8" "8 " 8.0 1e1 inf nan "" 8x; do
	refused run --pairs "$v" "must be a whole number from 2"
	refused calibrate --pairs "$v" "must be a whole number"
done
for v in 0x10 "+3" " 3" 3.5; do
	refused run --warmup "$v" "must be a whole number from 0"
	refused run --seed "$v" "must be a whole number from 0"
done
for v in 0x10s 0x1p4 0x10 "+5m" inf infh INFs nan nanms -5m 0s " 5m" \
	 5mm 5x "5 m" ""; do
	refused run --budget "$v" "must be a positive, finite duration"
done
# and plain decimal is still read: the same options, well formed, get as
# far as looking for the repository
for a in "--pairs 8" "--pairs 008" "--warmup 0" "--seed 12" "--budget 90" \
	 "--budget 1.5h" "--budget 250ms" "--budget .5m" "--budget 1e2s"; do
	# shellcheck disable=SC2086 # an option and its value
	gate_run 3 run $a
	expect_in "$ERR" "not a git repository"
done
exit 0
