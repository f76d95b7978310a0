#!/usr/bin/env python3
"""Every relative link of the given Markdown files resolves (tests/cli/doc-links.sh).

  doc-links.py FILE.md ...   print each link whose target is no file or
                             directory (relative to the file that has it),
                             exit 1 if any

Links are [text](target) outside fenced code blocks; a target with a
scheme (https:, mailto:) or only a #fragment is not checked, and a
#fragment after a path is dropped.
"""
import os
import re
import sys

LINK = re.compile(r"\]\(([^()\s]+)\)")


def broken(path):
    out = []
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                rel = target.split("#", 1)[0]
                full = os.path.join(os.path.dirname(path), rel)
                if not os.path.exists(full):
                    out.append("%s:%d: %s does not exist" % (path, n, target))
    return out


def main():
    bad = [b for p in sys.argv[1:] for b in broken(p)]
    for b in bad:
        print(b)
    return 1 if bad or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
