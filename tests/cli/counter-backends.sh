# Choosing an instruction counter, and saying why none can be used: never a
# silent fallback to time. Also: allocation metrics refuse a statically
# linked program, and the errors come before anything is checked out.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
printf 'int main(void) { return 0; }\n' >"$R/nop.c"
cat >"$R/gate.json" <<'JSON'
{ "build": "cc -o nop nop.c && (cc -static -o nop-static nop.c || true)",
  "benchmarks": [ { "name": "nop", "run": ["./nop"], "metric": "instructions" } ] }
JSON
commit_all "$R" base
echo changed >"$R/NOTES"
commit_all "$R" head

# neither backend: perf switched off, valgrind not where it is said to be
GATE_PERF=0 GATE_VALGRIND=/nonexistent/valgrind \
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD
expect_in "$ERR" 'benchmark "nop" asks for "instructions", but no instruction counter is available here'
expect_in "$ERR" "perf: disabled by GATE_PERF=0"
expect_in "$ERR" "valgrind: GATE_VALGRIND=/nonexistent/valgrind is not an executable file"
expect_in "$ERR" "apt-get install valgrind"
expect_in "$ERR" "never falls back to time"
expect_not_in "$ERR" "checking out"

# valgrind not on PATH (a PATH holding only what gate's own steps need)
mkdir -p "$SCRATCH/bin"
for t in sh cc gcc git; do
	p=$(command -v $t) && ln -sf "$p" "$SCRATCH/bin/$t"
done
GATE_PERF=0 PATH="$SCRATCH/bin" gate_run 3 -C "$R" run --base HEAD~1 --head HEAD
expect_in "$ERR" "valgrind: valgrind is not installed (not found on PATH)"

# asked for by name
sed 's/"metric": "instructions"/&, "counter": "perf"/' "$R/gate.json" >"$SCRATCH/perf.json"
GATE_PERF=0 gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/perf.json"
expect_in "$ERR" 'with "counter": "perf", but disabled by GATE_PERF=0; or set "counter": "valgrind"'
sed 's/"metric": "instructions"/&, "counter": "valgrind"/' "$R/gate.json" >"$SCRATCH/vg.json"
GATE_VALGRIND=/nonexistent/valgrind gate_run 3 -C "$R" run --base HEAD~1 \
	--head HEAD --config "$SCRATCH/vg.json"
expect_in "$ERR" 'with "counter": "valgrind", but GATE_VALGRIND=/nonexistent/valgrind is not an executable file: install valgrind'

# this machine, as it is: whatever perf says is named in the message
GATE_VALGRIND=/nonexistent/valgrind "$GATE" -C "$R" run --base HEAD~1 --head HEAD \
	>"$OUT" 2>"$ERR"
case $? in
0) ;;	# the machine has usable hardware counters: perf was chosen
3) expect_in "$ERR" "  perf: " ;;
*) fail "unexpected exit" ;;
esac

# allocation metrics where they cannot be counted (the OS layer's stub):
# an error that says so, before anything is built
if [ -n "${GATE_OS_STUB:-}" ]; then
	sed 's/"metric": "instructions"/"metric": "allocs"/' \
		"$R/gate.json" >"$SCRATCH/alloc.json"
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/alloc.json"
	expect_in "$ERR" "allocation counting is not available on this system"
	exit 0
fi

# allocation metrics and a static program: unsupported, said so
if cc -static -o "$SCRATCH/probe" "$R/nop.c" 2>/dev/null; then
	sed 's/"metric": "instructions"/"metric": "allocs"/; s|\["./nop"\]|["./nop-static"]|' \
		"$R/gate.json" >"$SCRATCH/static.json"
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/static.json"
	expect_in "$OUT" "./nop-static in base is statically linked, so the allocation metrics are unsupported for it"
	# through a shell gate cannot look: the missing records say it
	sed 's|\["./nop-static"\]|"./nop-static"|' "$SCRATCH/static.json" >"$SCRATCH/static-sh.json"
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/static-sh.json"
	expect_in "$OUT" "no process reported its allocations"
	expect_in "$OUT" "statically linked one cannot be counted"
fi
exit 0
