# Issue 26 item 8: action.yml's descriptions say what the defaults are:
# every input's description names its default ("Default: ..."), and the
# one promised by the input's `default:` is an empty string only where the
# description says what none means.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
python3 - "$root/action.yml" >"$SCRATCH/why" <<'PY' || fail "$(cat "$SCRATCH/why")"
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
bad = [name for name, i in doc["inputs"].items()
       if "Default" not in i.get("description", "")]
print("inputs whose description names no default: %s" % ", ".join(bad))
sys.exit(1 if bad else 0)
PY
exit 0
