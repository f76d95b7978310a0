# A benchmark that leaves a background process behind: the process is
# killed with the sample's process group, and the sample still completes:
# gate ends long before the daemon's 61 s would (40 s leaves room for
# valgrind on a loaded machine).
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
new_repo "$R"
printf '#!/bin/sh\nsleep 61.1313 >/dev/null 2>&1 &\nsleep 0.01\n' >"$R/bench.sh"
chmod +x "$R/bench.sh"
write_config "$R"
commit_all "$R" base
start=$(date +%s)
gate_measured -C "$R" run --base HEAD --head HEAD
[ $(( $(date +%s) - start )) -lt 40 ] || fail "gate waited for the daemon"
no_process "sleep 61.1313"
exit 0
