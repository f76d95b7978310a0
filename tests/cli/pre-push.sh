# Issue 26 item 7: examples/hooks/pre-push on a bare remote. The first push
# of a branch has nothing to compare with and goes through; a regression
# (30x the sleep) refuses the push and the remote keeps its tip;
# GATE_SKIP=1 pushes it anyway; a clean change pushes.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
hooks=$root/examples/hooks
[ -x "$hooks/pre-push" ] || fail "examples/hooks/pre-push is missing or not executable"
git init -q --bare "$SCRATCH/remote.git"
R=$SCRATCH/clone
new_repo "$R"
write_bench "$R" 0.01
write_config "$R"
commit_all "$R" base
git -C "$R" remote add origin "$SCRATCH/remote.git"
git -C "$R" config core.hooksPath "$hooks"
export GATE GATE_PRE_PUSH_BUDGET=30s
# first push: nothing to compare with
(cd "$R" && git push -q origin main) >"$OUT" 2>"$ERR" || fail "the first push was refused"
tip=$(git -C "$SCRATCH/remote.git" rev-parse main)
# a regression is refused; the remote keeps its tip
write_bench "$R" 0.3
commit_all "$R" "slower"
(cd "$R" && git push -q origin main) >"$OUT" 2>"$ERR" && fail "a regression was pushed"
expect_in "$ERR" "regressed: push refused"
[ "$(git -C "$SCRATCH/remote.git" rev-parse main)" = "$tip" ] || fail "the remote moved"
# gate never touched the working tree or the index
[ -z "$(git -C "$R" status --porcelain)" ] || fail "the hook left changes: $(git -C "$R" status --porcelain)"
# skipped once
(cd "$R" && GATE_SKIP=1 git push -q origin main) >"$OUT" 2>"$ERR" || fail "GATE_SKIP=1 did not push"
expect_in "$ERR" "skipped (GATE_SKIP=1)"
[ "$(git -C "$SCRATCH/remote.git" rev-parse main)" = "$(git -C "$R" rev-parse HEAD)" ] || fail "the skipped push did not land"
# a clean change (no benchmark slower) pushes
echo "docs" >"$R/README"
commit_all "$R" "docs only"
(cd "$R" && git push -q origin main) >"$OUT" 2>"$ERR" || fail "a clean change was refused"
[ "$(git -C "$SCRATCH/remote.git" rev-parse main)" = "$(git -C "$R" rev-parse HEAD)" ] || fail "the clean push did not land"
exit 0
