#!/usr/bin/zsh -f
# zcomp.zsh FPATH_DIR LINE...: the matches zsh's completion offers when Tab
# is pressed at the end of each LINE, in one shell (compinit once: a shell
# a line cost a second each), as "N<TAB>match" lines, N the LINE's index
# from 1, sorted (tests/cli/completion.sh).
# An interactive zsh on a pseudo-terminal (zsh/zpty) loads compinit with
# FPATH_DIR first in fpath; compadd is wrapped to print what it adds.
# ZCOMP_FIRST: a line completed (and discarded) first, e.g. to load _git.
zmodload zsh/zpty || exit 2
out=
# wait_for MARK: read the shell's output until it has printed <MARK>
wait_for() {
  local n=0 chunk
  while (( n++ < 6000 )); do
    while zpty -r -t z chunk; do out+=$chunk; done
    [[ $out == *"<$1>"* ]] && return 0
    sleep 0.01
  done
  print -r -- "zcomp: no <$1> from zsh in 60 s; it printed: $out" >&2
  zpty -d z
  exit 1
}
# complete LINE: Tab at its end, then the line cleared (^U); the matches
# are what out gathered
complete() {
  out=
  zpty -n -w z "$1"$'\t'
  wait_for COMPLETED
  zpty -n -w z $'\x15'
  zpty -w z "print -r -- '<CLE''ARED>'"
  wait_for CLEARED
}
zpty z 'zsh -f -i'
zpty -w z "PS1='' PROMPT='' RPROMPT=''"
zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
# the marks are split in what is typed, so only their output matches
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits; builtin compadd -A __hits "$@"; local r=$?
  (( $#__hits )) && print -r -- "<""M>"${^__hits} >&2
  return r
}'
zpty -w z 'comptest() { zle complete-word; print -r -- "<""COMPLETED>" >&2; }'
zpty -w z 'zle -N comptest; bindkey "^I" comptest'
zpty -w z "print -r -- '<RE''ADY>'"
wait_for READY
[[ -z $ZCOMP_FIRST ]] || complete "$ZCOMP_FIRST"
shift
i=0
for line in "$@"; do
  (( i++ ))
  complete "$line"
  # the matches before the line was cleared: <COMPLETED> ends them
  print -r -- ${out%%<COMPLETED>*} | tr -d '\r' | grep -ao '<M>[^<]*' |
    sed "s/^<M>/$i	/; s/[[:space:]]*\$//" | LC_ALL=C sort -u
done
zpty -d z
