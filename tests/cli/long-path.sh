# Issue 27: a path longer than PATH_MAX (here 80 directories of 60 "é",
# 9.7 KB) gives a message of at most 4 KB that keeps its start and its end
# (the reason, "File name too long"), cuts the middle with "[... N bytes
# ...]", and never cuts a UTF-8 character in two.
. "$(dirname "$0")/lib.sh"
long=$(python3 -c "print('$SCRATCH/' + '/'.join(['\u00e9' * 60] * 80))")
for args in "-C|$long|run" "run|--json|$long/r.json|--base|HEAD"; do
	R=$SCRATCH/repo
	[ -d "$R" ] || { fixture "$R" 0.01 0.01; }
	(
		cd "$R" || exit 1
		IFS='|'
		# shellcheck disable=SC2086 # split at |
		set -- $args
		LC_ALL=C "$GATE" "$@" >"$OUT" 2>"$ERR"
	)
	rc=$?
	[ "$rc" -eq 3 ] || fail "gate with a 9.7 KB path exited $rc, want 3"
	python3 - "$ERR" <<'PY' || fail "the message is not a clean, bounded one"
import re, sys
b = open(sys.argv[1], 'rb').read()
s = b.decode('utf-8')          # raises on a cut character
assert len(b) < 4200, len(b)
assert re.search(r'\u00e9\[\.\.\. \d+ bytes \.\.\.\]\u00e9', s), s[:200]
assert s.rstrip('\n').endswith(('File name too long', 'does not exist')), s[-200:]
PY
done
exit 0
