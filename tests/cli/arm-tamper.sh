# One arm must not change the other (issue 14 item 5): head's benchmark
# rewrites base's bench.sh in the other checkout (as `sed -i` on
# ../<other>/bench.sh did, turning a +100% regression into "faster"). Gate
# notices that an arm's tracked files changed after the build: exit 3
# naming the arm and the file, and no verdict. With Landlock the write
# fails instead (seal-landlock.sh): GATE_SANDBOX=off tests the manifests
# that stand in for it where it is absent.
. "$(dirname "$0")/lib.sh"
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
# an honest pair of arms is not flagged
gate_measured -C "$R" run --base HEAD~1 --head HEAD --pairs 2
expect_not_in "$ERR" "changed while measuring"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
for d in ../a ../b; do
	[ "$d" -ef . ] || printf '# tampered\n' >>"$d/bench.sh"
done
sleep 0.02
echo done
SH
commit_all "$R" "head tampers with the other arm"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --pairs 2 --json "$SCRATCH/r.json"
expect_in "$ERR" "base's checkout"
expect_in "$ERR" '"bench.sh" was'
expect_in "$ERR" "no verdict"
expect_not_in "$OUT" "verdict: PASS"
[ "$(json_get "$SCRATCH/r.json" 'd["verdict"]')" != pass ] ||
	fail "the report gives a verdict"
exit 0
