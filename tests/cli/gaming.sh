# A hostile pull request cannot pass a regression by changing how it is
# measured (issue 22). One fixture whose honest run fails: head doubles a
# sleep (a data file the benchmark reads) and a suite case. Each attempt
# branches from base with the regression and one trick; none exits 0 and
# each says why. The sealing attempts (writing into the other arm, a kept
# build poisoned, git reaching the user's repository) are in seal-*.sh.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
mkdir -p "$R/data"
# max_pairs 12: a second look when one sample of the 6 is struck by the
# load (a 2x sleep needs every one of 6 pairs worse at the per-look level)
scale=${GATE_TEST_TIME_SCALE:-1}
awk "BEGIN { print 0.05 * $scale }" >"$R/data/t"
echo 10 >"$R/data/b"
printf '#!/bin/sh\nsleep "$(cat data/t)"\necho done\n' >"$R/bench.sh"
printf '#!/bin/sh\necho "a 10 ms"\necho "b $(cat data/b) ms"\n' >"$R/suite.sh"
printf '#!/bin/sh\necho done\n' >"$R/fast.sh"
chmod +x "$R/bench.sh" "$R/suite.sh" "$R/fast.sh"
echo out/ >"$R/.gitignore"
cat >"$R/gate.json" <<'JSON'
{ "version": 1,
  "build": "mkdir -p out && cp bench.sh out/bench",
  "artifacts": ["out/*"],
  "sources": ["bench.sh", "README"],
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "sleep", "run": ["./out/bench"] },
    { "name": "s", "format": "lines", "run": ["./suite.sh"],
      "expect": ["^b$"] } ] }
JSON
commit_all "$R" base
git -C "$R" branch base

# attempt NAME MESSAGE: commit the working tree (the regression and the
# trick) as branch NAME on base, and run gate on base..NAME
n=0
attempt() {
	git -C "$R" checkout -q -b "$1" base
	awk "BEGIN { print 0.4 * $scale }" >"$R/data/t"
	echo 20 >"$R/data/b"
}
run_attempt() {
	git -C "$R" add -A
	git -C "$R" commit -q -m "$1" ${2:+-m "$2"}
	n=$((n + 1))
	"$GATE" -C "$R" run -v --base base --head HEAD --json "$SCRATCH/$n.json" \
		>"$OUT" 2>"$ERR"
	got=$?
	echo "attempt $n ($(git -C "$R" rev-parse --abbrev-ref HEAD)): exit $got"
	[ "$got" -ne 0 ] || fail "attempt $n passed: $1"
}
# verdict NAME: benchmark NAME's verdict in the last attempt's report
verdict() {
	json_get "$SCRATCH/$n.json" "[b['verdict'] for b in d['benchmarks'] if b['name'] == '$1'][0]"
}
want_fail() {
	[ "$got" -eq 1 ] || fail "attempt $n exited $got, want 1"
	[ "$(verdict "$1")" = fail ] || fail "attempt $n: $1 is $(verdict "$1"), not fail"
}

# 0. the honest run fails, both ways
attempt honest
run_attempt "slower"
want_fail sleep
want_fail s/b
# every report says how the arms were sealed
expect_in "$OUT" "isolation: "
json_get "$SCRATCH/$n.json" 'd["protocol"]["isolation"]' | grep -Eq '^(a sandbox per arm|Landlock ABI [0-9]+ and manifests|manifests only: )' ||
	fail "no isolation in the JSON protocol"

# 1. head raises its floor to +500%
attempt floor
sed -i 's/"min_effect": 0.5/"min_effect": 5/' "$R/gate.json"
run_attempt "a looser floor"
want_fail sleep
expect_in "$OUT" 'head changes "min_effect" of `sleep`'

# 2. head gates on CPU time, which a sleep does not use
attempt metric
sed -i 's/"timeout": 20 }/"timeout": 20, "metric": "cpu" }/' "$R/gate.json"
run_attempt "gate on cpu"
want_fail sleep
expect_in "$OUT" 'head changes "metrics" of `sleep` from ["wall"] to ["cpu"]'

# 3. head takes 2 pairs, too few for any interval (noisy at best)
attempt pairs
sed -i 's/"pairs": 6, "max_pairs": 12/"pairs": 2, "max_pairs": 2/' "$R/gate.json"
run_attempt "fewer pairs"
want_fail sleep
expect_in "$OUT" 'head changes "pairs" of `sleep` from 6 to 2'

