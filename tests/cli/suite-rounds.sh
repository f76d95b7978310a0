# Adaptive suites: a case unresolved at its first look gets rounds of more
# pairs through the harness's filter (the lines protocol: GATE_FILTER, a
# POSIX extended regex), and only the unresolved cases re-run. "c" prints
# the same value every time and resolves at the first look; "n" varies
# (10, 11, 12 ms in turn) and needs more pairs.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/suite.sh" <<EOF2
#!/bin/sh
echo "[\${GATE_FILTER-unset}]" >>"$SCRATCH/filters"
k=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
echo \$((k + 1)) >"$SCRATCH/count"
for c in c n; do
	if [ -n "\${GATE_FILTER+x}" ] && ! echo "\$c" | grep -Eq "\$GATE_FILTER"; then
		continue
	fi
	case \$c in
	c) echo "c 10 ms" ;;
	n) echo "n \$((10 + k % 3)) ms" ;;
	esac
done
EOF2
chmod +x "$R/suite.sh"
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 8, "max_pairs": 40, "warmup": 0, "min_effect": 0.1 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ]
}
JSON
commit_all "$R" base
gate_measured -C "$R" run --base HEAD --head HEAD --seed 7 --json "$SCRATCH/r.json"
# the first look ran every case (no filter); every later run asked for n only
[ "$(grep -c '^\[unset\]$' "$SCRATCH/filters")" = 16 ] ||
	fail "the first look should run the whole suite 16 times: $(sort "$SCRATCH/filters" | uniq -c)"
[ "$(grep -v '^\[unset\]$' "$SCRATCH/filters" | sort -u)" = '[^(n)$]' ] ||
	fail "rounds should filter on n alone: $(sort "$SCRATCH/filters" | uniq -c)"
[ "$(json_get "$SCRATCH/r.json" '[(b["name"], b["pairs"], b["looks"]) for b in d["benchmarks"]][0]')" = "('s/c', 8, 1)" ] ||
	fail "c resolves at its first look: $(json_get "$SCRATCH/r.json" '[(b["name"], b["pairs"], b["looks"]) for b in d["benchmarks"]]')"
[ "$(json_get "$SCRATCH/r.json" '[b for b in d["benchmarks"] if b["name"] == "s/n"][0]["pairs"] > 8')" = True ] ||
	fail "n should get more pairs"
# every look spends its share of alpha: n's first look is at half its alpha
[ "$(json_get "$SCRATCH/r.json" '[b for b in d["benchmarks"] if b["name"] == "s/n"][0]["max_pairs"]')" = 40 ] ||
	fail "a filterable suite keeps max_pairs for its cases"
expect_in "$ERR" "round 1: more pairs"
exit 0
