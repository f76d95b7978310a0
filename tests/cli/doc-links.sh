# Every relative link in README.md and doc/*.md leads to a file or a
# directory of the tree (tests/cli/doc-links.py), and the check does fail
# on a link to nothing.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
check="$root/tests/cli/doc-links.py"
python3 "$check" "$root/README.md" "$root"/doc/*.md >"$OUT" 2>&1 ||
	fail "a link in README.md or doc/ leads nowhere"
# README links the man pages, gate(7) among them, and doc/
grep -q '](man/gate.7)' "$root/README.md" || fail "README.md does not link gate(7)"
grep -q '](doc/' "$root/README.md" || fail "README.md links nothing in doc/"

# the check fails on a broken link, and skips code blocks and URLs
mkdir -p "$SCRATCH/d/doc"
printf '# x\n[ok](doc/a.md) [url](https://example.invalid/x) [frag](#x)\n```\n[code](nothing.md)\n```\n[gone](doc/nothing.md#part)\n' \
	>"$SCRATCH/d/README.md"
echo a >"$SCRATCH/d/doc/a.md"
python3 "$check" "$SCRATCH/d/README.md" >"$OUT" 2>&1 &&
	fail "doc-links.py passed a link to nothing"
expect_in "$OUT" "doc/nothing.md#part does not exist"
[ "$(wc -l <"$OUT")" -eq 1 ] || fail "doc-links.py named more than the one broken link"
exit 0