# 4. head's "rule", "confidence", "budget" and "statistic" at once
attempt knobs
sed -i 's/"timeout": 20 }/"timeout": 20, "rule": "significant", "confidence": 0.51, "budget": 0.1, "statistic": "mean", "target_halfwidth": 9 }/' "$R/gate.json"
run_attempt "knobs"
want_fail sleep
for k in rule confidence budget statistic target_halfwidth; do
	expect_in "$OUT" "head changes \"$k\""
done

# 5. head ignores the suite case that regressed
attempt ignore
sed -i 's/"expect": \["^b$"\]/"expect": ["^b$"], "ignore": ["^b$"]/' "$R/gate.json"
run_attempt "ignore b"
want_fail s/b
expect_in "$OUT" 'head changes "ignore" of `s`'

# 6. head renames the benchmark (a removal and a new benchmark)
attempt rename
sed -i 's/"name": "sleep"/"name": "sleep-v2"/' "$R/gate.json"
run_attempt "rename"
want_fail sleep
[ "$(verdict sleep-v2)" = new ] || fail "sleep-v2 should be new"
expect_in "$OUT" 'removed: base declares `sleep`, head no longer does'
gate_run 0 -C "$R" run -v --base base --head HEAD --list
expect_in "$OUT" "sleep: removed (base declares it, head does not)"

# 7. head renames the suite case that regressed (and base's expect goes)
attempt case-rename
printf '#!/bin/sh\necho "a 10 ms"\necho "b2 $(cat data/b) ms"\n' >"$R/suite.sh"
sed -i 's/"expect": \["^b$"\]/"expect": ["^b2$"]/' "$R/gate.json"
run_attempt "rename case b"
want_fail s/b
expect_in "$OUT" "removed: base's suite printed case \`s/b\`, head's does not"

# 8. head drops base's "expect" with its case
attempt drop-expect
printf '#!/bin/sh\necho "a 10 ms"\n' >"$R/suite.sh"
sed -i 's/, *"expect": \["^b$"\]//' "$R/gate.json"
run_attempt "drop b and its expect"
want_fail s/b
# accepted by a trailer, the removal passes
attempt drop-accepted
printf '#!/bin/sh\necho "a 10 ms"\n' >"$R/suite.sh"
awk "BEGIN { print 0.05 * $scale }" >"$R/data/t"
git -C "$R" add -A
git -C "$R" commit -q -m "drop b" -m "Gate-Accept: s/b removed it measured nothing"
# (identical code may honestly be noisy on a loaded machine: not a fail)
gate_measured -C "$R" run -v --base base --head HEAD --json "$SCRATCH/acc.json"
[ "$got" -ne 1 ] || fail "an accepted removal failed"
[ "$(json_get "$SCRATCH/acc.json" "[b['verdict'] for b in d['benchmarks'] if b['name'] == 's/b'][0]")" = accepted ] ||
	fail "an accepted removal is not accepted"

# 9. head measures another program under the same name
attempt redefine
sed -i 's|"run": \["./out/bench"\]|"run": ["./fast.sh"]|' "$R/gate.json"
run_attempt "measure something else"
want_fail sleep
expect_in "$OUT" 'head measures `sleep` with another command ("run": base ["./out/bench"], head ["./fast.sh"])'
gate_run 0 -C "$R" run -v --base base --head HEAD --list
expect_in "$OUT" 'redefined ("run": base ["./out/bench"], head ["./fast.sh"])'

# 10. the same with a trailer: accepted, each arm runs its own, labelled
attempt redefine-accepted
sed -i 's|"run": \["./out/bench"\]|"run": ["./fast.sh"]|' "$R/gate.json"
run_attempt "measure something else" "Gate-Accept: sleep redefined the old benchmark timed the disk"
[ "$(verdict sleep)" != fail ] || fail "an accepted redefinition is decided as usual"
json_get "$SCRATCH/$n.json" "[b for b in d['benchmarks'] if b['name'] == 'sleep'][0]" >"$SCRATCH/b.txt"
expect_in "$SCRATCH/b.txt" 'redefined ("run": base ["./out/bench"], head ["./fast.sh"]), accepted by the Gate-Accept trailer'
want_fail s/b

