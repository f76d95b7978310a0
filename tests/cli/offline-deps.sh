# A test run needs no network once ci/install-deps has run: make check
# installs only what is missing (the README's promise on a fresh machine),
# and with everything there ci/install-deps runs no installer; make
# check-deps says what is missing without running apt-get, sudo or npm.
# Here dpkg-query is faked to say zsh is not installed, and apt-get, sudo
# and npm are fakes that log their calls and fail.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v make >/dev/null 2>&1 || skip "no make"
F=$SCRATCH/bin
LOG=$SCRATCH/network.log
mkdir -p "$F"
cat >"$F/dpkg-query" <<'SH'
#!/bin/sh
for p; do :; done
case "$p" in
zsh) echo "unknown ok not-installed" ;;
*) echo "install ok installed" ;;
esac
SH
for t in apt-get sudo npm; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$t" "$LOG" >"$F/$t"
done
chmod +x "$F"/*
: >"$LOG"

for goal in check-deps; do
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$F:$PATH" make -C "$root" \
		--no-print-directory BUILD="$SCRATCH/build" "$goal" \
		>"$OUT" 2>"$ERR" && fail "make $goal passed with zsh missing"
	[ ! -s "$LOG" ] || fail "make $goal reached for the network: $(cat "$LOG")"
	expect_in "$ERR" "missing packages zsh"
	expect_in "$ERR" "run ci/install-deps"
	[ ! -e "$SCRATCH/build/gate" ] || fail "make $goal built gate anyway"
done

# the script alone, in a copy of the tree: without the validator it says
# so; with everything there it passes, silently; neither installs
T=$SCRATCH/tree
mkdir -p "$T/ci"
cp "$root/ci/install-deps" "$T/ci/"
PATH="$F:$PATH" "$T/ci/install-deps" --offline >"$OUT" 2>"$ERR" &&
	fail "install-deps --offline passed with zsh and the validator missing"
expect_in "$ERR" "missing packages zsh and the workflow validator"
printf '#!/bin/sh\necho "install ok installed"\n' >"$F/dpkg-query"
PATH="$F:$PATH" "$T/ci/install-deps" --offline >"$OUT" 2>"$ERR" &&
	fail "install-deps --offline passed with the validator missing"
expect_in "$ERR" "missing the workflow validator"
expect_not_in "$ERR" "packages"
mkdir -p "$T/tools/node_modules/.bin"
printf '#!/bin/sh\n' >"$T/tools/node_modules/.bin/action-validator"
chmod +x "$T/tools/node_modules/.bin/action-validator"
PATH="$F:$PATH" "$T/ci/install-deps" --offline >"$OUT" 2>"$ERR" ||
	fail "install-deps --offline failed with everything there"
[ ! -s "$OUT" ] && [ ! -s "$ERR" ] || fail "install-deps --offline was not silent"
[ ! -s "$LOG" ] || fail "install-deps --offline reached for the network: $(cat "$LOG")"
# and once everything is there, the installing run (make check's deps)
# installs nothing: a test run after ci/install-deps needs no network
PATH="$F:$PATH" "$T/ci/install-deps" >"$OUT" 2>"$ERR" ||
	fail "install-deps failed with everything there"
[ ! -s "$LOG" ] || fail "install-deps reached for the network with everything there: $(cat "$LOG")"
exit 0
