#!/usr/bin/env python3
# The reference for test-view's test_view__noisy_says_what_would_decide:
# the pairs the noisy golden model's spread needs at its floor, computed
# independently of gate from tests/golden/noisy.json (its samples, level
# and bounds): spread = max(1.4826 MAD of the log-ratios, what the
# one-sided interval implies), pairs = ceil((z(1+L)/2 + z0.8) * 1.023 *
# spread / log(1 + floor))^2. Prints: pairs, seconds at the run's pace.
import json, math, statistics, sys
from statistics import NormalDist

d = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "tests/golden/noisy.json"))
b = d["benchmarks"][0]
logs = [math.log(s["head"] / s["base"]) for s in b["samples"]]
med = statistics.median(logs)
robust = 1.4826 * statistics.median([abs(x - med) for x in logs])
n, level = len(logs), b["ratio"]["level"]
wide = (math.sqrt(n) * (math.log(b["ratio"]["high"]) - math.log(b["ratio"]["low"]))
        / (2 * NormalDist().inv_cdf(level) * 1.023))
spread = max(robust, wide)
z = NormalDist().inv_cdf((1 + level) / 2) + NormalDist().inv_cdf(0.8)
need = math.ceil((z * 1.023 * spread / math.log1p(b["min_effect"])) ** 2 - 1e-9)
print(need, round(need * b["seconds"] / b["pairs"]))
