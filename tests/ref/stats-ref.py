#!/usr/bin/env python3
"""Reference values for tests/stats/test-summary.c and test-tests.c, written to
tests/ref/stats-ref.h.

Summaries come from numpy/scipy, sign-test p-values from
scipy.stats.binomtest (checked against exact rational arithmetic), and the
bootstrap's expected endpoints and coverage band from the closed form of the
bootstrap distribution of the median. Run it after changing a dataset:
    python3 tests/ref/stats-ref.py
Needs Debian's python3-numpy and python3-scipy.
"""

import math
import os
import sys
from fractions import Fraction

try:
    import numpy as np
    import scipy
    from scipy import stats
except ImportError:
    # A pyenv or virtualenv python3 ahead on PATH hides Debian's packages:
    # retry once with the system interpreter before giving up.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("stats-ref.py: needs numpy and scipy (apt-get install python3-scipy)")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "stats-ref.h")

PROBS = [0.0, 0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975, 1.0]

# Bootstrap checks, as the C test runs them.
BOOT_RESAMPLES = 10000
BOOT_LEVELS = [0.95, 0.975, 0.99]
# A test that must not fail for a correct implementation, whatever the seed.
NEGLIGIBLE = 1e-6

# Coverage simulation: datasets of n lognormal draws, percentile interval of
# the median at this level, resamples per interval.
COVER_N = 31
COVER_DATASETS = 1000
COVER_LEVEL = 0.95
COVER_RESAMPLES = 3000
COVER_TAIL = 1e-5


def c_double(v):
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(float(v))


def c_array(name, xs):
    body = ",\n".join("\t" + ", ".join(c_double(v) for v in xs[i:i + 4])
                      for i in range(0, len(xs), 4))
    return "static const double %s[%d] = {\n%s,\n};\n" % (name, len(xs), body)


def fixed_datasets():
    rng = np.random.default_rng(20240501)
    # Skewed like timings: lognormal, written out as literals below.
    logn31 = rng.lognormal(mean=0.0, sigma=0.6, size=31)
    logn40 = rng.lognormal(mean=2.0, sigma=1.0, size=40)
    return [
        ("odd_ties", [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0]),
        ("even", [2.5, 0.5, 1.5, 3.5, 4.5, 1.0]),
        ("one", [42.0]),
        ("two", [1.0, 3.0]),
        ("all_ties", [7.0, 7.0, 7.0, 7.0, 7.0]),
        # sd of 1 on top of 1e9: a one-pass sum of squares loses it all
        ("offset", [1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 2]),
        # mean exactly 0: cv and geomean are NAN by contract
        ("zero_mean", [-3.0, -1.0, 0.0, 1.5, 2.5]),
        ("ratios", [1.02, 0.98, 1.10, 1.05, 0.97, 1.01, 1.03]),
        ("lognormal31", list(logn31)),
        ("lognormal40", list(logn40)),
    ]


def summary(x):
    a = np.array(x, dtype=float)
    n = len(a)
    mean = float(np.mean(a))
    sd = float(np.std(a, ddof=1)) if n >= 2 else math.nan
    # Contract: NAN when n < 2 or mean == 0 (scipy gives inf or nan there).
    if n < 2 or mean == 0:
        cv = math.nan
    else:
        cv = float(stats.variation(a, ddof=1))
    # Contract: NAN for any x <= 0 (scipy gives 0 or nan there).
    gm = float(stats.gmean(a)) if np.all(a > 0) else math.nan
    med = float(np.median(a))
    qs = [float(np.quantile(a, p, method="linear")) for p in PROBS]
    return mean, sd, cv, gm, med, qs


def exact_sign_p(k, n):
    # min(1, 2 * min(P[X <= k], P[X >= k])) under Binomial(n, 1/2), exactly.
    lo = sum(math.comb(n, i) for i in range(k + 1))
    hi = sum(math.comb(n, i) for i in range(k, n + 1))
    return float(min(Fraction(1), Fraction(2 * min(lo, hi), 2 ** n)))


