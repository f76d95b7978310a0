# gate calibrate notes a benchmark that runs for a set time (here one
# second of CPU time, counted with clock() as xxhsum -b does, after a
# sleep of varying length): its advice says nothing of a regression.
# An ordinary benchmark gets no such note.
# Under make memcheck (GATE_TEST_TIME_SCALE 5) the child's CPU time also
# counts valgrind's own work between fork and exec: the spin and the
# sleeps' spread grow by the scale, so that overhead stays a small part.
. "$(dirname "$0")/lib.sh"
scale=${GATE_TEST_TIME_SCALE:-1}
R=$SCRATCH/repo
new_repo "$R"
cat >"$R/spin.c" <<'C'
#include <time.h>
#include <unistd.h>
int main(void)
{
	clock_t start;
	usleep((50000 + (getpid() % 8) * 40000) * SCALE);
	start = clock();
	while (clock() - start < CLOCKS_PER_SEC * SCALE)
		;
	return 0;
}
C
cat >"$R/gate.json" <<JSON
{
  "version": 1,
  "build": "cc -O0 -DSCALE=$scale -o spin spin.c",
  "defaults": { "warmup": 0, "min_effect": 5, "timeout": 60 },
  "benchmarks": [
    { "name": "spin", "run": ["./spin"] },
    { "name": "sleep", "run": ["sleep", "0.01"] }
  ]
}
JSON
commit_all "$R" spin
gate_run 0 -C "$R" calibrate --pairs 4 --seed 1 -q
expect_in "$OUT" "note: CPU time sits at $scale s"
expect_in "$OUT" "it may run for a fixed time"
[ "$(grep -c 'may run for a fixed time' "$OUT")" -eq 1 ] ||
	fail "only the spinning benchmark should get the note"
