# gate/ by stage: the include graph of the sources has no cycle among
# modules and no edge from a lower stage to a higher one (the order is
# tests/cli/include-graph.py's STAGES); no source file is left at gate/'s
# top but gate.c and main.c; and the README's Layout section and
# ARCHITECTURE.md name every directory of gate/.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$root/tests/cli/include-graph.py" "$root" --stages >"$OUT" 2>&1 ||
	fail "the include graph has cycles or upward edges"
grep -q " 0 cycles$" "$OUT" || fail "no cycle count printed"
for f in "$root"/gate/*.[ch]; do
	case ${f##*/} in
	gate.c | main.c) ;;
	*) fail "${f#"$root"/} sits at gate/'s top: give it its stage's folder" ;;
	esac
done
layout=$(sed -n '/^## Layout/,/^## /p' "$root/README.md")
for d in "$root"/gate/*/; do
	d=${d%/}
	d=gate/${d##*/}
	printf '%s\n' "$layout" | grep -q "$d/" ||
		fail "README's Layout section does not name $d/"
	grep -q "| $d/ |" "$root/ARCHITECTURE.md" ||
		fail "ARCHITECTURE.md has no row for $d/"
done
exit 0
