# The default base without an upstream: with uncommitted changes it is HEAD
# ("what am I about to commit"), else HEAD~1; the first lines of the run say
# which base and head were chosen and why (issue 16, point 1).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
HEAD_ID=$(git -C "$R" rev-parse HEAD)
PARENT_ID=$(git -C "$R" rev-parse HEAD~1)

# uncommitted changes, no upstream: base is HEAD
echo "work in progress" >"$R/NOTES"
gate_measured -C "$R" run -v --pairs 2 --json "$SCRATCH/dirty.json"
[ "$(json_get "$SCRATCH/dirty.json" 'd["base"]["commit"]')" = "$HEAD_ID" ] ||
	fail "with uncommitted changes the default base should be HEAD"
first=$(sed -n 1p "$ERR")
case $first in
"gate: base: HEAD (${HEAD_ID%"${HEAD_ID#??????????}"}; no upstream branch, working tree has changes)") ;;
*) fail "first line should name the base and why, got: $first" ;;
esac
expect_in "$ERR" "gate: head: working tree (with uncommitted changes)"
expect_in "$OUT" "base: HEAD ("
expect_in "$OUT" "no upstream branch, working tree has changes"

# clean working tree: base is HEAD~1, and the line says why
git -C "$R" checkout -q NOTES
gate_measured -C "$R" run -v --pairs 2 --json "$SCRATCH/clean.json"
[ "$(json_get "$SCRATCH/clean.json" 'd["base"]["commit"]')" = "$PARENT_ID" ] ||
	fail "with a clean tree the default base should be HEAD~1"
expect_in "$ERR" "gate: base: HEAD~1 ("
expect_in "$ERR" "no upstream branch, working tree clean"

# a base given with --base says so
gate_measured -C "$R" run -v --base HEAD~1 --pairs 2
expect_in "$ERR" "; given with --base)"

# a single commit with changes: HEAD is a base now, not an error
S=$SCRATCH/single
new_repo "$S"
write_bench "$S" 0.01
write_config "$S"
commit_all "$S" one
echo "more" >"$S/NOTES"
gate_measured -C "$S" run -v --pairs 2
expect_in "$ERR" "gate: base: HEAD ("
exit 0
