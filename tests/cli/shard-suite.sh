# gate run --shard I/N splits a suite by its cases: a listing run of the
# harness (the lines protocol: GATE_LIST=1) names them, they are dealt over
# the shards in byte order, and each shard runs only its cases
# through GATE_FILTER, at the level of all the suite's cases. Four shards
# run one after another and merged equal the unsharded run: every case
# once, the same level, the same verdicts (the fixture's values are its
# own, the same in every run). Merging refuses missing and overlapping
# cases.
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting"
R=$SCRATCH/repo
new_repo "$R"
# suite.sh: 12 cases c01..c12, each at the time in ms its file says and a
# count (a further value: the reports must load back with it); it lists
# them with GATE_LIST=1 and prints only GATE_FILTER's when set (one grep
# over the names and the shell's own read: a sample forks little, as
# the test takes 120 samples or more)
cat >"$R/suite.sh" <<EOF2
#!/bin/sh
echo "list=\${GATE_LIST-} filter=\${GATE_FILTER-}" >>"$SCRATCH/calls"
cases="c01 c02 c03 c04 c05 c06 c07 c08 c09 c10 c11 c12"
if [ -n "\${GATE_FILTER+x}" ]; then
	cases=\$(printf '%s\\n' \$cases | grep -E "\$GATE_FILTER")
fi
for c in \$cases; do
	if [ -n "\${GATE_LIST-}" ]; then
		echo "\$c"
	else
		read -r t <ms/\$c
		echo "\$c \$t ms"
		echo "\$c 64 allocs/op"
	fi
done
EOF2
chmod +x "$R/suite.sh"
mkdir "$R/ms"
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do echo 10 >"$R/ms/c$i"; done
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 12, "max_pairs": 12, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "s", "format": "lines", "run": ["./suite.sh"], "expect": ["^c12$"] },
    { "name": "plain", "run": ["true"], "metrics": ["allocs"] }
  ]
}
JSON
commit_all "$R" base
echo 15 >"$R/ms/c07"
commit_all "$R" "c07 slower"
S=$SCRATCH
run() {
	w=$1
	shift
	gate_run "$w" -C "$R" run --base HEAD~1 --head HEAD --seed 7 -q "$@"
}

run 1 --json "$S/all.json"
: >"$S/calls"
for i in 1 2 3 4; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 7 -q \
		--shard "$i/4" --json "$S/s$i.json"
done
# each shard listed the cases in both arms, then ran its own only
[ "$(grep -c '^list=1 ' "$S/calls")" = 8 ] ||
	fail "want one listing run per arm and shard: $(sort "$S/calls" | uniq -c)"
grep -q '^list= filter=$' "$S/calls" &&
	fail "a shard ran the whole suite: $(sort "$S/calls" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s3.json" "$S/s1.json" "$S/s4.json" "$S/s2.json" \
	--json "$S/m.json"
python3 - "$S" <<'PY' || fail "merged report differs from the unsharded run"
import json, sys
d = sys.argv[1]
a = json.load(open(d + "/all.json"))
m = json.load(open(d + "/m.json"))
shards = [json.load(open("%s/s%d.json" % (d, i))) for i in range(1, 5)]
names = lambda r: sorted(b["name"] for b in r["benchmarks"])
cases = ["s/c%02d" % i for i in range(1, 13)]
assert names(a) == sorted(cases + ["plain"]), names(a)
# complete: every case once over the shards, none twice
got = sorted(n for s in shards for n in names(s))
assert got == names(a), got
assert names(m) == names(a)
# each shard ran an equal share of the cases (dealt in turn)
share = [len([n for n in names(s) if n.startswith("s/")]) for s in shards]
assert share == [3, 3, 3, 3], share
for s in shards:
    sp = s["protocol"]["shard"]["split"]
    assert sp == [{"suite": "s", "cases": 12}], sp
# levels: every shard and the merge at the unsharded run's 13 comparisons
for r in shards + [m]:
    assert r["protocol"]["compared"] == a["protocol"]["compared"] == 13, \
        r["protocol"]["compared"]
    assert r["protocol"]["one_sided_level"] == a["protocol"]["one_sided_level"]
v = lambda r: {b["name"]: b["verdict"] for b in r["benchmarks"]}
assert v(m) == v(a), (v(m), v(a))
assert v(a)["s/c07"] == "fail" and v(a)["s/c01"] == "pass", v(a)
assert [n for n, x in v(a).items() if x == "fail"] == ["s/c07"]
assert m["exit_code"] == a["exit_code"] == 1
# missing and overlapping cases, as a shard that lost or repeated one
s = shards[0]
case = [b for b in s["benchmarks"] if b["name"].startswith("s/")][0]
s["benchmarks"] = [b for b in s["benchmarks"] if b is not case]
json.dump(s, open(d + "/missing.json", "w"))
t = shards[1]
t["benchmarks"].append(case)
json.dump(t, open(d + "/overlap.json", "w"))
PY
# a shard's report with the split, and the cases' further values (named
# by their units in the samples), loads back and writes the same bytes
TEST_LOAD=$(dirname "${GATE_BIN:-$GATE}")/tests/gate/report/test-load
[ -x "$TEST_LOAD" ] || TEST_LOAD=$(dirname "${GATE_BIN:-$GATE}")/test-load
[ -x "$TEST_LOAD" ] || fail "no test-load: build it (make test does)"
GATE_TEST_REPORT=$S/s1.json "$TEST_LOAD" round_trips >"$OUT" 2>"$ERR" ||
	fail "the loaded s1.json does not write the same bytes"
expect_in "$OUT" "1 passed, 0 failed"
gate_run 3 -C "$R" merge "$S/missing.json" "$S/s2.json" "$S/s3.json" "$S/s4.json"
expect_in "$ERR" "suite \"s\": the shards compared 11 of its cases, but its harness listed 12"
gate_run 3 -C "$R" merge "$S/s1.json" "$S/overlap.json" "$S/s3.json" "$S/s4.json"
expect_in "$ERR" "the shards overlap"
# --list names every case with its shard, and the level of all of them
gate_run 0 -C "$R" run --base HEAD~1 --head HEAD --list --shard 2/4
expect_in "$OUT" "with the suites' cases (listed in the built arms): 13 comparisons"
python3 - "$S" "$OUT" <<'PY' || fail "--list shows other shards than the runs used"
import json, re, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
listed = dict(re.findall(r"^  (s/c\d\d), shard (\d)/4$", out, re.M))
assert len(listed) == 12, listed
for i in range(1, 5):
    r = json.load(open("%s/s%d.json" % (d, i)))
    for b in r["benchmarks"]:
        if b["name"].startswith("s/"):
            assert listed[b["name"]] == str(i), (b["name"], i)
PY
# a harness that cannot list: the listing run's failure is an error
cat >"$R/suite.sh" <<'EOF2'
#!/bin/sh
[ -n "${GATE_LIST-}" ] && exit 4
echo "c01 10 ms"
EOF2
commit_all "$R" "no listing"
gate_run 3 -C "$R" run --base HEAD --head HEAD -q --shard 1/2
expect_in "$ERR" "the listing run of its cases in base exited with code 4"
expect_in "$ERR" "GATE_LIST=1"
echo "shard-suite: ok"
