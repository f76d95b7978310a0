# A suite's noisy case against its other cases: a machine that slows whole
# processes leaves a +30% change to one case noisy on its own, but the
# case less the median change of the cases the same processes measured
# shows it; the note says so beside the verdict, which stands. The suite
# counts its runs: every other process runs 3 times slower in every case
# (so each pair has one slow process, in either arm at random), and in
# head case "a" does 1.3 times the work.
. "$(dirname "$0")/lib.sh"
# the suite counts its runs in $SCRATCH, outside the checkout
GATE_SANDBOX=off
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
suite() {	# suite A: case a's work, in tenths
	cat >"$R/s.sh" <<EOF2
#!/bin/sh
n=\$(cat "$SCRATCH/n" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$SCRATCH/n"
f=\$(( n % 2 == 0 ? 30 : 10 )); j=\$(( n % 5 ))
echo "a \$(( (f * 1000 + j * 10) * $1 / 10 )) us"
for c in b c d; do echo "\$c \$(( f * 1000 + j * 10 )) us"; done
EOF2
	chmod +x "$R/s.sh"
}
suite 10
cat >"$R/gate.json" <<'JSON'
{
  "defaults": { "pairs": 12, "max_pairs": 12, "warmup": 0, "min_effect": 0.05 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./s.sh"] },
                  { "name": "two", "format": "lines", "run": ["./t.sh"] } ]
}
JSON
# a suite of two cases: a median of two does not stand for the pair
cat >"$R/t.sh" <<EOF2
#!/bin/sh
n=\$(cat "$SCRATCH/t" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$SCRATCH/t"
f=\$(( n % 2 == 0 ? 30 : 10 ))
echo "a \$(( f * 1000 + n % 5 * 10 )) us"
echo "b \$(( f * 1000 )) us"
EOF2
chmod +x "$R/t.sh"
commit_all "$R" base
suite 13
commit_all "$R" "head: case a does 1.3 times the work"
gate_measured -C "$R" run --base HEAD~1 --head HEAD -v --seed 7 \
	--json "$SCRATCH/r.json"
note() {	# the relative note of case $1 in the JSON report
	json_get "$SCRATCH/r.json" "next((b['environment_note'] or '') for b in d['benchmarks'] if b['name'] == 's/$1')"
}
v=$(json_get "$SCRATCH/r.json" "next(b['verdict'] for b in d['benchmarks'] if b['name'] == 's/a')")
[ "$v" = noisy ] || fail "s/a is $v: the fixture means it to be noisy on its own"
n=$(note a)
case "$n" in
*"against the other cases of its suite, +30.0%"*"a regression of the floor against them is shown"*) ;;
*) fail "s/a's note lacks the relative regression: $n" ;;
esac
expect_in "$OUT" "against the other cases of its suite, +30.0%"
expect_in "$OUT" "the verdict stands"
# the others changed nothing against the rest: never a regression
for c in b c d; do
	n=$(note $c)
	case "$n" in
	*"regression of the floor against them is shown"*)
		fail "s/$c's note shows a relative regression: $n" ;;
	esac
done
n=$(json_get "$SCRATCH/r.json" "sum(1 for b in d['benchmarks'] if b['name'].startswith('two/') and 'against the other cases' in (b['environment_note'] or ''))")
[ "$n" -eq 0 ] || fail "a case of a two-case suite has the relative note"
v=$(json_get "$SCRATCH/r.json" "next(b['verdict'] for b in d['benchmarks'] if b['name'] == 'two/a')")
[ "$v" = noisy ] || fail "two/a is $v: the fixture means it to be noisy"
exit 0
