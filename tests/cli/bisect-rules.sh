# gate bisect's step rules (issues 25 item 1, 22 section 4): a step whose
# build is byte-identical in both arms is printed as an identical build
# (not "-100.0%", from the zeroed interval of an unmeasured pass) and
# decides good; a Gate-Accept trailer on the culprit gates gate run but
# does not hide the commit from bisect, which looks for it.
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting"

# chain REPO: c0 (good) and c1..c8; c6 allocates twice per item; the other
# commits change only a comment, so their builds are byte-identical.
# ACCEPT: the trailer c6 carries, if any.
chain() {
	new_repo "$1"
	cat >"$1/gate.json" <<'JSON'
{ "build": "cc -O0 -o work work.c", "artifacts": ["work"], "sources": ["work.c"],
  "benchmarks": [ { "name": "work", "run": ["./work"],
    "metrics": ["allocs", "wall"], "gate": ["allocs"],
    "pairs": 2, "warmup": 0 } ] }
JSON
	for k in $(seq 0 8); do
		n=1
		[ "$k" -ge 6 ] && n=2
		cat >"$1/work.c" <<C
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
		git -C "$1" add -A
		if [ "$k" = 6 ] && [ -n "${ACCEPT:-}" ]; then
			git -C "$1" commit -q -m "commit $k" -m "$ACCEPT"
		else
			git -C "$1" commit -q -m "commit $k"
		fi
	done
}

R=$SCRATCH/repo
chain "$R"
gate_run 1 -C "$R" bisect --good HEAD~8 --bad HEAD --seed 1
expect_in "$OUT" "culprit: $(git -C "$R" rev-parse HEAD~2)"
# step 2 is c4 against c0: the same binary
expect_in "$ERR" "commit 4) against"
expect_in "$ERR" "good, work identical build (nothing measured)"
expect_not_in "$ERR" "-100.0%"

# the culprit accepts its regression: gate run passes it, bisect finds it
RA=$SCRATCH/accept
ACCEPT="Gate-Accept: work +150% worth it" chain "$RA"
gate_run 0 -C "$RA" run --base HEAD~3 --head HEAD~2
gate_run 1 -C "$RA" bisect --good HEAD~8 --bad HEAD --seed 1
expect_in "$OUT" "culprit: $(git -C "$RA" rev-parse HEAD~2)"
expect_in "$OUT" "subject: commit 6"
