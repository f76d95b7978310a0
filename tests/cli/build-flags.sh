# -Werror is the developer's and CI's, never a user's plain make: the next
# compiler's new warning must not break their build. Plain make compiles
# a file that warns; WERROR=1 and DEVELOPER=1 (which CI uses) turn the
# same warning into a failed build, and `make -n` shows the flags each
# uses.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v make >/dev/null 2>&1 || skip "no make"
B=$SCRATCH/build
obj=$B/obj/common/seed.o
# mk VARS...: make one object into the scratch build, outside the calling
# make's jobserver and without the caller's flags (CI exports WERROR=1)
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DEVELOPER -u WERROR \
		-u CFLAGS -u CPPFLAGS make -C "$root" --no-print-directory \
		BUILD="$B" "$@" "$obj" >"$OUT" 2>"$ERR"
}

# the flags: -Wall -Wextra -Wpedantic always, -Werror only when asked
mk -n || fail "make -n failed"
grep -E '(^| )-c ' "$OUT" | grep -F -- common/seed.c >"$SCRATCH/plain" ||
	fail "make -n printed no compile line for common/seed.c"
expect_in "$SCRATCH/plain" "-Wall -Wextra -Wpedantic"
expect_not_in "$SCRATCH/plain" "-Werror"
mk -n DEVELOPER=1 || fail "make -n DEVELOPER=1 failed"
expect_in "$OUT" "-Werror"
expect_in "$OUT" "-Wshadow"
mk -n WERROR=1 || fail "make -n WERROR=1 failed"
expect_in "$OUT" "-Werror"
expect_not_in "$OUT" "-Wshadow"

# a warning the code does not have today (an unused static variable,
# forced in with -include), as a newer compiler's new warning would be
printf 'static int gate_build_flags_unused;\n' >"$SCRATCH/warn.h"
mk CPPFLAGS="-include $SCRATCH/warn.h" ||
	fail "a plain make failed on a warning"
expect_in "$ERR" "gate_build_flags_unused"
[ -s "$obj" ] || fail "a plain make built no $obj"
for knob in WERROR=1 DEVELOPER=1; do
	rm -f "$obj"
	mk "$knob" CPPFLAGS="-include $SCRATCH/warn.h" &&
		fail "make $knob built despite the warning"
	expect_in "$ERR" "gate_build_flags_unused"
	[ ! -e "$obj" ] || fail "make $knob left $obj"
done
exit 0
