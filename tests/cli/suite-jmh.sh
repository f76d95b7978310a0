# JMH's format in gate run, its rounds, --shard and gate compare. A
# stand-in harness prints what JMH -rf json writes (two forks of three
# iterations a benchmark; tests/data/jmh-*.json are real output) and, as
# JMH's include pattern does, runs only the benchmarks whose name
# GATE_FILTER matches (every parameter of each). "b.Sized.run" with n=2
# is 1.5 times slower in head, and "b.Rate.run" (ops/s, higher is better)
# 1.5 times slower too; "b.Wobble.run" varies from run to run (10, 11,
# 12 us) and gets rounds of more pairs, each asked for by GATE_FILTER
# alone. Three shards merged give the unsharded verdicts, every case
# once, b.Sized.run's parameters in one shard. gate compare reads two
# files of two runs each: four forks, four processes.
. "$(dirname "$0")/lib.sh"
# the harness counts its runs and logs filters outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/jmh.sh" <<EOF2
#!/bin/sh
echo "[\${GATE_FILTER-unset}] [\${GATE_LIST-}]" >>"$SCRATCH/filters"
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
printf '['
sep=
for id in b.Steady.run b.Sized.run:1 b.Sized.run:2 b.Rate.run b.Wobble.run; do
	bench=\${id%%:*}
	[ -z "\${GATE_FILTER-}" ] || echo "\$bench" | grep -Eq "\$GATE_FILTER" || continue
	case \$id in
	b.Wobble.run) v=\$((10 + k % 3)) ;;
	*) v=\$(cat "work/\$id") ;;
	esac
	params= mode=avgt unit=us/op
	case \$id in
	*:*) params=",\"params\":{\"n\":\"\${id#*:}\"}" ;;
	esac
	[ "\$bench" != b.Rate.run ] || mode=thrpt unit=ops/s
	printf '%s{"jmhVersion":"1.37","benchmark":"%s","mode":"%s","forks":2%s,' \
		"\$sep" "\$bench" "\$mode" "\$params"
	printf '"primaryMetric":{"score":%s,"scoreUnit":"%s",' "\$v" "\$unit"
	printf '"rawData":[[%s,%s,%s],[%s,%s,%s]]},"secondaryMetrics":{}}' \
		"\$v" "\$v" "\$v" "\$v" "\$v" "\$v"
	sep=,
done
printf ']\n'
EOF2
chmod +x "$R/jmh.sh"
mkdir "$R/work"
echo 20 >"$R/work/b.Steady.run"
echo 40 >"$R/work/b.Sized.run:1"
echo 80 >"$R/work/b.Sized.run:2"
echo 3000 >"$R/work/b.Rate.run"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 24, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [
    { "name": "j", "format": "jmh", "run": ["./jmh.sh"] }
  ]
}
JSON
commit_all "$R" base
echo 120 >"$R/work/b.Sized.run:2"
echo 2000 >"$R/work/b.Rate.run"
commit_all "$R" "Sized n=2 and Rate slower"
S=$SCRATCH
sized1="b.Sized.run:n=1" sized2="b.Sized.run:n=2"

gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 5 --json "$S/all.json"
expect_in "$OUT" "j/$sized2"
[ "$(grep -c '^\[unset\] \[\]$' "$S/filters")" = 16 ] ||
	fail "the first look should run the whole suite 16 times: $(sort "$S/filters" | uniq -c)"
grep -q '^\[^(b\\\.Wobble\\\.run)\$\] \[\]$' "$S/filters" ||
	fail "no round asked for b.Wobble.run alone: $(sort "$S/filters" | uniq -c)"
[ -z "$(grep -v '^\[unset\]' "$S/filters" | grep -v '^\[^(b\\\.Wobble\\\.run)\$\] \[\]$' |
	grep -vF '[^(b\.Steady\.run|b\.Sized\.run|b\.Rate\.run|b\.Wobble\.run)$] []')" ] ||
	fail "a round asked for other cases: $(sort "$S/filters" | uniq -c)"
python3 - "$S/all.json" <<'PY' || fail "want Sized n=2 and Rate failing, Wobble with rounds"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
assert sorted(n for n in b if n.startswith("j/")) == [
    "j/b.Rate.run", "j/b.Sized.run:n=1", "j/b.Sized.run:n=2",
    "j/b.Steady.run", "j/b.Wobble.run"], sorted(b)
for c in ("b.Steady.run", "b.Sized.run:n=1"):
    assert b["j/" + c]["verdict"] == "pass", b["j/" + c]
s = b["j/b.Sized.run:n=2"]
assert s["verdict"] == "fail" and s["unit"] == "s/op", s
assert abs(s["ratio"]["median"] - 1.5) < 1e-6, s["ratio"]
r = b["j/b.Rate.run"]
# a rate 1.5 times lower: a regression of 1.5 (the ratio inverted)
assert r["verdict"] == "fail" and r["unit"] == "ops/s", r
assert r["higher_is_better"] is True, r
assert abs(r["ratio"]["median"] - 1.5) < 1e-6, r["ratio"]
assert b["j/b.Wobble.run"]["pairs"] > 8, b["j/b.Wobble.run"]
PY

# --shard: a listing run (a whole run), the benchmarks dealt with every
# parameter of each together, each shard's run through GATE_FILTER
: >"$S/filters"
for i in 1 2 3; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 5 -q \
		--shard "$i/3" --json "$S/s$i.json"
done
[ "$(grep -c '\[1\]$' "$S/filters")" = 6 ] ||
	fail "want one listing run per arm and shard: $(sort "$S/filters" | uniq -c)"
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" "$S/s3.json" --json "$S/m.json"
shards_match_whole "$S"
# one benchmark's parameters in one shard (the include pattern cannot
# select a parameter)
python3 - "$S" <<'PY' || fail "a benchmark's parameters were split"
import json, sys
shards = [json.load(open("%s/s%d.json" % (sys.argv[1], i))) for i in range(1, 4)]
names = lambda r: [b["name"] for b in r["benchmarks"]]
assert sum("j/b.Sized.run:n=1" in names(s) and "j/b.Sized.run:n=2" in names(s)
           for s in shards) == 1, [names(s) for s in shards]
PY

# gate compare: two runs of base's and of head's harness, files one after
# another (four forks)
for arm in HEAD~1 HEAD; do
	mkdir -p "$S/tree-$arm"
	git -C "$R" archive "$arm" | tar -x -C "$S/tree-$arm"
	for k in 1 2; do
		(cd "$S/tree-$arm" && GATE_FILTER='^(b\.Steady\.run|b\.Sized\.run)$' ./jmh.sh)
	done >"$S/j-$arm"
done
gate_run 1 compare "$S/j-HEAD~1" "$S/j-HEAD" --json "$S/c.json"
expect_in "$OUT" "$sized2"
python3 - "$S/c.json" <<'PY' || fail "compare: want Sized n=2 failing, the others passing"
import json, sys
d = json.load(open(sys.argv[1]))
v = {c["name"]: c["verdict"] for c in d["benchmarks"]}
assert v == {"b.Steady.run": "pass", "b.Sized.run:n=1": "pass",
             "b.Sized.run:n=2": "fail"}, d["benchmarks"]
PY
exit 0
