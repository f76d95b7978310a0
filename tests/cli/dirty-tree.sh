# The default head is the working tree as it is: an uncommitted change is
# measured (here: four times the sleep, so it fails), and the user's files,
# index, HEAD, refs and stash are byte-identical afterwards.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.1 0.1
echo stash-me >"$R/stashed"
git -C "$R" add stashed
git -C "$R" stash -q
echo staged >"$R/staged.txt"
git -C "$R" add staged.txt
write_bench "$R" 0.4                   # unstaged: the slow change (4x)
mkdir -p "$R/newdir" && echo untracked >"$R/newdir/file"
echo "ignored.log" >"$R/.gitignore"
echo ignored >"$R/ignored.log"
rm "$R/NOTES"                          # a deletion

# GIT_OPTIONAL_LOCKS=0: git status must not refresh the index itself
snapshot() {
	( cd "$R" && export GIT_OPTIONAL_LOCKS=0 &&
	  git status --porcelain --untracked-files=all --ignored &&
	  git rev-parse HEAD && git stash list && git for-each-ref &&
	  sha256sum .git/index && stat -c '%Y %n' .git/index &&
	  find . -path ./.git -prune -o -type f -print | sort | xargs sha256sum &&
	  ls -la --time-style=full-iso . newdir | grep -v -e ' \.git$' -e ' \.\.$' )
}
snapshot >"$SCRATCH/before"
gate_run 1 -C "$R" run --base HEAD --json "$SCRATCH/r.json"
snapshot >"$SCRATCH/after"
cmp -s "$SCRATCH/before" "$SCRATCH/after" || {
	diff "$SCRATCH/before" "$SCRATCH/after" >&2
	fail "gate changed the user's working tree, index, refs or stash"
}
[ "$(json_get "$SCRATCH/r.json" 'd["head"]["uncommitted_changes"]')" = True ] ||
	fail "head should be marked as having uncommitted changes"
# the snapshot is the working tree: staged, untracked, deletion, not ignored
H=$(json_get "$SCRATCH/r.json" 'd["protocol"]["conditions"]["head_dir"]')
B=$(json_get "$SCRATCH/r.json" 'd["protocol"]["conditions"]["base_dir"]')
[ -f "$H/staged.txt" ] || fail "staged file missing from the head checkout"
[ -f "$H/newdir/file" ] || fail "untracked file missing from the head checkout"
[ ! -e "$H/NOTES" ] || fail "deleted file still in the head checkout"
[ ! -e "$H/ignored.log" ] || fail "ignored file copied into the head checkout"
[ ! -e "$B/staged.txt" ] || fail "base has head's file"
exit 0
