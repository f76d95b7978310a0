#!/usr/bin/env python3
# The reference for test-view's test_view__noisy_says_what_would_decide:
# the pairs the noisy golden model's spread needs at its floor, computed
# independently of gate from tests/golden/noisy.json (its samples, level
# and floor): spread = the larger of 1.4826 MAD of the log-ratios and
# sqrt(n) (high - low) / (2 z(1+L)/2 1.023) of their exact Hodges-Lehmann
# interval (Walsh averages at the signed-rank critical depth, its null law
# by counting), pairs = ceil(((z(1+L)/2 + z0.8) 1.023 spread / log(1 +
# floor))^2). Prints: pairs, seconds at the run's pace.
import json, math, statistics, sys
from statistics import NormalDist

d = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "tests/golden/noisy.json"))
b = d["benchmarks"][0]
logs = [math.log(s["head"] / s["base"]) for s in b["samples"]]
n, level = len(logs), b["ratio"]["level"]
med = statistics.median(logs)
robust = 1.4826 * statistics.median([abs(x - med) for x in logs])
# the signed-rank statistic's null law: counts of subsets of 1..n by sum
ways = [1] + [0] * (n * (n + 1) // 2)
for r in range(1, n + 1):
    for t in range(len(ways) - 1, r - 1, -1):
        ways[t] += ways[t - r]
total = 2 ** n
alpha = (1 - level) / 2
# c: the largest t with P(T <= t) <= alpha; the bounds are the (c+1)-th
# smallest and largest Walsh averages (each beyond the centre with
# probability P(T <= c))
c, cum = -1, 0
while (cum + ways[c + 1]) / total <= alpha:
    cum += ways[c + 1]
    c += 1
walsh = sorted((logs[i] + logs[j]) / 2 for i in range(n) for j in range(i, n))
low, high = walsh[c], walsh[len(walsh) - 1 - c]
z = NormalDist().inv_cdf((1 + level) / 2)
wide = math.sqrt(n) * (high - low) / (2 * z * 1.023)
spread = max(robust, wide)
zz = z + NormalDist().inv_cdf(0.8)
need = math.ceil((zz * 1.023 * spread / math.log1p(b["min_effect"])) ** 2 - 1e-9)
print(need, round(need * b["seconds"] / b["pairs"]))
