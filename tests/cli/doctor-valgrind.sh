# gate doctor says whether valgrind is there, and its version: it counts
# instructions where perf cannot and is the only source of "cycles".
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
mkdir -p "$SCRATCH/vgbin" "$SCRATCH/empty"
printf '#!/bin/sh\necho valgrind-3.99.1\n' >"$SCRATCH/vgbin/valgrind"
chmod +x "$SCRATCH/vgbin/valgrind"
GATE_VALGRIND=$SCRATCH/vgbin/valgrind gate_run 0 doctor
grep -q "^ok   valgrind *valgrind-3.99.1 ($SCRATCH/vgbin/valgrind)" "$OUT" ||
	fail "no valgrind line with its version"
# one that prints nothing: there, its version unknown
printf '#!/bin/sh\nexit 0\n' >"$SCRATCH/vgbin/valgrind"
GATE_VALGRIND=$SCRATCH/vgbin/valgrind gate_run 0 doctor
expect_in "$OUT" "valgrind       version unknown"
# none: a note saying what cannot be measured and what to install
GATE_VALGRIND= PATH=$SCRATCH/empty gate_run 0 doctor
grep -q "^note valgrind *not installed" "$OUT" || fail "no note for a missing valgrind"
expect_in "$OUT" '"cycles" (cachegrind'"'"'s cache simulation) cannot be measured here'
expect_in "$OUT" "apt-get install valgrind"
exit 0
