// The Google Benchmark program behind tests/data/probe/gbench/ (see
// tests/data/README): BM_two's loop does twice BM_one's work, each after
// the same set-up outside its loop; BM_arg/200 twice BM_arg/100's.
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
	work(5000);
	for (auto _ : s)
		work(2000);
}
BENCHMARK(BM_two);

static void BM_arg(benchmark::State &s)
{
	for (auto _ : s)
		work((unsigned long)s.range(0));
}
BENCHMARK(BM_arg)->Arg(100)->Arg(200);

BENCHMARK_MAIN();
