# gate init on a Python project with pytest-benchmark tests proposes a
# pytest suite of fixed work: a fixed number of rounds
# (--benchmark-min-rounds, with a max time too short to add any), measured
# once so that the slowest case takes about 100 ms (at least pytest's 5),
# the JSON report on stdout, and the expected time per pair.
. "$(dirname "$0")/lib.sh"
py=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import pytest_benchmark' 2>/dev/null && { py=$(command -v "$p"); break; }
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
expect_in "$OUT" '--benchmark-min-rounds=5 --benchmark-max-time=0.000001'
expect_in "$OUT" '--benchmark-json=\"$TMPDIR/gate-pytest.json\" tests >&2 && cat'
expect_in "$ERR" "build system: python (pytest-benchmark)"
expect_in "$ERR" "tests: pytest-benchmark tests in tests: 5 rounds of each case (measured"
expect_in "$ERR" "expected: about"
# the Python files are what runs: its artifacts, each level that has
# any; the docs that exist are sources, so a docs-only change passes
# unmeasured (identical build)
expect_in "$OUT" '"artifacts": ["*/*.py"],'
expect_in "$OUT" '"sources": ["*.md"],'
[ -z "$(git -C "$P" status --porcelain)" ] || fail "init changed the tree"
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$P" init
commit_all "$P" "gate.json"
echo "more words" >>"$P/README.md"
commit_all "$P" "docs only"
PATH=$SCRATCH/bin:$PATH gate_run 0 -C "$P" run --base HEAD~1
expect_in "$OUT" "identical build"
exit 0
