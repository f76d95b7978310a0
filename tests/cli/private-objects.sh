# Snapshots stay out of the user's object database (issue 14 item 4): with
# an untracked file and the default head (the working tree), a run adds
# nothing to .git/objects; gate's own store is emptied at every run.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
head -c 1048576 /dev/urandom >"$R/untracked.bin"
echo "dirty" >>"$R/NOTES"
objects() { (cd "$R/.git/objects" && find . -type f | sort | xargs -r sha256sum); }
before=$(objects)
gate_measured -C "$R" run --base HEAD --pairs 2
expect_in "$ERR" "(WORKTREE)"
[ "$before" = "$(objects)" ] || fail "the run wrote into .git/objects"
# the snapshot was checked out all the same
cmp -s "$R/untracked.bin" "$R/.git/gate/a/untracked.bin" ||
	cmp -s "$R/untracked.bin" "$R/.git/gate/b/untracked.bin" ||
	fail "the snapshot's untracked file is not in head's checkout"
# gate's store does not grow run after run
head -c 1048576 /dev/urandom >"$R/untracked.bin"
gate_measured -C "$R" run --base HEAD --pairs 2
n=$(find "$R/.git/gate/objects" -type f | wc -l)
[ "$n" -le 4 ] || fail "gate's object store kept $n objects over two runs"
[ "$before" = "$(objects)" ] || fail "the second run wrote into .git/objects"
exit 0
