# gate compare on real go test -bench output (tests/data/README): values
# from one process (go test -count in one binary) leave every time noisy,
# saying why, and still decide the counts (issue 25 item 2); the same runs
# split over processes decide: the case with twice the work fails, the
# verdict and exit code match gate run's; several processes with
# repetitions each compare the median per process; a file against itself
# passes; too few values for a bound at the level is noisy and says how
# many are needed; broken input is an error (exit 3).
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data" && pwd)
gate_run 2 compare "$D/gotest-old.txt" "$D/gotest-new.txt" --json "$SCRATCH/c1.json"
expect_in "$OUT" "BenchmarkChanged [s/op]: not decided: the 8 values in $D/gotest-old.txt are repetitions inside one process"
expect_in "$OUT" "BenchmarkSizes/n=10 [MB/s]: not decided"
expect_in "$OUT" "none (1 process)"
expect_in "$OUT" "promise: over the 10 cases,"
expect_in "$OUT" "(none for the times whose values come from one process: not decided)"
[ "$(json_get "$SCRATCH/c1.json" '[b["verdict"] for b in d["benchmarks"] if b["unit"] == "s/op"]')" = "['noisy', 'noisy', 'noisy', 'noisy', 'noisy']" ] ||
	fail "one process: every s/op case should be noisy"
[ "$(json_get "$SCRATCH/c1.json" '[b["verdict"] for b in d["benchmarks"] if b["name"] == "BenchmarkAlloc" and b["unit"] != "s/op"]')" = "['pass', 'pass']" ] ||
	fail "one process: the counts should still be decided"
# the same values, each from its own process: decided
split_runs() { # FILE: one "pkg:" section per run of each benchmark
	awk '/^Benchmark/ { k[$1]++; line[k[$1]] = line[k[$1]] $0 "\n"; if (k[$1] > m) m = k[$1] }
	     END { for (i = 1; i <= m; i++) printf "goos: linux\npkg: example.com/gatefixture\n%sPASS\n", line[i] }' "$1"
}
split_runs "$D/gotest-old.txt" >"$SCRATCH/old-split.txt"
split_runs "$D/gotest-new.txt" >"$SCRATCH/new-split.txt"
gate_run 1 compare "$SCRATCH/old-split.txt" "$SCRATCH/new-split.txt" --json "$SCRATCH/c.json"
expect_in "$OUT" "BenchmarkChanged [s/op]"
expect_in "$OUT" "verdict: FAIL"
expect_in "$OUT" "promise: over all 17 cases"
[ "$(json_get "$SCRATCH/c.json" '[b["name"] for b in d["benchmarks"] if b["verdict"] == "fail"]')" = "['BenchmarkChanged']" ] ||
	fail "only BenchmarkChanged should fail"
# each case decided once, on all its values: one look, resolved
[ "$(json_get "$SCRATCH/c.json" '{(b["looks"], b["stopped"]) for b in d["benchmarks"] if b["verdict"] != "new"}')" = "{(1, 'resolved')}" ] ||
	fail "compare's cases not one look, resolved: $(json_get "$SCRATCH/c.json" '[(b["looks"], b["stopped"]) for b in d["benchmarks"]]')"
[ "$(json_get "$SCRATCH/c.json" '[d["command"], d["base"]["chosen_as"]]')" = "['compare', 'format gotest, detected']" ] ||
	fail "format not detected"
# the method named is the one used
json_get "$SCRATCH/c.json" 'd["protocol"]["interval"]' | grep -q "^exact Mann-Whitney" ||
	fail "JSON protocol does not name the exact Mann-Whitney interval"
expect_in "$OUT" "Hodges-Lehmann shift of the log values"
expect_not_in "$OUT" "bootstrap"
json_get "$SCRATCH/c1.json" 'd["note"]' | grep -qF "in $D/gotest-old.txt and $D/gotest-new.txt, values are repetitions within one process" ||
	fail "JSON does not say both files' values come from one process"
[ "$(json_get "$SCRATCH/c1.json" 'd["protocol"]["one_process_cases"]')" = 7 ] ||
	fail "JSON does not count the 7 times left noisy on one process"
