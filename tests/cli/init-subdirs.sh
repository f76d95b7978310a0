# gate init finds benchmark programs that a makefile below the top links
# (lz4's tests/fullbench, xxhash's tests/bench/benchHash): they are run
# directly and made after the build with make -C DIR PROG; a program whose
# making fetches or cleans is not proposed, packaging directories are not
# looked in, and nothing is built or changed.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/sub
new_repo "$R"
mkdir -p "$R/tests/bench" "$R/tests/net" "$R/debian" "$R/tests/bench/deeper"
printf 'all: lib\nlib:\n\ttrue\n' >"$R/Makefile"
cat >"$R/tests/Makefile" <<'EOF2'
all: fullbench fuzzer
fullbench: fb.c
	cc -O2 -o fullbench fb.c
fuzzer: fz.c
	cc -o fuzzer fz.c
EOF2
cat >"$R/tests/bench/Makefile.in" <<'EOF2'
default: benchHash
benchHash benchHash32: main.c
	cc -O2 -o $@ main.c
Makefile: Makefile.in
	cp Makefile.in Makefile; touch remade
EOF2
cp "$R/tests/bench/Makefile.in" "$R/tests/bench/Makefile"
cat >"$R/tests/net/Makefile" <<'EOF2'
all:
	curl -s -o corpus https://example.invalid/corpus
	cc -o netbench n.c
EOF2
cat >"$R/tests/bench/deeper/Makefile" <<'EOF2'
all:
	cc -o deepbench d.c
EOF2
printf 'all:\n\tcc -o pkgbench p.c\n' >"$R/debian/Makefile"
for c in tests/fb.c tests/fz.c tests/bench/main.c tests/net/n.c tests/bench/deeper/d.c debian/p.c; do
	echo "int main(void) { return 0; }" >"$R/$c"
done
commit_all "$R" sub
gate_run 0 -C "$R" init --stdout
expect_in "$OUT" '"run": ["./tests/fullbench"]'
expect_in "$OUT" '"name": "fullbench"'
expect_in "$OUT" '"run": ["./tests/bench/benchHash"]'
expect_in "$OUT" '"name": "benchHash"'
expect_in "$OUT" '"build": "make -j2 && make -C tests fullbench && make -C tests/bench benchHash"'
expect_in "$ERR" "benchmark: fullbench: the makefile in tests links the program fullbench"
# laid out as README.md's examples are: two spaces, no tabs, one line a
# benchmark
grep -q '	' "$OUT" && fail "gate init's gate.json is indented with tabs"
expect_in "$OUT" '  "defaults": { "pairs": 20, "warmup": 2, "min_effect": 0.05, "timeout": 60 },'
expect_in "$OUT" '    { "name": "fullbench", "run": ["./tests/fullbench"] },'
expect_not_in "$OUT" fuzzer
expect_not_in "$OUT" netbench
expect_in "$ERR" "not proposed: tests/net/netbench: fetches over the network"
expect_not_in "$OUT" pkgbench
expect_not_in "$OUT" deepbench
# make -n ran nothing, and what it proposes gate run accepts as it is
[ -e "$R/tests/fullbench" ] && fail "gate init built tests/fullbench"
[ -z "$(git -C "$R" status --porcelain)" ] || fail "gate init changed the tree"
gate_run 0 -C "$R" init
expect_in "$R/gate.json" '"run": ["./tests/bench/benchHash"]'
# in a tree built already (as a user's usually is) make -n alone has
# nothing to do: init still finds the programs, and remakes no makefile
# (make -B would run the rule that remakes tests/bench/Makefile)
printf 'tests/fullbench\ntests/fuzzer\ntests/bench/benchHash\n*.o\n' >"$R/.gitignore"
commit_all "$R" ignore
make -s -C "$R/tests" >/dev/null 2>&1 && make -s -C "$R/tests/bench" >/dev/null 2>&1 ||
	fail "the fixture does not build"
[ -x "$R/tests/bench/benchHash" ] || fail "the fixture did not build benchHash"
gate_run 0 -C "$R" init --stdout
expect_in "$OUT" '"run": ["./tests/fullbench"]'
expect_in "$OUT" '"run": ["./tests/bench/benchHash"]'
[ -e "$R/tests/bench/remade" ] && fail "gate init ran the rule that remakes a makefile"
exit 0
