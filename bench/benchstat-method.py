#!/usr/bin/env python3
"""The numbers benchstat (golang.org/x/perf/cmd/benchstat, v2) would print
for two `go test -bench` files, computed from its documented method, for a
side-by-side with `gate compare` (no Go toolchain or benchstat needed):

  center  the median of each file's values for a benchmark and unit;
  +-      the 95% distribution-free confidence interval of that median from
          order statistics (binomial ranks), shown as its larger relative
          distance from the median;
  vs base the change of medians when the two-sided Mann-Whitney U p-value is
          below alpha = 0.05, else "~"; with (p=... n=...).

Usage: /usr/bin/python3 bench/benchstat-method.py OLD NEW
This is our own reading of the method, not benchstat's code.
"""

import re
import sys
from collections import OrderedDict

from scipy import stats

LINE = re.compile(r"^(Benchmark\S+)\s+(\d+)\s+(.*)$")


def read(path):
    out = OrderedDict()
    for line in open(path):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        f = m.group(3).split()
        for v, unit in zip(f[0::2], f[1::2]):
            if unit == "ns/op":
                v, unit = float(v) * 1e-9, "sec/op"
            out.setdefault((m.group(1)[len("Benchmark"):], unit), []).append(float(v))
    return out


def median_ci(xs, confidence=0.95):
    xs = sorted(xs)
    n = len(xs)
    # widest-first: ranks (k, n-1-k) cover the median with probability
    # 1 - 2 P[Binomial(n, 1/2) <= k]; take the narrowest that still covers
    best = None
    for k in range(n // 2 + 1):
        cover = 1 - 2 * stats.binom.cdf(k, n, 0.5)
        if cover >= confidence:
            best = (xs[k], xs[n - 1 - k])
    return best


def fmt(v, unit):
    if unit == "sec/op":
        for scale, name in ((1, "s"), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")):
            if v >= scale:
                return "%.3g%s" % (v / scale, name)
    return "%.4g" % v


def main():
    old, new = read(sys.argv[1]), read(sys.argv[2])
    print("%-26s %-9s %22s %22s  %s" % ("", "unit", "old", "new", "vs base"))
    for key in old:
        if key not in new:
            continue
        a, b = old[key], new[key]
        cols = []
        for xs in (a, b):
            med = stats.scoreatpercentile(xs, 50)
            ci = median_ci(xs)
            if ci is None:
                pm = "± ∞"
            elif med == 0:
                pm = "± 0%"
            else:
                pm = "± %.0f%%" % (100 * max(med - ci[0], ci[1] - med) / med)
            cols.append((med, "%s %s" % (fmt(med, key[1]), pm)))
        if all(x == a[0] for x in a + b):
            p = 1.0
        else:
            p = stats.mannwhitneyu(a, b, alternative="two-sided").pvalue
        change = "~" if p >= 0.05 or cols[0][0] == 0 else "%+.2f%%" % (
            100 * (cols[1][0] / cols[0][0] - 1))
        print("%-26s %-9s %22s %22s  %s (p=%.3f n=%d+%d)"
              % (key[0], key[1], cols[0][1], cols[1][1], change, p, len(a), len(b)))


main()
