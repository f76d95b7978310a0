#!/usr/bin/env python3
"""Write a gbench JSON file of N cases with R repetitions each, for timing
gate compare on large files (make bench). Usage: compare-cases.py N R SEED OUT"""
import json, random, sys
n, reps, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
bench = []
for i in range(n):
    base = 1000 + (i % 97) * 10
    for _ in range(reps):
        t = base * rng.uniform(0.98, 1.02)
        bench.append({"name": "BM_case_%06d" % i, "run_type": "iteration",
                      "iterations": 100, "real_time": t, "cpu_time": t,
                      "time_unit": "ns"})
json.dump({"context": {}, "benchmarks": bench}, open(out, "w"),
          separators=(",", ":"))
