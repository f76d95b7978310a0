# pytest suites counted per case (issue 36, doc/counted.md): gate loads its
# plugin into pytest, which brackets each benchmark's call with
# libgate-probe.so under callgrind. Suites "a" and "b" hold the same
# cases, "b" after heavy imports and a 50,000-entry table at collection:
# start-up and collection are outside every count, so each case counts
# the same in both (within gate's exact tolerance, 0.1%). test_two's loop
# is twice test_one's: its count nearly twice (the call's own overhead
# aside). Head makes a's test_two 20% longer: that case alone fails.
# "b" runs as gate init proposes (--benchmark-only, the JSON through a
# file), which --benchmark-disable would refuse: the plugin disables
# pytest-benchmark's rounds itself. 2 pairs, not the default 3: counts
# this far apart decide exactly in 2, and each counted process is a
# pytest start-up under valgrind (8 of them, 2 at a time). a's test_pool
# keeps a thread pool whose idle worker spins on the clock, as OpenBLAS's
# does (numpy's cases varied up to 1.8% between processes with it): gate
# gives a counted run one thread per pool, so it counts exactly too; its
# test_entropy loops as long as bytes drawn from the OS at import say.
. "$(dirname "$0")/lib.sh"
needs_probe
PY=/usr/bin/python3
"$PY" -c 'import pytest, pytest_benchmark' 2>/dev/null ||
	skip "no pytest-benchmark for $PY"
R=$SCRATCH/repo
new_repo "$R"
mkdir -p "$R/a" "$R/b"
# cases.py N2: test_one loops 10000, test_two N2
cases() {
	cat <<PYEOF
def loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def test_one(benchmark):
    benchmark(loop, 10000)


def test_two(benchmark):
    benchmark(loop, $1)


def test_helper():
    assert loop(3) == 3
PYEOF
}
# test_pool: a thread pool as OpenBLAS keeps one, sized as OpenBLAS sizes
# it: an idle worker that spins until the caller's work is done, so its
# share of the count follows the clock; one thread, none
pool() {
	cat <<'PYEOF'


import os, threading


def pool_work():
    stop = []

    def spin():
        while not stop:
            pass
    workers = [threading.Thread(target=spin) for _ in
               range(int(os.environ.get("OPENBLAS_NUM_THREADS", "2")) - 1)]
    for w in workers:
        w.start()
    loop(10000)
    stop.append(1)
    for w in workers:
        w.join()


def test_pool(benchmark):
    benchmark(pool_work)
PYEOF
}
# test_entropy: a loop as long as 16 bits the module drew from the OS at
# import, as numpy.random seeds itself: the plugin gives a counted process
# one fixed stream of os.urandom, so every process loops alike
entropy() {
	cat <<'PYEOF'


import secrets

DRAWN = 2000 + secrets.randbits(16) // 8


def test_entropy(benchmark):
    benchmark(loop, DRAWN)
PYEOF
}
{ cases 20000; pool; entropy; } >"$R/a/test_w.py"
{ echo "import decimal, argparse"
  echo "TABLE = {str(i): i for i in range(20000)}"
  cases 20000; } >"$R/b/test_w.py"
cat >"$R/gate.json" <<JSON
{
  "defaults": { "warmup": 0, "timeout": 120,
                "metrics": ["instructions"] },
  "benchmarks": [
    { "name": "a", "format": "pytest", "pairs": 2,
      "run": ["$PY", "-m", "pytest", "-q", "-p", "no:cacheprovider", "a"] },
    { "name": "b", "format": "pytest", "pairs": 2,
      "run": "$PY -m pytest -q -p no:cacheprovider --benchmark-only --benchmark-json=\\"\$GATE_TMPDIR/j.json\\" b >&2 && cat \\"\$GATE_TMPDIR/j.json\\"" }
  ]
}
JSON
commit_all "$R" base
{ cases 24000; pool; entropy; } >"$R/a/test_w.py"
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json"
expect_in "$OUT" "each test's call bracketed by gate's pytest plugin, once"
expect_in "$OUT" "PYTHONHASHSEED=0"
expect_in "$OUT" "OPENBLAS_NUM_THREADS=1"
# an interpreter's counts move with its heap's layout: pytest's floor
expect_in "$OUT" "floor per case (counts +3.0%)"
"$PY" - "$SCRATCH/r.json" <<'PYEOF' || fail "per-case counts"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
# the benchmarks' tests only: test_helper uses no benchmark fixture
assert sorted(b) == ["a/a/test_w.py::test_entropy",
                     "a/a/test_w.py::test_one", "a/a/test_w.py::test_pool",
                     "a/a/test_w.py::test_two", "b/b/test_w.py::test_one",
                     "b/b/test_w.py::test_two"], sorted(b)
v = {k: x["verdict"] for k, x in b.items()}
assert v["a/a/test_w.py::test_two"] == "fail", v
assert [v[k] for k in sorted(v) if "a/a/test_w.py::test_two" != k] == \
    ["pass"] * 5, v
# decided exactly: every sample of each arm within 0.1% (Python's counts
# vary by a few instructions from process to process, 0.001%); test_pool
# too, its pool one thread in a counted run, and test_entropy, its bytes
# from the OS one stream
for x in b.values():
    assert x["ratio"]["level"] == 1, x["ratio"]
def base(k):
    return b[k]["base"]["median"]
# start-up and collection outside: the same case, the same count
for t in ("test_one", "test_two"):
    ca, cb = base("a/a/test_w.py::" + t), base("b/b/test_w.py::" + t)
    assert abs(ca - cb) / ca < 0.001, (t, ca, cb)
# twice the loop, about twice the count: start-up counted would make it
# nearer 1; not exactly 2, as an iteration's int costs pymalloc more or
# less by how full its pool is (2.005 for the loop alone under callgrind,
# 2.077 in this suite's process)
r = base("a/a/test_w.py::test_two") / base("a/a/test_w.py::test_one")
assert 1.85 < r < 2.15, r
# 20% more rounds of the loop: nearly +20%
r = b["a/a/test_w.py::test_two"]["ratio"]["median"]
assert 1.18 < r < 1.2, r
PYEOF
exit 0
