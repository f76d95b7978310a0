# gate trend's change points (e-divisive means on head's samples, one
# group per record): 16 recorded commits where commit 11 makes the work
# 10% slower name commit 11 as the change point with a shift near +10%, in
# the terminal, the JSON and the HTML; a flat chain names none; too few
# records with samples say so instead of guessing; a shift of the machine
# (base and head both 10% slower from commit 9 on, each paired step flat)
# is named and called likely the machine's, not the code's.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
# values K FACTOR: 12 "parse V ms" lines, seeded noise of about 1%
values() {
	awk -v k="$1" -v f="$2" 'BEGIN { srand(k); for (i = 0; i < 12; i++)
		printf "# run\nparse %.6f ms\n", 100 * f * (1 + 0.01 * (rand() - 0.5)) }'
}
record_chain() {	# record_chain LABEL STEP_AT [machine]: 16 commits,
	prev=1		# STEP_AT slower (machine: base too, from STEP_AT on)
	for i in $(seq 1 16); do
		f=1
		[ "$i" -ge "$2" ] && f=1.10
		echo "$1 $i" >"$R/v"
		commit_all "$R" "$1 commit $i"
		[ "${3:-}" = machine ] && prev=$f	# base measured as slow
		values "$((i * 31))" "$prev" >"$SCRATCH/old.txt"
		values "$((i * 31 + 7))" "$f" >"$SCRATCH/new.txt"
		rm -f "$SCRATCH/r.json"
		"$GATE" compare "$SCRATCH/old.txt" "$SCRATCH/new.txt" --json "$SCRATCH/r.json" >"$OUT" 2>"$ERR"
		[ -s "$SCRATCH/r.json" ] || fail "gate compare wrote no report"
		"$GATE" -C "$R" record --label "$1" --samples "$SCRATCH/r.json" --commit HEAD >"$OUT" 2>"$ERR" ||
			fail "gate record failed"
		[ "$i" -eq "$2" ] && culprit=$(git -C "$R" rev-parse HEAD)
		prev=$f
	done
}
culprit=
record_chain step 11
gate_run 0 -C "$R" trend --label step --floor 0.5 --json "$SCRATCH/t.json" --html "$SCRATCH/t.html"
expect_in "$OUT" "parse: change point at $(echo "$culprit" | cut -c1-12) (step commit 11): +10."
/usr/bin/python3 - "$SCRATCH/t.json" "$culprit" <<'PY' || fail "trend JSON change points wrong"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"][0]
cps = b["change_points"]
assert b["change_point_records"] == 16, b["change_point_records"]
assert len(cps) == 1 and cps[0]["commit"] == sys.argv[2], cps
assert 1.08 < cps[0]["shift"] < 1.12 and cps[0]["p"] <= d["change_point_sig"], cps
PY
[ "$(grep -c 'class="changepoint"' "$SCRATCH/t.html")" -eq 1 ] ||
	fail "the HTML does not mark one change point"
expect_in "$SCRATCH/t.html" "change point at $(echo "$culprit" | cut -c1-12)"
# the y axis is labelled at round percentages: equal steps of 1, 2 or 5
# times a power of ten (not the range cut in fourths: +507.2%, +370.0%)
/usr/bin/python3 - "$SCRATCH/t.html" <<'PY' || fail "trend HTML ticks are not round"
import math, re, sys
t = [0.0 if v == "0" else float(v.rstrip("%"))
     for v in re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', open(sys.argv[1]).read())]
assert len(t) >= 3, t
steps = {round(b - a, 9) for a, b in zip(t, t[1:])}
assert len(steps) == 1, t
s = steps.pop()
m = s / 10 ** math.floor(math.log10(s))
assert any(abs(m - k) < 1e-6 for k in (1, 2, 5)), t
assert all(abs(v / s - round(v / s)) < 1e-6 for v in t), t
PY
# a flat chain (its own label, on top): no change point
record_chain flat 99
gate_run 0 -C "$R" trend --label flat --floor 0.5 --json "$SCRATCH/f.json"
expect_in "$OUT" "parse: no change point in 16 records with samples"
expect_not_in "$OUT" "change point at"
# the machine slower from commit 9: named, and called the machine's
record_chain machine 9 machine
gate_run 0 -C "$R" trend --label machine --floor 0.05
expect_in "$OUT" "(machine commit 9): +10."
expect_in "$OUT" "likely the machine's, not the code's"
expect_not_in "$OUT" "failed at"
# five records: too few for the method, and said so
gate_run 0 -C "$R" trend --label machine --floor 0.5 HEAD~5..HEAD --json "$SCRATCH/few.json"
expect_in "$OUT" "parse: change points not sought: 5 records kept at least 3 samples, e-divisive needs 6"
/usr/bin/python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["benchmarks"][0]; assert b["change_points"] is None and b["change_point_records"] == 5, b' "$SCRATCH/few.json" ||
	fail "too few records: JSON change_points is not null"
