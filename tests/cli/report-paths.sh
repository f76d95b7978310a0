# Issue 14 item 15: report paths are checked before anything is measured:
# the same file for two reports, the config as a report, and a path that
# cannot be written are exit 3 at once, naming the options, with the
# config and any earlier report untouched and no checkout made.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
cp "$R/gate.json" "$SCRATCH/gate.json.orig"
echo keep >"$SCRATCH/x"
gate_run 3 -C "$R" run --base HEAD~1 --json "$SCRATCH/x" --markdown "$SCRATCH/x"
expect_in "$ERR" '--json and --markdown both name'
[ "$(cat "$SCRATCH/x")" = keep ] || fail "the report file was written"
# the same file by another name
gate_run 3 -C "$R" run --base HEAD~1 --html "$SCRATCH/x" --markdown "$SCRATCH/../$(basename "$SCRATCH")/x"
expect_in "$ERR" '--markdown and --html both name'
(cd "$R" && "$GATE" run --base HEAD~1 --json gate.json >"$OUT" 2>"$ERR")
[ $? -eq 3 ] || fail "--json gate.json was not refused"
expect_in "$ERR" '--json "gate.json" is the config gate reads'
cmp -s "$R/gate.json" "$SCRATCH/gate.json.orig" || fail "gate.json was overwritten"
cp "$R/gate.json" "$SCRATCH/c.json"
gate_run 3 -C "$R" run --base HEAD~1 --config "$SCRATCH/c.json" --markdown "$SCRATCH/c.json"
expect_in "$ERR" 'is the config gate reads'
gate_run 3 -C "$R" run --base HEAD~1 --json "$SCRATCH/no/such/dir/r.json"
expect_in "$ERR" 'its directory "'"$SCRATCH"'/no/such/dir" does not exist'
gate_run 3 -C "$R" run --base HEAD~1 --html "$SCRATCH"
expect_in "$ERR" 'is a directory'
# refused before measuring: no checkout, no build, no sample
[ ! -e "$R/.git/gate/a" ] && [ ! -e "$R/.git/gate/b" ] ||
	fail "gate checked out before refusing the report paths"
expect_not_in "$ERR" "seed"
# distinct writable paths work, - still means stdout
gate_measured -C "$R" run --base HEAD~1 -q --json "$SCRATCH/r.json" --markdown - --html "$SCRATCH/r.html"
[ -s "$SCRATCH/r.json" ] && [ -s "$SCRATCH/r.html" ] || fail "reports not written"
exit 0
