# Names and commit subjects that any author wrote reach gate trend's and
# gate bisect's terminal output escaped (issue 27 item 1): an ESC
# sequence (a title, a cleared screen) never arrives raw, and in GitHub
# Actions a case named "::error::..." forges no workflow command.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
echo 0 >"$R/v"
commit_all "$R" start
esc=$(printf '\033')
values() {
	awk -v k="$1" -v f="$2" 'BEGIN { for (i = 0; i < 20; i++)
		printf "# run\n::error::forged %.6f ms\n", 100 * (1 + 0.004 * sin(i * 1.7 + k)) * f }'
}
for i in 1 2 3; do
	echo "$i" >"$R/v"
	git -C "$R" add -A
	git -C "$R" commit -q -m "step $i ${esc}]0;pwned$(printf '\007')${esc}[2J"
	values "$i" 1 >"$SCRATCH/old$i.txt"
	f=1.01
	[ "$i" = 2 ] && f=1.30
	values "$((i + 7))" "$f" >"$SCRATCH/new$i.txt"
	gate_measured compare "$SCRATCH/old$i.txt" "$SCRATCH/new$i.txt" --json "$SCRATCH/r$i.json"
	gate_run 0 -C "$R" record --label ci "$SCRATCH/r$i.json" --commit HEAD
done
"$GATE" -C "$R" trend --label ci >"$OUT" 2>"$ERR" || true
expect_in "$OUT" "failed at"
if grep -q "$esc" "$OUT"; then
	fail "gate trend printed a raw ESC"
fi
GITHUB_ACTIONS=true "$GATE" -C "$R" trend --label ci >"$OUT" 2>"$ERR" || true
if grep -q '^::error::forged' "$OUT"; then
	fail "gate trend let a case name forge a workflow command"
fi
if grep -q "$esc" "$OUT"; then
	fail "gate trend printed a raw ESC in Actions"
fi
exit 0
