#!/usr/bin/env python3
"""The man pages against the gate binary (tests/cli/man.sh).

  man-check.py GATE MANDIR REPO   check every page; print each mismatch,
                                  exit 1 if any
  man-check.py --help-options GATE [COMMAND...]
                                  print the options `gate [COMMAND] --help`
                                  documents, one a line (for completion.sh);
                                  of several commands, "COMMAND<TAB>option"

Pages and --help must agree: every command in `gate --help` has a page
gate-COMMAND.1 (and no page lacks a command) whose NAME line is the
command's summary; every option in a command's --help is an item of its
page's option list, and every option the page names (SYNOPSIS or list)
is in --help. gate.json(5) lists exactly the keys, metrics and formats
that gate's own error messages name as known (REPO: a repository to run
`gate run --config` in).
"""
import os
import re
import subprocess
import sys

OPT = r"--?[A-Za-z][A-Za-z0-9-]*"


def run(argv, cwd=None):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def help_text(gate, cmd):
    argv = [gate] + ([cmd] if cmd else []) + ["--help"]
    rc, out, err = run(argv)
    if rc != 0 or not out:
        sys.exit("%s exited %d: %s" % (" ".join(argv), rc, err))
    return out


def help_options(text):
    """Options in the usage block (up to the first blank line) and at the
    start of an option line ("  -q, --quiet  ...", "  --base REV  ...")."""
    opts = set()
    lines = text.splitlines()
    for ln in lines:
        if not ln.strip():
            break
        opts.update(re.findall(r"(?:^|(?<=[\s\[|]))(" + OPT + ")", ln))
    for ln in lines:
        m = re.match(r"^\s{2,}(" + OPT + r")(?:, (" + OPT + "))?", ln)
        if m:
            opts.update(o for o in m.groups() if o)
    return opts


def help_synopsis(text):
    """The usage's options (up to the first blank line): option -> whether
    an argument follows it ("[--base REV]", "--good REV", "[-q]")."""
    opts = {}
    for ln in text.splitlines():
        if not ln.strip():
            break
        for m in re.finditer(r"(?:^|(?<=[\s\[|]))(" + OPT +
                             r")( [^\s\[\]-][^\s\]]*)?", ln):
            opts[m.group(1)] = opts.get(m.group(1), False) or \
                bool(m.group(2))
    return opts


def page_synopsis(secs):
    """The SYNOPSIS's options: option -> whether an argument (Ar, Cm)
    follows it."""
    opts = {}
    for ln in secs.get("SYNOPSIS", []):
        toks = ln.split()
        for i, t in enumerate(toks):
            if t in ("Fl", ".Fl") and i + 1 < len(toks):
                o = "-" + toks[i + 1]
                arg = i + 2 < len(toks) and toks[i + 2] in ("Ar", "Cm")
                opts[o] = opts.get(o, False) or arg
    return opts


def compare_synopsis(where, helped, paged):
    for o in sorted(set(helped) - set(paged)):
        check(False, "%s: gate's usage has %s, the SYNOPSIS does not"
              % (where, o))
    for o in sorted(set(helped) & set(paged)):
        check(helped[o] == paged[o], "%s: %s takes %s in gate's usage, %s "
              "in the SYNOPSIS" % (where, o,
                                   "an argument" if helped[o] else "none",
                                   "one" if paged[o] else "none"))


def help_commands(text):
    cmds = {}
    inside = False
    for ln in text.splitlines():
        if ln.startswith("commands:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^  (\S+)\s+(.*)$", ln)
            if not m:
                break
            cmds[m.group(1)] = m.group(2)
    return cmds


def page(path):
    """Sections -> their macro lines, and the options the page names."""
    secs, sec = {}, None
    for ln in open(path, encoding="utf-8"):
        ln = ln.rstrip("\n")
        if ln.startswith(".Sh "):
            sec = ln[4:].strip('"')
            secs[sec] = []
            continue
        if ln.startswith(".Ss "):
            sec = ln[4:].strip('"')
            secs[sec] = []
            continue
        if sec is not None:
            secs[sec].append(ln)
    listed, named = set(), set()
    for name, body in secs.items():
        for ln in body:
            toks = ln.split()
            if not toks:
                continue
            is_item = toks[0] == ".It"
            if not (is_item or (name == "SYNOPSIS" and
                                toks[0] in (".Op", ".Fl"))):
                continue
            for i, t in enumerate(toks):
                if (t in ("Fl", ".Fl") and i + 1 < len(toks) and
                        re.match(r"^-?[A-Za-z][A-Za-z0-9-]*$", toks[i + 1])):
                    o = "-" + toks[i + 1]
                    named.add(o)
                    if is_item:
                        listed.add(o)
    return secs, listed, named


def items(secs, name, macro="Cm"):
    out = []
    for ln in secs.get(name, []):
        toks = ln.split()
        if len(toks) >= 3 and toks[0] == ".It" and toks[1] == macro:
            out.append(toks[2])
    return out


def first(secs, name, macro):
    for ln in secs.get(name, []):
        if ln.startswith(macro + " "):
            return ln[len(macro) + 1:]
    return None


