# go test -bench through gate run, one decision per case: ns/op is the
# time, MB/s restates it (shown in a column beside it, never decided), B/op and
# allocs/op are counted metrics of the same case at the count floor. Head
# doubles BenchmarkAlloc's allocations only: that case fails on allocs/op,
# no other case or row, and the correction counts 2 cases, not 8 rows.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
suite() {
	cat >"$R/suite.sh" <<EOF2
#!/bin/sh
echo "goos: linux"
echo "BenchmarkCopy-2   1000   1000000 ns/op   100.00 MB/s   64 B/op   1 allocs/op"
echo "BenchmarkAlloc-2  1000   2000000 ns/op   $1 B/op   $2 allocs/op"
echo "PASS"
echo "ok  example.com/x 1.0s"
EOF2
	chmod +x "$R/suite.sh"
}
suite 128 2
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "go", "format": "gotest", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
suite 256 4
commit_all "$R" head
gate_run 1 -C "$R" run -v --base HEAD~1 --head HEAD --json "$SCRATCH/r.json" \
	--markdown "$SCRATCH/r.md" --html "$SCRATCH/r.html"
[ "$(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')" = \
  "[('go/BenchmarkCopy', 'pass'), ('go/BenchmarkAlloc', 'fail')]" ] ||
	fail "one decision per case: $(json_get "$SCRATCH/r.json" '[(b["name"], b["verdict"]) for b in d["benchmarks"]]')"
[ "$(json_get "$SCRATCH/r.json" 'd["protocol"]["compared"]')" = 2 ] ||
	fail "the correction should count 2 cases: $(json_get "$SCRATCH/r.json" 'd["protocol"]["compared"]')"
[ "$(json_get "$SCRATCH/r.json" '[(m["name"], m["gating"], m["verdict"], m["min_effect"]) for m in d["benchmarks"][1]["metrics"]]')" = \
  "[('value', True, 'pass', 0.1), ('B/op', True, 'fail', 0.01), ('allocs/op', True, 'fail', 0.01)]" ] ||
	fail "B/op and allocs/op are counted metrics of the case: $(json_get "$SCRATCH/r.json" '[(m["name"], m["gating"], m["verdict"], m["min_effect"]) for m in d["benchmarks"][1]["metrics"]]')"
[ "$(json_get "$SCRATCH/r.json" '[(t["unit"], float(t["base"]), float(t["head"])) for t in d["benchmarks"][0]["throughput"]]')" = \
  "[('MB/s', 100.0, 100.0)]" ] ||
	fail "MB/s should be a throughput field of the case"
[ "$(json_get "$SCRATCH/r.json" '[m["name"] for m in d["benchmarks"][0]["metrics"] if m["gating"]]')" = \
  "['value', 'B/op', 'allocs/op']" ] ||
	fail "MB/s must not gate"
expect_not_in "$OUT" "(MB/s)"
# the throughput has a column of its own in every printer, base's and
# head's medians, beside the time (not in its cells); a case with none a -
grep -q "^benchmark .*  head  *throughput b/h " "$OUT" ||
	fail "no throughput column in the terminal table"
grep -q "^go/BenchmarkCopy  *value  .*  1.00 ms/op  *1.00 ms/op  *100/100 MB/s  " "$OUT" ||
	fail "the throughput should sit in its own column: $(grep BenchmarkCopy "$OUT")"
grep -q "^go/BenchmarkAlloc  *value  .*  2.00 ms/op  *2.00 ms/op  *-  " "$OUT" ||
	fail "a case without throughput shows -: $(grep BenchmarkAlloc "$OUT")"
expect_in "$SCRATCH/r.md" "| base | head | throughput b/h | change |"
expect_in "$SCRATCH/r.md" "| 1.00 ms/op | 1.00 ms/op | 100/100 MB/s |"
expect_in "$SCRATCH/r.html" "<th>throughput b/h</th>"
expect_in "$SCRATCH/r.html" "<td class=\"n\">100/100 MB/s</td>"
# the GOMAXPROCS the names carried ("-2", dropped from them) is kept: once
# in the suite's protocol line, per case in the JSON report
expect_in "$OUT" 'go: suite (format gotest'
grep -q '^  go: suite (format gotest.*; GOMAXPROCS 2 (the "-2" suffix dropped from its case names)$' "$OUT" ||
	fail "the protocol should say the suite's GOMAXPROCS: $(grep 'go: suite' "$OUT")"
[ "$(json_get "$SCRATCH/r.json" '[b["gomaxprocs"] for b in d["benchmarks"]]')" = "[2, 2]" ] ||
	fail "each case should carry its GOMAXPROCS: $(json_get "$SCRATCH/r.json" '[b.get("gomaxprocs") for b in d["benchmarks"]]')"
exit 0
