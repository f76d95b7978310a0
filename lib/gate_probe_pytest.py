"""gate's pytest plugin: brackets each test's call with libgate-probe.so.

gate loads it (``-p gate_probe_pytest``, this directory on PYTHONPATH)
into a suite's pytest when the suite counts "instructions" or "cycles",
and runs pytest under callgrind with counting off (doc/counted.md). Each
test's call is counted under its node id, the name pytest-benchmark's
JSON gives it ("fullname"); interpreter start-up, imports at collection,
fixtures' set-up and tear-down are outside every count.

Which tests: those that use pytest-benchmark's ``benchmark`` fixture when
any collected test does (the suite's cases), else every test. Without
GATE_PROBE (a plain run) the plugin does nothing.
"""
import ctypes
import gc
import os
import random
import sys

import pytest

_probe = None
_wanted = None


def _fixed_entropy():
    """The OS's random bytes, for this process: one fixed stream.

    What a process draws from os.urandom at start-up moves every case's
    count: importing numpy.random seeds its global generator from 16
    such bytes, and how many objects that import allocates follows them
    (157 to 162 blocks in three runs), so the heap, and every case's
    count after it, lay apart in two processes of three (up to 1.5%).
    With one stream every process draws the same bytes, as a fixed hash
    seed makes every process hash alike. Nothing of the case's own
    arithmetic changes; a case that seeds itself from the OS draws the
    same numbers every run, as it would with a seed of its own.
    """
    stream = random.Random(0x67617465)

    def urandom(n):
        return stream.randbytes(n)

    os.urandom = urandom
    random._urandom = urandom   # SystemRandom and secrets draw here


if os.environ.get("GATE_PROBE"):
    _fixed_entropy()


def pytest_configure(config):
    global _probe
    path = os.environ.get("GATE_PROBE")
    if not path:
        return
    # a library that will not load is an error, not a run without counts
    _probe = ctypes.CDLL(path)
    _probe.gate_probe_start.argtypes = [ctypes.c_char_p]
    _probe.gate_probe_start.restype = None
    _probe.gate_probe_stop.argtypes = [ctypes.c_char_p]
    _probe.gate_probe_stop.restype = None


def pytest_collection_modifyitems(session, config, items):
    global _wanted
    # once a case: pytest-benchmark calls the function once, as with
    # --benchmark-disable, which a command's own --benchmark-only would
    # refuse; its session exists by now, its fixtures do not yet
    bench = getattr(config, "_benchmarksession", None)
    if _probe is not None and bench is not None:
        bench.disabled = True
    bench = [i for i in items if "benchmark" in getattr(i, "fixturenames", ())]
    _wanted = set(id(i) for i in (bench or items))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if _probe is None or (_wanted is not None and id(item) not in _wanted):
        yield
        return
    # encoded before the count starts: outside it
    name = item.nodeid.encode("utf-8", "surrogateescape")
    # every case starts with the collector's counts at zero, so that what
    # ran before it (imports, other cases) cannot move a collection into
    # or out of its count
    gc.collect()
    # the same random numbers every run, as pytest-randomly resets them:
    # a case drawing unseeded data (numpy's test_in1d_timedelta sorts
    # random values) would count differently in every process
    random.seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None and hasattr(numpy, "random"):
        numpy.random.seed(0)
    _probe.gate_probe_start(name)
    try:
        yield
    finally:
        _probe.gate_probe_stop(name)