problems = []


def check(cond, msg):
    if not cond:
        problems.append(msg)


def compare_options(where, helped, secs, listed, named):
    for o in sorted(helped - listed):
        check(False, "%s: --help has %s, the page's option list does not"
              % (where, o))
    for o in sorted(named - helped):
        check(False, "%s: the page names %s, --help does not" % (where, o))


def known_list(gate, repo, config, pattern):
    path = os.path.join(repo, "probe.json")
    with open(path, "w") as f:
        f.write(config)
    rc, out, err = run([gate, "run", "--config", path, "--base", "HEAD",
                        "--head", "HEAD"], cwd=repo)
    m = re.search(pattern, err)
    if rc != 3 or not m:
        sys.exit("no list of known names from gate for %s (exit %d): %s"
                 % (config, rc, err))
    return [x.strip().strip('"') for x in re.split(r",|\bor\b",
                                                   m.group(1)) if x.strip()]


def check_config_page(gate, mandir, repo):
    secs, _, _ = page(os.path.join(mandir, "gate.json.5"))
    bench = '{"name": "x", "run": ["./x"]%s}'
    top = known_list(gate, repo, '{"zzzzzzzz": 1}',
                     r"known keys are ([^\n]*)")
    defaults = known_list(gate, repo, '{"defaults": {"zzzzzzzz": 1}, '
                          '"benchmarks": [%s]}' % (bench % ""),
                          r"known keys are ([^\n]*)")
    per_bench = known_list(gate, repo, '{"benchmarks": [%s]}'
                           % (bench % ', "zzzzzzzz": 1'),
                           r"known keys are ([^\n]*)")
    metrics = known_list(gate, repo, '{"benchmarks": [%s]}'
                         % (bench % ', "metric": "zzzzzzzz"'),
                         r"known metrics are ([^\n]*)")
    formats = known_list(gate, repo, '{"benchmarks": [%s]}'
                         % (bench % ', "format": "zzzzzzzz"'),
                         r"must be one of (.*), got")
    want = {
        "Top-level keys": set(top),
        "Benchmark keys": set(per_bench) | (set(defaults) - {"confidence",
                                                             "resamples",
                                                             "budget"}),
        "Suite-wide keys": set(defaults) - set(per_bench),
        "Metrics": set(metrics),
        "Suite formats": set(formats),
    }
    check(want["Suite-wide keys"] == {"confidence", "resamples", "budget"},
          "gate.json: the suite-wide keys are now %s: update this test and "
          "the page" % sorted(want["Suite-wide keys"]))
    for name, keys in want.items():
        have = items(secs, name)
        check(len(have) == len(set(have)),
              "gate.json(5) %s: a name is listed twice: %s" % (name, have))
        for k in sorted(keys - set(have)):
            check(False, "gate.json(5) %s: gate knows %s, the page does "
                  "not list it" % (name, k))
        for k in sorted(set(have) - keys):
            check(False, "gate.json(5) %s: the page lists %s, gate does not "
                  "know it" % (name, k))


def main():
    if sys.argv[1] == "--help-options":
        cmds = sys.argv[3:]
        for cmd in cmds or [None]:
            for o in sorted(help_options(help_text(sys.argv[2], cmd))):
                print("%s\t%s" % (cmd, o) if len(cmds) > 1 else o)
        return 0
    gate, mandir, repo = sys.argv[1:4]
    top = help_text(gate, None)
    cmds = help_commands(top)
    check(len(cmds) >= 5, "gate --help lists only %d commands" % len(cmds))
    pages = {f[len("gate-"):-len(".1")] for f in os.listdir(mandir)
             if f.startswith("gate-") and f.endswith(".1")}
    for c in sorted(set(cmds) - pages):
        check(False, "gate %s has no page man/gate-%s.1" % (c, c))
    for c in sorted(pages - set(cmds)):
        check(False, "man/gate-%s.1 is not a command in gate --help" % c)

    secs, listed, named = page(os.path.join(mandir, "gate.1"))
    compare_options("gate(1)", help_options(top), secs, listed, named)
    have = items(secs, "COMMANDS")
    check(set(have) == set(cmds) | {"help"},
          "gate(1) COMMANDS lists %s, gate --help %s and help"
          % (sorted(have), sorted(cmds)))
    for c in sorted(set(cmds) & pages):
        where = "gate-%s(1)" % c
        secs, listed, named = page(os.path.join(mandir, "gate-%s.1" % c))
        check(first(secs, "NAME", ".Nm") == "gate-" + c,
              "%s: .Nm is not gate-%s" % (where, c))
        check(first(secs, "NAME", ".Nd") == cmds[c],
              "%s: NAME says \"%s\", gate --help \"%s\""
              % (where, first(secs, "NAME", ".Nd"), cmds[c]))
        text = help_text(gate, c)
        compare_options(where, help_options(text), secs, listed, named)
        compare_synopsis(where, help_synopsis(text), page_synopsis(secs))
    check_config_page(gate, mandir, repo)
    for p in problems:
        print(p)
    return 1 if problems else 0


sys.exit(main())
