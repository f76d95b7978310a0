#!/usr/bin/python3
# The project's include graph, from the sources: every `#include "…"` edge
# between its own files, folded to one node per module: a module is the
# files of one directory that share a stem, foo.c and foo.h with the parts
# split off them and their private headers (foo-bar.c, foo-internal.h).
# Files of one module may include each other; modules may not, in a
# circle.
#
# Prints the cycles among modules (strongly connected components of more
# than one module, each with one cycle through it) and, with --stages,
# every edge that goes from a lower stage to a higher one (the stage
# order is STAGES below: a directory may include from its own stage and
# the ones listed before it).
#
# Usage: include-graph.py ROOT [--stages]   exit 1 when anything is found
import os
import re
import sys

# lowest first: a file in a stage includes only its own and earlier ones
STAGES = [
    "common", "stats", "git", "ci", "gate/os", "gate/format",
    "gate/config", "gate/exec", "gate/measure", "gate/workspace",
    "gate/decide", "gate/report", "gate/cmd", "gate",
]
DIRS = ("common", "stats", "git", "ci", "gate", "lib")
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for top in DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), root)


def module(path):
    d, f = os.path.split(os.path.splitext(path)[0])
    return os.path.join(d, f.split("-")[0])


def graph(root):
    edges = {}
    for src in sources(root):
        with open(os.path.join(root, src), encoding="utf-8") as f:
            text = f.read()
        a = module(src)
        edges.setdefault(a, set())
        for inc in INC.findall(text):
            if not os.path.exists(os.path.join(root, inc)):
                continue
            b = module(inc)
            if b != a:
                edges[a].add(b)
                edges.setdefault(b, set())
    return edges


def sccs(edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for v0 in sorted(edges):
        if v0 in index:
            continue
        work = [(v0, iter(sorted(edges[v0])))]
        index[v0] = low[v0] = counter[0]
        counter[0] += 1
        stack.append(v0)
        on.add(v0)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def cycle_in(edges, comp):
    """One cycle through comp's first module, by breadth-first search."""
    inside = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in inside and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def stage(path):
    best = None
    for i, s in enumerate(STAGES):
        if path == s or path.startswith(s + "/"):
            if best is None or len(s) > len(STAGES[best]):
                best = i
    return best


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    edges = graph(root)
    bad = 0
    comps = sccs(edges)
    nedges = sum(len(v) for v in edges.values())
    print("%d files' modules, %d include edges, %d cycles"
          % (len(edges), nedges, len(comps)))
    for comp in comps:
        print("cycle: " + " -> ".join(cycle_in(edges, comp)))
        bad = 1
    if "--stages" in sys.argv:
        for a in sorted(edges):
            sa = stage(os.path.dirname(a))
            for b in sorted(edges[a]):
                sb = stage(os.path.dirname(b))
                if sa is not None and sb is not None and sb > sa:
                    print("upward: %s includes %s (%s is below %s)"
                          % (a, b, STAGES[sa], STAGES[sb]))
                    bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
