"""bench/counted's knobs over a real pytest suite (numpy's own tests).

Every test becomes a pytest-benchmark case (its call timed through
``benchmark.pedantic``, ROUNDS rounds of one call), so that gate reads a
wall time for each; knobs.json, beside this file, changes chosen cases by
a known amount: "reps" calls the test's function that many times a round
(5 in base and 6 in head is exactly +20% of its own work), "sleep" adds
that many seconds after it (nothing a count can see).
"""
import json
import os
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "knobs.json")) as f:
    KNOBS = json.load(f)
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def pytest_collection_modifyitems(items):
    for item in items:
        if "benchmark" not in item.fixturenames:
            item.fixturenames.append("benchmark")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    fn = pyfuncitem.obj
    args = {a: pyfuncitem.funcargs[a]
            for a in pyfuncitem._fixtureinfo.argnames}
    name = pyfuncitem.nodeid
    reps = KNOBS.get("reps", {}).get(name, 1)
    nap = KNOBS.get("sleep", {}).get(name, 0)

    def case():
        for _ in range(reps):
            fn(**args)
        if nap:
            time.sleep(nap)

    pyfuncitem.funcargs["benchmark"].pedantic(case, rounds=ROUNDS,
                                              iterations=1)
    return True
