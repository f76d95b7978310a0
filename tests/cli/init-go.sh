# gate init on a Go module proposes fixed work, never fixed time: a gotest
# suite per package (its test binary, -test.benchtime=Nx, -test.count=1),
# N measured once so that a case takes 50-100 ms, cases far apart in cost
# in suites of their own, and the expected time per pair within the
# default budget. A fake go on PATH prints go's output: BenchmarkFast at
# 50 ns/op, BenchmarkSlow at 8 us/op and BenchmarkSizes's sub-benchmarks
# small at 60 ns/op and big at 7 us/op in the top package, BenchmarkDecode
# at 1 us/op in ./codec. Each size is a case of its own, grouped by its
# own cost (one N for a whole BenchmarkSizes gave the 48-byte size of a
# real one 0.5 ms a sample).
. "$(dirname "$0")/lib.sh"
G=$SCRATCH/go
new_repo "$G"
mkdir -p "$G/codec" "$SCRATCH/bin"
echo 'module example.com/x' >"$G/go.mod"
printf 'package x\nimport "testing"\nfunc BenchmarkFast(b *testing.B) {}\nfunc BenchmarkSlow(b *testing.B) {}\nfunc BenchmarkSizes(b *testing.B) {}\n' >"$G/x_test.go"
printf 'package codec\nimport "testing"\nfunc BenchmarkDecode(b *testing.B) {}\n' >"$G/codec/codec_test.go"
# a module of its own below (cespare/xxhash's xxhashbench/): not this one's
mkdir -p "$G/other"
echo 'module example.com/other' >"$G/other/go.mod"
printf 'package other\nimport "testing"\nfunc BenchmarkOther(b *testing.B) {}\n' >"$G/other/o_test.go"
commit_all "$G" go
cat >"$SCRATCH/bin/go" <<'SH'
#!/bin/sh
# go test -c -o OUT PKG: OUT prints what that package's benchmarks would
[ "$1 $2 $3" = "test -c -o" ] || { echo "fake go: $*" >&2; exit 2; }
case $5 in
.) rows='BenchmarkFast-2 \t1000000\t        50.0 ns/op\nBenchmarkSlow-2 \t   2000\t      8000 ns/op\nBenchmarkSizes/small-2 \t1000000\t        60.0 ns/op\nBenchmarkSizes/big-2 \t   2000\t      7000 ns/op' ;;
./codec) rows='BenchmarkDecode-2 \t  20000\t      1000 ns/op' ;;
*) echo "fake go: no package $5" >&2; exit 1 ;;
esac
printf '#!/bin/sh\necho "$*" >>"%s/calls"\nprintf "goos: linux\\ngoarch: amd64\\n%s\\nPASS\\n"\n' \
	"$(dirname "$0")" "$rows" >"$4"
chmod +x "$4"
SH
chmod +x "$SCRATCH/bin/go"
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$G" init --stdout
# fixed work: N iterations, 100 ms for the slowest case of each suite
expect_in "$OUT" '"-test.benchtime=1666666x"'
expect_in "$OUT" '"-test.benchtime=12500x"'
expect_in "$OUT" '"-test.benchtime=100000x"'
expect_in "$OUT" '"-test.count=1"'
expect_in "$OUT" '"format": "gotest"'
# each group exactly its cases: a size of BenchmarkSizes beside the top-level
# benchmark of its cost, never the other size at this N
expect_in "$OUT" '"-test.bench=^BenchmarkFast$|^BenchmarkSizes$/^(small)$"'
expect_in "$OUT" '"-test.bench=^BenchmarkSizes$/^(big)$|^BenchmarkSlow$"'
expect_in "$OUT" '"sh", "-c", "cd codec && exec ../.gate-bench/codec.test \"$@\"", "sh"'
expect_in "$OUT" 'go test -trimpath -c -o .gate-bench/x.test . && go test -trimpath -c -o .gate-bench/codec.test ./codec'
# the test binaries are the artifacts (-trimpath: the same bytes from the
# same code in either arm), so a docs-only change passes unmeasured
expect_in "$OUT" '"artifacts": [".gate-bench/*.test"],'
# never a fixed time, never one benchmark per function
expect_not_in "$OUT" 'benchtime=1s'
expect_not_in "$OUT" '"-bench=^BenchmarkFast$"'
expect_in "$ERR" "x-1: go package .: 2 cases of 50.0 ns/op to 60.0 ns/op (measured), 1666666 iterations each: 83 to 100 ms a case"
# 8000 ns/op in the unit that keeps 3 digits without an exponent (item 8)
expect_in "$ERR" "x-2: go package .: 2 cases of 7.00 us/op to 8.00 us/op (measured), 12500 iterations each: 88 to 100 ms a case"
expect_in "$ERR" "expected: about"
expect_in "$ERR" "not proposed: other: a Go module of its own (its go.mod): run gate init there"
expect_not_in "$OUT" "BenchmarkOther"
expect_in "$ERR" "within the default budget of 300 s"
# measured once, each binary as gate run will run it (20 ms a case, then
# one iteration for the overhead), in its package's directory
grep -c 'test.benchtime=20ms' "$SCRATCH/bin/calls" | grep -qx 2 || fail "not measured once per package"
# nothing left behind in the repository or /tmp's scratch
[ -z "$(git -C "$G" status --porcelain)" ] || fail "init changed the tree"
# init checks that gate run accepts what it writes (config_parse)
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$G" init
expect_in "$G/gate.json" '"format": "gotest"'
exit 0
