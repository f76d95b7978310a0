# gate init on a Python project with pytest-benchmark tests proposes a
# pytest suite of fixed work: a fixed number of rounds
# (--benchmark-min-rounds, with a max time too short to add any), each
# round at least 0.1 ms (--benchmark-min-time: pytest repeats a fast call
# within a round rather than time one call and its own timer), measured
# once so that each case takes about 100 ms (at least pytest's 5 rounds;
# 10 ms in a suite of 200 cases or more), the JSON report on stdout, and
# the expected time per pair.
. "$(dirname "$0")/lib.sh"
py=
for p in python3 /usr/bin/python3; do
	py=$("$p" -c 'import sys, pytest_benchmark; print(sys.executable)' \
		2>/dev/null) && break
done
[ -n "$py" ] || skip "no python3 with pytest-benchmark (python3-pytest-benchmark)"
mkdir -p "$SCRATCH/bin"
ln -s "$py" "$SCRATCH/bin/python3"
P=$SCRATCH/py
new_repo "$P"
mkdir -p "$P/tests"
printf '[project]\nname = "x"\n' >"$P/pyproject.toml"
echo "# x" >"$P/README.md"
# a round of 30 ms: 100 ms is 3 rounds, so pytest's minimum of 5
cat >"$P/tests/test_speed.py" <<'PY'
import time

def test_nap(benchmark):
    benchmark(time.sleep, 0.03)

def test_plain():
    assert True
PY
commit_all "$P" py
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$P" init --stdout
expect_in "$OUT" '"format": "pytest"'
expect_in "$OUT" '--benchmark-min-rounds=5 --benchmark-min-time=0.0001 --benchmark-max-time=0.000001'
expect_in "$OUT" '--benchmark-json=\"$GATE_TMPDIR/gate-pytest.json\" tests >&2 && cat'
expect_in "$ERR" "build system: python (pytest-benchmark)"
expect_in "$ERR" "tests: pytest-benchmark tests in tests: 5 rounds of its 1 case, a round at least 0.1 ms (measured: its case, test_nap, takes about "
expect_in "$ERR" "expected: about"
# the Python files are what runs: its artifacts, each level that has
# any; the docs that exist are sources, so a docs-only change passes
# unmeasured (identical build)
expect_in "$OUT" '"artifacts": ["*/*.py"],'
expect_in "$OUT" '"sources": ["*.md"],'
[ -z "$(git -C "$P" status --porcelain)" ] || fail "init changed the tree"
# init writes what --stdout prints (one text, cmd/init.c): the proposal
# is taken from it rather than measured again (pytest's start-up is
# seconds a call on a loaded machine); Q below runs init to write
cp "$OUT" "$P/gate.json"
commit_all "$P" "gate.json"
echo "more words" >>"$P/README.md"
commit_all "$P" "docs only"
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$P" run --base HEAD~1
expect_in "$OUT" "identical build"

# a test module beside the benchmarks that no longer imports stops
# pytest's collection of the directory (exit 2): init proposes the files
# with benchmarks alone, sorted, and says why and what it costs
Q=$SCRATCH/broken
new_repo "$Q"
mkdir -p "$Q/tests"
printf '[project]\nname = "q"\n' >"$Q/pyproject.toml"
for f in test_b test_a; do
	cat >"$Q/tests/$f.py" <<'PY'
import time

def test_nap(benchmark):
    benchmark(time.sleep, 0.03)
PY
done
echo "from asyncio import no_such_name" >"$Q/tests/test_old.py"
echo "def test_plain(): pass" >"$Q/tests/test_plain.py"
commit_all "$Q" q
# (init writing: its explanation on stdout, the proposal in gate.json)
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$Q" init
expect_in "$Q/gate.json" '--benchmark-json=\"$GATE_TMPDIR/gate-pytest.json\" tests/test_a.py tests/test_b.py >&2'
expect_in "$OUT" "tests: pytest-benchmark tests in tests: 5 rounds of each of its 2 cases, a round at least 0.1 ms (measured"
expect_in "$OUT" "only its files with benchmarks, tests/test_a.py tests/test_b.py, since tests as a whole does not run (pytest exited with code 2: ERROR tests/test_old.py"
expect_in "$OUT" "a benchmark file added later must be added to this command"
# the proposal runs: both files' cases are measured (at a confidence of
# 0.6: an interval then needs 4 pairs, not 7, and a pair is two pytest
# starts of seconds)
sed -i 's/"defaults": { /"defaults": { "confidence": 0.6, /' "$Q/gate.json"
expect_in "$Q/gate.json" '"confidence": 0.6'
commit_all "$Q" "gate.json"
echo "# more" >>"$Q/tests/test_plain.py"
commit_all "$Q" "a test file"
# unsealed (no Landlock, GATE_SANDBOX=off, make memcheck) an arm keeps
# the user's TMPDIR: the report goes to the sample's $GATE_TMPDIR, never
# there, where both arms would share it and it would stay (no warm-up:
# each sample is a pytest start of seconds, and gate raises the 2 pairs
# to the 4 an interval needs at this level in any case)
mkdir -p "$SCRATCH/tmp"
TMPDIR=$SCRATCH/tmp GATE_SANDBOX=off PATH=$SCRATCH/bin:$PATH \
	gate_measured -C "$Q" run --base HEAD~1 --pairs 2 --warmup 0 --budget 5s
expect_in "$OUT" "tests/test_a.py::test_nap"
expect_in "$OUT" "tests/test_b.py::test_nap"
[ -z "$(ls -A "$SCRATCH/tmp")" ] ||
	fail "an unsealed run left in its TMPDIR: $(ls -A "$SCRATCH/tmp")"

