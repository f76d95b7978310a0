# gate doctor checks the noise sources and explains them; it needs no
# repository and never fails for what it finds.
. "$(dirname "$0")/lib.sh"
cd "$SCRATCH"
gate_run 0 doctor
for item in cpus smt governor turbo virtualisation load isolation counters aslr; do
	expect_in "$OUT" " $item"
done
expect_in "$OUT" "warning"
gate_run 3 doctor --bogus
exit 0
