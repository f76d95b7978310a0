# gate compare on real go test -bench output (tests/data/README): the case
# with twice the work fails, the verdict and exit code match gate run's;
# a file against itself passes; broken input is an error (exit 3).
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data" && pwd)
gate_run 1 compare "$D/gotest-old.txt" "$D/gotest-new.txt" --json "$SCRATCH/c.json"
expect_in "$OUT" "BenchmarkChanged-2 [s/op]"
expect_in "$OUT" "verdict: FAIL"
[ "$(json_get "$SCRATCH/c.json" '[b["name"] for b in d["benchmarks"] if b["verdict"] == "fail"]')" = "['BenchmarkChanged-2']" ] ||
	fail "only BenchmarkChanged-2 should fail"
[ "$(json_get "$SCRATCH/c.json" 'd["old"]["format"]')" = gotest ] || fail "format not detected"
gate_run 0 compare --advisory "$D/gotest-old.txt" "$D/gotest-new.txt"
expect_in "$OUT" "advisory: exit 0 instead of 1"
gate_run 0 compare "$D/gbench-sample.json" "$D/gbench-sample.json"
expect_in "$OUT" "verdict: PASS"
gate_run 0 compare --filter 'Steady' --min-effect 9 "$D/gotest-old.txt" "$D/gotest-new.txt"
expect_not_in "$OUT" "BenchmarkChanged"
# new and removed cases are listed, not compared
printf 'a 1 ms\na 1.1 ms\nold 1 ms\n' >"$SCRATCH/o.txt"
printf 'a 1 ms\na 1.1 ms\nnew 1 ms\n' >"$SCRATCH/n.txt"
gate_run 0 compare "$SCRATCH/o.txt" "$SCRATCH/n.txt"
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
exit 0
