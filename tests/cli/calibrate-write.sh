# Issue 14 item 12: gate calibrate --write on a gate.json reached through
# a symlink writes through to the target (the link stays a link), keeps
# the target's mode (0600 stays 0600) and leaves no temporary file.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
mkdir "$SCRATCH/conf"
# a floor no pairs catch, so there is advice to write (pairs 40)
sed 's/"min_effect": 0.5/"min_effect": 0.0001/' "$R/gate.json" >"$SCRATCH/conf/real.json"
grep -q '"min_effect": 0.0001' "$SCRATCH/conf/real.json" || fail "the fixture's floor moved"
chmod 600 "$SCRATCH/conf/real.json"
ln -s conf/real.json "$SCRATCH/link.json"
gate_run 0 -C "$R" calibrate --pairs 4 -q --write --config "$SCRATCH/link.json"
[ -L "$SCRATCH/link.json" ] || fail "the symlink was replaced by a file"
[ "$(readlink "$SCRATCH/link.json")" = conf/real.json ] || fail "the symlink changed"
[ "$(stat -c %a "$SCRATCH/conf/real.json")" = 600 ] ||
	fail "mode became $(stat -c %a "$SCRATCH/conf/real.json"), want 600"
json_get "$SCRATCH/conf/real.json" 'd["benchmarks"][0]["pairs"]' | grep -q '^[0-9]' ||
	fail "the recommendation was not written into the target"
[ -z "$(ls "$SCRATCH" "$SCRATCH/conf" | grep gate-tmp)" ] || fail "a temporary file was left"
exit 0
