# The bash and zsh completions (completion/): commands; each command's
# options, exactly those its --help documents; option values; revisions
# of the repository (or of -C DIR) from git for-each-ref, and through
# git's own completion when it is loaded (bash: __git_complete_refs, which
# also completes full ref names; zsh: __git_commits, which also offers
# recent commits), including bash-completion loading git's on demand.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
# built from completion/*.in and gate --completion SHELL, which prints the
# commands, options and option values from the option rows (Makefile)
COMPDIR=$(dirname "${GATE_BIN:-$GATE}")/completion
BASHCOMP=$COMPDIR/gate.bash
[ -f "$BASHCOMP" ] && [ -f "$COMPDIR/_gate" ] ||
	fail "no $COMPDIR/gate.bash and _gate: make builds them"
! grep -q "@GENERATED@" "$BASHCOMP" "$COMPDIR/_gate" ||
	fail "a completion file still has @GENERATED@ in it"
GITCOMP=/usr/share/bash-completion/completions/git
FRAMEWORK=/usr/share/bash-completion/bash_completion
for f in "$GITCOMP" "$FRAMEWORK"; do
	[ -f "$f" ] || fail "no $f: run ci/install-deps (git, bash-completion)"
done
command -v zsh >/dev/null || fail "no zsh: run ci/install-deps"

R=$SCRATCH/repo
new_repo "$R"
echo x >"$R/file"
commit_all "$R" one
git -C "$R" branch feature
git -C "$R" tag v1
mkdir -p "$SCRATCH/elsewhere"
cd "$SCRATCH/elsewhere" || fail "cd"