def sign_grid():
    grid = []
    for n in (1, 2, 3, 4, 5, 10, 15, 20, 30):
        grid += [(k, n) for k in range(n + 1)]
    for n, ks in ((31, (0, 1, 5, 10, 14, 15, 16, 17, 21, 30, 31)),
                  (100, (0, 1, 10, 30, 40, 45, 48, 49, 50, 51, 52, 55, 60,
                         70, 90, 99, 100)),
                  (1000, (0, 1, 100, 300, 400, 450, 469, 480, 490, 499, 500,
                          501, 520, 550, 600, 900, 999, 1000))):
        grid += [(k, n) for k in ks]
    out = []
    for k, n in grid:
        p = float(stats.binomtest(k, n, 0.5).pvalue)
        exact = exact_sign_p(k, n)
        if abs(p - exact) > 1e-12 * exact:
            sys.exit("stats-ref.py: binomtest(%d, %d) = %r, exact %r" %
                     (k, n, p, exact))
        out.append((k, n, p))
    return out


def median_cdf(j, n):
    """P(median of a bootstrap resample <= x_(j)), odd n, distinct data.

    The median is <= x_(j) when at least (n + 1)/2 of the n draws are among
    the j smallest values, and each draw is, with probability j/n.
    """
    if j <= 0:
        return 0.0
    if j >= n:
        return 1.0
    return float(stats.binom.sf((n + 1) // 2 - 1, n, j / n))


def boot_endpoint(n, p, resamples):
    """The exact endpoint (1-based order statistic) and the chance that a
    Monte-Carlo run with this many resamples misses it or its neighbours.

    As B grows the type-7 p-quantile of the resampled medians converges to
    x_(j) with j the least index whose cdf reaches p. With B resamples the
    quantile reads the sorted medians at positions f = floor((B-1)p) and
    f + 1 (0-based). Both hold x_(j) when fewer than f + 1 medians are
    <= x_(j-1) and at least f + 2 are <= x_(j); N_i, the number of medians
    <= x_(i), is Binomial(B, cdf(i)).
    """
    j = next(i for i in range(1, n + 1) if median_cdf(i, n) >= p)
    f = math.floor((resamples - 1) * p)

    def outside(below, above):
        return (stats.binom.sf(f, resamples, median_cdf(below, n)) +
                stats.binom.cdf(f + 1, resamples, median_cdf(above, n)))
    # Not exactly x_(j); not even within [x_(j-1), x_(j+1)].
    return j, outside(j - 1, j), outside(j - 2, j + 1)


def boot_cases():
    rng = np.random.default_rng(7)
    cases = []
    for n in (9, 15, 21, 31):
        # distinct values, unsorted, spread like ratios of timings
        x = [float(v) for v in np.round(rng.lognormal(0.0, 0.1, n), 6)]
        if len(set(x)) != n:
            sys.exit("stats-ref.py: bootstrap dataset has ties")
        for level in BOOT_LEVELS:
            ends = []
            for p in ((1 - level) / 2, (1 + level) / 2):
                j, miss, out = boot_endpoint(n, p, BOOT_RESAMPLES)
                if out > NEGLIGIBLE:
                    sys.exit("stats-ref.py: n=%d level=%g: even the "
                             "neighbour band fails with p=%g" %
                             (n, level, out))
                ends.append((j, miss <= NEGLIGIBLE, miss))
            cases.append(("n%d" % n, x, level, ends))
    return cases


def coverage_band():
    """Where the count of covering intervals must fall.

    For odd n and continuous data, the B -> infinity percentile interval is
    [x_(a), x_(b)] with a, b from median_cdf alone, whatever the
    distribution. Its coverage of the true median is exact:
    P(a <= S < b), S ~ Binomial(n, 1/2) the number of draws below the
    median. That is below the nominal level: the percentile bootstrap's
    small-sample undercoverage. With finite B each endpoint may also land
    one order statistic outwards (or between); we bound the chance that it
    strays further, so per dataset the interval contains [x_(a), x_(b)] and
    lies within [x_(a'), x_(b')], the closest outward endpoints it reaches.
    The count over the datasets is then between Binomial(D, cover(a, b))
    and Binomial(D, cover(a', b')): the band is their COVER_TAIL quantiles.
    """
    n, B, D = COVER_N, COVER_RESAMPLES, COVER_DATASETS
    ends = []
    for p in ((1 - COVER_LEVEL) / 2, (1 + COVER_LEVEL) / 2):
        j = next(i for i in range(1, n + 1) if median_cdf(i, n) >= p)
        f = math.floor((B - 1) * p)
        ends.append((j, f))
    (a, fa), (b, fb) = ends
    # Lower endpoint within [x_(a-1), x_(a)], upper within [x_(b), x_(b+1)]
    # (one step outward can happen: the cdf sits close to p there).
    stray = (stats.binom.sf(fa, B, median_cdf(a - 2, n)) +
             stats.binom.cdf(fa + 1, B, median_cdf(a, n)) +
             stats.binom.sf(fb, B, median_cdf(b - 1, n)) +
             stats.binom.cdf(fb + 1, B, median_cdf(b + 1, n)))
    if D * stray > NEGLIGIBLE:
        sys.exit("stats-ref.py: coverage envelope fails with p=%g" %
                 (D * stray))

    def cover(lo, hi):
        return float(stats.binom.cdf(hi - 1, n, 0.5) -
                     stats.binom.cdf(lo - 1, n, 0.5))
    inner, outer = cover(a, b), cover(a - 1, b + 1)
    lo = int(stats.binom.ppf(COVER_TAIL, D, inner))
    hi = int(stats.binom.isf(COVER_TAIL, D, outer))
    return a, b, inner, outer, lo, hi, D * stray


def main():
    out = []
    w = out.append
    w("/* generated by tests/ref/stats-ref.py, do not edit */\n")
    w("/* numpy %s, scipy %s */\n" % (np.__version__, scipy.__version__))
    w("#ifndef TESTS_REF_STATS_REF_H\n#define TESTS_REF_STATS_REF_H\n\n")
    w("#include <math.h>\n#include <stddef.h>\n\n")

    w("/* Summaries: numpy mean/std(ddof=1)/median/quantile(linear), "
      "scipy variation(ddof=1)/gmean. */\n")
    w("#define STATS_REF_NPROBS %d\n" % len(PROBS))
    w("static const double stats_ref_probs[STATS_REF_NPROBS] = { %s };\n\n"
      % ", ".join(c_double(p) for p in PROBS))
    rows = []
    for name, x in fixed_datasets():
        w(c_array("stats_ref_x_" + name, x))
        rows.append((name, len(x), summary(x)))
    w("\nstruct stats_ref_summary {\n\tconst char *name;\n"
      "\tconst double *x;\n\tsize_t n;\n"
      "\tdouble mean, sd, cv, geomean, median;\n"
      "\tdouble q[STATS_REF_NPROBS];\t/* at stats_ref_probs */\n};\n\n")
    w("static const struct stats_ref_summary stats_ref_summaries[] = {\n")
    for name, n, (mean, sd, cv, gm, med, qs) in rows:
        w("\t{ \"%s\", stats_ref_x_%s, %d,\n" % (name, name, n))
        w("\t  %s, %s, %s, %s, %s,\n" % tuple(
            c_double(v) for v in (mean, sd, cv, gm, med)))
        w("\t  { %s } },\n" % ", ".join(c_double(q) for q in qs))
    w("};\n\n")

    w("/* Sign test: scipy.stats.binomtest(k, n, 0.5).pvalue, each checked "
      "against\n   exact rational arithmetic to 1e-12 relative. */\n")
    w("struct stats_ref_sign {\n\tsize_t k, n;\n\tdouble p;\n};\n\n")
    w("static const struct stats_ref_sign stats_ref_signs[] = {\n")
    for k, n, p in sign_grid():
        w("\t{ %d, %d, %s },\n" % (k, n, c_double(p)))
    w("};\n\n")

    w("/*\n * Bootstrap endpoints: lo and hi are the 0-based order statistics "
      "the\n * percentile interval converges to as the resamples grow (from "
      "the closed\n * form P(median <= x_(j)) = P(Binomial(n, j/n) >= "
      "(n+1)/2)). *_exact: with\n * STATS_REF_BOOT_RESAMPLES resamples the "
      "endpoint is that order statistic\n * itself except with probability "
      "<= %g; otherwise it lies within one\n * order statistic of it except "
      "with that probability.\n */\n" % NEGLIGIBLE)
    w("#define STATS_REF_BOOT_RESAMPLES %d\n\n" % BOOT_RESAMPLES)
    cases = boot_cases()
    seen = set()
    for name, x, _, _ in cases:
        if name not in seen:
            seen.add(name)
            w(c_array("stats_ref_boot_" + name, x))
    w("\nstruct stats_ref_boot {\n\tconst char *name;\n"
      "\tconst double *x;\t/* distinct values, unsorted */\n"
      "\tsize_t n;\n\tdouble level;\n\tsize_t lo, hi;\n"
      "\tint lo_exact, hi_exact;\n};\n\n")
    w("static const struct stats_ref_boot stats_ref_boots[] = {\n")
    for name, x, level, ((jl, el, ml), (jh, eh, mh)) in cases:
        w("\t{ \"%s\", stats_ref_boot_%s, %d, %s, %d, %d, %d, %d },"
          "\t/* miss %.2g, %.2g */\n" %
          (name, name, len(x), c_double(level), jl - 1, jh - 1,
           int(el), int(eh), ml, mh))
    w("};\n\n")

    a, b, inner, outer, lo, hi, stray = coverage_band()
    w("/*\n * Coverage of the %g interval of the median over %d datasets of "
      "n = %d,\n * %d resamples each. With infinitely many resamples the "
      "interval is\n * [x_(%d), x_(%d)] (1-based) for any continuous data, "
      "covering the true median\n * with probability %.6f (the percentile "
      "bootstrap's small-sample\n * undercoverage); with finitely many an "
      "endpoint may move one order\n * statistic outwards, to [x_(%d), "
      "x_(%d)], probability %.6f (chance of\n * straying further in any "
      "dataset: %.2g). The number of covering\n * intervals is then within "
      "the %g and 1 - %g quantiles of\n * Binomial(%d, %.6f) and "
      "Binomial(%d, %.6f).\n */\n" %
      (COVER_LEVEL, COVER_DATASETS, COVER_N, COVER_RESAMPLES, a, b, inner,
       a - 1, b + 1, outer, stray, COVER_TAIL, COVER_TAIL, COVER_DATASETS,
       inner, COVER_DATASETS, outer))
    w("#define STATS_REF_COVER_N %d\n" % COVER_N)
    w("#define STATS_REF_COVER_DATASETS %d\n" % COVER_DATASETS)
    w("#define STATS_REF_COVER_RESAMPLES %d\n" % COVER_RESAMPLES)
    w("#define STATS_REF_COVER_LEVEL %s\n" % c_double(COVER_LEVEL))
    w("#define STATS_REF_COVER_MIN %d\n" % lo)
    w("#define STATS_REF_COVER_MAX %d\n\n" % hi)
    w("#endif\n")

    with open(OUT, "w") as f:
        f.write("".join(out))
    print("wrote %s" % os.path.relpath(OUT))


if __name__ == "__main__":
    main()
