# A kept build slot that receives another tree is emptied before its build
# (issue 34 §2): a Makefile whose target depends on nothing would leave
# the previous tree's program in place, and a head that changes only how
# it is built (here a make variable) would pass as "identical build, not
# measured". Run 1 keeps base and an unrelated head; run 2's head, in that
# head's old slot, makes its program sleep 8 times longer: it must fail.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
scale=${GATE_TEST_TIME_SCALE:-1}
t=$(awk "BEGIN { print 0.05 * $scale }")
cat >"$R/Makefile" <<MK
SLEEP = $t
out/bench:
	mkdir -p out
	printf '#!/bin/sh\nsleep \$(SLEEP)\n' >out/bench
	chmod +x out/bench
MK
echo out/ >"$R/.gitignore"
cat >"$R/gate.json" <<'JSON'
{ "version": 1, "build": "make -s", "cache_builds": 2,
  "artifacts": ["out/*"], "sources": ["Makefile", "README"],
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [ { "name": "sleep", "run": ["./out/bench"] } ] }
JSON
echo readme >"$R/README"
commit_all "$R" base
git -C "$R" branch base
echo "more" >>"$R/README"
commit_all "$R" "head 1: the README only"
gate_run 0 -C "$R" run --base base --head HEAD
expect_in "$OUT" "identical build"
# head 2: only the make variable changes; the target has no prerequisite
t2=$(awk "BEGIN { print 0.4 * $scale }")
sed -i "s/^SLEEP = .*/SLEEP = $t2/" "$R/Makefile"
commit_all "$R" "head 2: SLEEP in the Makefile"
gate_run 1 -C "$R" run --base base --head HEAD
expect_not_in "$OUT" "identical build"
expect_in "$OUT" "FAIL"
# run 3: the same trees, kept, under another environment: built again,
# and the run says why (a trial saw two 333 s rebuilds with no word)
CFLAGS=-DGATE_STALE_TEST gate_run 1 -C "$R" run --base base --head HEAD
expect_in "$ERR" "in another environment (CFLAGS)"
exit 0
