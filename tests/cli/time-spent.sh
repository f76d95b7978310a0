# Where the time went: every report records the build time per arm, the
# measuring time and the total (issue 16, point 9). A build that sleeps
# 0.3 s takes at least that (a lower bound, not a timing margin).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture "$R" 0.01 0.01
cat >"$SCRATCH/c.json" <<'JSON'
{ "build": "sleep 0.3",
  "defaults": { "pairs": 4, "warmup": 0, "min_effect": 5 },
  "benchmarks": [ { "name": "b", "run": ["./bench.sh"] } ] }
JSON
gate_measured -C "$R" run -v --base HEAD~1 --config "$SCRATCH/c.json" \
	--json "$SCRATCH/r.json" --markdown "$SCRATCH/r.md"
t='d["time"]'
[ "$(json_get "$SCRATCH/r.json" "$t[\"build\"][\"base\"] >= 0.3 and $t[\"build\"][\"head\"] >= 0.3")" = True ] ||
	fail "each arm's build time should be recorded: $(json_get "$SCRATCH/r.json" "$t")"
[ "$(json_get "$SCRATCH/r.json" "$t[\"measuring\"] >= 8 * 0.01 and $t[\"total\"] >= $t[\"measuring\"] + $t[\"build\"][\"base\"]")" = True ] ||
	fail "measuring and total should be recorded: $(json_get "$SCRATCH/r.json" "$t")"
expect_in "$OUT" "time: build "
expect_in "$SCRATCH/r.md" "time: build "
exit 0
