# gate run --shard splits gbench and go suites by case through their
# harnesses' own listing (one iteration of each: --benchmark_min_time=0,
# -test.benchtime=1x) and filter (--benchmark_filter, -test.bench):
# stand-in harnesses that honour those flags as Google Benchmark and a go
# test binary do, with values of their own. A go benchmark's
# sub-benchmarks stay in one shard (dealt by the top level); a
# gbench user counter and a go custom unit count as comparisons in every
# shard. Three shards merged
# have every case once, the unsharded level and the unsharded verdicts.
. "$(dirname "$0")/lib.sh"
# the fallback's seals (Landlock, manifests): the stand-in harnesses run a
# script and count their calls in files outside their arm, which a
# sandbox per arm hides; gaming-sandbox.sh tests the sandbox
[ -n "${GATE_SANDBOX:-}" ] || { GATE_SANDBOX=landlock; export GATE_SANDBOX; }
R=$SCRATCH/repo
new_repo "$R"
# gb: Google Benchmark's flags; BM_a .. BM_f, each at the ns its file says
cat >"$R/gb" <<EOF2
#!/bin/sh
echo "gb \$*" >>"$SCRATCH/calls"
re=.
for a in "\$@"; do
	case \$a in
	--benchmark_filter=*) re=\${a#--benchmark_filter=} ;;
	esac
done
names=\$(for c in BM_a BM_b BM_c BM_d BM_e BM_f; do echo \$c; done | grep -E "\$re")
echo '{ "context": {}, "benchmarks": ['
sep=
for c in \$names; do
	t=\$(cat ns/\$c)
	w=
	[ \$c = BM_a ] && w=', "work": 5'
	printf '%s{ "name": "%s", "run_name": "%s", "run_type": "iteration", "iterations": 1000, "real_time": %s, "cpu_time": %s, "time_unit": "ns"%s }\n' "\$sep" \$c \$c \$t \$t "\$w"
	sep=,
done
echo '] }'
EOF2
# go's -bench matching (testing/match.go): alternatives split at a "|"
# outside brackets and parentheses, each split at "/" into one pattern a
# level; a name matches when each of its levels matches its pattern (the
# names given that match, one a line)
cat >"$SCRATCH/gomatch.py" <<'PY'
import re, sys
def split(s, sep):
    out, depth, br, cur, i = [], 0, 0, "", 0
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            cur += s[i:i + 2]; i += 2; continue
        if ch == "[": br += 1
        elif ch == "]" and br: br -= 1
        elif ch == "(" and not br: depth += 1
        elif ch == ")" and not br: depth -= 1
        elif ch == sep and not br and not depth:
            out.append(cur); cur = ""; i += 1; continue
        cur += ch; i += 1
    return out + [cur]
for n in sys.argv[2:]:
    if any(all(re.search(p, e) for p, e in zip(split(alt, "/"), n.split("/")))
           for alt in split(sys.argv[1], "|")):
        print(n)
PY
# go.test: a go test binary's flags; BenchmarkA .. BenchmarkE. The names
# a pattern matches are kept by pattern (a python start is half a second
# on a loaded machine, and each of the 4 runs takes 20 samples or more)
cat >"$R/go.test" <<EOF2
#!/bin/sh
echo "go \$*" >>"$SCRATCH/calls"
re=
for a in "\$@"; do
	case \$a in
	-test.bench=*) re=\${a#-test.bench=} ;;
	esac
done
m=$SCRATCH/gomatch/\$(printf '%s' "\$re" | md5sum | cut -c1-32)
[ -f "\$m" ] || { python3 "$SCRATCH/gomatch.py" "\$re" BenchmarkA BenchmarkB \
	BenchmarkC BenchmarkD BenchmarkE/small BenchmarkE/large >"\$m.\$\$" &&
	mv "\$m.\$\$" "\$m"; }
for c in \$(cat "\$m"); do
	t=\${c%/*}
	case \$c in
	BenchmarkA) echo "\$c-2   1000   \$(cat ns/\$t) ns/op   3 ns/item" ;;
	BenchmarkE/*) echo "\$c-2   1000   \$(cat ns/\$t) ns/op   64 B/op" ;;
	*) echo "\$c-2   1000   \$(cat ns/\$t) ns/op" ;;
	esac
done
echo PASS
EOF2
chmod +x "$R/gb" "$R/go.test"
mkdir "$R/ns"
for c in BM_a BM_b BM_c BM_d BM_e BM_f BenchmarkA BenchmarkB BenchmarkC \
	BenchmarkD BenchmarkE; do
	echo 1000 >"$R/ns/$c"
done
# (the kept matches are the one file a sample writes outside its arm)
mkdir "$SCRATCH/gomatch"
cat >"$R/gate.json" <<JSON
{
  "writable": ["$SCRATCH/gomatch"],
  "defaults": { "pairs": 10, "max_pairs": 10, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "gb", "format": "gbench",
      "run": ["./gb", "--benchmark_format=json", "--benchmark_filter=^BM_[a-f]\$"] },
    { "name": "go", "format": "gotest",
      "run": ["./go.test", "-test.run=^\$", "-test.bench=."] }
  ]
}
JSON
commit_all "$R" base
echo 2000 >"$R/ns/BM_d"
echo 2000 >"$R/ns/BenchmarkB"
commit_all "$R" "BM_d and BenchmarkB slower"
S=$SCRATCH
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 3 -q --json "$S/all.json"
: >"$S/calls"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 3 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
# each listing used the harness's flag, after the user's own flags
[ "$(grep -c -- '--benchmark_min_time=0$' "$S/calls")" = 6 ] ||
	fail "want one gbench listing per arm and shard: $(sort "$S/calls" | uniq -c)"
[ "$(grep -c -- '-test.benchtime=1x$' "$S/calls")" = 6 ] ||
	fail "want one go listing per arm and shard: $(sort "$S/calls" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
python3 - "$S" <<'PY' || fail "merged report differs from the unsharded run"
import json, sys
d = sys.argv[1]
a = json.load(open(d + "/all.json"))
m = json.load(open(d + "/m.json"))
shards = [json.load(open("%s/s%d.json" % (d, i))) for i in range(1, 4)]
names = lambda r: sorted(b["name"] for b in r["benchmarks"])
want = sorted(["gb/BM_%s" % c for c in "abcdef"] +
              ["go/Benchmark%s" % c for c in "ABCD"] +
              ["go/BenchmarkE/small", "go/BenchmarkE/large"])
assert names(a) == want, names(a)
got = sorted(n for s in shards for n in names(s))
assert got == want, got
# dealt in turn: the shares differ by at most one (gbench: case; go:
# top-level benchmark, its sub-benchmarks together)
share = [len([x for x in names(s) if x.startswith("gb/")]) for s in shards]
assert sorted(share) == [2, 2, 2], share
top = [sorted(set(x.split("/")[1].split("-")[0] for x in names(s)
                  if x.startswith("go/"))) for s in shards]
assert sorted(len(t) for t in top) == [1, 2, 2], top
assert sum("BenchmarkE" in t for t in top) == 1, top
for s in shards:
    assert s["protocol"]["shard"]["split"] == [
        {"suite": "gb", "cases": 6}, {"suite": "go", "cases": 6}], \
        s["protocol"]["shard"]
# 6 gbench cases, BM_a's counter, 6 go cases, BenchmarkA's ns/item: 14
for r in shards + [m]:
    assert r["protocol"]["compared"] == a["protocol"]["compared"] == 14, \
        r["protocol"]["compared"]
v = lambda r: {b["name"]: b["verdict"] for b in r["benchmarks"]}
assert v(m) == v(a), (v(m), v(a))
assert sorted(n for n, x in v(a).items() if x == "fail") == \
    ["gb/BM_d", "go/BenchmarkB"], v(a)
PY
echo "shard-formats: ok"
