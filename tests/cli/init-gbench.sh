# gate init on Google Benchmark programs proposes gbench suites of fixed
# work where the library takes it (--benchmark_min_time=Nx, 1.8 and
# later), N measured once so that a case takes 50-100 ms and cases more
# than 2x apart in cost in suites of their own; with an older library
# (Debian 12 ships 1.7.1, which refuses "1x") a suite of fixed time that
# says so. The programs are the artifacts, their build files, C and C++
# files and the docs the sources: a docs-only change, or a comment that
# leaves the program byte-identical, passes unmeasured.
. "$(dirname "$0")/lib.sh"

# 1. A fake Google Benchmark 1.8 program (C, no library needed): it takes
# --benchmark_min_time=Nx and reports BM_small at 1 us, BM_mid at 1.5 us
# (within 2x: one suite) and BM_big/8 at 200 us an iteration.
F=$SCRATCH/fake
new_repo "$F"
cat >"$F/micro_bench.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	static const struct { const char *name; double t; const char *unit; } c[] = {
		{ "BM_small", 1000, "ns" }, { "BM_mid", 1.5, "us" },
		{ "BM_big/8", 200, "us" },
	};
	const char *log = getenv("FAKE_CALLS");
	long long iters = 1000;
	size_t i, len;
	FILE *f;

	for (i = 1; i < (size_t)argc; i++) {
		if (log && (f = fopen(log, "a"))) {
			fprintf(f, "%s\n", argv[i]);
			fclose(f);
		}
		if (strncmp(argv[i], "--benchmark_min_time=", 21))
			continue;
		len = strlen(argv[i]);
		if (argv[i][len - 1] == 'x')
			iters = atoll(argv[i] + 21);
	}
	printf("{\n  \"context\": {},\n  \"benchmarks\": [\n");
	for (i = 0; i < 3; i++)
		printf("    {\n      \"name\": \"%s\",\n      \"run_name\": \"%s\",\n"
		       "      \"run_type\": \"iteration\",\n      \"iterations\": %lld,\n"
		       "      \"real_time\": %g,\n      \"cpu_time\": %g,\n"
		       "      \"time_unit\": \"%s\"\n    }%s\n", c[i].name, c[i].name,
		       iters, c[i].t, c[i].t, c[i].unit, i < 2 ? "," : "");
	printf("  ]\n}\n");
	return 0;
}
C
printf 'micro_bench: micro_bench.c\n\tcc -O2 -o micro_bench micro_bench.c\n' >"$F/Makefile"
echo micro_bench >"$F/.gitignore"
echo '# fake' >"$F/README.md"
commit_all "$F" fake
make -s -C "$F" >/dev/null 2>&1 || skip "cc cannot build the fake Google Benchmark program"
FAKE_CALLS=$SCRATCH/calls gate_run 0 -C "$F" init --stdout
# fixed work: N iterations, 100 ms for the slowest case of each suite
expect_in "$OUT" '"run": ["./micro_bench", "--benchmark_format=json", "--benchmark_min_time=66666x", "--benchmark_filter=^(BM_small|BM_mid)$"], "format": "gbench"'
expect_in "$OUT" '"run": ["./micro_bench", "--benchmark_format=json", "--benchmark_min_time=500x", "--benchmark_filter=^(BM_big/8)$"], "format": "gbench"'
expect_in "$OUT" '"name": "micro_bench-1"'
expect_in "$OUT" '"name": "micro_bench-2"'
expect_in "$OUT" '"artifacts": ["micro_bench"],'
expect_in "$OUT" '"sources": ["Makefile", "*.c", "*.md"],'
expect_not_in "$OUT" '"parity"'
expect_in "$ERR" "micro_bench-2: Google Benchmark program ./micro_bench: BM_big/8, 200 us an iteration (measured), 500 iterations: 100 ms"
expect_in "$ERR" "micro_bench-1: Google Benchmark program ./micro_bench: 2 cases of 1.00 us to 1.50 us an iteration (measured), 66666 iterations each: 67 to 100 ms a case"
expect_in "$ERR" "within the default budget of 300 s"
# measured once: a short timed run, then one iteration of each (accepted)
grep -c 'benchmark_min_time=0.02$' "$SCRATCH/calls" | grep -qx 1 || fail "not measured once"
grep -c 'benchmark_min_time=1x$' "$SCRATCH/calls" | grep -qx 1 || fail "1x not tried once"
[ -z "$(git -C "$F" status --porcelain)" ] || fail "init changed the tree"

