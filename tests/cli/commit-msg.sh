# The project's own commit rule, tools/hooks/commit-msg (ARCHITECTURE.md,
# "How we work"): through a real git commit with core.hooksPath set, a
# subject of at most 72 characters, a blank line and a body land; a long
# subject, a missing body or a body glued to the subject are refused and
# the branch does not move; git's own merge subjects are let through.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
R=$SCRATCH/repo
new_repo "$R"
echo a >"$R/f"
commit_all "$R" first
git -C "$R" config core.hooksPath "$root/tools/hooks"
n=0
# try EXPECT MESSAGE: commit a change with MESSAGE; EXPECT is ok or no
try() {
	n=$((n + 1))
	echo "$n" >"$R/f"
	git -C "$R" add f
	before=$(git -C "$R" rev-parse HEAD)
	if git -C "$R" commit -q -F - >"$OUT" 2>"$ERR" <<MSG
$2
MSG
	then got=ok; else got=no; fi
	[ "$got" = "$1" ] || fail "commit \"$2\": expected $1, got $got: $(cat "$ERR")"
	if [ "$got" = no ]; then
		[ "$(git -C "$R" rev-parse HEAD)" = "$before" ] ||
			fail "a refused commit moved the branch: $2"
		git -C "$R" reset -q
	fi
}
long=$(printf 'x%.0s' $(seq 73))
try ok "a subject

and a body that says why."
try ok "$(printf 'y%.0s' $(seq 72))

72 characters are allowed."
try no "$long

a body"
expect_in "$ERR" "the subject is 73 characters, at most 72"
try no "a subject alone"
expect_in "$ERR" "no body"
try no "a subject
glued to its body"
expect_in "$ERR" "a blank line between it and the body"
try ok "Merge branch 'topic'"
