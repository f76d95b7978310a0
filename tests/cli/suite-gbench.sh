# A real Google Benchmark suite (Debian's libbenchmark-dev, built by g++ in
# each checkout): head does twice the work in BM_changed only, so exactly
# that case fails; BM_steady passes in time and in items/s (a rate).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
cp "$(dirname "$0")/../data/gbench-fixture.cc" "$R/bench.cc"
printf 'WORK_CHANGED=3000\n' >"$R/work.mk"
cat >"$R/Makefile" <<'MK'
include work.mk
bench: bench.cc work.mk
	g++ -O2 -DWORK_STEADY=3000 -DWORK_CHANGED=$(WORK_CHANGED) -o bench bench.cc -lbenchmark -lpthread
MK
cat >"$R/gate.json" <<'JSON'
{
  "build": "make -s bench",
  "defaults": { "pairs": 8, "warmup": 0, "min_effect": 0.25, "timeout": 60,
                "metric": "cpu" },
  "benchmarks": [
    { "name": "gb", "format": "gbench", "expect": ["^BM_steady$"],
      "run": ["./bench", "--benchmark_format=json",
              "--benchmark_min_time=0.02", "--benchmark_repetitions=3"] }
  ]
}
JSON
commit_all "$R" base
printf 'WORK_CHANGED=6000\n' >"$R/work.mk"
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "gb/BM_changed"
expect_in "$OUT" "median of 3 repetitions per process"
[ "$(json_get "$SCRATCH/r.json" '[b["name"] for b in d["benchmarks"] if b["verdict"] == "fail"]')" = "['gb/BM_changed']" ] ||
	fail "only gb/BM_changed should fail"
# one decision per case: items/s restates BM_steady's time (a field, not
# a case); the user counter "work" is a gating metric of BM_changed
[ "$(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')" = \
  "[('gb/BM_steady', 'pass'), ('gb/BM_changed', 'fail')]" ] ||
	fail "one row per case: $(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')"
[ "$(json_get "$SCRATCH/r.json" 'd["protocol"]["compared"]')" = 3 ] ||
	fail "the correction counts BM_steady once and BM_changed's time and counter"
[ "$(json_get "$SCRATCH/r.json" '[(m["name"], m["gating"], m.get("higher_is_better")) for m in d["benchmarks"][0]["metrics"]]')" = \
  "[('value', True, False), ('items/s', False, True)]" ] ||
	fail "items/s is shown (higher-is-better), never gating"
[ "$(json_get "$SCRATCH/r.json" '[t["unit"] for t in d["benchmarks"][0]["throughput"]]')" = "['items/s']" ] ||
	fail "items/s should be BM_steady's throughput field"
[ "$(json_get "$SCRATCH/r.json" '[(m["name"], m["gating"], m["verdict"]) for m in d["benchmarks"][1]["metrics"]]')" = \
  "[('value', True, 'fail'), ('work', True, 'fail')]" ] ||
	fail "the counter work is a metric of BM_changed"
expect_in "$OUT" "items/s"
# --filter keeps the steady cases only; 2 pairs give no interval at the
# level, so the case's pairs are raised to the minimum before its first
# look, the suite re-running through --benchmark_filter for the rest
gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --filter 'steady' --pairs 2 \
	--json "$SCRATCH/f.json"
expect_not_in "$OUT" "BM_changed"
expect_in "$OUT" "pairs raised from 2 to"
expect_in "$ERR" 'gate: measuring "gb": pairs 3 to'
[ "$(json_get "$SCRATCH/f.json" 'd["benchmarks"][0]["pairs"] > 2')" = True ] ||
	fail "BM_steady should get more pairs through the filter"
# split by case over 2 shards: the real harness lists its cases with
# their counter (one iteration of each, --benchmark_min_time=0), each shard
# decides at the unsharded level (3 comparisons), and the merge is whole
for i in 1 2; do
	gate_measured -C "$R" run -v --base HEAD~1 --head HEAD --shard "$i/2" -q \
		--json "$SCRATCH/s$i.json"
done
gate_run 1 -C "$R" merge "$SCRATCH/s1.json" "$SCRATCH/s2.json" --json "$SCRATCH/m.json"
[ "$(json_get "$SCRATCH/m.json" '(sorted(b["name"] for b in d["benchmarks"]), d["protocol"]["compared"], [b["name"] for b in d["benchmarks"] if b["verdict"] == "fail"])')" = \
  "(['gb/BM_changed', 'gb/BM_steady'], 3, ['gb/BM_changed'])" ] ||
	fail "the merged shards: $(json_get "$SCRATCH/m.json" '(sorted(b["name"] for b in d["benchmarks"]), d["protocol"]["compared"])')"
[ "$(json_get "$SCRATCH/s1.json" '(d["protocol"]["compared"], len(d["benchmarks"]))')" = "(3, 1)" ] ||
	fail "shard 1 should measure one case at the level of 3 comparisons"
# an expected case that head no longer prints is an error
sed -i 's/\^BM_steady\$/^BM_gone$/' "$R/gate.json"
gate_run 3 -C "$R" run -v --base HEAD~1 --head HEAD --config "$R/gate.json" --pairs 2
expect_in "$OUT" 'matches "expect" pattern "^BM_gone$"'
gate_run 3 -C "$R" run -v --base HEAD~1 --head HEAD --filter '(' --pairs 2
expect_in "$ERR" "--filter"
exit 0
