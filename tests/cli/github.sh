# Inside GitHub Actions (GITHUB_ACTIONS=true): the Markdown report is
# appended to $GITHUB_STEP_SUMMARY, a fail is annotated with its figures,
# verdict= and a multiline report are set in $GITHUB_OUTPUT, build logs sit
# in ::group::, one line per benchmark replaces progress redraws. Outside
# Actions none of that appears. Also --markdown, --color and NO_COLOR.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
# the benchmark prints its own time (fixture_value): a fail on any machine
fixture_value "$R" 20 200
printf '{ "version": 1, "build": "echo building-%s",\n' '$(pwd)' >"$SCRATCH/cfg"
sed -n '/"defaults"/,$p' "$R/gate.json" >>"$SCRATCH/cfg"
S=$SCRATCH/summary
O=$SCRATCH/output
echo "# earlier step" >"$S"
: >"$O"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$S GITHUB_OUTPUT=$O \
	gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/cfg" \
	--markdown "$SCRATCH/r.md"
# the summary is appended to, not replaced
expect_in "$S" "# earlier step"
expect_in "$S" "gate: FAIL"
expect_in "$S" "| sleep/t |"
expect_in "$S" "<summary>Protocol</summary>"
tail -n +2 "$S" | cmp -s - "$SCRATCH/r.md" || fail "summary differs from --markdown"
# annotation with figures, escaped for the runner
grep -q '^::error file=.*title=gate%3A sleep/t%3A +[0-9.]*%25 slower::slower by' "$OUT" ||
	fail "no ::error annotation with figures"
# outputs: verdict, and the report in the heredoc form
expect_in "$O" "verdict=fail"
expect_in "$O" "exit-code=1"
delim=$(sed -n 's/^report<<\(.*\)$/\1/p' "$O")
[ -n "$delim" ] || fail "report output is not multiline-safe"
[ "$(grep -c "^$delim\$" "$O")" = 1 ] || fail "report heredoc is not closed by $delim"
# build logs in collapsible groups, one line per benchmark, no redraws
expect_in "$OUT" "::group::gate: build log of base"
expect_in "$OUT" "building-"
expect_in "$OUT" "::endgroup::"
grep -q '^gate: \[1/1\] sleep/t: 6 pairs: .*, fail$' "$ERR" ||
	fail "no per-benchmark line in the Actions log"
expect_not_in "$ERR" "$(printf '\r')"

# outside Actions: none of it, and no colour when stdout is not a terminal
: >"$O"
# (wide enough for every column: the plot comes after the verdict)
COLUMNS=220 GITHUB_STEP_SUMMARY=$S GITHUB_OUTPUT=$O \
	gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --markdown -
expect_in "$OUT" "### "
expect_in "$OUT" "| sleep/t |"
expect_in "$ERR" "verdict: FAIL"
expect_not_in "$ERR" "::error"
expect_not_in "$ERR" "$(printf '\033')"
[ -s "$O" ] && fail "GITHUB_OUTPUT written outside Actions"
grep -q '^sleep/t .*FAIL .*|' "$ERR" || fail "no inline plot in the table"
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --color=always
expect_in "$OUT" "$(printf '\033[1;31mFAIL')"
NO_COLOR=1 gate_run 1 -C "$R" run --base HEAD~1 --head HEAD
expect_not_in "$OUT" "$(printf '\033')"
gate_run 3 -C "$R" run --color=sometimes
expect_in "$ERR" "--color must be auto, always or never"
gate_run 3 -C "$R" run --json - --markdown -
expect_in "$ERR" "only one of"
# -v: one line per pair
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD -v
grep -q '^gate: sleep pair 6/6 (\(base\|head\) first): base ' "$ERR" ||
	fail "-v printed no per-pair line"

# a run that cannot measure says so in Actions too
sed 's/"echo building-[^"]*"/"echo broken; exit 1"/' "$SCRATCH/cfg" >"$SCRATCH/bad"
: >"$O"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$S GITHUB_OUTPUT=$O \
	gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --config "$SCRATCH/bad"
expect_in "$O" "verdict=error"
grep -q '^::error .*title=gate%3A could not measure::the build of' "$OUT" ||
	fail "no annotation for a failed build"
tail -n 12 "$S" | grep -q 'gate: ERROR' || fail "no error summary"

# on a terminal (script(1) gives gate a pty): a redrawn progress line, colour
if command -v script >/dev/null 2>&1; then
	script -qec "\"$GATE\" -C \"$R\" run --base HEAD~1 --head HEAD" \
		"$SCRATCH/tty" >/dev/null 2>&1 </dev/null
	expect_in "$SCRATCH/tty" "$(printf '\r\033[K')gate: [1/1] sleep: pair 6 of 6"
	expect_in "$SCRATCH/tty" "about "
	expect_in "$SCRATCH/tty" "$(printf '\033[1;31mFAIL')"
fi
# an error quoting outside text ("::error::" in a file's name) is said
# between ::stop-commands:: and its token, so the runner acts on none of it
GITHUB_ACTIONS=true gate_run 3 compare "$SCRATCH/::error::x" "$SCRATCH/##[error]y"
grep -q '^::stop-commands::gate-[0-9a-f]*$' "$ERR" || fail "no ::stop-commands:: before the error"
tok=$(sed -n 's/^::stop-commands::\(.*\)$/\1/p' "$ERR" | head -1)
sed -n "/^::stop-commands::$tok\$/,/^::$tok::\$/p" "$ERR" | grep -q '^gate: error: cannot read ".*::error::x"' ||
	fail "the error is not between ::stop-commands:: and ::$tok::"
# a message with nothing command-like, and any message outside Actions: as is
GITHUB_ACTIONS=true gate_run 3 compare "$SCRATCH/plain"
expect_not_in "$ERR" "stop-commands"
GITHUB_ACTIONS= gate_run 3 compare "$SCRATCH/::error::x" "$SCRATCH/y"
expect_not_in "$ERR" "stop-commands"
exit 0
