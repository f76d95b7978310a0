# gate compare on real go test -bench output (tests/data/README): the case
# with twice the work fails, the verdict and exit code match gate run's;
# a file against itself passes; too few values for a bound at the level is
# noisy and says how many are needed; values from one process are said to
# be; broken input is an error (exit 3).
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data" && pwd)
gate_run 1 compare "$D/gotest-old.txt" "$D/gotest-new.txt" --json "$SCRATCH/c.json"
expect_in "$OUT" "BenchmarkChanged-2 [s/op]"
expect_in "$OUT" "verdict: FAIL"
[ "$(json_get "$SCRATCH/c.json" '[b["name"] for b in d["benchmarks"] if b["verdict"] == "fail"]')" = "['BenchmarkChanged-2']" ] ||
	fail "only BenchmarkChanged-2 should fail"
[ "$(json_get "$SCRATCH/c.json" 'd["old"]["format"]')" = gotest ] || fail "format not detected"
# the method named is the one used; go test -count runs in one process
json_get "$SCRATCH/c.json" 'd["protocol"]["interval"]' | grep -q "^exact Mann-Whitney" ||
	fail "JSON protocol does not name the exact Mann-Whitney interval"
expect_in "$OUT" "Hodges-Lehmann shift of the log values"
expect_not_in "$OUT" "bootstrap"
expect_in "$OUT" "values are repetitions within one process: the interval covers that process's noise, not run-to-run variation"
[ "$(json_get "$SCRATCH/c.json" '[d["old"]["one_process"], d["new"]["one_process"], len(d["notes"])]')" = "[True, True, 1]" ] ||
	fail "JSON does not say the values come from one process"
json_get "$SCRATCH/c.json" 'd["notes"][0]' | grep -qF "repetitions within one process" ||
	fail "JSON note lacks the one-process sentence"
# two go test runs concatenated: values from two processes, no such note
cat "$D/gotest-old.txt" "$D/gotest-old.txt" >"$SCRATCH/two-runs.txt"
gate_measured compare "$SCRATCH/two-runs.txt" "$D/gotest-new.txt" --json "$SCRATCH/c2.json"
[ "$(json_get "$SCRATCH/c2.json" '[d["old"]["one_process"], d["new"]["one_process"]]')" = "[False, True]" ] ||
	fail "a file of two go test runs is not one process"
expect_in "$OUT" "note: in $D/gotest-new.txt, values are repetitions"
gate_run 0 compare --advisory "$D/gotest-old.txt" "$D/gotest-new.txt"
expect_in "$OUT" "advisory: exit 0 instead of 1"
# 3 repetitions per case, 3 cases: one-sided 1.67% per bound needs 4 per
# side (1/C(8,4) <= 0.0167 < 1/C(6,3)): noisy, never a pass, and it says so
gate_run 2 compare "$D/gbench-sample.json" "$D/gbench-sample.json" --json "$SCRATCH/g.json"
expect_in "$OUT" "too few values: 4 per side needed at this level"
expect_in "$OUT" "verdict: NOISY"
expect_in "$OUT" "values are repetitions within one process"
[ "$(json_get "$SCRATCH/g.json" 'len(d["benchmarks"]) == 3 and all(b["verdict"] == "noisy" and b["ratio"]["low"] is None and b["ratio"]["high"] is None for b in d["benchmarks"]) and d["protocol"]["min_values_per_side"] == 4')" = True ] ||
	fail "JSON of too few values: want noisy, min_values_per_side 4, no upper bound"
# the same with enough values: a file against itself passes; lines carry no
# knowledge of processes, so no one-process note
for v in 1.00 1.01 0.99 1.02 0.98 1.005 0.995 1.015; do echo "a $v ms"; done >"$SCRATCH/o8.txt"
gate_run 0 compare "$SCRATCH/o8.txt" "$SCRATCH/o8.txt"
expect_in "$OUT" "verdict: PASS"
expect_not_in "$OUT" "one process"
# +3.7% with an upper bound of +6.4%: a pass (excludes +10%), noisy under
# --strict (does not exclude +5%); --strict and --pass-excludes conflict
for v in 1.03 1.09 1.00 1.08 1.02 1.05 1.04 1.035; do echo "a $v ms"; done >"$SCRATCH/n8.txt"
gate_run 0 compare "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
gate_run 2 compare --strict "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
expect_in "$OUT" "a regression of +5.0% is not excluded"
gate_run 2 compare --pass-excludes 0.06 "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
gate_run 3 compare --strict --pass-excludes 0.2 "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
expect_in "$ERR" "give one or the other"
# exactly the minimum (3 per side for one case at 95%) can fail
printf 'a 1.00 ms\na 1.02 ms\na 0.99 ms\n' >"$SCRATCH/o3.txt"
printf 'a 2.00 ms\na 2.05 ms\na 1.97 ms\n' >"$SCRATCH/n3.txt"
gate_run 1 compare "$SCRATCH/o3.txt" "$SCRATCH/n3.txt"
gate_run 0 compare --filter 'Steady' --min-effect 9 "$D/gotest-old.txt" "$D/gotest-new.txt"
expect_not_in "$OUT" "BenchmarkChanged"
# new and removed cases are listed, not compared
printf 'a 1 ms\na 1.1 ms\nold 1 ms\n' >"$SCRATCH/o.txt"
printf 'a 1 ms\na 1.1 ms\nnew 1 ms\n' >"$SCRATCH/n.txt"
gate_run 2 compare "$SCRATCH/o.txt" "$SCRATCH/n.txt"
expect_in "$OUT" "a [s]: too few values: 3 per side needed at this level (2 in OLD, 2 in NEW"
expect_in "$OUT" "new [s]: new: only in"
expect_in "$OUT" "old [s]: removed: only in"
# a truncated file, a wrong format, nothing in common
head -c 300 "$D/gbench-sample.json" >"$SCRATCH/cut.json"
gate_run 3 compare "$SCRATCH/cut.json" "$D/gbench-sample.json"
expect_in "$ERR" "cut.json:"
gate_run 3 compare --format gotest "$D/gbench-sample.json" "$D/gbench-sample.json"
gate_run 3 compare "$SCRATCH/o.txt" "$D/gotest-old.txt"
expect_in "$ERR" "no case is in both"
gate_run 3 compare "$SCRATCH/o.txt"
expect_in "$ERR" "compare needs two files"
# a file over the 64 MiB limit is refused by the one file reader
# (a line file padded with spaces; sparse, so nothing is written)
cp "$SCRATCH/o.txt" "$SCRATCH/big.txt"
truncate -s 70M "$SCRATCH/big.txt"
gate_run 3 compare "$SCRATCH/big.txt" "$SCRATCH/o.txt"
expect_in "$ERR" "big.txt\" is larger than"
exit 0
