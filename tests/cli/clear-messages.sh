# Issue 14 item 16: messages that say what is true. A tracked gate.json
# that is a symlink is named as one (not a JSON syntax error); a reflog
# form such as HEAD@{-1} is named as such, with the command that gives the
# commit (not "not a range"); a range still says it is a range.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
mv "$R/gate.json" "$R/real.json"
ln -s real.json "$R/gate.json"
commit_all "$R" "gate.json is a link"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD
expect_in "$ERR" '"gate.json" in tree'
expect_in "$ERR" 'is a symlink (to "real.json")'
expect_in "$ERR" "commit the file itself, or pass --config FILE"
expect_not_in "$ERR" "syntax error"
# base's gate.json a link and head's a file: an error, not head's policy
# deciding in silence (before: an error printed, then the run went on)
rm "$R/gate.json"
cp "$R/real.json" "$R/gate.json"
commit_all "$R" "gate.json is a file again"
gate_run 3 -C "$R" run --base HEAD~1 --head HEAD
expect_in "$ERR" "its gate.json cannot be read, so its policy cannot decide"
expect_not_in "$OUT" "verdict:"
git -C "$R" checkout -q -b topic
gate_run 3 -C "$R" run --base 'HEAD@{-1}' --config "$R/real.json"
expect_in "$ERR" "reflog form"
expect_in "$ERR" "git rev-parse 'HEAD@{-1}'"
expect_not_in "$ERR" "range"
gate_run 3 -C "$R" run --base 'HEAD~1..HEAD' --config "$R/real.json"
expect_in "$ERR" '"HEAD~1..HEAD": a range'
exit 0