# 11. head's build slows base down when it finds base's data (a build
# change is a redefinition, gaming-policy.sh: accepted here, so that each
# arm is built by its own and measured)
attempt build
sed -i 's|"build": "mkdir -p out \&\& cp bench.sh out/bench"|"build": "mkdir -p out \&\& cp bench.sh out/bench \&\& if grep -q 0.05 data/t; then echo 1 >data/t; fi"|' "$R/gate.json"
run_attempt "a build that knows base" "Gate-Accept: sleep redefined the build checks its data"
want_fail sleep
[ "$(json_get "$SCRATCH/$n.json" "[b['head']['median'] > b['base']['median'] for b in d['benchmarks'] if b['name'] == 'sleep'][0]")" = True ] ||
	fail "head's build ran in base's checkout"

# 12. head declares every file a source: the data file still measures
attempt sources
sed -i 's|"sources": \["bench.sh", "README"\]|"sources": ["*"]|' "$R/gate.json"
run_attempt "everything is a source"
want_fail sleep
expect_in "$OUT" 'head changes "sources" from'

# 13. the regression lives in a data file the artifacts do not include:
# the identical build does not pass it (data/t is not among "sources")
attempt data-only
run_attempt "only data"
want_fail sleep
expect_not_in "$OUT" "identical build:"
expect_in "$OUT" 'artifacts byte-identical, but data/b differs and is not among base'"'"'s "sources": measured'

# 14. a trailer whose bound is hex (+0x1p10% would read as 1024%)
attempt hex-bound
run_attempt "accept" "Gate-Accept: sleep +0x1p10% tiny"
want_fail sleep
expect_in "$ERR" "gives no bound"

# 15. head deletes its gate.json: nothing of base's is measured
attempt no-config
git -C "$R" rm -q gate.json
run_attempt "no gate"
[ "$got" -ne 0 ] || fail "no gate.json in head passed"

# 16. head removes the benchmark and adds an unrelated one
attempt swap
sed -i 's|{ "name": "sleep", "run": \["./out/bench"\] },|{ "name": "quick", "run": ["./fast.sh"] },|' "$R/gate.json"
run_attempt "swap"
want_fail sleep
[ "$(verdict quick)" = new ] || fail "quick should be new"

# 17. head raises "timeout" and lowers "warmup" and "parity" (measured
# the same way in both arms: base's)
attempt measure-knobs
sed -i 's/"warmup": 0, "min_effect": 0.5,/"warmup": 0, "min_effect": 0.5, "parity": false, "counter": "perf",/' "$R/gate.json"
run_attempt "measure knobs"
want_fail sleep
expect_in "$OUT" 'head changes "parity"'

[ "$n" -ge 18 ] || fail "only $n attempts"

# 19. sharded: the removal stays a fail through gate merge, and a shard
# doctored to say "pass" for it changes nothing
M=$SCRATCH/merge
new_repo "$M"
printf '#!/bin/sh\nsleep 0.01\n' >"$M/b.sh"
chmod +x "$M/b.sh"
printf '{"defaults": {"pairs": 6, "max_pairs": 6, "warmup": 0, "min_effect": 0.5}, "benchmarks": [%s, %s, %s]}\n' \
	'{"name": "a", "run": ["./b.sh"]}' '{"name": "b", "run": ["./b.sh"]}' \
	'{"name": "c", "run": ["./b.sh"]}' >"$M/gate.json"
commit_all "$M" base
sed -i 's/{"name": "b", "run": \["\.\/b\.sh"\]}, //' "$M/gate.json"
commit_all "$M" "drop b"
for i in 1 2; do
	gate_measured -C "$M" run --base HEAD~1 --head HEAD --shard "$i/2" --json "$SCRATCH/s$i.json"
done
gate_run 1 -C "$M" merge "$SCRATCH/s1.json" "$SCRATCH/s2.json" --json "$SCRATCH/m.json"
[ "$(json_get "$SCRATCH/m.json" '[b["verdict"] for b in d["benchmarks"] if b["name"] == "b"][0]')" = fail ] ||
	fail "the merged removal is not a fail"
for i in 1 2; do
	python3 - "$SCRATCH/s$i.json" "$SCRATCH/x$i.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    if b.get("judged"):
        b["verdict"] = "pass"
d["verdict"] = "pass"
json.dump(d, open(sys.argv[2], "w"), indent="\t")
PY
done
# merge judges the removal itself from the commits' gate.json (issue 34:
# a stored verdict never decides): still a fail
gate_run 1 -C "$M" merge "$SCRATCH/x1.json" "$SCRATCH/x2.json" --json "$SCRATCH/m2.json"
[ "$(json_get "$SCRATCH/m2.json" '[b["verdict"] for b in d["benchmarks"] if b["name"] == "b"][0]')" = fail ] ||
	fail "a doctored removal passed the merge"
exit 0
