# A hostile pull request cannot reach outside its arm's sandbox (issue 34):
# one fixture whose honest run fails (head sleeps 8 times longer), and
# attempts that each change only a file base's unchanged "build" or "run"
# runs. Each would have passed or hidden the regression with a seal of
# gate's own (the other arm rewritten during the builds, base's kept
# build output poisoned for the next pull request, a program left in
# ~/.local/bin, the CI's files, gate's own stdout through /proc, leftovers
# deeper than the reaper's 64 generations, base's file times and page
# cache, a debugger on gate); in a sandbox per arm none reaches its target
# and every one fails.
. "$(dirname "$0")/lib.sh"
sandbox_starts || skip "bubblewrap cannot start a sandbox here (not installed, or user namespaces refused)"
needs_os "namespaces"
# the sandbox is demanded: a machine where it cannot start is an error,
# never a quiet fallback to the seals this test is about
GATE_SANDBOX=bwrap
export GATE_SANDBOX
R=$SCRATCH/repo
new_repo "$R"
mkdir -p "$R/data" "$HOME/.local/bin"
PATH="$HOME/.local/bin:$PATH"
export PATH
scale=${GATE_TEST_TIME_SCALE:-1}
awk "BEGIN { print 0.05 * $scale }" >"$R/data/t"
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
sleep "$(cat data/t)"
# a helper the machine may have (none here): whoever can put one on PATH
# slows this arm down
if command -v gate-helper >/dev/null 2>&1; then gate-helper; fi
echo done
SH
printf '#!/bin/sh\nmkdir -p out\ncp bench.sh out/bench\n' >"$R/build.sh"
chmod +x "$R/bench.sh" "$R/build.sh"
echo out/ >"$R/.gitignore"
cat >"$R/gate.json" <<'JSON'
{ "version": 1,
  "build": "sh build.sh",
  "defaults": { "pairs": 6, "max_pairs": 12, "warmup": 0, "min_effect": 0.5,
                "timeout": 20 },
  "benchmarks": [ { "name": "sleep", "run": ["./out/bench"] } ] }
JSON
commit_all "$R" base
git -C "$R" branch base

# the CI's files, as GitHub's runner names them: no arm may write them
for f in output summary env; do : >"$SCRATCH/gh-$f"; done
GITHUB_OUTPUT=$SCRATCH/gh-output GITHUB_STEP_SUMMARY=$SCRATCH/gh-summary \
GITHUB_ENV=$SCRATCH/gh-env
export GITHUB_OUTPUT GITHUB_STEP_SUMMARY GITHUB_ENV

n=0
# attempt NAME: a branch from base with the regression; the caller adds
# its trick, then run_attempt commits it and runs gate, which must fail
attempt() {
	git -C "$R" checkout -q -b "$1" base
	awk "BEGIN { print 0.4 * $scale }" >"$R/data/t"
}
run_attempt() {
	git -C "$R" add -A
	git -C "$R" commit -q -m "$1"
	n=$((n + 1))
	"$GATE" -C "$R" run -v --base base --head HEAD \
		--json "$SCRATCH/$n.json" >"$OUT" 2>"$ERR"
	got=$?
	echo "attempt $n ($1): exit $got"
	[ "$got" -eq 1 ] || fail "attempt $n ($1) exited $got, want 1 (fail)"
	expect_in "$OUT" "a sandbox per arm"
}

# 1. head's build rewrites base's checkout while both arms build: base's
#    data then says 0.9 s and head looks 2 times faster
attempt rewrite-other-arm
cat >>"$R/build.sh" <<'SH'
for d in .. ../.. "$GIT_DIR/.." "$GIT_DIR/../.."; do
	for t in "$d"/*/data/t "$d"/gate/*/data/t; do
		[ -f "$t" ] && ! [ "$t" -ef data/t ] && echo 0.9 >"$t" 2>/dev/null
	done
done
true
SH
run_attempt "rewrite base's data from head's build"
for t in "$R"/.git/gate/*/data/t; do
	grep -q 0.9 "$t" && fail "head's build rewrote $t"
done

# 1b. the same race on base's untracked build output, which is kept: head's
#     build waits for base's out/bench and makes it sleep 0.9 s; the next,
#     honest pull request against that base (the same regression, no
#     trick) would reuse the poisoned build and pass
attempt poison-kept
cat >>"$R/build.sh" <<'SH'
for i in $(seq 40); do
	for d in .. ../.. "$GIT_DIR/.." "$GIT_DIR/../.."; do
		for o in "$d"/*/out/bench "$d"/gate/*/out/bench; do
			if [ -f "$o" ] && ! [ "$o" -ef out/bench ]; then
				printf '#!/bin/sh\nsleep 0.9\necho done\n' >"$o" 2>/dev/null &&
					exit 0
			fi
		done
	done
	sleep 0.05
done
true
SH
run_attempt "rewrite base's kept build output from head's build"
attempt honest-next
run_attempt "the next pull request, honest"
grep -l 'sleep 0.9' "$R"/.git/gate/*/out/bench 2>/dev/null &&
	fail "head's build rewrote a kept build's out/bench"

