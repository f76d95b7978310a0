// A tiny Google Benchmark suite for tests/cli/suite-gbench.sh: WORK_STEADY
// and WORK_CHANGED set the work per iteration at compile time, so that head
// can do exactly twice the work of base in one case (a structural change).
#include <benchmark/benchmark.h>
#include <cstdint>

static uint64_t work(uint64_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (uint64_t i = 0; i < n; i++) {
		h ^= i;
		h *= 1099511628211ULL;
		benchmark::DoNotOptimize(h);
	}
	return h;
}

static void BM_steady(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(work(WORK_STEADY));
	state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_steady);

static void BM_changed(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(work(WORK_CHANGED));
	state.counters["work"] = WORK_CHANGED;
}
BENCHMARK(BM_changed);

BENCHMARK_MAIN();
