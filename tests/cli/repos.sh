# Repositories gate cannot or can only partly use, each with its answer:
# a shallow clone without the base (exit 3, "fetch-depth: 0"), a detached
# HEAD (works), an empty repository and a bare one (exit 3, what to do),
# a submodule and Git LFS pointer files (a warning saying what is missing).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
echo third >>"$R/NOTES"
commit_all "$R" third

# shallow: a pull request's branch cloned with depth 1 has neither its
# base branch nor HEAD~1
git -C "$R" checkout -q -b feature
echo feature >>"$R/NOTES"
commit_all "$R" feature
git -C "$R" checkout -q main
S=$SCRATCH/shallow
git clone -q --depth 1 --branch feature "file://$R" "$S"
GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main gate_run 3 -C "$S" run
expect_in "$ERR" '"origin/main" or its history is missing'
expect_in "$ERR" "fetch-depth: 0"
gate_run 3 -C "$S" run --base HEAD~1
expect_in "$ERR" "shallow clone"
expect_in "$ERR" "fetch-depth: 0"
gate_run 3 -C "$S" run --base main
expect_in "$ERR" "fetch-depth: 0"

# a revision that does not exist, in a full clone
gate_run 3 -C "$R" run --base v9.9.9
expect_in "$ERR" 'unknown revision "v9.9.9"'
gate_run 3 -C "$R" run --base 0123456789abcdef0123456789abcdef01234567
expect_in "$ERR" "unknown revision"

# detached HEAD: the default base is HEAD~1, and HEAD stays detached
git -C "$R" checkout -q --detach HEAD~1
gate_measured -C "$R" run --pairs 6
expect_in "$OUT" "verdict: "
[ "$(git -C "$R" rev-parse --abbrev-ref HEAD)" = HEAD ] ||
	fail "HEAD is no longer detached"
git -C "$R" checkout -q main

# empty: no commits at all
E=$SCRATCH/empty
new_repo "$E"
gate_run 3 -C "$E" run
expect_in "$ERR" "no commits yet"
cp "$R/gate.json" "$R/bench.sh" "$E/"
gate_run 3 -C "$E" run --base HEAD
expect_in "$ERR" "no commits yet"

# bare: no working tree to measure
git clone -q --bare "$R" "$SCRATCH/bare.git"
gate_run 3 -C "$SCRATCH/bare.git" run --base HEAD~1 --head HEAD
expect_in "$ERR" "bare repository"
expect_in "$ERR" "working tree"

# a submodule (gitlink) checks out as an empty directory: warned
sub=$(git -C "$R" rev-parse HEAD)
git -C "$R" update-index --add --cacheinfo "160000,$sub,vendor/lib"
git -C "$R" commit -q -m "submodule"
gate_measured -C "$R" run --base HEAD~1 --head HEAD --pairs 6 --fixed-arms
expect_in "$ERR" 'warning: head (HEAD) has 1 submodule ("vendor/lib")'
expect_in "$ERR" "empty directory"
[ -d "$R/.git/gate/b/vendor/lib" ] || fail "the gitlink's directory is missing"

# an LFS pointer file is checked out as pointer text: warned
printf 'data/*.bin filter=lfs diff=lfs merge=lfs -text\n' >"$R/.gitattributes"
mkdir -p "$R/data"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize 1048576\n' \
	4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393 \
	>"$R/data/input.bin"
git -C "$R" add .gitattributes data
git -C "$R" commit -q -m "lfs data"
gate_measured -C "$R" run --base HEAD~1 --head HEAD --pairs 6
expect_in "$ERR" 'Git LFS pointer file ("data/input.bin")'
expect_in "$ERR" "git lfs pull"
# base (HEAD~1) has neither LFS nor a warning about it
[ "$(grep -c "LFS" "$ERR")" -eq 1 ] || fail "one LFS warning expected"
exit 0
