# Issue 37, through the real binary: a 200-case noisy suite's Markdown
# headline is one line under 1,000 bytes (it was every case's name: 22 KB
# of bold heading) with the counts, and the whole report is within
# GitHub's comment limit; two cases whose long names differ only at
# their end are told apart at 80 columns in the terminal's table, and
# their reasons have them whole. (tests/gate/report/test-view.c checks
# the same on models; this runs gate, so it can be run against an older
# binary.)
. "$(dirname "$0")/lib.sh"
mkdir -p "$SCRATCH/count"

# suite.sh: its cases as "name value unit" lines from the file "cases"
# ("name base [factor]"). Head's values (spread=1) are base times its
# factor, or 4 and 1/4 times base in turn, one process after the other
# (a count kept in $SCRATCH/count/n.*): every case's ratios are 4 and 1/4, a
# spread no number of pairs here decides, whatever the machine.
suite_repo() {
	new_repo "$1"
	cat >"$1/suite.sh" <<EOF
#!/bin/sh
spread=0
n=\$(cat "$SCRATCH/count/n.${1##*/}" 2>/dev/null || echo 0)
[ -n "\${GATE_LIST-}" ] || [ "\$spread" = 0 ] || echo \$((n + 1)) >"$SCRATCH/count/n.${1##*/}"
awk -v spread=\$spread -v n=\$n -v list="\${GATE_LIST-unset}" '
{
	v = \$2
	if (spread && \$3 != "") v = \$2 * \$3
	else if (spread) v = (n % 2) ? \$2 * 4 : \$2 / 4
	if (list != "unset") print \$1; else printf "%s %.3f ms\n", \$1, v
}' cases
EOF
	chmod +x "$1/suite.sh"
}

# suite_commits R PAIRS: R's gate.json at PAIRS pairs (max_pairs too),
# committed as base, and head with spread=1
suite_commits() {
	cat >"$1/gate.json" <<JSON
{ "version": 1,
  "writable": ["$SCRATCH/count"],
  "defaults": { "pairs": $2, "max_pairs": $2, "warmup": 0, "min_effect": 0.05 },
  "benchmarks": [ { "name": "s", "format": "lines", "run": ["./suite.sh"] } ] }
JSON
	commit_all "$1" base
	sed -i 's/^spread=.*/spread=1/' "$1/suite.sh"
	commit_all "$1" head
}

# 1. 200 cases, each noisy
R=$SCRATCH/big
suite_repo "$R"
i=1
while [ $i -le 200 ]; do
	printf 'tests/test_parse.py::test_roundtrip_of_a_document_with_a_long_descriptive_name[case-%03d] 30\n' $i
	i=$((i + 1))
done >"$R/cases"
suite_commits "$R" 4
gate_run 2 -C "$R" run --base HEAD~1 -q --markdown "$SCRATCH/big.md" \
	--json "$SCRATCH/big.json"
[ "$(json_get "$SCRATCH/big.json" "len(d['benchmarks'])")" = 200 ] ||
	fail "the suite should have 200 cases"
head=$(head -n 1 "$SCRATCH/big.md")
bytes=$(printf '%s' "$head" | wc -c)
echo "headline: $bytes bytes; report: $(wc -c <"$SCRATCH/big.md") bytes"
[ "$bytes" -lt 1000 ] || fail "the Markdown headline is $bytes bytes: ${head%"${head#??????????????????????????????????????????????????????????????????????????????}"}..."
case $head in "### "*) ;; *) fail "the first line is not the headline: $head" ;; esac
printf '%s\n' "$head" | grep -q 'and 197 more' ||
	fail "the headline does not say how many more: $head"
expect_in "$SCRATCH/big.md" "200 noisy"
# within GitHub's 65,536 characters, the protocol kept
[ "$(wc -m <"$SCRATCH/big.md")" -le 65536 ] ||
	fail "the Markdown is $(wc -m <"$SCRATCH/big.md") characters"
expect_in "$SCRATCH/big.md" "Protocol"

# 2. two long names differing only in their last characters: one noisy,
# one ten times slower
R=$SCRATCH/ends
suite_repo "$R"
stem=tests/test_x.py::test_some_long_name_that_goes_on_and_on_through_the_whole_line
printf '%s[param-1] 20\n%s[param-2] 20 10\n' "$stem" "$stem" >"$R/cases"
suite_commits "$R" 12
COLUMNS=80 "$GATE" -C "$R" run --base HEAD~1 -q >"$OUT" 2>"$ERR"
got=$?
[ "$got" -eq 1 ] || fail "exit $got, want 1 (param-2 is ten times slower)"
# the table: a row for each, each with its own end
grep -E '\[param-1\] +[a-z]' "$OUT" | grep -qEi 'noisy|pass|fail' ||
	fail "no table row tells [param-1] apart at 80 columns"
grep -E '\[param-2\] +[a-z]' "$OUT" | grep -q 'FAIL' ||
	fail "no table row tells [param-2] (the fail) apart at 80 columns"
awk 'length($0) > 80 { print NR ": " length($0); bad = 1 } END { exit bad }' \
	"$OUT" >"$SCRATCH/wide" || fail "lines wider than 80 columns: $(cat "$SCRATCH/wide")"
# the reasons: every character of each name, in order (broken at the
# width where wider than the line)
for p in 1 2; do
	tr -d '\n' <"$OUT" | grep -qF "$stem[param-$p]:" ||
		fail "the reasons do not have [param-$p]'s name whole"
done
exit 0
