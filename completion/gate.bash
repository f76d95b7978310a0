# bash completion for gate(1)                           -*- shell-script -*-
# Commands, options, option values, and revisions for --base, --head and
# --rev: through git's own completion (__git_complete_refs) when it is
# loaded or bash-completion can load it, else from git for-each-ref.
# Installed as .../bash-completion/completions/gate by `make install`.

_gate_options()
{
	case $1 in
	run)
		echo --base --head --config --json --seed --pairs --warmup \
			--filter --budget --strict --advisory -q --quiet \
			-v --verbose --pin --fixed-arms --no-env-pad \
			--no-scratch --markdown --html --color --policy --list \
			--shard --measure-identical ;;
	calibrate)
		echo --rev --rebuild --config --pairs --seed --write \
			-q --quiet ;;
	compare)
		echo --format --metric --filter --min-effect --pass-excludes \
			--strict --confidence --seed --json --advisory ;;
	init)
		echo --force --stdout ;;
	record)
		echo --label --samples --commit --last ;;
	trend)
		echo --label --floor --confidence --json --html ;;
	bisect)
		echo --good --bad --benchmark --budget --pairs --config \
			--seed -q --quiet ;;
	export)
		echo --format --label --commit --output --report ;;
	merge)
		echo --json --markdown --html --color --advisory --config ;;
	esac
}

# _gate_revs DIR: complete $cur as a revision of the repository at DIR
# (empty: the current directory's).
_gate_revs()
{
	if ! declare -F __git_complete_refs >/dev/null; then
		# bash-completion loads git's completion on first use of git
		if declare -F __load_completion >/dev/null; then
			__load_completion git >/dev/null 2>&1
		elif declare -F _comp_load >/dev/null; then
			_comp_load git >/dev/null 2>&1
		fi
	fi
	if declare -F __git_complete_refs >/dev/null; then
		# git's completion caches the repository: look it up afresh,
		# in DIR when gate was given -C DIR
		local __git_repo_path=
		local -a __git_C_args=()
		[ -n "$1" ] && __git_C_args=(-C "$1")
		__git_complete_refs --cur="$cur" --sfx=
		return
	fi
	local refs
	refs=$(git ${1:+-C "$1"} for-each-ref \
		--format='%(refname:short)' refs/heads refs/tags refs/remotes \
		2>/dev/null)
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "HEAD"$'\n'"$refs" -- "$cur"))
}

_gate()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= dir= i=1 w
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
	# --opt=value: bash splits at '=' (COMP_WORDBREAKS)
	if [ "$cur" = "=" ]; then
		cur=
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi

	# the global options, then the command
	while [ "$i" -lt "$COMP_CWORD" ]; do
		w=${COMP_WORDS[i]}
		case $w in
		-C)
			i=$((i + 1))
			[ "$i" -lt "$COMP_CWORD" ] && dir=${COMP_WORDS[i]} ;;
		-*) ;;
		*)
			cmd=$w
			break ;;
		esac
		i=$((i + 1))
	done
	# ~ in DIR as the shell would expand it
	case $dir in "~"*) dir=$HOME${dir#"~"} ;; esac

	if [ -z "$cmd" ]; then
		if [ "$prev" = "-C" ]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		elif [ "${cur#-}" != "$cur" ]; then
			COMPREPLY=($(compgen -W "-C --help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "run calibrate doctor compare init record trend bisect merge export help" -- "$cur"))
		fi
		return
	fi
	if [ "$cmd" = help ]; then
		[ "$i" -eq $((COMP_CWORD - 1)) ] &&
			COMPREPLY=($(compgen -W "run calibrate doctor compare init record trend bisect merge export" -- "$cur"))
		return
	fi

	case $prev in
	--base|--rev|--good|--bad|--commit)
		_gate_revs "$dir"
		return ;;
	--head)
		_gate_revs "$dir"
		COMPREPLY+=($(compgen -W WORKTREE -- "$cur"))
		return ;;
	--config|--json|--markdown|--html|--output)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--color|--colour)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	--policy)
		COMPREPLY=($(compgen -W "base head" -- "$cur"))
		return ;;
	--format)
		if [ "$cmd" = export ]; then
			COMPREPLY=($(compgen -W "bencher csv" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -W "gbench gotest lines hyperfine pytest gate criterion bencher" -- "$cur"))
		return ;;
	--metric)
		COMPREPLY=($(compgen -W "wall cpu" -- "$cur"))
		return ;;
	--seed|--pairs|--warmup|--filter|--budget|--pin|--shard|--min-effect|--pass-excludes|--confidence|--label|--floor|--benchmark)
		return ;;
	esac

	if [ "${cur#-}" != "$cur" ]; then
		COMPREPLY=($(compgen -W "$(_gate_options "$cmd")" -- "$cur"))
	elif [ "$cmd" = compare ] || [ "$cmd" = record ] ||
	     [ "$cmd" = merge ]; then
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
} &&
complete -F _gate gate
