# Issue 26 item 7: examples/hooks/pre-push on a bare remote. The first push
# of a branch has nothing to compare with and goes through; a regression
# (30x the sleep) refuses the push and the remote keeps its tip;
# GATE_SKIP=1 pushes it anyway; a clean change pushes.
# Issue 37: in a fresh "git remote add" + "git push -u" repository (no
# origin/HEAD), a new branch with a regression is gated against the
# remote's default branch (git ls-remote --symref) and refused; a tag
# is not gated; with no default branch known the hook says the command.
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

# a fresh repository: git init, git remote add, git push -u (no
# refs/remotes/origin/HEAD), then a new branch ten times as slow
git init -q --bare "$SCRATCH/fresh.git"
N=$SCRATCH/fresh
new_repo "$N"
write_bench "$N" 0.05
write_config "$N"
commit_all "$N" base
git -C "$N" remote add origin "$SCRATCH/fresh.git"
git -C "$N" config core.hooksPath "$hooks"
(cd "$N" && git push -q -u origin main) >"$OUT" 2>"$ERR" || fail "the fresh repository's first push was refused"
expect_in "$ERR" "no branch to compare with yet"
git -C "$N" rev-parse -q --verify refs/remotes/origin/HEAD >/dev/null &&
	fail "the fixture has origin/HEAD: it would not test its absence"
git -C "$N" checkout -q -b slower
write_bench "$N" 0.5
commit_all "$N" "ten times slower"
(cd "$N" && git push -q -u origin slower) >"$OUT" 2>"$ERR" && fail "a new branch with a regression was pushed (no origin/HEAD)"
expect_in "$ERR" "regressed: push refused"
git -C "$SCRATCH/fresh.git" rev-parse -q --verify refs/heads/slower >/dev/null &&
	fail "the remote got the refused branch"
# a tag is not measured: gate is not even run
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$SCRATCH/gate-calls" "$GATE" >"$SCRATCH/gate-log"
chmod +x "$SCRATCH/gate-log"
git -C "$N" tag -a v1 -m v1 HEAD
(cd "$N" && GATE=$SCRATCH/gate-log git push -q origin v1) >"$OUT" 2>"$ERR" || fail "a tag's push was refused"
expect_in "$ERR" "refs/tags/v1: not a branch: not gated"
[ ! -s "$SCRATCH/gate-calls" ] || fail "gate ran for a tag: $(cat "$SCRATCH/gate-calls")"
# no default branch known (the remote's HEAD names a branch it does not
# have): the hook says the exact command, and pushes
git -C "$SCRATCH/fresh.git" symbolic-ref HEAD refs/heads/nowhere
git -C "$N" checkout -q -b other main
echo more >"$N/README"
commit_all "$N" "docs"
(cd "$N" && git push -q origin other) >"$OUT" 2>"$ERR" || fail "a push with no base known was refused"
expect_in "$ERR" "not gated; to gate it, run: git remote set-head origin BRANCH"
exit 0