# 8 processes of 3 repetitions each: the process is the unit
reps() { # NS: 8 processes, 3 repetitions each, around NS ns/op
	for p in 1 2 3 4 5 6 7 8; do
		printf 'pkg: example.com/x\n'
		for r in 1 2 3; do
			printf 'BenchmarkR-2\t1000\t%d ns/op\n' $(($1 + 10 * p + r))
		done
		echo PASS
	done
}
reps 1000 >"$SCRATCH/r-old.txt"
reps 2000 >"$SCRATCH/r-new.txt"
gate_run 1 compare "$SCRATCH/r-old.txt" "$SCRATCH/r-new.txt"
expect_in "$OUT" "the process is the unit: medians of 8 and 8 processes' repetitions"
# two go test runs concatenated: values from two processes, no such note
cat "$D/gotest-old.txt" "$D/gotest-old.txt" >"$SCRATCH/two-runs.txt"
gate_measured compare "$SCRATCH/two-runs.txt" "$D/gotest-new.txt" --json "$SCRATCH/c2.json"
json_get "$SCRATCH/c2.json" 'd["note"]' | grep -q "^in $D/gotest-new.txt, values are repetitions" ||
	fail "a file of two go test runs is not one process"
expect_in "$OUT" "note: in $D/gotest-new.txt, values are repetitions"
gate_run 0 compare --advisory "$SCRATCH/old-split.txt" "$SCRATCH/new-split.txt"
expect_in "$OUT" "advisory: exit 0 instead of 1"
# gbench: 3 repetitions per case in one process: noisy, never a pass, and
# it says why (3 cases: one-sided 1.67% per bound would need 4 per side,
# 1/C(8,4) <= 0.0167 < 1/C(6,3))
gate_run 2 compare "$D/gbench-sample.json" "$D/gbench-sample.json" --json "$SCRATCH/g.json"
expect_in "$OUT" "are repetitions inside one process"
expect_in "$OUT" "promise: none: every case compared is a time whose values are repetitions inside one process"
expect_in "$OUT" "verdict: NOISY"
expect_in "$OUT" "values are repetitions within one process"
[ "$(json_get "$SCRATCH/g.json" 'len(d["benchmarks"]) == 3 and all(b["verdict"] == "noisy" and b["ratio"]["low"] == 0 and b["ratio"]["high"] is None and b["min_pairs_for_interval"] == 4 for b in d["benchmarks"])')" = True ] ||
	fail "JSON of too few values: want noisy, 4 values per side for a bound, no bounds"
# the same with enough values: a file against itself passes; lines of
# runs told apart by "# run" lines are a process each, so no one-process
# note (issue 38 item 2: unmarked, a lines file is one run, one process)
for v in 1.00 1.01 0.99 1.02 0.98 1.005 0.995 1.015; do printf '# run %s\na %s ms\n' "$v" "$v"; done >"$SCRATCH/o8.txt"
gate_run 0 compare "$SCRATCH/o8.txt" "$SCRATCH/o8.txt"
expect_in "$OUT" "verdict: PASS"
expect_not_in "$OUT" "one process"
# +3.7% with an upper bound of +6.4%: a pass (excludes +10%), noisy under
# --strict (does not exclude +5%); --strict and --pass-excludes conflict
for v in 1.03 1.09 1.00 1.08 1.02 1.05 1.04 1.035; do printf '# run\na %s ms\n' "$v"; done >"$SCRATCH/n8.txt"
gate_run 0 compare "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
gate_run 2 compare --strict "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
expect_in "$OUT" "a regression of +5.0% is not excluded"
gate_run 2 compare --pass-excludes 0.06 "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
gate_run 3 compare --strict --pass-excludes 0.2 "$SCRATCH/o8.txt" "$SCRATCH/n8.txt"
expect_in "$ERR" "give one or the other"
# exactly the minimum (3 per side for one case at 95%) can fail
printf '# run\na 1.00 ms\n# run\na 1.02 ms\n# run\na 0.99 ms\n' >"$SCRATCH/o3.txt"
printf '# run\na 2.00 ms\n# run\na 2.05 ms\n# run\na 1.97 ms\n' >"$SCRATCH/n3.txt"
gate_run 1 compare "$SCRATCH/o3.txt" "$SCRATCH/n3.txt"
gate_run 0 compare --filter 'Steady' --min-effect 9 "$SCRATCH/old-split.txt" "$SCRATCH/new-split.txt"
expect_not_in "$OUT" "BenchmarkChanged"
# new and removed cases are listed, not compared
printf '# run\na 1 ms\nold 1 ms\n# run\na 1.1 ms\n' >"$SCRATCH/o.txt"
printf '# run\na 1 ms\nnew 1 ms\n# run\na 1.1 ms\n' >"$SCRATCH/n.txt"
gate_run 2 compare "$SCRATCH/o.txt" "$SCRATCH/n.txt"
expect_in "$OUT" "a [s]: too few values: 3 per side needed at this level (2 in OLD, 2 in NEW"
expect_in "$OUT" 'more processes (a line "# run" before each run'"'"'s lines)'
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
