# gate run --shard keeps only the cases dealt to it (issue 23 item 7): a
# lines suite that prints every case whatever GATE_FILTER asks (harmless,
# the README says) left each shard comparing all of them, and gate merge
# refused the shards as overlapping. Now each shard compares its share,
# the merge holds every case once, and agrees with the unsharded run.
# Shards measured on different machines merge (issue 23 item 9: hosted
# runners promise no CPU model; each case is paired within its shard),
# the protocol naming both; other commits or plans are still refused.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
# suite.sh: 6 cases; lists them with GATE_LIST=1, ignores GATE_FILTER
cat >"$R/suite.sh" <<'EOF2'
#!/bin/sh
for c in c1 c2 c3 c4 c5 c6; do
	if [ -n "${GATE_LIST-}" ]; then
		echo "$c"
	else
		echo "$c $(cat ms/$c) ms"
	fi
done
EOF2
chmod +x "$R/suite.sh"
mkdir "$R/ms"
for i in 1 2 3 4 5 6; do echo 10 >"$R/ms/c$i"; done
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 8, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
echo 20 >"$R/ms/c4"
commit_all "$R" "c4 slower"
S=$SCRATCH
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --seed 3 -q --json "$S/all.json"
for i in 1 2; do
	gate_measured -C "$R" run --base HEAD~1 --head HEAD --seed 3 -q \
		--shard "$i/2" --json "$S/s$i.json"
done
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2.json" --json "$S/m.json"
python3 - "$S" <<'PY' || fail "the shards do not hold each case once"
import json, sys
d = sys.argv[1]
names = lambda r: sorted(b["name"] for b in r["benchmarks"])
a, m = [json.load(open(d + f)) for f in ("/all.json", "/m.json")]
s = [json.load(open("%s/s%d.json" % (d, i))) for i in (1, 2)]
assert names(a) == ["s/c%d" % i for i in range(1, 7)], names(a)
assert [len(names(x)) for x in s] == [3, 3], [names(x) for x in s]
assert sorted(names(s[0]) + names(s[1])) == names(a)
v = lambda r: {b["name"]: b["verdict"] for b in r["benchmarks"]}
assert v(m) == v(a), (v(m), v(a))
assert [n for n, x in v(m).items() if x == "fail"] == ["s/c4"], v(m)
PY
# shard 2 on another CPU model with other cores: merged, and said so
python3 - "$S" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/s2.json"))
r["environment"]["cpu"] = "Other CPU 9000"
r["environment"]["cores"] = r["environment"]["cores"] + 2
json.dump(r, open(d + "/s2cpu.json", "w"))
r["protocol"]["config_hash"] = "0123456789abcdef"
json.dump(r, open(d + "/s2plan.json", "w"))
PY
gate_run 1 -C "$R" merge "$S/s1.json" "$S/s2cpu.json" --json "$S/m2.json"
[ "$(json_get "$S/m2.json" 'd["environment"]["cpu"]')" != "Other CPU 9000" ] ||
	fail "merged machine is shard 2's alone"
json_get "$S/m2.json" 'd["environment"]["cpu"]' >"$S/cpu.txt"
expect_in "$S/cpu.txt" "shards on different machines"
expect_in "$S/cpu.txt" "2/2 Other CPU 9000"
[ "$(json_get "$S/m2.json" 'sorted(b["name"] for b in d["benchmarks"])')" = \
  "$(json_get "$S/m.json" 'sorted(b["name"] for b in d["benchmarks"])')" ] ||
	fail "the merge across machines lost or added a case"
# another plan still cannot belong
gate_run 3 -C "$R" merge "$S/s1.json" "$S/s2plan.json"
expect_in "$ERR" "ran different plans"
echo "shard-own-cases: ok"
