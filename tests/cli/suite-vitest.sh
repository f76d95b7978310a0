# vitest bench's --outputJson in gate run, its rounds, --shard and gate
# compare. A stand-in harness prints what vitest 4 writes
# (tests/data/vitest-sample.json is real output) and selects cases by -t
# as the command gate.json(5) shows passes "$GATE_FILTER" (a regex over
# the describe blocks and name joined by spaces, as vitest's -t matches
# them). "sum 1000" is 1.5 times slower in head; "wobble" varies from run
# to run (10, 11, 12 us) and gets rounds of more pairs, each asking for
# it alone; the others print the same values every run. Three shards
# merged give the unsharded verdicts, every case once. gate compare reads
# runs concatenated as processes.
. "$(dirname "$0")/lib.sh"
# the harness counts its runs and logs filters outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/vt.sh" <<EOF2
#!/bin/sh
# vt.sh [-t REGEX]: vitest bench --outputJson's document on stdout
t=
[ "\${1-}" != -t ] || t=\$2
echo "[\$t] [\${GATE_LIST-}]" >>"$SCRATCH/filters"
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
printf '{"files":[{"filepath":"%s/a.bench.js","groups":[' "\$PWD"
sep=
for id in "fib 15" "sum 1000" "sum 4000" wobble; do
	[ -z "\$t" ] || echo "\$id" | grep -Eq "\$t" || continue
	case \$id in
	wobble) us=\$((10 + k % 3)) ;;
	*) us=\$(cat "us/\$(echo "\$id" | tr ' ' _)") ;;
	esac
	case \$id in
	sum*) group="a.bench.js > sum" name=\${id#sum } ;;
	*) group=a.bench.js name=\$id ;;
	esac
	printf '%s{"fullName":"%s","benchmarks":[{"id":"1_%s","name":"%s","rank":1,"rme":1.5,"samples":[],"totalTime":500,"min":0.001,"max":2,"hz":1000,"mean":0.%03d5,"sampleCount":1000,"median":0.%03d}]}' \
		"\$sep" "\$group" "\$k" "\$name" "\$us" "\$us"
	sep=,
done
echo ']}]}'
EOF2
chmod +x "$R/vt.sh"
mkdir "$R/us"
echo 20 >"$R/us/fib_15"
echo 20 >"$R/us/sum_1000"
echo 80 >"$R/us/sum_4000"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 24, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "vt", "format": "vitest",
      "run": "./vt.sh ${GATE_FILTER:+-t \"$GATE_FILTER\"}" }
  ]
}
JSON
commit_all "$R" base
echo 30 >"$R/us/sum_1000"
commit_all "$R" "sum 1000 slower"
S=$SCRATCH

gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 5 --json "$S/all.json"
expect_in "$OUT" "vt/sum 1000"
# the first look ran every case unfiltered; the rounds after it asked for
# the unresolved cases (all four once), then wobble alone
[ "$(grep -c '^\[\] \[\]$' "$S/filters")" = 16 ] ||
	fail "the first look should run the whole suite 16 times: $(sort "$S/filters" | uniq -c)"
grep -q '^\[^(wobble)\$\] \[\]$' "$S/filters" ||
	fail "no round asked for wobble alone: $(sort "$S/filters" | uniq -c)"
[ -z "$(grep -v '^\[\] ' "$S/filters" | grep -vxF -e '[^(wobble)$] []' \
	-e '[^(fib 15|sum 1000|sum 4000|wobble)$] []')" ] ||
	fail "a round asked for other cases: $(sort "$S/filters" | uniq -c)"
python3 - "$S/all.json" <<'PY' || fail "want sum 1000 failing alone, wobble with rounds"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(b) == ["vt/fib 15", "vt/sum 1000", "vt/sum 4000", "vt/wobble"], sorted(b)
for c in ("fib 15", "sum 4000"):
    assert b["vt/" + c]["verdict"] == "pass", b["vt/" + c]
assert b["vt/sum 1000"]["verdict"] == "fail", b["vt/sum 1000"]
assert b["vt/sum 1000"]["unit"] == "s/op", b["vt/sum 1000"]
assert abs(b["vt/sum 1000"]["ratio"]["median"] - 1.5) < 1e-6
assert b["vt/wobble"]["pairs"] > 8, b["vt/wobble"]
assert b["vt/fib 15"]["pairs"] < b["vt/wobble"]["pairs"], b["vt/fib 15"]
# one run, one process: its median the one value
assert b["vt/fib 15"]["repetitions"] == 1, b["vt/fib 15"]
PY

# --shard: a listing run (a whole run, GATE_LIST=1 set), the cases dealt,
# each shard's run through -t
: >"$S/filters"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 5 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
[ "$(grep -c '\[1\]$' "$S/filters")" = 6 ] ||
	fail "want one listing run per arm and shard: $(sort "$S/filters" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
shards_match_whole "$S"

# gate compare: base's and head's output, one run and four concatenated
for arm in HEAD~1 HEAD; do
	mkdir -p "$S/tree-$arm"
	git -C "$R" archive "$arm" | tar -x -C "$S/tree-$arm"
	(cd "$S/tree-$arm" && ./vt.sh -t '^(fib 15|sum 1000)$') >"$S/vt-$arm-1"
	for k in 1 2 3 4; do
		(cd "$S/tree-$arm" && ./vt.sh -t '^(fib 15|sum 1000)$')
	done >"$S/vt-$arm-4"
done
# one run each: one process a side, nothing decided
gate_run 2 compare "$S/vt-HEAD~1-1" "$S/vt-HEAD-1"
expect_in "$OUT" "sum 1000"
# four runs: four processes; sum 1000 1.5 times slower
gate_run 1 compare "$S/vt-HEAD~1-4" "$S/vt-HEAD-4" --json "$S/c.json"
expect_in "$OUT" "sum 1000"
python3 - "$S/c.json" <<'PY' || fail "compare: want sum 1000 failing, fib 15 passing"
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["name"]: c["verdict"] for c in d["benchmarks"]}
assert v == {"fib 15": "pass", "sum 1000": "fail"}, d["benchmarks"]
PY
exit 0
