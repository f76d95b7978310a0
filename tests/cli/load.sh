# gate's JSON report is the model serialised: a report gate run writes (a
# timed benchmark with three metrics, and a suite with compared, new and
# removed cases) is loaded back by report_load and written again byte for
# byte (build/tests/gate/report/test-load on it), gate compare reads it through the same
# loader, gate compare's own report (the same model) round-trips too, and
# a report of another schema is refused naming the file.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
write_bench "$R" 0.01
printf '#!/bin/sh\necho "a 10 ms"\necho "b 10 ms"\necho "r 5 ms"\n' >"$R/suite.sh"
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 4, "max_pairs": 4, "warmup": 0, "min_effect": 0.5 },
  "benchmarks": [
    { "name": "sleep", "run": ["./bench.sh"],
      "metrics": ["wall", "cpu", "max_rss"] },
    { "name": "s", "format": "lines", "run": ["./suite.sh"] }
  ]
}
JSON
commit_all "$R" base
printf '#!/bin/sh\necho "a 10 ms"\necho "b 20 ms"\necho "c 1 ms"\n' >"$R/suite.sh"
commit_all "$R" head
gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 3 --json "$SCRATCH/r.json"
[ "$(json_get "$SCRATCH/r.json" 'sorted(b["verdict"] for b in d["benchmarks"] if b["name"] in ("s/c", "s/r"))')" = \
  "['fail', 'new']" ] || fail "the report should hold a new and a removed case (a fail: base's rules)"

# the unit-test binary beside gate round-trips this very file
TEST_LOAD=$(dirname "${GATE_BIN:-$GATE}")/tests/gate/report/test-load
[ -x "$TEST_LOAD" ] || fail "no $TEST_LOAD: build it (make test does)"
GATE_TEST_REPORT=$SCRATCH/r.json "$TEST_LOAD" round_trips >"$OUT" 2>"$ERR" ||
	fail "the loaded report does not write the same bytes"
expect_in "$OUT" "1 passed, 0 failed"

# gate compare reads gate reports through report_load: each case's head
# samples (s/b doubled in head, so against itself it is unchanged; the
# new case s/c has none and the removed s/r none in head)
gate_measured compare "$SCRATCH/r.json" "$SCRATCH/r.json" --json "$SCRATCH/c.json"
[ "$(json_get "$SCRATCH/c.json" 'sorted(b["name"] for b in d["benchmarks"])')" = \
  "['s/a', 's/b', 'sleep']" ] ||
	fail "compare should read every measured benchmark and case: $(json_get "$SCRATCH/c.json" '[b["name"] for b in d["benchmarks"]]')"
GATE_TEST_COMPARE_REPORT=$SCRATCH/c.json "$TEST_LOAD" compare_report_writes_back >"$OUT" 2>"$ERR" ||
	fail "the loaded compare report does not write the same bytes"
expect_in "$OUT" "1 passed, 0 failed"

# another schema is refused, naming the file and the schema gate reads
sed 's/"schema":	1,/"schema":	2,/' "$SCRATCH/r.json" >"$SCRATCH/v2.json"
gate_run 3 compare "$SCRATCH/v2.json" "$SCRATCH/r.json"
expect_in "$ERR" "v2.json: report schema 2 is not one this gate reads (it reads schema 1)"
exit 0
