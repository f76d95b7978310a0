# gate doctor checks the noise sources and explains them; it needs no
# repository and never fails for what it finds. Every line must be true on
# the machine it runs on (doctor-faked.sh checks each against faked /proc
# and /sys); on the OS layer's stub every fact is unknown, never "ok".
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
gate_run 0 doctor
for item in cpus smt governor turbo virtualisation load isolation counters aslr; do
	expect_in "$OUT" " $item"
done
expect_in "$OUT" "warning"
gate_run 3 doctor --bogus

if [ -n "${GATE_OS_STUB:-}" ]; then
	# the stub knows nothing of the machine: "??", never "ok", and no
	# warning made up from an unknown (a VM it cannot see)
	gate_run 0 doctor
	for item in smt governor turbo virtualisation isolation aslr; do
		grep -q "^??   $item *unknown" "$OUT" ||
			fail "the stub's $item must be unknown (??)"
	done
	expect_in "$OUT" "not supported on this system"
	expect_not_in "$OUT" "counters       available"
	# GATE_SYSROOT fakes Linux's files: the stub reads none of them
	mkdir -p "$SCRATCH/root/proc"
	printf 'model name\t: Fake CPU\n' >"$SCRATCH/root/proc/cpuinfo"
	GATE_SYSROOT=$SCRATCH/root gate_run 0 doctor
	expect_not_in "$OUT" "Fake CPU"
fi
exit 0