# benchmarks a level down (pylint 2.16.2 keeps its own in tests/benchmark,
# methods of a class whose signature spans lines): init looks below the
# top, proposes the first directory on each path that has them (pytest
# collects what lies below it, so nothing is proposed twice), and never
# looks into hidden directories or build output
N=$SCRATCH/nested
new_repo "$N"
mkdir -p "$N/tests/benchmark/deeper" "$N/benchmarks" "$N/.venv/tests" "$N/build" \
	 "$N/w/x/y/z" "$N/p/q/r/s/t"
printf '[project]\nname = "n"\n' >"$N/pyproject.toml"
echo "def test_plain(): pass" >"$N/tests/test_plain.py"
cat >"$N/tests/benchmark/test_base.py" <<'PY'
import time

class TestBase:
    def test_nap(
        self, benchmark
    ):
        benchmark(time.sleep, 0.01)
PY
cp "$N/tests/benchmark/test_base.py" "$N/tests/benchmark/deeper/test_more.py"
cp "$N/tests/benchmark/test_base.py" "$N/benchmarks/test_top.py"
cp "$N/tests/benchmark/test_base.py" "$N/.venv/tests/test_vendored.py"
cp "$N/tests/benchmark/test_base.py" "$N/build/test_built.py"
# 4 levels down is proposed; 5 is said, not proposed; a symlink to a
# directory with benchmarks is not followed (its cases would run twice)
cp "$N/tests/benchmark/test_base.py" "$N/w/x/y/z/test_four.py"
cp "$N/tests/benchmark/test_base.py" "$N/p/q/r/s/t/test_five.py"
ln -s tests/benchmark "$N/linked"
commit_all "$N" n
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$N" init --stdout
expect_in "$ERR" "pytest-benchmark tests in benchmarks: "
expect_in "$ERR" " rounds of its 1 case, a round"
expect_in "$ERR" "pytest-benchmark tests in tests/benchmark: "
expect_in "$ERR" " rounds of each of its 2 cases, a round at least 0.1 ms (measured: the slowest case, test_nap, takes about "
expect_in "$OUT" '--benchmark-json=\"$GATE_TMPDIR/gate-pytest.json\" tests/benchmark >&2'
expect_in "$ERR" "pytest-benchmark tests in w/x/y/z: "
expect_in "$ERR" "not proposed: the pytest-benchmark tests in p/q/r/s/t: more than 4 levels down, deeper than init proposes; add a suite for them yourself"
expect_not_in "$ERR" "past the first"
n=$(grep -c '"format": "pytest"' "$OUT")
[ "$n" -eq 3 ] || fail "want 3 suites (benchmarks, tests/benchmark, w/x/y/z), got $n: $(cat "$OUT")"
expect_not_in "$OUT" "venv"
expect_not_in "$OUT" "build/"
expect_not_in "$OUT" "deeper"
expect_not_in "$OUT" "linked"
expect_not_in "$OUT" "p/q"

# a tree wider than init reads: the benchmarks past its first 4000
# directories are not found, and init says it stopped looking
W=$SCRATCH/wide
new_repo "$W"
printf '[project]\nname = "w"\n' >"$W/pyproject.toml"
commit_all "$W" w
mkdir -p "$W/aa" "$W/zz"
(cd "$W/aa" && seq -w 0 3999 | xargs mkdir)
cp "$N/tests/benchmark/test_base.py" "$W/zz/test_late.py"
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$W" init --stdout
expect_in "$ERR" "not proposed: any pytest-benchmark tests past the first 4000 directories: init stopped looking there"
expect_not_in "$OUT" "zz"

# a suite of many fast cases: each gets 10 ms (2 s over its 300 cases is
# less), in rounds of at least 0.1 ms: at most 100 rounds; and a round of
# 0.1 ms repeats the call (pytest's iterations, a count), where one timed
# call would be mostly pytest's timer
M=$SCRATCH/many
new_repo "$M"
mkdir -p "$M/bench"
printf '[project]\nname = "m"\n' >"$M/pyproject.toml"
cat >"$M/bench/test_many.py" <<'PY'
import pytest

@pytest.mark.parametrize("i", range(300))
def test_add(benchmark, i):
    benchmark(lambda: i + 1)
PY
commit_all "$M" m
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$M" init --stdout
expect_in "$ERR" "bench: pytest-benchmark tests in bench: "
expect_in "$ERR" " rounds of each of its 300 cases, a round at least 0.1 ms"
r=$(sed -n 's/.*--benchmark-min-rounds=\([0-9]*\) --benchmark-min-time=0.0001 --benchmark-max-time=0.000001 .*/\1/p' "$OUT")
[ -n "$r" ] && [ "$r" -ge 5 ] && [ "$r" -le 100 ] ||
	fail "want 5 to 100 rounds of at least 0.1 ms, got \"$r\" in $(cat "$OUT")"
(cd "$M" && "$py" -m pytest -q -p no:cacheprovider --benchmark-only \
	--benchmark-min-rounds="$r" --benchmark-min-time=0.0001 \
	--benchmark-max-time=0.000001 --benchmark-warmup=off \
	--benchmark-json="$SCRATCH/many.json" bench -k 'test_add[7]' \
	>/dev/null 2>&1) || fail "the proposed command did not run"
"$py" - "$SCRATCH/many.json" "$r" <<'PY' || fail "a fast case's round did not repeat it"
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]["stats"]
sys.exit(0 if b["rounds"] == int(sys.argv[2]) and b["iterations"] >= 10 else 1)
PY
exit 0
