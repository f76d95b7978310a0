# gate compare's messages (issue 27): a broken gate report is called a
# broken gate report (not "not valid Google Benchmark JSON"); a huge value
# or ratio prints in bounded width (1e308 ns printed 47 digits and the
# change hundreds).
. "$(dirname "$0")/lib.sh"
for i in 1 2 3 4 5 6 7 8; do printf '# run\na 1.0%s ms\n' "$i"; done >"$SCRATCH/a.txt"
gate_run 0 compare "$SCRATCH/a.txt" "$SCRATCH/a.txt" --json "$SCRATCH/r.json"
head -c 400 "$SCRATCH/r.json" >"$SCRATCH/cut.json"
gate_run 3 compare "$SCRATCH/cut.json" "$SCRATCH/r.json"
expect_in "$ERR" "not valid gate report JSON"
expect_not_in "$ERR" "Google Benchmark"
for i in 1 2 3 4 5 6 7 8; do printf '# run\na 1.0%s ns\n' "$i"; done >"$SCRATCH/o.txt"
for i in 1 2 3 4 5 6 7 8; do printf '# run\na 1e308 ns\n'; done >"$SCRATCH/n.txt"
for i in 1 2 3 4 5 6 7 8; do printf '# run\na 1e7 ns\n'; done >"$SCRATCH/n2.txt"
gate_run 1 compare "$SCRATCH/o.txt" "$SCRATCH/n.txt"
expect_in "$OUT" "1e+299 s"
# relative paths: the table's columns are as wide as the file names, and
# $SCRATCH's length is the test runner's choice
cd "$SCRATCH" || fail "cannot enter $SCRATCH"
gate_run 1 compare o.txt n2.txt
expect_in "$OUT" "slower by +9.6e+08%"
long=$(awk '/^a \[s\]/ { if (length($0) > m) m = length($0) } END { print m + 0 }' "$OUT")
[ "$long" -lt 200 ] || fail "a line of $long characters"
