# gate init recognises build systems and benchmark targets, writes a
# gate.json that gate run accepts, and never overwrites one without --force.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/make
new_repo "$R"
printf 'all:\n\ttrue\nbench-parse: all\n\t@sleep 0.01; echo parsed\nCFLAGS := -O2\n' >"$R/Makefile"
commit_all "$R" make
gate_run 0 -C "$R" init
expect_in "$OUT" "build system: make"
expect_in "$OUT" "benchmark: bench-parse"
expect_in "$R/gate.json" '"build": "make -j2"'
expect_in "$R/gate.json" '"run": ["make", "-s", "bench-parse"]'
# README: wrappers such as make -s print their own lines: "parity": false
expect_in "$R/gate.json" '"parity": false'
expect_in "$OUT" "benchmark: bench-parse: make target bench-parse (checked with make -n"
expect_not_in "$R/gate.json" "CFLAGS"
# the starter runs as it is (identical code: pass or noisy, never an error;
# --budget 5s: its 5% floor on identical code under load went on looking
# up to the default 5 minutes)
commit_all "$R" config
"$GATE" -C "$R" run --base HEAD --head HEAD --pairs 2 --warmup 0 -q \
	--budget 5s >"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || fail "gate run on init's gate.json exited $rc"
# never overwrite without --force
echo '{"mine": true}' >"$R/gate.json"
gate_run 3 -C "$R" init
expect_in "$ERR" "already exists"
expect_in "$R/gate.json" '"mine"'
gate_run 0 -C "$R" init --force
expect_not_in "$R/gate.json" '"mine"'

# other build systems, printed with --stdout
C=$SCRATCH/cargo
new_repo "$C"
mkdir -p "$C/benches"
printf '[package]\nname = "x"\n[[bench]]\nname = "throughput"\nharness = false\n' >"$C/Cargo.toml"
: >"$C/benches/latency.rs"
gate_run 0 -C "$C" init --stdout
expect_in "$OUT" '"build": "cargo build --release --benches"'
expect_in "$OUT" '["cargo", "bench", "-q", "--bench", "throughput"]'
expect_in "$OUT" '["cargo", "bench", "-q", "--bench", "latency"]'
expect_in "$OUT" '"parity": false'
[ -e "$C/gate.json" ] && fail "--stdout wrote a file"
G=$SCRATCH/go
new_repo "$G"
mkdir -p "$G/codec"
echo 'module example.com/x' >"$G/go.mod"
printf 'package codec\nfunc BenchmarkDecode(b *testing.B) {}\n' >"$G/codec/codec_test.go"
# go cannot build this test (no import "testing"): one suite for the
# package, of fixed work, its N a guess said to be one (tests/cli/init-go.sh
# measures)
gate_run 0 -C "$G" init --stdout
expect_in "$OUT" '"-test.benchtime=1000x"'
expect_in "$OUT" '"format": "gotest"'
expect_in "$ERR" 'not measured'
N=$SCRATCH/npm
new_repo "$N"
printf '{ "name": "x", "scripts": { "test": "t", "bench:json": "node b.js" },\n  "devDependencies": { "benchmark": "2" } }\n' >"$N/package.json"
gate_run 0 -C "$N" init --stdout
expect_in "$OUT" '["npm", "run", "--silent", "bench:json"]'
expect_not_in "$OUT" '"benchmark"]'
M=$SCRATCH/cmake
new_repo "$M"
# CMake's commands are case-insensitive (ADD_EXECUTABLE is add_executable)
printf 'project(x C)\nadd_executable(bench_sort bench/sort.c)\nadd_executable(app main.c)\nADD_EXECUTABLE(bench_upper u.c)\n' >"$M/CMakeLists.txt"
gate_run 0 -C "$M" init --stdout
expect_in "$OUT" '["./build/bench_sort"]'
expect_in "$OUT" '["./build/bench_upper"]'
expect_not_in "$OUT" 'app'
# make targets are inspected with make -n (nothing runs): targets that
# clean, fetch or use the network are not proposed, aliases collapse, a
# target that links a program of its name becomes the program, and names
# gate.json refuses ('/', over 100 characters) are made valid
T=$SCRATCH/traps
new_repo "$T"
LONG=$(printf 'x%.0s' $(seq 1 120))
cat >"$T/Makefile" <<EOF
all: prog
prog: prog.c
	cc -o prog prog.c