# 2. head's build leaves a program on PATH (~/.local/bin, first on PATH on
#    GitHub's runners) that only base's samples would run
attempt local-bin
cat >>"$R/build.sh" <<'SH'
mkdir -p "$HOME/.local/bin" 2>/dev/null
printf '#!/bin/sh\nsleep 1\n' >"$HOME/.local/bin/gate-helper" 2>/dev/null
chmod +x "$HOME/.local/bin/gate-helper" 2>/dev/null
true
SH
run_attempt "a program in ~/.local/bin"
[ ! -e "$HOME/.local/bin/gate-helper" ] ||
	fail "head's build left ~/.local/bin/gate-helper on the machine"

# 3. head's build appends to the CI's files (a fake PASS, BASH_ENV for the
#    next steps) and writes workflow commands into gate's own output
#    through /proc
attempt ci-files
cat >>"$R/build.sh" <<SH
R='$R'
SH
cat >>"$R/build.sh" <<'SH'
for f in "$GITHUB_OUTPUT" "$GITHUB_STEP_SUMMARY" "$GITHUB_ENV"; do
	[ -n "$f" ] && echo "verdict=pass forged" >>"$f" 2>/dev/null
done
# gate's own process (this run's: other runs on the machine are not the
# target), found by its command line
for p in /proc/[0-9]*; do
	if tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "-C $R run -v"; then
		echo "::notice::forged PASS" >"$p/fd/1" 2>/dev/null
		echo "verdict: PASS forged" >"$p/fd/2" 2>/dev/null
	fi
done
true
SH
run_attempt "the CI's files and gate's stdout"
for f in output summary env; do
	[ ! -s "$SCRATCH/gh-$f" ] || fail "an arm wrote \$GITHUB_$f: $(cat "$SCRATCH/gh-$f")"
done
expect_not_in "$OUT" "forged"
expect_not_in "$ERR" "forged"

# 4. leftovers of head's build deeper than the reaper's 64 generations
#    (kept at 100 or more, each in a session of its own): the deepest
#    stops base's samples (SIGSTOP for 0.3 s each) while gate measures;
#    nothing of an arm outlives its sandbox
attempt leftovers
marker=$$4242
cat >"$R/chain-$marker.py" <<PY
R, MARK = '$R', 'sleep 600.$marker'
PY
cat >>"$R/chain-$marker.py" <<'PY'
import os, signal, time
def extend(n):
    # each parent becomes a link of the chain (a sleep), the child goes on
    for _ in range(n):
        if os.fork():
            os.execvp("sleep", MARK.split())
        os.setsid()
