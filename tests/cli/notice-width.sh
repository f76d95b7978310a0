# Issue 26: gate's checkout and build lines on stderr fit the terminal. In
# a repository under a path of 130 columns, with a benchmark whose name is
# 75: the checkout, build, kept-build, changed-checkout and check lines name
# the workspace relative to the working tree (".git/gate/a") and, with
# $COLUMNS at 60, 80 or 120, are wrapped to it with a hanging indent (a word
# longer than a line is cut in its middle); in a log (no $COLUMNS, not a
# terminal) each stays one line, and the checkout and build lines fit 80
# there too. They named whole absolute paths: 160 columns and more. With
# both builds kept, -v's protocol says no build ran (not "0 us").
. "$(dirname "$0")/lib.sh"
deep=$SCRATCH/a-directory-whose-name-is-long-enough-to-matter/and-another-one-below-it-just-as-long/repo
long=check-me-a-benchmark-with-a-name-long-enough-to-wrap-at-sixty-columns-x
new_repo "$deep"
write_bench "$deep" 0.01
cat >"$deep/gate.json" <<JSON
{
  "version": 1,
  "build": "echo building",
  "defaults": { "pairs": 6, "max_pairs": 6, "warmup": 1, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [
    { "name": "$long", "run": ["./bench.sh"], "check": "true" }
  ]
}
JSON
commit_all "$deep" base
echo changed >"$deep/NOTES"
commit_all "$deep" head

# The notices of gate's preparation and the lines that continue them.
notices() {
	awk '/^gate: (checking out|building|base \(|head \(|checking benchmark|[0-9]+ files? differed)/ { on = 1; print; next }
	     on && /^      / { print; next } { on = 0 }' "$ERR"
}
fits() {	# WIDTH WHAT
	notices | awk -v w="$1" 'length($0) > w { print length($0) " columns: " $0; bad = 1 }
		END { exit bad }' >"$SCRATCH/wide" || fail "$2: $(cat "$SCRATCH/wide")"
}

for w in 60 80 120; do
	rm -rf "$deep/.git/gate"
	COLUMNS=$w gate_measured -C "$deep" run --base HEAD~1 --head HEAD
	[ "$(notices | grep -c '^gate: ')" -ge 4 ] || fail "COLUMNS=$w: too few notices: $(notices)"
	fits "$w" "COLUMNS=$w, first run"
	notices | tr '\n' ' ' | tr -s ' ' >"$SCRATCH/joined"
	expect_in "$SCRATCH/joined" "checking out base (HEAD~1) into .git/gate/"
	expect_in "$SCRATCH/joined" "(logs in .git/gate: "
	expect_not_in "$SCRATCH/joined" "$SCRATCH"
	if [ "$w" -eq 60 ]; then
		# 75 columns of name in 54: its middle cut, both ends kept
		grep -q '^      .*"check-me-a-benchmar.*\.\.\..*-sixty-columns-x"' "$ERR" ||
			fail "the long name is not cut in its middle on a line of its own"
	else
		expect_in "$SCRATCH/joined" "checking benchmark \"$long\" in each arm"
	fi
	# the builds kept: said to fit too; the protocol says no build ran
	# this run (it timed the builds that did not run as "0 us")
	COLUMNS=$w gate_measured -C "$deep" run -v --base HEAD~1 --head HEAD
	fits "$w" "COLUMNS=$w, kept builds"
	notices | tr '\n' ' ' | tr -s ' ' >"$SCRATCH/joined"
	expect_in "$SCRATCH/joined" "was built by an earlier run: not building it again"
	tr '\n' ' ' <"$OUT" | tr -s ' ' >"$SCRATCH/joined"
	expect_in "$SCRATCH/joined" "time: build none this run (kept from an earlier run"
	expect_not_in "$SCRATCH/joined" "time: build 0 us"
done
# in a log: one line each, and the checkout and build lines within 80
rm -rf "$deep/.git/gate"
gate_measured -C "$deep" run --base HEAD~1 --head HEAD
grep -q '^      ' "$ERR" && fail "a notice was wrapped in a log"
grep -E '^gate: (checking out|building)' "$ERR" >"$SCRATCH/log"
[ "$(wc -l <"$SCRATCH/log")" -eq 3 ] || fail "not one line per checkout and build: $(cat "$SCRATCH/log")"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$SCRATCH/log" >"$SCRATCH/wide" ||
	fail "wider than 80 in a log: $(cat "$SCRATCH/wide")"
expect_in "$ERR" "gate: checking benchmark \"$long\" in each arm"
exit 0
