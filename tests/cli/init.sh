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
expect_in "$R/gate.json" '"build":	"make -j2"'
expect_in "$R/gate.json" '"run":	["make", "-s", "bench-parse"]'
expect_not_in "$R/gate.json" "CFLAGS"
# the starter runs as it is (identical code: pass or noisy, never an error)
commit_all "$R" config
"$GATE" -C "$R" run --base HEAD --head HEAD --pairs 2 --warmup 0 -q >"$OUT" 2>"$ERR"
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
expect_in "$OUT" '"build":	"cargo build --release --benches"'
expect_in "$OUT" '["cargo", "bench", "-q", "--bench", "throughput"]'
expect_in "$OUT" '["cargo", "bench", "-q", "--bench", "latency"]'
expect_in "$OUT" '"parity":	false'
[ -e "$C/gate.json" ] && fail "--stdout wrote a file"
G=$SCRATCH/go
new_repo "$G"
mkdir -p "$G/codec"
echo 'module example.com/x' >"$G/go.mod"
printf 'package codec\nfunc BenchmarkDecode(b *testing.B) {}\n' >"$G/codec/codec_test.go"
gate_run 0 -C "$G" init --stdout
expect_in "$OUT" '"-bench=^BenchmarkDecode$"'
N=$SCRATCH/npm
new_repo "$N"
printf '{ "name": "x", "scripts": { "test": "t", "bench:json": "node b.js" },\n  "devDependencies": { "benchmark": "2" } }\n' >"$N/package.json"
gate_run 0 -C "$N" init --stdout
expect_in "$OUT" '["npm", "run", "--silent", "bench:json"]'
expect_not_in "$OUT" '"benchmark"]'
M=$SCRATCH/cmake
new_repo "$M"
printf 'project(x C)\nadd_executable(bench_sort bench/sort.c)\nadd_executable(app main.c)\n' >"$M/CMakeLists.txt"
gate_run 0 -C "$M" init --stdout
expect_in "$OUT" '["./build/bench_sort"]'
expect_not_in "$OUT" 'app'
E=$SCRATCH/empty
new_repo "$E"
gate_run 0 -C "$E" init
expect_in "$OUT" "no benchmark targets found"
expect_in "$E/gate.json" "./path/to/your-benchmark"
exit 0
