# A Google Benchmark suite counted per case without changing the program
# (issue 36, doc/counted.md): callgrind dumps around each case's loop.
# BM_two's loop does twice BM_one's work after the same set-up (outside
# the loop, outside the count): their counts in the ratio 2. Head doubles
# BM_two's set-up only (no change counted) and BM_arg's loop (+100%).
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
[ -f /usr/include/benchmark/benchmark.h ] || skip "no libbenchmark-dev"
R=$SCRATCH/repo
new_repo "$R"
# b.cc SETUP2 ARG: BM_two's set-up rounds, BM_arg's loop multiplier
write_bench() {
	cat >"$R/b.cc" <<CC
#include <benchmark/benchmark.h>
static volatile unsigned long sink;
static void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
static void BM_one(benchmark::State &s)
{
	work(5000);
	for (auto _ : s)
		work(1000);
}
BENCHMARK(BM_one);
static void BM_two(benchmark::State &s)
{
	work($1);
	for (auto _ : s)
		work(2000);
}
BENCHMARK(BM_two);
static void BM_arg(benchmark::State &s)
{
	for (auto _ : s)
		work($2 * (unsigned long)s.range(0));
}
BENCHMARK(BM_arg)->Arg(100);
BENCHMARK_MAIN();
CC
}
write_bench 5000 1
cat >"$R/gate.json" <<'JSON'
{
  "build": "g++ -O2 -g -o b b.cc -lbenchmark -lpthread",
  "defaults": { "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "g", "format": "gbench",
                    "run": ["./b", "--benchmark_format=json",
                            "--benchmark_min_time=0.01"],
                    "metrics": ["instructions"] } ]
}
JSON
commit_all "$R" base
write_bench 10000 2
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "each case's loop alone, one iteration"
/usr/bin/python3 - "$SCRATCH/r.json" <<'PY' || fail "per-case counts"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(b) == ["g/BM_arg/100", "g/BM_one", "g/BM_two"], sorted(b)
v = {k: x["verdict"] for k, x in b.items()}
assert v == {"g/BM_arg/100": "fail", "g/BM_one": "pass",
             "g/BM_two": "pass"}, v
# the set-up doubled outside the loop: the very same count
assert b["g/BM_two"]["ratio"]["median"] == 1, b["g/BM_two"]["ratio"]
# the loop's work doubled: nearly twice (the state's few instructions)
r = b["g/BM_arg/100"]["ratio"]["median"]
assert 1.95 < r <= 2, r
r = b["g/BM_two"]["base"]["median"] / b["g/BM_one"]["base"]["median"]
assert 1.99 < r <= 2, r
PY
exit 0
