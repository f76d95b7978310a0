# gate trend names each step by its record's verdict (issue 26 item 5): a
# recorded fail is "failed", never "merged anyway (accepted)", which only
# a record whose verdict is "accepted" may say.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
echo 0 >"$R/v"
commit_all "$R" start
values() {
	awk -v k="$1" -v f="$2" 'BEGIN { for (i = 0; i < 20; i++)
		printf "# run\nparse %.6f ms\n", 100 * (1 + 0.004 * sin(i * 1.7 + k)) * f }'
}
for i in 1 2 3; do
	echo "$i" >"$R/v"
	commit_all "$R" "step $i"
	values "$i" 1 >"$SCRATCH/old$i.txt"
	f=1.01
	want=0
	[ "$i" = 2 ] && f=1.30 && want=1
	values "$((i + 7))" "$f" >"$SCRATCH/new$i.txt"
	gate_run "$want" compare "$SCRATCH/old$i.txt" "$SCRATCH/new$i.txt" --json "$SCRATCH/r$i.json"
	gate_run 0 -C "$R" record --label ci "$SCRATCH/r$i.json" --commit HEAD
done
"$GATE" -C "$R" trend --label ci >"$SCRATCH/out" 2>"$SCRATCH/err" || true
expect_in "$SCRATCH/out" "parse: failed at $(git -C "$R" rev-parse --short=12 HEAD~1) (step 2)"
expect_not_in "$SCRATCH/out" "accepted"
