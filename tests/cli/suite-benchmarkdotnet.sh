# BenchmarkDotNet's full JSON in gate run, its rounds, --shard and gate
# compare. A stand-in harness prints what BenchmarkDotNet 0.11 writes
# (tests/data/benchmarkdotnet-sample.json is real output): two launches
# (processes) of three result iterations each per case, and selects by
# the "--filter GLOB..." gate appends (the methods, Ns.Type.Method).
# "Sum(n: 1000)" is 1.5 times slower in head; "Wobble" varies from run to
# run and gets rounds of more pairs, each asking for its method alone;
# asking for one Sum runs both (one method). Three shards merged give the
# unsharded verdicts, every case once. gate compare reads one run (two
# launches) and runs concatenated.
. "$(dirname "$0")/lib.sh"
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bdn.sh" <<EOF2
#!/bin/sh
# bdn.sh [--filter GLOB...]: a -report-full.json on stdout
[ "\${1-}" != --filter ] || shift
echo "[\$*] [\${GATE_LIST-}]" >>"$SCRATCH/filters"
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
printf '{"Title":"B.Bench","HostEnvironmentInfo":{"BenchmarkDotNetVersion":"0.11.2"},"Benchmarks":['
sep=
for id in "Fib:" "Sum:n: 1000" "Sum:n: 4000" "Wobble:"; do
	m=\${id%%:*} p=\${id#*:}
	if [ \$# -gt 0 ]; then
		hit=
		for g; do [ "\$g" != "B.Bench.\$m" ] || hit=1; done
		[ -n "\$hit" ] || continue
	fi
	case \$m in
	Wobble) ns=\$((10000 + 1000 * (k % 3))) ;;
	*) ns=\$(cat "ns/\$m\$(echo "\$p" | tr -dc 0-9)") ;;
	esac
	full=B.Bench.\$m\${p:+(\$p)}
	printf '%s{"DisplayInfo":"Bench.%s: DefaultJob","Namespace":"B","Type":"Bench","Method":"%s","FullName":"%s","Statistics":{},"Measurements":[' \
		"\$sep" "\$m" "\$m" "\$full"
	sep=,
	msep=
	for l in 1 2; do
		printf '%s{"IterationMode":"Workload","IterationStage":"Actual","LaunchIndex":%d,"IterationIndex":1,"Operations":1024,"Nanoseconds":1}' "\$msep" \$l
		msep=,
		for i in 1 2 3; do
			printf ',{"IterationMode":"Workload","IterationStage":"Result","LaunchIndex":%d,"IterationIndex":%d,"Operations":1024,"Nanoseconds":%d}' \
				\$l \$i \$((1024 * ns))
		done
	done
	printf ']}'
done
echo ']}'
EOF2
chmod +x "$R/bdn.sh"
mkdir "$R/ns"
echo 20000 >"$R/ns/Fib"
echo 2000 >"$R/ns/Sum1000"
echo 8000 >"$R/ns/Sum4000"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 24, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "bdn", "format": "benchmarkdotnet", "run": "./bdn.sh" }
  ]
}
JSON
commit_all "$R" base
echo 3000 >"$R/ns/Sum1000"
commit_all "$R" "Sum(n: 1000) slower"
S=$SCRATCH
F='B.Bench.Fib' SUM='B.Bench.Sum' W='B.Bench.Wobble'

gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 5 --json "$S/all.json"
expect_in "$OUT" "bdn/B.Bench.Sum(n: 1000)"
[ "$(grep -c '^\[\] \[\]$' "$S/filters")" = 16 ] ||
	fail "the first look should run the whole suite 16 times: $(sort "$S/filters" | uniq -c)"
grep -qxF "[$W] []" "$S/filters" ||
	fail "no round asked for Wobble alone: $(sort "$S/filters" | uniq -c)"
[ -z "$(grep -v '^\[\] ' "$S/filters" | grep -vxF -e "[$W] []" \
	-e "[$F $SUM $W] []")" ] ||
	fail "a round asked for other cases: $(sort "$S/filters" | uniq -c)"
python3 - "$S/all.json" <<'PY' || fail "want Sum(n: 1000) failing alone, Wobble with rounds"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"][4:]: x for x in d["benchmarks"]}
assert sorted(b) == ["B.Bench.Fib", "B.Bench.Sum(n: 1000)", "B.Bench.Sum(n: 4000)",
                     "B.Bench.Wobble"], sorted(b)
for c in ("B.Bench.Fib", "B.Bench.Sum(n: 4000)"):
    assert b[c]["verdict"] == "pass", b[c]
s = b["B.Bench.Sum(n: 1000)"]
assert s["verdict"] == "fail" and s["unit"] == "s/op", s
assert abs(s["ratio"]["median"] - 1.5) < 1e-6, s
assert b["B.Bench.Wobble"]["pairs"] > 8, b["B.Bench.Wobble"]
assert b["B.Bench.Fib"]["pairs"] < b["B.Bench.Wobble"]["pairs"]
# a sample is one run: its two launches' three iterations each
assert b["B.Bench.Fib"]["repetitions"] == 6, b["B.Bench.Fib"]
PY

: >"$S/filters"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 5 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
[ "$(grep -c '\[1\]$' "$S/filters")" = 6 ] ||
	fail "want one listing run per arm and shard: $(sort "$S/filters" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
shards_match_whole "$S"
python3 - "$S" <<'PY' || fail "the shards split a method"
import json, sys
shards = [json.load(open("%s/s%d.json" % (sys.argv[1], i))) for i in range(1, 4)]
# one method's cases in one shard
assert [sum("Sum(" in b["name"] for b in s["benchmarks"])
        for s in shards].count(0) == 2
PY

for arm in HEAD~1 HEAD; do
	mkdir -p "$S/tree-$arm"
	git -C "$R" archive "$arm" | tar -x -C "$S/tree-$arm"
	(cd "$S/tree-$arm" && ./bdn.sh --filter "$F" "$SUM") >"$S/bdn-$arm-1"
	for k in 1 2; do
		(cd "$S/tree-$arm" && ./bdn.sh --filter "$F" "$SUM")
	done >"$S/bdn-$arm-2"
done
# one run: two launches a side, too few to decide
gate_run 2 compare "$S/bdn-HEAD~1-1" "$S/bdn-HEAD-1"
expect_in "$OUT" "B.Bench.Sum(n: 1000)"
# two runs: four launches a side; Sum(n: 1000) 1.5 times slower
gate_run 1 compare "$S/bdn-HEAD~1-2" "$S/bdn-HEAD-2" --json "$S/c.json"
python3 - "$S/c.json" <<'PY' || fail "compare: want Sum(n: 1000) failing, the others passing"
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["name"]: c["verdict"] for c in d["benchmarks"]}
assert v == {"B.Bench.Fib": "pass", "B.Bench.Sum(n: 1000)": "fail",
             "B.Bench.Sum(n: 4000)": "pass"}, d["benchmarks"]
PY
exit 0
