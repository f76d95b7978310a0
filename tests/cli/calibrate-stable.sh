# gate calibrate's recommendation is stable only when each half of the
# pairs recommends what all of them do: two halves that agree with each
# other can both differ from the whole (lz4's compress-1: halves 0.165,
# all 0.21, called stable). Here the allocations are equal in both
# checkouts for the first 3 pairs and 30% more in one of them after, so
# at 6 pairs each half has no spread and the whole has much.
. "$(dirname "$0")/lib.sh"
# its benchmark writes outside the checkout (a log in $SCRATCH, which holds
# the repository): the write sandbox would refuse it, so it runs unsealed
GATE_SANDBOX=off
# a run that counts allocations alone runs both arms at once, and the
# program's shared counter file then hands out its turns in any order:
# one at a time, the shift falls where the test says (a clean-clone CI
# run said "stable" once without this)
GATE_COUNT_JOBS=1
export GATE_SANDBOX GATE_COUNT_JOBS
needs_os "allocation counting"
U=$SCRATCH/shift
new_repo "$U"
cat >"$U/work.c" <<C
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen("$SCRATCH/count", "r+");
	char cwd[4096];
	long r = 0, i, n = 50;
	if (!f)
		f = fopen("$SCRATCH/count", "w+");
	if (fscanf(f, "%ld", &r) != 1)
		r = 0;
	r++;
	rewind(f);
	fprintf(f, "%ld\n", r);
	fclose(f);
	if (r > 6 && getcwd(cwd, sizeof(cwd)) && strlen(cwd) > 2 &&
	    !strcmp(cwd + strlen(cwd) - 2, "/b"))
		n = 65;
	for (i = 0; i < n; i++)
		free(malloc(64));
	return 0;
}
C
cat >"$U/gate.json" <<'JSON'
{
  "version": 1,
  "build": "cc -O0 -o work work.c",
  "defaults": { "warmup": 0, "timeout": 20 },
  "benchmarks": [ { "name": "work", "run": ["./work"], "metric": "allocs" } ]
}
JSON
commit_all "$U" shift
gate_run 0 -C "$U" calibrate --rebuild --pairs 6 --seed 1
expect_not_in "$OUT" "stable: both halves of the 6 pairs"
expect_not_in "$OUT" "stable: each half of the 6 pairs"
expect_in "$ERR" "the halves of the pairs disagree; measuring up to 12 pairs"
# each doubling says how long the pairs it adds will take, at the time a
# pair took so far (calibrate has no budget; xxhash's three benchmarks
# took 10 minutes, said nowhere)
grep -Eq "measuring up to 12 pairs \(about [0-9]+ (s|min) more\)" "$ERR" ||
	fail "the doubling should say how long the added pairs will take"
