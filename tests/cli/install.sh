# make install into a DESTDIR puts exactly the binary, the allocation
# library, the man pages and the completions where they belong, with
# install(1)'s modes; the installed gate counts allocations through the
# library it finds from its own path (LD_PRELOAD), and fails naming that
# path when it is gone; make uninstall removes every file and every
# directory install created, and keeps one that was there before — from
# its record installed with gate, so after make clean too (a build
# directory without the record); without a record it says so.
. "$(dirname "$0")/lib.sh"
needs_os "allocation counting (libgate-alloc.so)"
root=$(cd "$(dirname "$0")/../.." && pwd)
# the build this run tests (under memcheck $GATE is a valgrind wrapper)
B=$(cd "$(dirname "${GATE_BIN:-$GATE}")" && pwd)
[ -x "$B/gate" ] && [ -f "$B/libgate-alloc.so" ] ||
	fail "no gate and libgate-alloc.so in $B: run make"

# the calling make's variables (make check DEVELOPER=1, make asan's
# SANITIZE and CFLAGS), without its jobserver: install builds first, and a
# compile command other than $B's rebuilt every object of $B (Makefile,
# $(OBJ)/flags) while the other tests ran it, and left make asan's last
# tests running a gate built without the sanitizers
caller=
case ${MAKEFLAGS:-} in *" -- "*) caller="-- ${MAKEFLAGS#* -- }" ;; esac
# $B as make names it from the tree (build/dev, not /work/.../build/dev):
# an object is a target by its name, and the dependency file an install
# by another name wrote left its headers out of the build's own view
case $B in "$root"/*) BUILD_NAME=${B#"$root"/} ;; *) BUILD_NAME=$B ;; esac
# the install directories only as each call names them: the Makefile
# takes them from the environment too (perf record sets PREFIX=/usr)
unset PREFIX BINDIR DATADIR MANDIR BASHCOMPDIR ZSHCOMPDIR INSTALL_RECORD
# mk TARGET VARS...: make in the source tree, outside the calling make's
# jobserver; from make, nothing is compiled again
mk() {
	env -u MFLAGS -u MAKELEVEL MAKEFLAGS="$caller" make -C "$root" \
		--no-print-directory BUILD="$BUILD_NAME" "$@" >"$OUT" 2>"$ERR" ||
		fail "make $* failed"
	[ -z "${MAKELEVEL:-}" ] || ! grep -q -- ' -c -o ' "$OUT" ||
		fail "make $* compiled $B again under the running tests"
}
# unmk VARS...: make uninstall from a build directory that never saw the
# install (as after make clean, or from another checkout)
unmk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$root" \
		--no-print-directory BUILD="$SCRATCH/clean-build" uninstall \
		"$@" >"$OUT" 2>"$ERR" || fail "make uninstall $* failed"
}

# listing DIR: every path under DIR, relative, sorted, with its mode
listing() {
	( cd "$1" && find . -mindepth 1 -printf '%m %p\n' | sed 's| \./| |' |
		LC_ALL=C sort -k2 )
}

D=$SCRATCH/dest
# there before install: uninstall must leave it
mkdir -p "$D/usr/local/bin"
echo other >"$D/usr/local/bin/other-tool"
chmod 755 "$D/usr/local/bin/other-tool"
mk install DESTDIR="$D"
listing "$D" >"$SCRATCH/installed"
cat >"$SCRATCH/want" <<LIST
755 usr
755 usr/local
755 usr/local/bin
755 usr/local/bin/gate
755 usr/local/bin/other-tool
755 usr/local/lib
755 usr/local/lib/gate
755 usr/local/lib/gate/gate-sampler
644 usr/local/lib/gate/gate-probe.h
644 usr/local/lib/gate/gate_probe_pytest.py
644 usr/local/lib/gate/libgate-alloc.so
644 usr/local/lib/gate/libgate-probe.so
755 usr/local/share
755 usr/local/share/bash-completion
755 usr/local/share/bash-completion/completions
644 usr/local/share/bash-completion/completions/gate
755 usr/local/share/man
755 usr/local/share/man/man1
644 usr/local/share/man/man1/gate-bisect.1
644 usr/local/share/man/man1/gate-calibrate.1
644 usr/local/share/man/man1/gate-compare.1
644 usr/local/share/man/man1/gate-doctor.1
644 usr/local/share/man/man1/gate-export.1
644 usr/local/share/man/man1/gate-init.1
644 usr/local/share/man/man1/gate-merge.1
644 usr/local/share/man/man1/gate-record.1
644 usr/local/share/man/man1/gate-run.1
644 usr/local/share/man/man1/gate-trend.1
644 usr/local/share/man/man1/gate.1
755 usr/local/share/man/man5
644 usr/local/share/man/man5/gate.json.5
755 usr/local/share/man/man7
644 usr/local/share/man/man7/gate.7
755 usr/local/share
755 usr/local/share/gate
644 usr/local/share/gate/install-dirs
755 usr/local/share/zsh
755 usr/local/share/zsh/site-functions
644 usr/local/share/zsh/site-functions/_gate
LIST
LC_ALL=C sort -u -k2 "$SCRATCH/want" -o "$SCRATCH/want"
diff "$SCRATCH/want" "$SCRATCH/installed" >"$OUT" ||
	fail "make install put in $D other than the list (diff want got above)"
# what was installed is what was built and written
cmp "$B/gate" "$D/usr/local/bin/gate" || fail "the installed gate differs"
cmp "$root/man/gate-run.1" "$D/usr/local/share/man/man1/gate-run.1" ||
	fail "the installed gate-run.1 differs"
bash --norc --noprofile -c \
	". '$D/usr/local/share/bash-completion/completions/gate' && complete -p gate" \
	>"$OUT" 2>"$ERR" || fail "the installed bash completion does not load"
expect_in "$OUT" "complete -F _gate gate"

# the installed gate on a fixture: head allocates twice per item, and the
# allocs metric (exact) shows it, counted by the installed library
G=$D/usr/local/bin/gate
"$G" --version >"$OUT" 2>"$ERR" || fail "the installed gate does not run"
expect_in "$OUT" "gate "
R=$SCRATCH/repo
new_repo "$R"
write_work() {
	cat >"$R/work.c" <<C
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	unsigned long sum = 0;
	long i;

	for (i = 0; i < $1; i++) {
		char *p = malloc(16);

		p[0] = (char)i;
		sum += (unsigned char)p[0];
		free(p);
	}
	printf("%lu\n", sum % 7);
	return 0;
}
C
}
write_work 1000
cat >"$R/gate.json" <<'JSON'
{ "build": "cc -O0 -o work work.c",
  "benchmarks": [ { "name": "work", "run": ["./work"],
                    "metrics": ["allocs"] } ] }
JSON
commit_all "$R" base
write_work 2000
commit_all "$R" head
unset GATE_ALLOC_LIB LD_PRELOAD
"$G" -C "$R" run --base HEAD~1 --head HEAD --json "$SCRATCH/r.json" \
	>"$OUT" 2>"$ERR"
rc=$?
[ "$rc" -eq 1 ] || fail "the installed gate exited $rc, want 1 (allocs fail)"
json_get "$SCRATCH/r.json" \
	'[(m["name"], m["method"], m["verdict"], 1.9 < m["ratio"]["median"] < 2.1) for m in d["benchmarks"][0]["metrics"]]' \
	>"$SCRATCH/metric"
grep -qF "[('allocs', 'exact', 'fail', True)]" "$SCRATCH/metric" ||
	fail "allocs not counted as about 2x: $(cat "$SCRATCH/metric")"
# and that was the installed library: without it, gate says where it looked
mv "$D/usr/local/lib/gate/libgate-alloc.so" "$SCRATCH/lib.so"
"$G" -C "$R" run --base HEAD~1 --head HEAD >"$OUT" 2>"$ERR"
rc=$?
mv "$SCRATCH/lib.so" "$D/usr/local/lib/gate/libgate-alloc.so"
[ "$rc" -eq 3 ] || fail "without its library the installed gate exited $rc, want 3"
expect_in "$ERR" "$D/usr/local/bin/../lib/gate/libgate-alloc.so"

unmk DESTDIR="$D"
expect_not_in "$OUT" "no record"
listing "$D" >"$SCRATCH/left"
printf '755 usr\n755 usr/local\n755 usr/local/bin\n755 usr/local/bin/other-tool\n' |
	diff - "$SCRATCH/left" >"$OUT" ||
	fail "make uninstall left more (or less) than what was there before"

# BINDIR and MANDIR elsewhere: the library follows the binary; into a
# DESTDIR that does not exist, which uninstall then removes entirely
D2=$SCRATCH/dest2
mk install DESTDIR="$D2" PREFIX=/opt/gate BINDIR=/opt/gate/sbin MANDIR=/opt/gate/man
for f in opt/gate/sbin/gate opt/gate/lib/gate/libgate-alloc.so \
	 opt/gate/lib/gate/gate-sampler \
	 opt/gate/man/man1/gate-run.1 opt/gate/man/man5/gate.json.5 \
	 opt/gate/man/man7/gate.7 \
	 opt/gate/share/bash-completion/completions/gate \
	 opt/gate/share/zsh/site-functions/_gate; do
	[ -f "$D2/$f" ] || fail "make install with BINDIR and MANDIR: no $f"
done
[ "$(find "$D2" -type f | wc -l)" -eq 22 ] || fail "not 22 files in $D2"
"$D2/opt/gate/sbin/gate" -C "$R" run --base HEAD~1 --head HEAD >"$OUT" 2>"$ERR"
[ $? -eq 1 ] || fail "gate in a custom BINDIR did not count allocations"
unmk DESTDIR="$D2" PREFIX=/opt/gate BINDIR=/opt/gate/sbin MANDIR=/opt/gate/man
[ ! -e "$D2" ] || fail "make uninstall left $(find "$D2" | head -5)"

# installed twice, the record keeps what the first install created
mk install DESTDIR="$D2"
mk install DESTDIR="$D2"
unmk DESTDIR="$D2"
[ ! -e "$D2" ] || fail "make uninstall after two installs left $(find "$D2" | head -5)"
# with no record (INSTALL_RECORD=, as a package's staging tree): the files
# go, the directories stay, and uninstall says why
mk install DESTDIR="$D2" INSTALL_RECORD=
[ ! -e "$D2/usr/local/share/gate" ] || fail "INSTALL_RECORD= still recorded"
unmk DESTDIR="$D2" INSTALL_RECORD=
[ -z "$(find "$D2" -type f)" ] || fail "uninstall left files: $(find "$D2" -type f)"
[ -d "$D2/usr/local/bin" ] || fail "uninstall without a record removed directories"
mk install DESTDIR="$SCRATCH/d4"
rm "$SCRATCH/d4/usr/local/share/gate/install-dirs"
unmk DESTDIR="$SCRATCH/d4"
expect_in "$OUT" "no record of the directories make install created"

# LIBDIR cannot move the library away from where gate looks
env -u MFLAGS -u MAKELEVEL MAKEFLAGS="$caller" make -C "$root" \
	--no-print-directory BUILD="$BUILD_NAME" install DESTDIR="$SCRATCH/d3" \
	LIBDIR=/usr/lib64 >"$OUT" 2>"$ERR" &&
	fail "make install accepted LIBDIR"
expect_in "$ERR" "LIBDIR is not used"
[ ! -e "$SCRATCH/d3" ] || fail "make install with LIBDIR wrote files"
# make demo builds everything gate loads at run time: a new user's first
# allocation-count run must find libgate-alloc.so (a fresh build directory,
# so nothing is up to date; -n: the commands, not the build or the demo)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$root" --no-print-directory \
	-n BUILD="$SCRATCH/fresh-build" demo >"$OUT" 2>"$ERR" ||
	fail "make -n demo failed"
expect_in "$OUT" "fresh-build/libgate-alloc.so"
expect_in "$OUT" "fresh-build/gate"

exit 0

