# gate record and gate trend: five merges of +2% each, recorded from real
# gate compare reports (self-reported values exactly 2% apart, a fixed
# ripple), give a cumulative ratio whose interval holds the true +10.4%
# and creep flagged at a 5% floor while no step failed; a commit recorded
# twice keeps both runs; concurrent records on different commits all
# survive; export writes Bencher's BMF shape and CSV.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
echo 0 >"$R/v"
commit_all "$R" start
# values.txt K FACTOR: 20 "parse V ms" lines, a deterministic ripple
values() {
	awk -v k="$1" -v f="$2" 'BEGIN { for (i = 0; i < 20; i++)
		printf "# run\nparse %.6f ms\n", 100 * (1 + 0.004 * sin(i * 1.7 + k)) * f }'
}
for i in 1 2 3 4 5; do
	git -C "$R" checkout -q -b "topic$i"
	echo "$i" >"$R/v"
	commit_all "$R" "topic $i"
	git -C "$R" checkout -q main
	git -C "$R" merge -q --no-ff -m "merge topic $i" "topic$i"
	values "$i" 1 >"$SCRATCH/old$i.txt"
	values "$((i + 7))" 1.02 >"$SCRATCH/new$i.txt"
	gate_run 0 compare "$SCRATCH/old$i.txt" "$SCRATCH/new$i.txt" --json "$SCRATCH/r$i.json"
	gate_run 0 -C "$R" record --label ci "$SCRATCH/r$i.json" --commit HEAD
	expect_in "$OUT" "recorded on $(git -C "$R" rev-parse --short=12 HEAD) as \"ci\""
done
# the same commit twice: both runs kept, one line each
gate_run 0 -C "$R" record --label ci "$SCRATCH/r5.json" --commit HEAD
[ "$(git -C "$R" notes --ref=gate show HEAD | wc -l)" -eq 2 ] ||
	fail "a second record on one commit did not keep the first"
gate_run 1 -C "$R" trend --label ci --json "$SCRATCH/t.json" --html "$SCRATCH/t.html"
expect_in "$OUT" "5 records for \"ci\" on 6 first-parent commits"
expect_in "$OUT" "creep: parse is slower by at least"
expect_in "$OUT" "no single step failed"
/usr/bin/python3 - "$SCRATCH/t.json" <<'PY' || fail "trend JSON check failed"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"][0]
true = 1.02 ** 5
assert b["name"] == "parse" and len(b["steps"]) == 5, b
assert b["low"] < true < b["high"], (b["low"], true, b["high"])
assert b["low"] > 1.05 and b["creep"] and b["failed_steps"] == 0, b
# the cumulative ratio is the product of the steps' ratios
prod = 1
for s in b["steps"]:
    prod *= s["ratio"]
assert abs(prod - b["cumulative"]) < 1e-9, (prod, b["cumulative"])
# the interval, recomputed independently (python's NormalDist, not GSL):
# log-ratios summed, variances added, each step's sd the wider side of its
# interval in log space over the normal quantile of its one-sided level
from math import exp, log, sqrt
from statistics import NormalDist
q = NormalDist().inv_cdf
var = sum((max(log(s["ratio_high"] / s["ratio"]), log(s["ratio"] / s["ratio_low"])) / q(s["level"])) ** 2
          for s in b["steps"])
low, high = prod * exp(-q(0.975) * sqrt(var)), prod * exp(q(0.975) * sqrt(var))
assert abs(low - b["low"]) < 1e-9 and abs(high - b["high"]) < 1e-9, (low, high, b)
PY
expect_in "$SCRATCH/t.html" "<svg"
expect_in "$SCRATCH/t.html" "class=\"floor\""
[ "$(grep -c 'class="step pass"' "$SCRATCH/t.html")" -eq 5 ] || fail "HTML does not mark 5 steps"
for bad in "<script" "src=" "href=" "url(" "@import"; do
	expect_not_in "$SCRATCH/t.html" "$bad"
done
# the trend page renders in headless Chromium (as tests/cli/html-browser.sh
# renders the run report); the screenshot is kept in $ARTIFACTS/trend.png
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || fail "no Chromium to render the trend: run ci/install-deps"
art=${ARTIFACTS:-$(dirname "$GATE")/artifacts}
mkdir -p "$art"
cp "$SCRATCH/t.html" "$art/trend.html"
chrome() {
	profile=$(mktemp -d "$SCRATCH/profile.XXXXXX")
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" "file://$SCRATCH/t.html" 2>>"$SCRATCH/browser.log"
}
chrome --dump-dom >"$SCRATCH/dom.html" || fail "$browser --dump-dom failed"
[ "$(grep -c '<circle class="step pass"' "$SCRATCH/dom.html")" -eq 5 ] ||
	fail "the browser's DOM does not hold one point per step (5)"