# 2. A real Google Benchmark program, not named *bench* (found by make -n
# linking it with -lbenchmark), with the library Debian ships.
command -v g++ >/dev/null 2>&1 || skip "g++ is not installed (ci/install-deps installs it)"
[ -f /usr/include/benchmark/benchmark.h ] ||
	skip "libbenchmark-dev is not installed (ci/install-deps installs it)"
G=$SCRATCH/gb
new_repo "$G"
cat >"$G/parse.cc" <<'CC'
#include <benchmark/benchmark.h>
static void BM_sum(benchmark::State &s)
{
	for (auto _ : s) {
		unsigned x = 0;
		for (unsigned i = 0; i < 1000; i++)
			benchmark::DoNotOptimize(x += i);
	}
}
BENCHMARK(BM_sum);
BENCHMARK_MAIN();
CC
printf 'perf_parse: parse.cc\n\tg++ -O2 -o perf_parse parse.cc -lbenchmark -lpthread\n' >"$G/Makefile"
echo perf_parse >"$G/.gitignore"
echo '# parse' >"$G/README.md"
commit_all "$G" parse
make -s -C "$G" >"$OUT" 2>&1 || fail "the Google Benchmark program does not build"
gate_run 0 -C "$G" init
expect_in "$G/gate.json" '"run": ["./perf_parse", "--benchmark_format=json", "--benchmark_min_time='
expect_in "$G/gate.json" '"format": "gbench"'
expect_in "$G/gate.json" '"artifacts": ["perf_parse"],'
expect_in "$G/gate.json" '"sources": ["Makefile", "*.cc", "*.md"],'
if "$G/perf_parse" --benchmark_min_time=1x --benchmark_filter=x >/dev/null 2>&1; then
	# 1.8 and later: fixed work
	expect_not_in "$G/gate.json" '"--benchmark_min_time=0.1"'
	expect_in "$OUT" "iterations: "
else
	# older: fixed time, said so and why
	expect_in "$G/gate.json" '"--benchmark_min_time=0.1"'
	expect_in "$OUT" "fixed time, not fixed work: its library refused --benchmark_min_time=1x"
fi
expect_in "$OUT" "expected: about"
# the proposal as it is: a docs-only change passes unmeasured
commit_all "$G" gate.json
echo 'more' >>"$G/README.md"
commit_all "$G" docs
gate_run 0 -C "$G" run
expect_in "$OUT" "perf_parse: identical build"
expect_in "$ERR" "perf_parse: pass after 0 pairs"
# a comment in the source: the same program, so it passes unmeasured too
echo '// the end' >>"$G/parse.cc"
commit_all "$G" comment
gate_run 0 -C "$G" run
expect_in "$OUT" "perf_parse: identical build"

# 3. CMake: a target linking benchmark::benchmark, not built in the tree
# (its commands in capitals: CMake's command names are case-insensitive):
# init builds it once in /tmp (never in the user's tree) to measure it.
command -v cmake >/dev/null 2>&1 || skip "cmake is not installed"
C=$SCRATCH/cm
new_repo "$C"
cp "$G/parse.cc" "$C/str_perf.cc"
cat >"$C/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(x CXX)
find_package(benchmark REQUIRED)
ADD_EXECUTABLE(str_perf str_perf.cc)
TARGET_LINK_LIBRARIES(str_perf benchmark::benchmark)
CM
echo '# cm' >"$C/README.md"
commit_all "$C" cmake
gate_run 0 -C "$C" init --stdout
expect_in "$OUT" '"run": ["./build/str_perf", "--benchmark_format=json", "--benchmark_min_time='
expect_in "$OUT" '"artifacts": ["build/str_perf"],'
expect_in "$OUT" '"sources": ["CMakeLists.txt", "*.cc", "*.md"],'
expect_in "$ERR" "str_perf: Google Benchmark program ./build/str_perf: BM_sum, "
expect_not_in "$ERR" "not measured"
[ -z "$(git -C "$C" status --porcelain --ignored)" ] || fail "init changed the tree"
exit 0
