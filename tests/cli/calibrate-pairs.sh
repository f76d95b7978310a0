# gate calibrate never recommends fewer pairs than the benchmark has: its
# "pairs" are the least gate run measures, and the table's figure for
# fewer gives the whole level to one look. A floor its own pairs catch
# keeps them (nothing to write); a floor no pairs up to 80 catch gets
# the larger of 40 and its own pairs, not 40.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.01
# a floor of +500%: any pairs catch it, 10 as well as 20
write_config "$R" '"pairs": 20, "max_pairs": 20, "min_effect": 5'
commit_all "$R" wide
gate_run 0 -C "$R" calibrate --seed 1 -q --write
expect_in "$OUT" 'recommend: "min_effect": 5, "pairs": 20 '
expect_in "$OUT" "its pairs suffice"
expect_not_in "$OUT" '"pairs": 10'
expect_in "$OUT" "has the recommendations already"
# a floor of 0.01%: no pairs in the table catch it; 60 pairs it has
write_config "$R" '"pairs": 60, "max_pairs": 60, "min_effect": 0.0001'
commit_all "$R" tight
gate_run 0 -C "$R" calibrate --pairs 6 --seed 1 -q
expect_in "$OUT" '"pairs": 60 (a regression'
expect_not_in "$OUT" '"pairs": 40 (a regression'
