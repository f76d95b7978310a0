# A hostile pull request against the policy, merge and budget (issue 34,
# sections 3 and 4), each on a fixture whose honest run FAILS: head's
# program sleeps 8 times longer, and a suite case doubles. Every attempt
# branches from base with the regression and one trick; each exits 1 and
# says why. The sandbox's attempts are in gaming-sandbox.sh, the first
# round's in gaming.sh.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
mkdir -p "$R/src"
scale=${GATE_TEST_TIME_SCALE:-1}
fast=$(awk "BEGIN { print 0.05 * $scale }")
slow=$(awk "BEGIN { print 0.4 * $scale }")
printf '#!/bin/sh\nsleep %s\necho done\n' "$fast" >"$R/src/bench.sh"
printf '#!/bin/sh\necho "a 10 ms"\necho "b 10 ms"\n' >"$R/suite.sh"
chmod +x "$R/src/bench.sh" "$R/suite.sh"
echo out/ >"$R/.gitignore"
# base sets 16 long-named cases aside: its "ignore" prints in more than
# 511 bytes
ignore=$(awk 'BEGIN { for (i = 0; i < 16; i++) printf "%s\"^never-printed-case-%02d-with-a-long-name$\"", i ? ", " : "", i }')
cat >"$R/gate.json" <<JSON
{ "version": 1,
  "build": "mkdir -p out && cp src/bench.sh out/bench",
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "sleep", "run": ["./out/bench"] },
    { "name": "s", "format": "lines", "run": ["./suite.sh"],
      "ignore": [$ignore] } ] }
JSON
commit_all "$R" base
git -C "$R" branch base

