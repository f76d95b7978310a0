# The HTML report of a real run renders in a real browser (headless
# Chromium): the DOM holds the plots (one dot per pair, the interval, the
# floor), the screenshot is not blank, and it is kept for people to look at
# in $BUILD/artifacts/report.png. The file loads nothing from outside.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || fail "no Chromium to render the report: run ci/install-deps"
art=${ARTIFACTS:-$(dirname "$GATE")/artifacts}
mkdir -p "$art"

R=$SCRATCH/repo
fixture "$R" 0.02 0.2
H=$SCRATCH/report.html
gate_run 1 -C "$R" run --base HEAD~1 --head HEAD --html "$H"
cp "$H" "$art/report.html"
# self-contained: no scripts, no external references of any kind
for bad in "<script" "src=" "href=" "url(" "@import"; do
	expect_not_in "$H" "$bad"
done

chrome() {
	profile=$(mktemp -d "$SCRATCH/profile.XXXXXX")
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" "file://$H" 2>>"$SCRATCH/browser.log"
}
chrome --dump-dom >"$SCRATCH/dom.html" || fail "$browser --dump-dom failed"
[ "$(grep -c '<circle class="pair"' "$SCRATCH/dom.html")" = 6 ] ||
	fail "the browser's DOM does not hold one dot per pair (6)"
for want in '<svg class="order"' '<svg class="axis"' 'class="interval"' \
	    'class="floor"' 'class="estimate"' '<h2>Protocol</h2>' 'seed '; do
	expect_in "$SCRATCH/dom.html" "$want"
done

png=$art/report.png
rm -f "$png"
chrome --window-size=1000,1200 --screenshot="$png" >/dev/null ||
	fail "$browser --screenshot failed"
[ -s "$png" ] || fail "no screenshot at $png"
set -- $(python3 "$(dirname "$0")/png-stats.py" "$png") ||
	fail "cannot read $png"
echo "screenshot $png: ${1}x$2, $3 colours, most common $4"
[ "$1" = 1000 ] && [ "$2" = 1200 ] || fail "screenshot is ${1}x$2"
# a blank or unstyled page has a handful of colours; the plots, badges and
# anti-aliased text give hundreds
[ "$3" -ge 100 ] || fail "screenshot has only $3 colours: blank or broken page"
python3 -c "import sys; sys.exit(0 if float('$4') < 0.97 else 1)" ||
	fail "screenshot is ${4} one colour: blank page"
# issue 26 item 4: at 800 and 1400 pixels too (kept beside it, compared
# by eye once); by structure: a number never wraps in a cell (nowrap),
# the summary table scrolls instead of squeezing, each axis has a tick on
# each side of "no change"
for w in 800 1400; do
	png=$art/report-$w.png
	rm -f "$png"
	chrome --window-size=$w,1200 --screenshot="$png" >/dev/null ||
		fail "$browser --screenshot at $w px failed"
	set -- $(python3 "$(dirname "$0")/png-stats.py" "$png") ||
		fail "cannot read $png"
	echo "screenshot $png: ${1}x$2, $3 colours, most common $4"
	[ "$1" = "$w" ] && [ "$3" -ge 100 ] || fail "screenshot at $w px is ${1}x$2 with $3 colours"
done
expect_in "$SCRATCH/dom.html" "white-space:nowrap"
expect_in "$SCRATCH/dom.html" '<div class="wide"><table class="summary">'
python3 - "$SCRATCH/dom.html" <<'PY' || fail "an axis lacks a tick on one side of no change"
import re, sys
html = open(sys.argv[1]).read()
for svg in re.findall(r'<svg.*?</svg>', html, re.S):
    ticks = re.findall(r'class="tick"[^>]*>([^<]*)<', svg)
    if ticks:
        assert any(t.startswith("-") for t in ticks) and any(t.startswith("+") for t in ticks), ticks
PY
# issue 37: the verdict is on screen in every row at 800 and 1400 px,
# with a name far longer than the table (it was the last column: off
# screen at 800 px, and at 1400 px with long names). The browser lays
# the page out; a script added to a copy reads where each row's verdict
# badge is.
L=$SCRATCH/long
long=test_roundtrip_of_a_document_with_a_long_descriptive_name_that_goes_on_and_on_and_on_case_001
new_repo "$L"
write_value "$L" 10
write_config "$L" '"format": "lines"'
sed -i "s|\"name\": \"sleep\"|\"name\": \"$long\"|" "$L/gate.json"
commit_all "$L" base
write_value "$L" 30
commit_all "$L" "three times slower"
gate_run 1 -C "$L" run --base HEAD~1 --head HEAD --html "$SCRATCH/long.html"
{
	cat "$SCRATCH/long.html"
	cat <<'JS'
<script>
var out = [], rows = document.querySelectorAll("table.summary tr");
for (var i = 0; i < rows.length; i++) {
	var b = rows[i].querySelector(".badge");
	if (!b) continue;
	var r = b.getBoundingClientRect();
	out.push((r.left >= 0 && r.right <= window.innerWidth ? "seen " : "hidden ") + Math.round(r.right));
}
document.body.setAttribute("data-badges", out.join(",") || "none");
</script>
JS
} >"$SCRATCH/long-check.html"
for w in 800 1400; do
	H=$SCRATCH/long-check.html
	chrome --window-size=$w,900 --dump-dom >"$SCRATCH/long-dom.html" ||
		fail "$browser --dump-dom at $w px failed"
	badges=$(sed -n 's/.*data-badges="\([^"]*\)".*/\1/p' "$SCRATCH/long-dom.html")
	case $badges in
	""|none) fail "at $w px: no verdict badge in the table's rows" ;;
	*hidden*) fail "at $w px a row's verdict is off screen (right edges: $badges)" ;;
	esac
done
exit 0
