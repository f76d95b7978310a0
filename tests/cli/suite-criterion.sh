# Rust's criterion and bencher formats in gate run, its rounds, --shard
# and gate compare. A stand-in harness prints what criterion 0.3 writes
# (each case's benchmark.json and sample.json, as gate init's command
# concatenates them; tests/data/criterion-sample.txt is real output) or
# its --output-format bencher lines, and selects cases by GATE_FILTER as
# gate init's command passes it to criterion's filter argument (a regex
# over the full id). "sum/1000" is 1.5 times slower in head; "wobble"
# varies from run to run (10, 11, 12 us) and gets rounds of more pairs,
# each asked for by GATE_FILTER alone; the others print the same values
# every run. Three shards merged give the unsharded verdicts, every case
# once. gate compare reads two files of each: one run is repetitions of
# one process (a timing not decided), runs concatenated are processes.
. "$(dirname "$0")/lib.sh"
# the harness counts its runs and logs filters outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/crit.sh" <<EOF2
#!/bin/sh
# crit.sh criterion|bencher
echo "[\${GATE_FILTER-unset}] [\${GATE_LIST-}]" >>"$SCRATCH/filters-\$1"
k=\$(cat "$SCRATCH/count-\$1" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count-\$1"
for id in "fib 15" sum/1000 sum/4000 wobble; do
	[ -z "\${GATE_FILTER-}" ] || echo "\$id" | grep -Eq "\$GATE_FILTER" || continue
	case \$id in
	wobble) ns=\$((10000 + 1000 * (k % 3))) ;;
	*) ns=\$(cat "ns/\$(echo "\$id" | tr ' /' '__')") ;;
	esac
	if [ "\$1" = bencher ]; then
		echo "test \$id ... bench:   \$ns ns/iter (+/- 12)"
		continue
	fi
	# find's order within a directory: either file first
	[ "\$id" = sum/4000 ] ||
		printf '{"group_id":"%s","function_id":null,"value_str":null,"throughput":null,"full_id":"%s","directory_name":"%s","title":"%s"}' "\$id" "\$id" "\$id" "\$id"
	printf '{"sampling_mode":"Linear","iters":[10.0,20.0,30.0],"times":[%s.0,%s.0,%s.0]}' \
		\$((10 * ns)) \$((20 * ns)) \$((30 * ns))
	[ "\$id" != sum/4000 ] ||
		printf '{"group_id":"sum","function_id":null,"value_str":"4000","throughput":null,"full_id":"%s","directory_name":"%s","title":"%s"}' "\$id" "\$id" "\$id"
done
[ "\$1" = bencher ] || echo
EOF2
chmod +x "$R/crit.sh"
mkdir "$R/ns"
echo 20000 >"$R/ns/fib_15"
echo 2000 >"$R/ns/sum_1000"
echo 8000 >"$R/ns/sum_4000"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 24, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "crit", "format": "criterion", "run": ["./crit.sh", "criterion"] },
    { "name": "bench", "format": "bencher", "run": "./crit.sh bencher" }
  ]
}
JSON
commit_all "$R" base
echo 3000 >"$R/ns/sum_1000"
commit_all "$R" "sum/1000 slower"
S=$SCRATCH

gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 5 --json "$S/all.json"
expect_in "$OUT" "crit/sum/1000"
for f in criterion bencher; do
	# the first look ran every case unfiltered; the rounds after it asked
	# for the unresolved cases (all four once, as the first look ends at
	# the pairs that can decide), then wobble alone
	[ "$(grep -c '^\[unset\] \[\]$' "$S/filters-$f")" = 16 ] ||
		fail "$f: the first look should run the whole suite 16 times: $(sort "$S/filters-$f" | uniq -c)"
	grep -q '^\[^(wobble)\$\] \[\]$' "$S/filters-$f" ||
		fail "$f: no round asked for wobble alone: $(sort "$S/filters-$f" | uniq -c)"
	[ -z "$(grep -v '^\[unset\]' "$S/filters-$f" | grep -vxF -e '[^(wobble)$] []' \
		-e '[^(fib 15|sum/1000|sum/4000|wobble)$] []')" ] ||
		fail "$f: a round asked for other cases: $(sort "$S/filters-$f" | uniq -c)"
done
python3 - "$S/all.json" <<'PY' || fail "want sum/1000 failing alone, wobble with rounds"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
for s in ("crit", "bench"):
    assert sorted(n for n in b if n.startswith(s + "/")) == [
        s + "/fib 15", s + "/sum/1000", s + "/sum/4000", s + "/wobble"], sorted(b)
    for c in ("fib 15", "sum/4000"):
        assert b[s + "/" + c]["verdict"] == "pass", b[s + "/" + c]
    assert b[s + "/sum/1000"]["verdict"] == "fail", b[s + "/sum/1000"]
    assert b[s + "/sum/1000"]["unit"] == "s/iter", b[s + "/sum/1000"]
    assert abs(b[s + "/sum/1000"]["ratio"]["median"] - 1.5) < 1e-6
    assert b[s + "/wobble"]["pairs"] > 8, b[s + "/wobble"]
    assert b[s + "/fib 15"]["pairs"] < b[s + "/wobble"]["pairs"], b[s + "/fib 15"]
# criterion: 3 samples a process, their median the process's value
assert b["crit/fib 15"]["repetitions"] == 3, b["crit/fib 15"]
assert b["bench/fib 15"]["repetitions"] == 1, b["bench/fib 15"]
PY

# --shard: a listing run of each (a whole run: GATE_LIST=1 set, results
# name the cases), the cases dealt, each shard's run through GATE_FILTER
: >"$S/filters-criterion"
: >"$S/filters-bencher"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 5 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
for f in criterion bencher; do
	[ "$(grep -c '\[1\]$' "$S/filters-$f")" = 6 ] ||
		fail "$f: want one listing run per arm and shard: $(sort "$S/filters-$f" | uniq -c)"
done
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
shards_match_whole "$S"

# gate compare: base's and head's output of each format (the harness run
# in each commit's tree, the repository put back after)
for arm in HEAD~1 HEAD; do
	mkdir -p "$S/tree-$arm"
	git -C "$R" archive "$arm" | tar -x -C "$S/tree-$arm"
	for f in criterion bencher; do
		(cd "$S/tree-$arm" && GATE_FILTER='^(fib 15|sum/1000)$' ./crit.sh $f) \
			>"$S/$f-$arm-1"
		for k in 1 2 3 4; do
			(cd "$S/tree-$arm" && GATE_FILTER='^(fib 15|sum/1000)$' ./crit.sh $f)
		done >"$S/$f-$arm-4"
	done
done
# one criterion run: 3 samples of one process, a timing not decided
gate_run 2 compare "$S/criterion-HEAD~1-1" "$S/criterion-HEAD-1"
expect_in "$OUT" "sum/1000"
expect_in "$OUT" "repetitions within one process"
# four runs: four processes; sum/1000 shown 1.5 times slower
gate_run 1 compare "$S/criterion-HEAD~1-4" "$S/criterion-HEAD-4" --json "$S/c.json"
gate_run 1 compare "$S/bencher-HEAD~1-4" "$S/bencher-HEAD-4"
expect_in "$OUT" "sum/1000"
python3 - "$S/c.json" <<'PY' || fail "compare: want sum/1000 failing, fib 15 passing"
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["name"]: c["verdict"] for c in d["benchmarks"]}
assert v == {"fib 15": "pass", "sum/1000": "fail"}, d["benchmarks"]
PY
exit 0