# bcomp SETUP LINE: bash's completions of LINE after SETUP, one a line
bcomp() {
	bash --norc --noprofile -c '
		eval "$1"
		. "$2"
		read -ra COMP_WORDS <<<"$3"
		case $3 in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$3 COMP_POINT=${#3}
		_gate
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" |
			LC_ALL=C sort
		[ -z "$4" ] || declare -F "$4" >/dev/null ||
			echo "$4 is not defined"' \
		bcomp "$1" "$BASHCOMP" "$2" "${3:-}" 2>"$ERR"
}
# zcomp LINE...: zsh's, "N<TAB>match" for the Nth LINE (one shell for all)
zcomp() {
	zsh -f "$root/tests/cli/zcomp.zsh" "$COMPDIR" "$@" 2>"$ERR" ||
		fail "zsh completion of \"$*\" failed"
}
# zone LINE: zsh's completions of one LINE, one a line
zone() {
	zcomp "$1" | cut -f2-
}
# want SHELL LINE GOT WANTED...: GOT (lines) is exactly WANTED
want() {
	wsh=$1 wline=$2 wgot=$3
	[ "$wsh" != zsh-lines ] || return 0
	shift 3
	w=$([ $# -eq 0 ] || printf '%s\n' "$@" | LC_ALL=C sort)
	[ "$wgot" = "$w" ] ||
		fail "$wsh completes \"$wline\" to [$(echo $wgot)], want [$(echo $w)]"
}

# the formats gate compare takes, from its own table (gate/format/)
"$GATE" compare --format zzzzzzzz a b >"$OUT" 2>"$ERR"
formats=$(sed -n 's/.*--format must be one of \(.*\); got.*/\1/p' "$ERR" | tr -d ,)
[ -n "$formats" ] || fail "gate compare --format names no list: $(cat "$ERR")"
# every command's options as its --help documents them (-C is gate's own,
# completed before the command)
cmds="run calibrate doctor compare init record trend bisect merge export"
python3 "$root/tests/cli/man-check.py" --help-options "$GATE" $cmds \
	>"$SCRATCH/helped" || fail "man-check.py --help-options failed"
# zsh is asked every line in one shell (compinit takes a second): a first
# pass only collects the lines (want checks nothing), the answers are
# then looked up by the line's place in that list
ZLINES=$SCRATCH/zlines ZOUT=$SCRATCH/zout
: >"$ZLINES"
for sh in bash zsh-lines zsh; do
	case $sh in
	bash) c() { bcomp : "$1"; } ;;
	zsh-lines) c() { printf '%s\n' "$1" >>"$ZLINES"; } ;;
	zsh)
		set --
		while IFS= read -r zl; do set -- "$@" "$zl"; done <"$ZLINES"
		zcomp "$@" >"$ZOUT"
		c() {
			zi=$(grep -nxFm1 -- "$1" "$ZLINES" | cut -d: -f1)
			sed -n "s/^$zi	//p" "$ZOUT"
		} ;;
	esac
	want $sh "gate " "$(c "gate ")" run calibrate doctor compare init \
		record trend bisect merge export help
	want $sh "gate -" "$(c "gate -")" -C --help --version
	want $sh "gate help c" "$(c "gate help c")" calibrate compare
	want $sh "gate run --b" "$(c "gate run --b")" --base --budget
	want $sh "gate run --color " "$(c "gate run --color ")" auto always never
	want $sh "gate trend --confidence " "$(c "gate trend --confidence ")"
	want $sh "gate compare --metric " "$(c "gate compare --metric ")" wall cpu
	want $sh "gate compare --format g" "$(c "gate compare --format g")" \
		gate gbench gotest
	# every format compare reads, as gate's format table lists them
	want $sh "gate compare --format " "$(c "gate compare --format ")" \
		$formats
	want $sh "gate export --format " "$(c "gate export --format ")" \
		bencher csv
	# a command's operands: revisions for trend's RANGE
	want $sh "gate -C R trend f" "$(c "gate -C $R trend f")" feature
	want $sh "gate -C R bisect --good f" "$(c "gate -C $R bisect --good f")" \
		feature
	# revisions: here is not a repository; -C names one
	want $sh "gate -C R run --base " "$(c "gate -C $R run --base ")" \
		HEAD feature main v1
	want $sh "gate -C R calibrate --rev f" "$(c "gate -C $R calibrate --rev f")" \
		feature
	want $sh "gate -C R run --head " "$(c "gate -C $R run --head ")" \
		HEAD WORKTREE feature main v1
	# every command's options are the ones its --help documents
	for cmd in $cmds; do
		want $sh "gate $cmd -" "$(c "gate $cmd -")" \
			$(sed -n "s/^$cmd	//p" "$SCRATCH/helped" | grep -vx -- -C)
	done
done
# from inside the repository, without -C
cd "$R" || fail "cd"
want bash "gate run --base " "$(bcomp : "gate run --base ")" HEAD feature main v1
want zsh "gate run --base " "$(zone "gate run --base ")" HEAD feature main v1
cd "$SCRATCH/elsewhere" || fail "cd"

# bash with git's completion loaded: its refs, full names included (the
# fallback has no refs/... names)
want bash "gate -C R run --base refs/h (git's)" \
	"$(bcomp ". $GITCOMP" "gate -C $R run --base refs/h")" \
	refs/heads/feature refs/heads/main
want bash "gate -C R run --base refs/h (fallback)" \
	"$(bcomp : "gate -C $R run --base refs/h")"
# bash-completion's framework, git's completion not loaded yet: loaded
want bash "gate -C R run --base refs/t (bash-completion)" \
	"$(bcomp ". $FRAMEWORK; declare -F __git_complete_refs && echo loaded" \
		"gate -C $R run --base refs/t" __git_complete_refs)" refs/tags/v1

# zsh with its git completion loaded (a git completion first): recent
# commits too
head=$(git -C "$R" rev-parse --short HEAD)
got=$(ZCOMP_FIRST="git log " zone "gate -C $R run --base ")
want zsh "gate -C R run --base (git's)" "$got" HEAD feature main v1 "$head"
exit 0
