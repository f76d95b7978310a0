# gate bisect on a chain of 16 commits after a good one, where commit 11
# doubles the allocations (a counted metric: exact, never noisy): it names
# commit 11 in at most 5 steps (the confirming run and four halvings); with
# commit 7 unbuildable it still does; with commit 8 (the first middle)
# unbuildable it skips it and still does; a chain with no regression stops
# at the first check with exit 0; a culprit whose parent cannot be built
# leaves a range (exit 2).
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting"

# chain REPO BROKEN...: c0 (good) and c1..c16; c11 on allocate twice per
# item; the commits named in BROKEN have a build that fails.
chain() {
	new_repo "$1"
	cat >"$1/gate.json" <<'JSON'
{ "build": "sh build.sh",
  "benchmarks": [ { "name": "work", "run": ["./work"],
    "metrics": ["allocs", "wall"], "gate": ["allocs"],
    "pairs": 2, "warmup": 0 } ] }
JSON
	r=$1
	shift
	for k in $(seq 0 16); do
		n=1
		[ "$k" -ge 11 ] && [ "${REGRESS:-1}" = 1 ] && n=2
		cat >"$r/work.c" <<C
#include <stdlib.h>
/* commit $k */
int main(void)
{
	long i, j;

	for (i = 0; i < 500; i++)
		for (j = 0; j < $n; j++)
			free(malloc(16 + (size_t)i));
	return 0;
}
C
		echo "cc -O0 -o work work.c" >"$r/build.sh"
		for b in "$@"; do
			[ "$b" = "$k" ] && echo "echo 'commit $k does not build' >&2; exit 1" >"$r/build.sh"
		done
		commit_all "$r" "commit $k"
	done
}

# the 16 commits: c11 is HEAD~5
R=$SCRATCH/repo
chain "$R"
gate_run 1 -C "$R" bisect --good HEAD~16 --bad HEAD --seed 1
expect_in "$OUT" "culprit: $(git -C "$R" rev-parse HEAD~5)"
expect_in "$OUT" "subject: commit 11"
expect_in "$OUT" "author: tester <tester@example.invalid>"
expect_in "$OUT" "work: +100.0% against its parent $(git -C "$R" rev-parse --short=12 HEAD~6)"
steps=$(sed -n 's/^steps: \([0-9]*\) .*/\1/p' "$OUT")
[ -n "$steps" ] && [ "$steps" -le 5 ] || fail "took $steps steps, want at most 5"
[ "$(grep -c '^gate: step ' "$ERR")" -eq "$steps" ] || fail "not one line per step"

R7=$SCRATCH/repo7
chain "$R7" 7
gate_run 1 -C "$R7" bisect --good HEAD~16 --bad HEAD --seed 1
expect_in "$OUT" "subject: commit 11"

# the first middle (commit 8) does not build: skipped, like git bisect skip
R8=$SCRATCH/repo8
chain "$R8" 8
gate_run 1 -C "$R8" bisect --good HEAD~16 --bad HEAD --seed 1
expect_in "$OUT" "subject: commit 11"
expect_in "$ERR" "commit 8) against"
expect_in "$ERR" "skipped (cannot build or measure)"
expect_in "$OUT" "(1 skipped)"

# the culprit's parent does not build: only a range, both commits listed
R10=$SCRATCH/repo10
chain "$R10" 10
gate_run 2 -C "$R10" bisect --good HEAD~16 --bad HEAD --seed 1
expect_in "$OUT" "range: the regression came in after"
expect_in "$OUT" "commit 10 (skipped)"
expect_in "$OUT" "commit 11"

# no regression: stops at the first check
RN=$SCRATCH/repon
REGRESS=0 chain "$RN"
gate_run 0 -C "$RN" bisect --good HEAD~16 --bad HEAD --seed 1
expect_in "$OUT" "the regression does not reproduce"
expect_in "$OUT" "steps: 1,"

# bad input
gate_run 3 -C "$R" bisect --good HEAD
expect_in "$ERR" "needs --good REV and --bad REV"
gate_run 3 -C "$R" bisect --good HEAD --bad HEAD~3
expect_in "$ERR" "is not a first-parent ancestor"
gate_run 3 -C "$R" bisect --good HEAD~2 --bad HEAD --benchmark nothing
expect_in "$ERR" "no benchmark \"nothing\""
