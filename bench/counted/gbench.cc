// bench-counted's Google Benchmark suite: real libraries' work (cJSON,
// zlib, GSL), each case a loop of one library call. knobs.h (the head's
// edit) sets how many times a case repeats its call (+20%: 5 to 6) or a
// sleep added to it, so each change's size is known.
#include <benchmark/benchmark.h>
#include <cjson/cJSON.h>
#include <gsl/gsl_fft_real.h>
#include <gsl/gsl_sort.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <unistd.h>

#include "knobs.h"

// A JSON document of n records, the same every run.
static std::string document(int n)
{
	std::string s = "[";
	char buf[160];

	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s{\"id\": %d, \"name\": \"item%d\", "
			 "\"price\": %d.%02d, \"tags\": [\"a\", \"b%d\"]}",
			 i ? ", " : "", i, i, i * 7 % 1000, i % 100, i % 13);
		s += buf;
	}
	return s + "]";
}

// Text that compresses like prose: words drawn from a seeded generator.
static std::vector<unsigned char> text(size_t n)
{
	static const char *w[] = { "the ", "gate ", "measures ", "each ",
				   "case ", "in ", "pairs ", "of ", "runs " };
	std::vector<unsigned char> t;
	unsigned x = 12345;

	while (t.size() < n) {
		x = x * 1103515245u + 12345u;
		for (const char *p = w[(x >> 16) % 9]; *p; p++)
			t.push_back((unsigned char)*p);
	}
	t.resize(n);
	return t;
}

static void BM_json_parse(benchmark::State &state)
{
	std::string doc = document(500);

	for (auto _ : state)
		for (int r = 0; r < JSON_PARSE_REPS; r++) {
			cJSON *j = cJSON_Parse(doc.c_str());
			benchmark::DoNotOptimize(j);
			cJSON_Delete(j);
		}
}
BENCHMARK(BM_json_parse);

static void BM_json_print(benchmark::State &state)
{
	std::string doc = document(500);
	cJSON *j = cJSON_Parse(doc.c_str());

	for (auto _ : state) {
		char *s = cJSON_PrintUnformatted(j);
		benchmark::DoNotOptimize(s);
		free(s);
	}
	cJSON_Delete(j);
}
BENCHMARK(BM_json_print);

static void BM_deflate(benchmark::State &state)
{
	std::vector<unsigned char> in = text(64 << 10);
	std::vector<unsigned char> out(compressBound(in.size()));

	for (auto _ : state) {
		uLongf n = out.size();
		compress2(out.data(), &n, in.data(), in.size(), 6);
		benchmark::DoNotOptimize(n);
		if (DEFLATE_SLEEP_US)
			usleep(DEFLATE_SLEEP_US);
	}
}
BENCHMARK(BM_deflate);

static void BM_inflate(benchmark::State &state)
{
	std::vector<unsigned char> in = text(64 << 10);
	std::vector<unsigned char> z(compressBound(in.size())), out(in.size());
	uLongf zn = z.size();

	compress2(z.data(), &zn, in.data(), in.size(), 6);
	for (auto _ : state) {
		uLongf n = out.size();
		uncompress(out.data(), &n, z.data(), zn);
		benchmark::DoNotOptimize(n);
	}
}
BENCHMARK(BM_inflate);

static void BM_sort(benchmark::State &state)
{
	std::vector<double> src(20000), a;
	unsigned x = 777;

	for (double &d : src) {
		x = x * 1103515245u + 12345u;
		d = (double)(x >> 8);
	}
	for (auto _ : state) {
		a = src;
		gsl_sort(a.data(), 1, a.size());
		benchmark::DoNotOptimize(a.data());
	}
}
BENCHMARK(BM_sort);

static void BM_fft(benchmark::State &state)
{
	std::vector<double> src(FFT_N), a;

	for (size_t i = 0; i < src.size(); i++)
		src[i] = (double)(i * 31 % 97);
	for (auto _ : state) {
		a = src;
		gsl_fft_real_radix2_transform(a.data(), 1, a.size());
		benchmark::DoNotOptimize(a.data());
	}
}
BENCHMARK(BM_fft);

BENCHMARK_MAIN();