expect_in "$SCRATCH/dom.html" 'class="band"'
expect_in "$SCRATCH/dom.html" 'class="creep"'
png=$art/trend.png
rm -f "$png"
chrome --window-size=800,500 --screenshot="$png" >/dev/null ||
	fail "$browser --screenshot failed"
set -- $(python3 "$(dirname "$0")/png-stats.py" "$png") || fail "cannot read $png"
[ "$3" -ge 50 ] || fail "trend screenshot has only $3 colours: blank or broken page"
# one step alone is +2%: no creep, exit 0; a higher floor: no creep either
gate_run 0 -C "$R" trend --label ci HEAD~1..HEAD
expect_not_in "$OUT" "creep"
gate_run 0 -C "$R" trend --label ci --floor 0.2
# another label sees none of it
gate_run 3 -C "$R" trend --label other
expect_in "$ERR" "no record for label \"other\""
# --last: the newest recorded first-parent commit
gate_run 0 -C "$R" record --last --label ci
[ "$(cat "$OUT")" = "$(git -C "$R" rev-parse HEAD)" ] || fail "record --last is not HEAD"
# concurrent records on different commits: every one survives
for k in 1 2 3 4 5 6; do
	( "$GATE" -C "$R" record --label para --commit HEAD~2 "$SCRATCH/r1.json" >/dev/null ) &
	( "$GATE" -C "$R" record --label para --commit HEAD~4 "$SCRATCH/r1.json" >/dev/null ) &
done
wait
[ "$(git -C "$R" notes --ref=gate show HEAD~2 | grep -c '"label":"para"')" -eq 6 ] ||
	fail "concurrent records on HEAD~2 lost some"
[ "$(git -C "$R" notes --ref=gate show HEAD~4 | grep -c '"label":"para"')" -eq 6 ] ||
	fail "concurrent records on HEAD~4 lost some"
# bad input
gate_run 3 -C "$R" record "$SCRATCH/old1.txt" --commit HEAD
expect_in "$ERR" "is not a gate JSON report"
gate_run 3 -C "$R" record "$SCRATCH/r1.json"
expect_in "$ERR" "names no head commit: pass --commit REV"
# export: Bencher's metric format (BMF), checked against its documented
# shape: {benchmark: {measure: {"value": n, "lower_value"?: n,
# "upper_value"?: n}}}, numbers only, lower <= value <= upper
gate_run 0 -C "$R" export --format bencher --label ci --output "$SCRATCH/bmf.json"
/usr/bin/python3 - "$SCRATCH/bmf.json" "$SCRATCH/r5.json" <<'PY' || fail "BMF shape check failed"
import json, sys
d = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))["benchmarks"][0]
assert isinstance(d, dict) and d, d
for name, measures in d.items():
    assert isinstance(name, str) and isinstance(measures, dict) and measures
    for slug, m in measures.items():
        assert isinstance(m, dict) and set(m) <= {"value", "lower_value", "upper_value"}, m
        assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in m.values()), m
        assert m.get("lower_value", m["value"]) <= m["value"] <= m.get("upper_value", m["value"]), m
r = d["parse"]["ratio"]
assert (r["value"], r["lower_value"], r["upper_value"]) == (rep["ratio"]["estimate"], rep["ratio"]["low"], rep["ratio"]["high"]), r
assert abs(d["parse"]["latency"]["value"] - rep["head"]["median"] * 1e9) < 1e-3, d
PY
gate_run 0 -C "$R" export --format csv --label ci
/usr/bin/python3 - "$OUT" <<'PY' || fail "CSV check failed"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# every record: the head commit recorded twice gives two rows (issue 26)
assert len(rows) == 6 and [r["subject"] for r in rows] == ["merge topic %d" % i for i in range(1, 6)] + ["merge topic 5"], rows
assert rows[4]["commit"] == rows[5]["commit"], rows
assert all(r["benchmark"] == "parse" and r["label"] == "ci" and 1.01 < float(r["ratio"]) < 1.03 for r in rows), rows
PY
gate_run 0 -C "$R" export --format bencher --label ci --commit HEAD~1
expect_in "$OUT" "\"ratio\""
gate_run 3 -C "$R" export --format bencher --label ci --commit HEAD~1^2
expect_in "$ERR" "no record for label \"ci\""
gate_run 3 -C "$R" export --format xml
expect_in "$ERR" "--format wants bencher or csv"
