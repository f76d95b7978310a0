# gate compare and zeros (issue 25 item 3): a count (go's allocs/op, a
# lines suite's "faults", any unit neither a time nor a rate) compares
# (new + 1) / (old + 1), so 0 -> 1 allocs/op is a fail and 1 -> 0 faults a
# pass, not an error; a 0 in a time is still "below the resolution".
. "$(dirname "$0")/lib.sh"
gorow() { # NAME ALLOCS: 8 runs
	for i in 1 2 3 4 5 6 7 8; do
		printf '%s-2\t1000\t%d ns/op\t16 B/op\t%s allocs/op\n' "$1" $((1000 + i)) "$2"
	done
}
{ echo "pkg: example.com/x"; gorow BenchmarkA 0; echo PASS; } >"$SCRATCH/old.txt"
{ echo "pkg: example.com/x"; gorow BenchmarkA 1; echo PASS; } >"$SCRATCH/new.txt"
gate_run 1 compare --filter . "$SCRATCH/old.txt" "$SCRATCH/new.txt" --json "$SCRATCH/z.json"
[ "$(json_get "$SCRATCH/z.json" '[b["verdict"] for b in d["benchmarks"] if b["unit"] == "allocs/op"]')" = "['fail']" ] ||
	fail "0 -> 1 allocs/op: want a fail, got $(json_get "$SCRATCH/z.json" '[(b["unit"], b["verdict"], b.get("reason")) for b in d["benchmarks"]]')"
expect_in "$OUT" "compared as (new + 1) / (old + 1)"

# lines: a count unit going 1 -> 0 is fewer faults, a pass
for i in 1 2 3 4 5 6 7 8; do echo "load 1 faults"; done >"$SCRATCH/old.lines"
for i in 1 2 3 4 5 6 7 8; do echo "load 0 faults"; done >"$SCRATCH/new.lines"
gate_run 0 compare "$SCRATCH/old.lines" "$SCRATCH/new.lines" --json "$SCRATCH/f.json"
[ "$(json_get "$SCRATCH/f.json" 'd["benchmarks"][0]["verdict"]')" = pass ] ||
	fail "1 -> 0 faults: want a pass"

# a time of 0 is not a count: an error that names the timer
for i in 1 2 3 4 5 6 7 8; do echo "tick 0 ms"; done >"$SCRATCH/t0.lines"
for i in 1 2 3 4 5 6 7 8; do echo "tick 1 ms"; done >"$SCRATCH/t1.lines"
gate_run 3 compare "$SCRATCH/t0.lines" "$SCRATCH/t1.lines"
expect_in "$ERR" "a timer"