# attempt NAME: branch NAME on base with the regression (the trick comes
# next, then run_attempt commits and runs gate on base..NAME)
n=0
attempt() {
	git -C "$R" checkout -q -b "$1" base
	printf '#!/bin/sh\nsleep %s\necho done\n' "$slow" >"$R/src/bench.sh"
	printf '#!/bin/sh\necho "a 10 ms"\necho "b 20 ms"\n' >"$R/suite.sh"
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
verdict() {
	json_get "$SCRATCH/$n.json" "[b['verdict'] for b in d['benchmarks'] if b['name'] == '$1'][0]"
}
reason() {
	json_get "$SCRATCH/$n.json" "[b['reason'] for b in d['benchmarks'] if b['name'] == '$1'][0]"
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

# 1. head's build compiles base's sources (a copy kept in head) into what
# head measures: "build" is part of the definition, so every benchmark
# base declares is redefined, both builds shown side by side
attempt build-old
mkdir -p "$R/old"
git -C "$R" show base:src/bench.sh >"$R/old/bench.sh"
chmod +x "$R/old/bench.sh"
sed -i 's|cp src/bench.sh out/bench|cp old/bench.sh out/bench|' "$R/gate.json"
run_attempt "build the old program"
want_fail sleep
want_fail s
reason sleep >"$SCRATCH/reason"
expect_in "$SCRATCH/reason" 'head builds or checks `sleep` with another command ("build": base "mkdir -p out && cp src/bench.sh out/bench", head "mkdir -p out && cp old/bench.sh out/bench")'
expect_in "$SCRATCH/reason" 'Gate-Accept: sleep redefined <reason>'
expect_in "$OUT" '"build": base "mkdir -p out && cp src/bench.sh out/bench", head "mkdir -p out && cp old/bench.sh out/bench"'
gate_run 0 -C "$R" run --base base --head HEAD --list
expect_in "$OUT" 'sleep: one process per sample'
expect_in "$OUT" 'redefined ("build": base'
# accepted, each arm is built and run by its own: measured, and the
# program head builds is base's, so only the suite's case fails
attempt build-accepted
mkdir -p "$R/old"
git -C "$R" show base:src/bench.sh >"$R/old/bench.sh"
chmod +x "$R/old/bench.sh"
sed -i 's|cp src/bench.sh out/bench|cp old/bench.sh out/bench|' "$R/gate.json"
run_attempt "build the old program" "Gate-Accept: s redefined the build copies a file"
want_fail s/b
[ "$(verdict sleep)" = fail ] || fail "an unaccepted build change is not a fail"
json_get "$SCRATCH/$n.json" "[b for b in d['benchmarks'] if b['name'] == 's/b'][0]" >"$SCRATCH/b.txt"
expect_in "$SCRATCH/b.txt" 'redefined ("build": base'

# 2. head's "check" changes: redefined too
attempt check
sed -i 's|{ "name": "sleep", "run": \["./out/bench"\] }|{ "name": "sleep", "run": ["./out/bench"], "check": "true" }|' "$R/gate.json"
run_attempt "a check"
want_fail sleep
reason sleep >"$SCRATCH/reason"
expect_in "$SCRATCH/reason" '("check": base none, head "true")'

# 3. head adds the case that regressed to base's long "ignore" list (its
# printed form passes 511 bytes: compared as text, the lists were equal)
attempt ignore-long
sed -i 's|-with-a-long-name\$"\]|-with-a-long-name$", "^b$"]|' "$R/gate.json"
grep -qF '"^b$"]' "$R/gate.json" || fail "the fixture's ignore list was not changed"
run_attempt "ignore b"
want_fail s/b
expect_in "$ERR" 'head changes "ignore" of `s` from'
expect_in "$ERR" '"^b$"] ('

# 4. a head a hundred times slower than base, under a budget its probe
# alone spends: the first look still takes the fewest pairs that can
# decide at its level (was 2 pairs, no interval: noisy, which an advisory
# workflow takes for success)
S=$SCRATCH/slow
new_repo "$S"
printf '#!/bin/sh\nsleep %s\n' "$(awk "BEGIN { print 0.01 * $scale }")" >"$S/b.sh"
chmod +x "$S/b.sh"
echo '{"defaults": {"warmup": 0}, "benchmarks": [{"name": "slow", "run": ["./b.sh"]}]}' >"$S/gate.json"
commit_all "$S" base
printf '#!/bin/sh\nsleep %s\n' "$(awk "BEGIN { print 1 * $scale }")" >"$S/b.sh"
commit_all "$S" "100 times slower"
n=$((n + 1))
"$GATE" -C "$S" run --base HEAD~1 --head HEAD --budget 1 --json "$SCRATCH/$n.json" >"$OUT" 2>"$ERR"
got=$?
echo "attempt $n (budget): exit $got"
want_fail slow
[ "$(json_get "$SCRATCH/$n.json" "d['benchmarks'][0]['pairs']")" -gt 2 ] ||
	fail "decided on the probe's pairs"
expect_in "$ERR" 'pairs past --budget 1 s: fewer cannot decide at its level'

# 5-10. gate merge plans from base's gate.json (read from the base commit
# in this repository) and decides from samples only: the five one-field
# edits of a shard's report each passed before; now each is refused or
# decided from the samples
M=$SCRATCH/merge
new_repo "$M"
printf '#!/bin/sh\nsleep %s\n' "$fast" >"$M/a.sh"
cp "$M/a.sh" "$M/b.sh"
chmod +x "$M/a.sh" "$M/b.sh"
printf '{"defaults": {"pairs": 6, "warmup": 0, "min_effect": 0.5, "timeout": 20}, "benchmarks": [%s, %s, %s]}\n' \
	'{"name": "a", "run": ["./a.sh"]}' '{"name": "b", "run": ["./b.sh"]}' \
	'{"name": "d", "run": ["./a.sh"]}' >"$M/gate.json"
commit_all "$M" base
git -C "$M" branch base
# b 8 times slower; the plan's names a b d are dealt a, d to shard 1 and
# b to shard 2
git -C "$M" checkout -q -b slower base
printf '#!/bin/sh\nsleep %s\n' "$slow" >"$M/b.sh"
commit_all "$M" "b slower"
# d removed from head's gate.json, nothing slower
git -C "$M" checkout -q -b drop-d base
sed -i 's/, {"name": "d", "run": \["\.\/a\.sh"\]}//' "$M/gate.json"
grep -q '"d"' "$M/gate.json" && fail "d was not removed"
commit_all "$M" "drop d"
for h in slower drop-d; do
	for i in 1 2; do
		gate_measured -C "$M" run -q --base base --head "$h" --shard "$i/2" \
			--json "$SCRATCH/$h-$i.json"
	done
done
gate_run 1 -C "$M" merge "$SCRATCH/slower-1.json" "$SCRATCH/slower-2.json"
gate_run 1 -C "$M" merge "$SCRATCH/drop-d-1.json" "$SCRATCH/drop-d-2.json"
# edit HEAD SHARD EDIT: shard SHARD of head HEAD's report with one edit of
# benchmark b (d for "accepted"), as $SCRATCH/edit.json
edit() {
	python3 - "$SCRATCH/$1-$2.json" "$SCRATCH/edit.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
how = sys.argv[3]
bs = d["benchmarks"]
if how == "drop":
    d["benchmarks"] = [b for b in bs if b["name"] != "b"]
for b in bs:
    if how == "accepted" and b["name"] == "d":
        assert b.get("judged") and b["verdict"] == "fail", b
        b["verdict"] = "accepted"
    if b["name"] != "b":
        continue
    if how in ("new", "removed"):
        b["verdict"] = how
    if how == "identical":
        # no samples, its artifacts "identical" (the one field that
        # decided: a sample-less identical entry passed)
        b["samples"] = []
        b["verdict"] = "pass"
        for m in b.get("metrics", []):
            m["verdict"] = "pass"
        b["artifacts"] = {"identical": True, "measured": False,
                          "files": [{"path": "b.sh", "base": "ab" * 32,
                                     "head": "ab" * 32}]}
d["verdict"] = "pass"
d["exit_code"] = 0
json.dump(d, open(sys.argv[2], "w"), indent="\t")
PY
}
for how in drop new removed identical; do
	edit slower 2 "$how"
	n=$((n + 1))
	"$GATE" -C "$M" merge "$SCRATCH/slower-1.json" "$SCRATCH/edit.json" >"$OUT" 2>"$ERR"
	got=$?
	echo "attempt $n (merge, b $how): exit $got"
	[ "$got" -eq 3 ] || fail "merge of a shard with b $how exited $got, want 3 (refused)"
done
# the refusals say what was wrong (the last one, identical)
expect_in "$ERR" 'says "b" passed as an identical build, but base declares no "artifacts" for it'
edit slower 2 drop
gate_run 3 -C "$M" merge "$SCRATCH/slower-1.json" "$SCRATCH/edit.json"
expect_in "$ERR" 'base'"'"'s gate.json declares "b", but no shard'"'"'s report holds it'
edit slower 2 new
gate_run 3 -C "$M" merge "$SCRATCH/slower-1.json" "$SCRATCH/edit.json"
expect_in "$ERR" 'says "b" is new, but its own samples give fail'
# a removal's fail set to "accepted": merge judges the removal itself,
# from base's and head's gate.json and the trailers: a fail
edit drop-d 1 accepted
n=$((n + 1))
"$GATE" -C "$M" merge "$SCRATCH/edit.json" "$SCRATCH/drop-d-2.json" --json "$SCRATCH/$n.json" >"$OUT" 2>"$ERR"
got=$?
echo "attempt $n (merge, d accepted): exit $got"
want_fail d
reason d >"$SCRATCH/reason"
expect_in "$SCRATCH/reason" 'removed: base declares `d`, head no longer does'
# with a trailer accepting the removal, merge reads it from the commits:
# accepted (identical code otherwise: pass, or noisy under load)
git -C "$M" checkout -q drop-d
git -C "$M" commit -q --allow-empty -m "accept" -m "Gate-Accept: d removed it measured nothing new"
for i in 1 2; do
	gate_measured -C "$M" run -q --base base --head HEAD --shard "$i/2" \
		--json "$SCRATCH/acc-$i.json"
done
gate_measured -C "$M" merge "$SCRATCH/acc-1.json" "$SCRATCH/acc-2.json" --json "$SCRATCH/acc.json"
[ "$got" -ne 1 ] || fail "an accepted removal failed the merge"
[ "$(json_get "$SCRATCH/acc.json" "[b['verdict'] for b in d['benchmarks'] if b['name'] == 'd'][0]")" = accepted ] ||
	fail "the merge did not accept d's removal"
# merge needs the repository with base's commit
gate_run 3 -C "$SCRATCH" merge "$SCRATCH/slower-1.json" "$SCRATCH/slower-2.json"
expect_in "$ERR" "gate merge reads base's gate.json from the base commit"
new_repo "$SCRATCH/other"
gate_run 3 -C "$SCRATCH/other" merge "$SCRATCH/slower-1.json" "$SCRATCH/slower-2.json"
expect_in "$ERR" "is not in this repository"

exit 0
