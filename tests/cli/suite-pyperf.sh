# Python's pyperf format in gate run, its rounds, --shard and gate
# compare. A stand-in script prints what pyperf -o writes (each benchmark
# a calibration run of warmups, then two worker runs of three values;
# tests/data/pyperf-mult-list.json is real output) and, as gate.json(5)
# asks of a pyperf script, runs only the benchmarks GATE_FILTER matches.
# "beta" is 1.5 times slower in head; "wobble" varies from run to run
# (10, 11, 12 us) and gets rounds of more pairs, each asked for by
# GATE_FILTER alone; the others print the same values every run. Three
# shards merged give the unsharded verdicts, every case once. gate
# compare reads two files of four runs each: eight worker processes.
. "$(dirname "$0")/lib.sh"
# the harness counts its runs and logs filters outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<EOF2
#!/bin/sh
echo "[\${GATE_FILTER-unset}] [\${GATE_LIST-}]" >>"$SCRATCH/filters"
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
printf '{"benchmarks":['
sep=
for id in alpha beta "gamma x" wobble; do
	[ -z "\${GATE_FILTER-}" ] || echo "\$id" | grep -Eq "\$GATE_FILTER" || continue
	case \$id in
	wobble) ns=\$((10000 + 1000 * (k % 3))) ;;
	*) ns=\$(cat "ns/\$(echo "\$id" | tr ' ' _)") ;;
	esac
	v=\$(echo "\$ns" | awk '{ printf "%.9e", \$1 * 1e-9 }')
	printf '%s{"metadata":{"name":"%s","loops":64},"runs":[' "\$sep" "\$id"
	printf '{"metadata":{"calibrate_loops":64},"warmups":[[1,1.0],[64,%s]]},' "\$v"
	printf '{"values":[%s,%s,%s],"warmups":[[64,0.5]]},' "\$v" "\$v" "\$v"
	printf '{"values":[%s,%s,%s],"warmups":[[64,0.5]]}]}' "\$v" "\$v" "\$v"
	sep=,
done
printf '],"metadata":{"unit":"second"},"version":"1.0"}\n'
EOF2
chmod +x "$R/bench.sh"
mkdir "$R/ns"
echo 20000 >"$R/ns/alpha"
echo 2000 >"$R/ns/beta"
echo 8000 >"$R/ns/gamma_x"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 24, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "py", "format": "pyperf", "run": ["./bench.sh"] }
  ]
}
JSON
commit_all "$R" base
echo 3000 >"$R/ns/beta"
commit_all "$R" "beta slower"
S=$SCRATCH

gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 5 --json "$S/all.json"
expect_in "$OUT" "py/beta"
# the first look ran every case unfiltered; the rounds after it asked for
# the unresolved cases, then wobble alone
[ "$(grep -c '^\[unset\] \[\]$' "$S/filters")" = 16 ] ||
	fail "the first look should run the whole suite 16 times: $(sort "$S/filters" | uniq -c)"
grep -q '^\[^(wobble)\$\] \[\]$' "$S/filters" ||
	fail "no round asked for wobble alone: $(sort "$S/filters" | uniq -c)"
[ -z "$(grep -v '^\[unset\]' "$S/filters" | grep -vxF -e '[^(wobble)$] []' \
	-e '[^(alpha|beta|gamma x|wobble)$] []')" ] ||
	fail "a round asked for other cases: $(sort "$S/filters" | uniq -c)"
python3 - "$S/all.json" <<'PY' || fail "want beta failing alone, wobble with rounds"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(n for n in b if n.startswith("py/")) == [
    "py/alpha", "py/beta", "py/gamma x", "py/wobble"], sorted(b)
for c in ("alpha", "gamma x"):
    assert b["py/" + c]["verdict"] == "pass", b["py/" + c]
assert b["py/beta"]["verdict"] == "fail", b["py/beta"]
assert b["py/beta"]["unit"] == "s", b["py/beta"]
assert abs(b["py/beta"]["ratio"]["median"] - 1.5) < 1e-6, b["py/beta"]["ratio"]
assert b["py/wobble"]["pairs"] > 8, b["py/wobble"]
assert b["py/alpha"]["pairs"] < b["py/wobble"]["pairs"], b["py/alpha"]
PY

# --shard: a listing run (a whole run: GATE_LIST=1 set, results name the
# cases), the cases dealt, each shard's run through GATE_FILTER
: >"$S/filters"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 5 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
[ "$(grep -c '\[1\]$' "$S/filters")" = 6 ] ||
	fail "want one listing run per arm and shard: $(sort "$S/filters" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
shards_match_whole "$S"

# gate compare: four runs of base's and of head's script, files one after
# another (each run two worker processes)
for arm in HEAD~1 HEAD; do
	mkdir -p "$S/tree-$arm"
	git -C "$R" archive "$arm" | tar -x -C "$S/tree-$arm"
	for k in 1 2 3 4; do
		(cd "$S/tree-$arm" && GATE_FILTER='^(alpha|beta)$' ./bench.sh)
	done >"$S/py-$arm"
done
gate_run 1 compare "$S/py-HEAD~1" "$S/py-HEAD" --json "$S/c.json"
expect_in "$OUT" "beta"
python3 - "$S/c.json" <<'PY' || fail "compare: want beta failing, alpha passing"
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["name"]: c["verdict"] for c in d["benchmarks"]}
assert v == {"alpha": "pass", "beta": "fail"}, d["benchmarks"]
PY
exit 0
