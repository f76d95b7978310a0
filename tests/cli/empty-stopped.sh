# Issue 37, through the binary: a shard with no benchmarks says so in the
# terminal and the Markdown, not "PASS" (its exit and verdict output stay
# a pass, for the merge); a benchmark interrupted before its first look
# says the signal and its pairs so far, not "not measured".
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
fixture_value "$R" 10 10

# one benchmark, two shards: shard 2 has none
gate_run 0 -C "$R" run --base HEAD~1 --shard 2/2 --markdown "$SCRATCH/s2.md" \
	--json "$SCRATCH/s2.json"
tail -n 1 "$OUT" | grep -q '^verdict: NO BENCHMARKS: shard 2 of 2 has no benchmarks' ||
	fail "the empty shard's verdict line: $(tail -n 1 "$OUT")"
expect_not_in "$OUT" "PASS"
head -n 1 "$SCRATCH/s2.md" | grep -q 'NO BENCHMARKS' ||
	fail "the empty shard's Markdown headline: $(head -n 1 "$SCRATCH/s2.md")"
expect_not_in "$SCRATCH/s2.md" "PASS"
[ "$(json_get "$SCRATCH/s2.json" "d['verdict']")" = pass ] ||
	fail "the empty shard's JSON verdict is not pass (the merge reads it)"

# interrupted at its 7th run, before the first look at 40 pairs: each
# run counts itself outside the checkout, the 7th hangs on a marker
printf '#!/bin/sh\nn=$(cat "%s/n" 2>/dev/null || echo 0)\necho $((n + 1)) >"%s/n"\n[ "$n" -ge 6 ] && sleep 7.4646\necho "t 10 ms"\n' \
	"$SCRATCH" "$SCRATCH" >"$R/bench.sh"
commit_all "$R" "a bench that hangs at its 7th run"
cat >"$SCRATCH/stop.json" <<'JSON'
{ "defaults": { "pairs": 40, "max_pairs": 40, "warmup": 0, "timeout": 60 },
  "benchmarks": [ { "name": "parse", "format": "lines", "run": ["./bench.sh"] } ] }
JSON
GATE_SANDBOX=off
export GATE_SANDBOX
"$GATE" -C "$R" run --base HEAD --head HEAD --config "$SCRATCH/stop.json" \
	--markdown "$SCRATCH/stop.md" >"$OUT" 2>"$ERR" &
pid=$!
wait_for pgrep -f "sleep 7.4646" || fail "the 7th run never started"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "gate exited $rc after SIGINT, want 130"
no_process "sleep 7.4646"
grep -Eq 'interrupted by signal 2 after 3 pairs of base and head' "$OUT" ||
	fail "the stopped benchmark does not say its 3 pairs so far"
expect_in "$SCRATCH/stop.md" "interrupted by signal 2 after 3 pairs"
expect_not_in "$OUT" "not measured"
exit 0