def depth():
    d, p = 0, os.getppid()
    while p > 1:
        try:
            if open("/proc/%d/cmdline" % p, "rb").read().replace(b"\0", b" ").strip() != MARK.encode():
                break
            p = int(open("/proc/%d/stat" % p).read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
        d += 1
    return d
extend(150)
open(".chain-ready", "w").close()
own, end = os.path.realpath("."), time.time() + 30
while time.time() < end:
    if depth() < 100:
        extend(100)
    for p in os.listdir("/proc"):
        try:
            c = os.readlink("/proc/%s/cwd" % p)
        except OSError:
            continue
        if c.startswith(R + "/") and c != own and os.path.isfile(c + "/data/t"):
            try:
                os.kill(int(p), signal.SIGSTOP)
                time.sleep(0.3)
                os.kill(int(p), signal.SIGCONT)
            except OSError:
                pass
    time.sleep(0.02)
PY
cat >>"$R/build.sh" <<SH
setsid python3 chain-$marker.py >/dev/null 2>&1 </dev/null &
for i in \$(seq 100); do [ -e .chain-ready ] && break; sleep 0.05; done
true
SH
run_attempt "leftovers deeper than 64 generations"
sleep 1
left=$(pgrep -f "chain-$marker|sleep 600.$marker")
if [ -n "$left" ]; then
	for p in $left; do kill -KILL "$p"; done
	fail "$(echo $left | wc -w) leftovers of head's build outlived gate"
fi

# 5. head's sample sets base's file times back (its Python would compile
#    again) and evicts its data from the page cache
attempt file-times
cat >"$R/bench.sh" <<'SH'
#!/bin/sh
for t in ../*/data/t ../../*/data/t; do
	[ "$t" -ef data/t ] || touch -d 2001-01-01 "$t" 2>/dev/null
done
sleep "$(cat data/t)"
echo done
SH
run_attempt "base's file times from head's sample"
old=$(find "$R/.git/gate" -path '*/data/t' ! -newermt 2002-01-01)
[ -z "$old" ] || fail "head's sample changed the time of $old"

# 5b. head's sample evicts base's data file from the page cache (a
#     read-only open and posix_fadvise, here dd's nocache): when it can
#     open that file at all, it stands in for the slowdown eviction gives
#     base by sleeping base's time itself, so a leak passes
attempt page-cache
cat >"$R/bench.sh" <<SH
#!/bin/sh
d=\$(cat data/t)
for t in ../*/data/t ../../*/data/t "$R"/.git/gate/*/data/t; do
	if [ -f "\$t" ] && ! [ "\$t" -ef data/t ] &&
	   dd if="\$t" iflag=nocache count=0 2>/dev/null; then
		d=\$(cat "\$t")
	fi
done
sleep "\$d"
echo done
SH
run_attempt "evict base's data from head's sample"

# 5c. head's build attaches a debugger to gate (hosted runners have
#     passwordless sudo) and makes it exit 0; where no gdb is installed
#     it attaches through ptrace(2) alone and leaves a mark in its output
attempt debugger
cat >>"$R/build.sh" <<SH
R='$R'
SH
cat >>"$R/build.sh" <<'SH'
for p in /proc/[0-9]*; do
	tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "-C $R run -v" || continue
	pid=${p#/proc/}
	python3 - "$pid" <<'PY' >>out/traced 2>/dev/null
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
pid = int(sys.argv[1])
if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
    os.waitpid(pid, 0)
    libc.ptrace(17, pid, None, None)  # PTRACE_DETACH
    print("attached to", pid)
PY
	command -v gdb >/dev/null &&
		gdb -q -p "$pid" -batch -ex 'call (void)_exit(0)' >/dev/null 2>&1
done
true
SH
run_attempt "a debugger on gate from head's build"
if grep -s attached "$R"/.git/gate/*/out/traced; then
	fail "head's build attached to gate"
fi

# 5d. head's build asks a daemon of the machine (Docker's socket is in
#     /run, and the runner's user may use it) to rewrite base's data for
#     it: the stand-in daemon runs what it is sent, outside any sandbox.
#     Connecting to a socket needs no write, so a read-only /run is not
#     enough: the sandbox has a /run of its own. Tried where /run is
#     writable (as root)
sock=/run/gate-test-daemon-$$.sock
if python3 - "$sock" <<'PY' 2>/dev/null
import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])
PY
then
	rm -f "$sock"
	python3 - "$sock" >"$SCRATCH/daemon.log" 2>&1 <<'PY' &
import os, socket, subprocess, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
s.settimeout(1)
end = time.time() + 120
while time.time() < end and os.path.exists(sys.argv[1]):
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    cmd = c.recv(4096).decode()
    print("ran:", cmd, flush=True)
    subprocess.run(["sh", "-c", cmd])
    c.close()
PY
	daemon=$!
	attempt daemon
	printf "R='%s' SOCK='%s'\n" "$R" "$sock" >>"$R/build.sh"
	cat >>"$R/build.sh" <<'SH'
python3 - "$R" "$SOCK" <<'PY' 2>/dev/null
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[2])
s.send(('for t in %s/.git/gate/*/data/t; do [ "$t" -ef %s/data/t ] || '
        'echo 0.9 >"$t"; done' % (sys.argv[1], os.getcwd())).encode())
PY
true
SH
	run_attempt "base's data rewritten by a daemon of the machine"
	rm -f "$sock"
	kill "$daemon" 2>/dev/null
	wait "$daemon" 2>/dev/null
	! grep -q "ran:" "$SCRATCH/daemon.log" ||
		fail "head's build reached the machine's daemon: $(cat "$SCRATCH/daemon.log")"
fi

# 6. a declared build cache is each arm's own: head's build poisons it, and
#    base's build finds only what base wrote, run after run
git -C "$R" checkout -q base
sed -i 's|"build": "sh build.sh",|"build": "sh build.sh", "build_caches": ["~/.cache/gt"],|' "$R/gate.json"
printf 'echo "base $(ls ~/.cache/gt | wc -l)" >>~/.cache/gt/log\n' >>"$R/build.sh"
commit_all "$R" "a build cache"
attempt cache
printf 'echo poison >~/.cache/gt/poison\n' >>"$R/build.sh"
run_attempt "head's build poisons the cache"
echo again >>"$R/README"
run_attempt "again, another head"
[ ! -e "$HOME/.cache/gt" ] || fail "the arms' cache was the user's own"
c=$R/.git/gate/cache-base/0
[ -f "$c/log" ] && [ ! -e "$c/poison" ] || fail "base's cache has head's poison: $(ls "$c")"
[ -f "$R/.git/gate/cache-head/0/poison" ] || fail "head's cache was not kept"
exit 0
