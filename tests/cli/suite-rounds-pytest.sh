# pytest and hyperfine suites get rounds of more pairs (issue 23 item 2;
# before, one look at the planned pairs: pytest at 20 pairs was always
# noisy). pytest re-runs the unresolved cases by node id: -k through
# PYTEST_ADDOPTS, which reaches pytest through the wrapper that prints its
# --benchmark-json file; hyperfine's wrapper gets GATE_FILTER. Both
# fixtures print every case whatever they are asked (harmless: a round
# takes only its cases). "c" prints the same value every time and
# resolves at its first look; "n" varies (10, 11, 12 ms in turn).
. "$(dirname "$0")/lib.sh"
# the fixtures log outside the checkout: unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
# each fixture counts its runs (its own file) to vary n
cat >"$R/py.sh" <<EOF2
#!/bin/sh
echo "[\${PYTEST_ADDOPTS-unset}]" >>"$SCRATCH/py-opts"
k=\$(cat "$SCRATCH/py-count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/py-count"
echo '{"machine_info": {}, "benchmarks": ['
echo '{"fullname": "tests/t_a.py::test_c[1]", "stats": {"median": 0.010}},'
echo "{\"fullname\": \"tests/t_a.py::TestN::test_n\", \"stats\": {\"median\": 0.01\$((k % 3))}}"
echo ']}'
EOF2
cat >"$R/hf.sh" <<EOF2
#!/bin/sh
echo "[\${GATE_FILTER-unset}]" >>"$SCRATCH/hf-filters"
k=\$(cat "$SCRATCH/hf-count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/hf-count"
echo '{"results": [{"command": "c", "times": [0.010]},'
echo "{\"command\": \"n\", \"times\": [0.01\$((k % 3))]}]}"
EOF2
chmod +x "$R/py.sh" "$R/hf.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 40, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "py", "format": "pytest", "run": ["./py.sh"] },
                  { "name": "hf", "format": "hyperfine", "run": ["./hf.sh"] } ]
}
JSON
commit_all "$R" base
gate_measured -C "$R" run --base HEAD --head HEAD --seed 7 --json "$SCRATCH/r.json"
# the first look ran every case (no filter); every round asked for n only
[ "$(grep -c '^\[unset\]$' "$SCRATCH/py-opts")" = 16 ] ||
	fail "pytest's first look should run the whole suite 16 times: $(sort "$SCRATCH/py-opts" | uniq -c)"
[ "$(grep -v '^\[unset\]$' "$SCRATCH/py-opts" | sort -u)" = "[-k '(t_a.py and TestN and test_n)' ]" ] ||
	fail "pytest's rounds should select n alone: $(sort "$SCRATCH/py-opts" | uniq -c)"
[ "$(grep -v '^\[unset\]$' "$SCRATCH/hf-filters" | sort -u)" = '[^(n)$]' ] ||
	fail "hyperfine's rounds should filter on n alone: $(sort "$SCRATCH/hf-filters" | uniq -c)"
python3 - "$SCRATCH/r.json" <<'PY' || fail "n should get rounds, c resolve at its first look"
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
for s, c, n in (("py", "tests/t_a.py::test_c[1]", "tests/t_a.py::TestN::test_n"),
                ("hf", "c", "n")):
    assert (b[s + "/" + c]["pairs"], b[s + "/" + c]["looks"]) == (8, 1), b[s + "/" + c]
    assert b[s + "/" + n]["pairs"] > 8 and b[s + "/" + n]["max_pairs"] == 40, b[s + "/" + n]
PY
exit 0
