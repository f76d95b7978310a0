# Issue 27: gate init never drops a make target silently because its name
# is taken. bench/x becomes the name "bench-x" ('/' is not allowed in a
# name), which is also the target bench-x's own name: both are kept, the
# second under the next free name, and init says so. The same benchmark
# found twice is still proposed once.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
for order in "bench/x bench-x" "bench-x bench/x"; do
	{
		printf 'all:\n\ttrue\n'
		for t in $order; do
			printf '%s:\n\t@echo %s\n' "$t" "$t"
		done
		printf '.PHONY: all %s\n' "$order"
	} >"$R/Makefile"
	commit_all "$R" "targets $order"
	gate_run 0 -C "$R" init --stdout
	expect_in "$OUT" '"run": ["make", "-s", "bench/x"]'
	expect_in "$OUT" '"run": ["make", "-s", "bench-x"]'
	expect_in "$OUT" '"name": "bench-x"'
	expect_in "$OUT" '"name": "bench-x-2"'
	expect_in "$ERR" 'named "bench-x-2": "bench-x" is another benchmark'"'"'s'
	expect_not_in "$ERR" "not proposed"
done
# the file written is one gate run accepts: two benchmarks, two names
gate_run 0 -C "$R" init
commit_all "$R" config
gate_run 0 -C "$R" run --base HEAD --head HEAD --list
expect_in "$OUT" "plan: 2 benchmarks"
expect_in "$OUT" "bench-x: one process per sample"
expect_in "$OUT" "bench-x-2: one process per sample"

# a name cut to 100 characters keeps its suffix within the limit
long=bench-$(printf '%0100d' 0)
printf 'all:\n\ttrue\n%s/a:\n\t@echo a\n%s/b:\n\t@echo b\n.PHONY: all %s/a %s/b\n' \
	"$long" "$long" "$long" "$long" >"$R/Makefile"
commit_all "$R" long
gate_run 0 -C "$R" init --stdout
cut=$(printf '%s' "$long" | cut -c1-98)
expect_in "$OUT" "\"name\": \"$cut-2\""
expect_in "$OUT" "\"run\": [\"make\", \"-s\", \"$long/b\"]"
exit 0