fullbench: fb.c
	cc -O2 -o fullbench fb.c
bench: prog
	./prog 1000
benchmarking: prog
	./prog 1000
automated_bench: clean
	./prog 5
fetch-bench:
	curl -s https://api.github.com/repos/x/y
clone-bench:
	git clone https://example.invalid/x.git corpus
wipe-bench:
	rm -rf ../corpus
build/bench: prog
	./prog 2000
${LONG}bench: prog
	./prog 3000
clean:
	rm -f prog fullbench
EOF
echo 'int main(void) { return 0; }' >"$T/prog.c"
cp "$T/prog.c" "$T/fb.c"
commit_all "$T" traps
gate_run 0 -C "$T" init --stdout
expect_in "$OUT" '"run": ["make", "-s", "bench"]'
expect_not_in "$OUT" '"benchmarking"'
expect_in "$ERR" "not proposed: benchmarking: the same commands as bench"
for t in automated_bench fetch-bench clone-bench wipe-bench; do
	expect_not_in "$OUT" "\"$t\""
	expect_in "$ERR" "not proposed: $t: "
done
expect_in "$ERR" "automated_bench: cleans the build"
expect_in "$ERR" "fetch-bench: fetches over the network"
expect_in "$ERR" "wipe-bench: deletes directories"
expect_in "$OUT" '"name": "build-bench"'
expect_in "$OUT" '"run": ["make", "-s", "build/bench"]'
[ "$(json_get "$OUT" '[len(b["name"]) for b in d["benchmarks"] if b["run"][-1].startswith("xxx")]')" = "[100]" ] ||
	fail "the 120-character target should become a 100-character name"
# the program fullbench is run directly, and the build makes it
expect_in "$OUT" '"run": ["./fullbench"]'
expect_in "$OUT" '"build": "make -j2 && make fullbench"'
expect_in "$ERR" "benchmark: fullbench: make target fullbench links the program"
# make -n ran nothing: no program built, no file touched
[ -e "$T/prog" ] && fail "gate init built prog"
[ -z "$(git -C "$T" status --porcelain)" ] || fail "gate init changed the tree"
# what it proposes, gate run accepts (the names are valid)
gate_run 0 -C "$T" init
expect_in "$T/gate.json" '"name": "build-bench"'

# a program named *bench* that the default build links
P=$SCRATCH/linked
new_repo "$P"
mkdir "$P/tools"
printf 'all:\n\tcc -o tools/speedbench tools/s.c\n' >"$P/Makefile"
echo 'int main(void) { return 0; }' >"$P/tools/s.c"
commit_all "$P" linked
gate_run 0 -C "$P" init --stdout
expect_in "$OUT" '"run": ["./tools/speedbench"]'
expect_in "$ERR" "the build links the program tools/speedbench (make -n)"
expect_not_in "$OUT" '"parity"'

# autoconf: configure and Makefile.in, no Makefile before configure
A=$SCRATCH/autoconf
new_repo "$A"
printf '#!/bin/sh\ncp Makefile.in Makefile\n' >"$A/configure"
chmod +x "$A/configure"
printf 'all:\n\ttrue\nbench: all\n\t./run-bench\nnet-bench:\n\twget https://example.invalid/data\n' >"$A/Makefile.in"
commit_all "$A" autoconf
gate_run 0 -C "$A" init --stdout
expect_in "$ERR" "build system: autoconf"
expect_in "$OUT" '"build": "./configure && make -j2"'
expect_in "$OUT" '"run": ["make", "-s", "bench"]'
expect_in "$ERR" "not proposed: net-bench: fetches over the network"
[ -e "$A/Makefile" ] && fail "gate init ran configure"

E=$SCRATCH/empty
new_repo "$E"
gate_run 0 -C "$E" init
expect_in "$OUT" "no benchmark targets found"
expect_in "$E/gate.json" "./path/to/your-benchmark"
exit 0
