# $GIT_DIR/gate unusable: not a directory, read-only, or on a full disk.
# Each is an error (exit 3) saying what and where; nothing half-written is
# trusted afterwards: once the cause is gone the next run works and its
# checkouts hold exactly the trees. The full and read-only disks need a
# tmpfs mount (root); elsewhere chmod stands in for read-only.
. "$(dirname "$0")/lib.sh"
R=$SCRATCH/repo
G=$R/.git/gate
M=
trap '[ -n "$M" ] && umount "$M" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
trap 'exit 1' INT TERM HUP	# so the EXIT trap unmounts then too
fixture "$R" 0.01 0.01
# enough data that a small filesystem fills up in the middle of a checkout
mkdir -p "$R/data"
i=0
while [ $i -lt 40 ]; do
	head -c 8192 /dev/urandom >"$R/data/f$i"
	i=$((i + 1))
done
commit_all "$R" data
# run WANT: WANT 3 (an error), or 0 for any verdict
run() {
	if [ "$1" -eq 3 ]; then
		gate_run 3 -C "$R" run --base HEAD~1 --head HEAD --pairs 6 --fixed-arms
	else
		gate_measured -C "$R" run --base HEAD~1 --head HEAD --pairs 6 --fixed-arms
	fi
}
# the head checkout (b: --fixed-arms) is HEAD's tree exactly (a clean
# working tree is HEAD)
intact() {
	diff -r -x .git "$R" "$G/b" >&2 || fail "$1: the head checkout is not HEAD's tree"
}

# not a directory
printf 'in the way\n' >"$G"
run 3
expect_in "$ERR" "$G"
rm "$G"
run 0
intact "after a file was in the way"
# gate's own directory and files are private to the user
[ "$(stat -c %a "$G")" = 700 ] || fail "$G is mode $(stat -c %a "$G"), want 700"
for f in "$G"/lock "$G"/*.build.log; do
	[ ! -e "$f" ] || [ "$(stat -c %a "$f")" = 600 ] || fail "$f is not mode 600"
done

if [ "$(id -u)" -eq 0 ] && rm -rf "$G" && mkdir "$G" &&
   mount -t tmpfs -o size=128k,mode=0700 tmpfs "$G" 2>/dev/null; then
	M=$G
	# full: the checkouts need about 700 KiB
	run 3
	expect_in "$ERR" "No space left on device"
	mount -o remount,size=16m "$G"
	run 0
	intact "after a full disk"
	# read-only, after a good run: the cache is there but cannot be written
	# a process of the last run may still be closing its files (busy):
	# a few tries, not a sleep long enough for a loaded machine
	i=0
	until mount -o remount,ro "$G" 2>"$SCRATCH/mount.err"; do
		i=$((i + 1))
		[ $i -lt 20 ] || fail "cannot remount $G read-only: $(cat "$SCRATCH/mount.err")"
		sleep 0.5
	done
	run 3
	expect_in "$ERR" "Read-only file system"
	mount -o remount,rw "$G"
	run 0
	intact "after a read-only disk"
	umount "$G"
	M=
elif [ "$(id -u)" -ne 0 ]; then
	chmod 0500 "$G"
	run 3
	expect_in "$ERR" "Permission denied"
	chmod 0700 "$G"
	run 0
	intact "after an unwritable directory"
else
	echo "disk.sh: cannot mount a tmpfs here: full-disk case skipped" >&2
fi
exit 0
