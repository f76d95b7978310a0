# gate compare's and gate trend's numbers are read as every other option's
# (gate/config/options.c, issue 27): decimal only, so "0x1" is refused where
# strtod read it as 1 (a floor of +100%); and "5", legal, is +500%: warned
# as gate run warns of "min_effect": 5.
. "$(dirname "$0")/lib.sh"
printf 'BM_a 100 ns\n' >"$SCRATCH/a.txt"
gate_run 3 compare --format lines --min-effect 0x1 "$SCRATCH/a.txt" "$SCRATCH/a.txt"
expect_in "$ERR" '--min-effect must be a decimal number'
gate_run 3 compare --format lines --pass-excludes 1e1x "$SCRATCH/a.txt" "$SCRATCH/a.txt"
expect_in "$ERR" '--pass-excludes must be a decimal number'
gate_run 3 compare --format lines --seed 0x10 "$SCRATCH/a.txt" "$SCRATCH/a.txt"
expect_in "$ERR" '--seed'
"$GATE" compare --format lines --min-effect 5 "$SCRATCH/a.txt" "$SCRATCH/a.txt" \
	>"$OUT" 2>"$ERR"
expect_in "$ERR" '--min-effect 5 is a floor of +500%: a fraction is meant'

R=$SCRATCH/repo
new_repo "$R"
echo x >"$R/f"
commit_all "$R" one
gate_run 3 -C "$R" trend --floor 0x1
expect_in "$ERR" '--floor must be a decimal number'
gate_run 3 -C "$R" trend --confidence 0x0.9
expect_in "$ERR" '--confidence must be a decimal number'
"$GATE" -C "$R" trend --floor 5 >"$OUT" 2>"$ERR"
expect_in "$ERR" '--floor 5 is a floor of +500%: a fraction is meant'
exit 0
