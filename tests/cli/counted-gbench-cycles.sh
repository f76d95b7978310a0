# A Google Benchmark suite counted per case with the cache simulation
# ("cycles", doc/counted.md): BM_walk sums a 1 MiB array through an index
# array, in order in base and in a shuffled order in head (set up before
# the loop): the same instructions, but nearly every load of head's a
# first-level miss, so its cycles rise while its instructions do not
# move. BM_same does not change: both its counts pass.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
[ -f /usr/include/benchmark/benchmark.h ] || skip "no libbenchmark-dev"
R=$SCRATCH/repo
new_repo "$R"
# b.cc SHUFFLE: 0 walks in order, 1 in a seeded shuffled order
write_bench() {
	cat >"$R/b.cc" <<CC
#include <benchmark/benchmark.h>
#include <vector>
enum { N = 1 << 18 };
static volatile unsigned long sink;
static void BM_walk(benchmark::State &s)
{
	std::vector<unsigned> a(N), idx(N);
	unsigned x = 12345;
	for (unsigned i = 0; i < N; i++)
		a[i] = i, idx[i] = i;
	for (unsigned i = N - 1; $1 && i > 0; i--) {
		x = x * 1103515245u + 12345u;
		unsigned j = (x >> 8) % (i + 1), t = idx[i];
		idx[i] = idx[j], idx[j] = t;
	}
	for (auto _ : s) {
		unsigned long t = 0;
		for (unsigned i = 0; i < N; i++)
			t += a[idx[i]];
		sink = t;
	}
}
BENCHMARK(BM_walk);
static void BM_same(benchmark::State &s)
{
	for (auto _ : s)
		for (unsigned long i = 0; i < 10000; i++)
			sink += i;
}
BENCHMARK(BM_same);
BENCHMARK_MAIN();
CC
}
write_bench 0
cat >"$R/gate.json" <<'JSON'
{
  "build": "g++ -O2 -g -o b b.cc -lbenchmark -lpthread",
  "defaults": { "warmup": 0, "timeout": 120 },
  "benchmarks": [ { "name": "g", "format": "gbench",
                    "run": ["./b", "--benchmark_format=json",
                            "--benchmark_min_time=0.01"],
                    "metrics": ["instructions", "cycles"] } ]
}
JSON
commit_all "$R" base
write_bench 1
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
/usr/bin/python3 - "$SCRATCH/r.json" <<'PY' || fail "per-case cycles"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(b) == ["g/BM_same", "g/BM_walk"], sorted(b)
m = {k: {x["name"]: x for x in v["metrics"]} for k, v in b.items()}
assert b["g/BM_walk"]["verdict"] == "fail", b["g/BM_walk"]["verdict"]
assert b["g/BM_same"]["verdict"] == "pass", b["g/BM_same"]["verdict"]
w = m["g/BM_walk"]
# counts alone: the first, instructions, is the case's value
assert [x["name"] for x in b["g/BM_walk"]["metrics"]] == \
    ["value", "cycles"], b["g/BM_walk"]["metrics"]
# the same loop over other indices: the instructions do not move
assert w["value"]["verdict"] == "pass", w["value"]
assert abs(w["value"]["ratio"]["median"] - 1) < 0.001, w["value"]["ratio"]
# the misses do: well above any floor
assert w["cycles"]["verdict"] == "fail", w["cycles"]
assert w["cycles"]["ratio"]["median"] > 1.3, w["cycles"]["ratio"]
s = m["g/BM_same"]
assert [s[k]["verdict"] for k in ("value", "cycles")] == \
    ["pass", "pass"], s
PY
exit 0
