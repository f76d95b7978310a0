# Issue 14 item 11: text from a benchmark cannot forge output. A gbench
# case named BM_ESC[2J ESC]0;PWNED BEL, newline, "::error title=x::forged",
# with "@octocat" and "#123": the terminal shows the control bytes as
# \xNN (no screen clear, no title, no line of its own), the Actions log
# holds the report between ::stop-commands::TOKEN and ::TOKEN:: (and no
# line, trimmed, starts a forged command outside), and the Markdown breaks
# the mention and the issue reference.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
printf '{"benchmarks": [{"name": "BM_\\u001b[2J\\u001b]0;PWNED\\u0007\\n::error title=x::forged @octocat #123", "run_type": "iteration", "iterations": 10, "real_time": 1000, "cpu_time": 1000, "time_unit": "ns"}]}\n'
echo 'stderr @octocat' >&2
SH
chmod +x "$R/bench.sh"
cat >"$R/gate.json" <<'JSON'
{ "version": 1, "build": "echo '::error title=build::forged by the build'",
  "defaults": { "pairs": 4, "warmup": 0, "min_effect": 0.5, "timeout": 20 },
  "benchmarks": [ { "name": "gb", "format": "gbench", "run": ["./bench.sh"] } ] }
JSON
commit_all "$R" base
echo x >"$R/NOTES"
commit_all "$R" head
S=$SCRATCH/summary
: >"$S"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$S GITHUB_OUTPUT=$SCRATCH/o \
	"$GATE" -C "$R" run --base HEAD~1 --head HEAD --markdown "$SCRATCH/r.md" \
	--color always >"$OUT" 2>"$ERR"
[ $? -le 3 ] || fail "gate exited $?"
expect_in "$OUT" 'BM_\x1b[2J\x1b]0;PWNED\x07\x0a::error title=x::forged'
for f in "$OUT" "$ERR"; do
	# no raw ESC but gate's own colours (ESC[ digits m), no BEL
	if LC_ALL=C grep -q "$(printf '\033')[^[]" "$f" ||
	   LC_ALL=C grep -q "$(printf '\033')\[2J" "$f" ||
	   LC_ALL=C grep -q "$(printf '\007')" "$f"; then
		fail "$(basename "$f") has a raw control sequence"
	fi
done
# outside the stop-commands blocks no line starts a forged command
awk '
	/^::stop-commands::/ { tok = substr($0, 18); next }
	tok != "" && $0 == "::" tok "::" { tok = ""; next }
	tok == "" { sub(/^[ \t]+/, ""); if ($0 ~ /^::error title=(x|build)::/) { print; bad = 1 } }
	END { exit bad }' "$OUT" "$ERR" || fail "a forged workflow command is live"
expect_in "$OUT" "::stop-commands::gate-"
expect_in "$OUT" "forged by the build"
# two blocks (build logs, report) with different tokens
[ "$(grep '^::stop-commands::' "$OUT" | sort -u | wc -l)" -ge 3 ] ||
	fail "each block needs its own random token"
# Markdown: the mention and the reference are broken, the rest kept
expect_in "$SCRATCH/r.md" '@&#8203;octocat'
expect_in "$SCRATCH/r.md" '#&#8203;123'
expect_not_in "$SCRATCH/r.md" '@octocat'
expect_not_in "$S" '@octocat'
exit 0
