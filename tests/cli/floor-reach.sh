# gate run judges a floor against the calibrated noise at the pairs the run
# can actually spend (max_pairs, and the budget's share at the benchmark's
# time per pair), not at "pairs" (issue 16, point 7).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
gate_run 0 -C "$R" calibrate --pairs 4 -q --seed 3
CAL=$R/.git/gate/calibration.json
# a calibrated spread of 5% (log-ratio sd): at 6 pairs a 5% floor is too
# fine (about 5.8%), at 200 pairs it is not (about 1%)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["benchmarks"][0]["spread"]=0.05; json.dump(d, open(sys.argv[1], "w"))' "$CAL"
cat >"$SCRATCH/c.json" <<'JSON'
{ "defaults": { "pairs": 6, "max_pairs": 200, "warmup": 0, "min_effect": 0.05 },
  "benchmarks": [ { "name": "sleep", "run": ["./bench.sh"] } ] }
JSON
gate_measured -C "$R" run --base HEAD --config "$SCRATCH/c.json"
expect_not_in "$ERR" "is below what its calibrated noise resolves"
# a budget of 1 s spends at most 1 s / (2 x 10 ms) = 50 pairs: a 1.5% floor
# is below what 50 pairs resolve (over 2%), and the warning says why
sed -i 's/"min_effect": 0.05/"min_effect": 0.015/' "$SCRATCH/c.json"
gate_measured -C "$R" run --base HEAD --config "$SCRATCH/c.json" --budget 1s
expect_in "$ERR" "is below what its calibrated noise resolves"
expect_in "$ERR" "its share of the budget"
exit 0
