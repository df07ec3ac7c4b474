#!/usr/bin/env python3
"""check_layers.py - the file-level call graph of a set of C object files, and its cycles.

A file A depends on a file B when A's object references (nm: U) a symbol that B's object
defines (nm: T, D, B, R, ...). Function pointers stored in ops tables are not symbol references
of the caller, so a registry of ops breaks a cycle the way it breaks it in the design.

Usage:
  check_layers.py [--report-only] [--quiet] OBJ_OR_DIR...

Every argument is an object file or a directory whose *.o files are taken (not recursively).
Prints the graph as layers (each file with the files it depends on; layer 0 depends on nothing
of the set, layer k only on layers below k), then every strongly connected component of more
than one file (a cycle), with one concrete cycle path through it. Exit status: 1 if there is a
cycle (0 with --report-only), 2 on a usage error or if nm fails.
"""
import argparse
import os
import subprocess
import sys


def objects(args):
    objs = []
    for a in args:
        if os.path.isdir(a):
            objs += sorted(os.path.join(a, f) for f in os.listdir(a) if f.endswith(".o"))
        elif os.path.isfile(a):
            objs.append(a)
        else:
            raise FileNotFoundError(a)
    return objs


def symbols(obj):
    """(defined, undefined) external symbol names of one object file."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():  # global definitions only (lower case: file-local)
            defined.add(name)
    return defined, undefined


def graph(objs):
    names = [os.path.splitext(os.path.basename(o))[0] for o in objs]
    syms = [symbols(o) for o in objs]
    owner = {}
    for n, (defined, _) in zip(names, syms):
        for s in defined:
            owner.setdefault(s, n)
    deps = {n: set() for n in names}
    for n, (_, undefined) in zip(names, syms):
        for s in undefined:
            o = owner.get(s)
            if o is not None and o != n:
                deps[n].add(o)
    return deps


def sccs(deps):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(deps):
        if root in index:
            continue
        work = [(root, iter(sorted(deps[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(deps[w]))))
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
                out.append(sorted(comp))
    return out


def cycle_path(deps, comp):
    """One cycle through the first file of a component (breadth-first, shortest)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(deps[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + [start]


def layers(deps, comps):
    """Layer of each file: 1 + the highest layer it depends on (a cycle shares one layer)."""
    comp_of = {n: i for i, c in enumerate(comps) for n in c}
    memo = {}

    def layer(i):
        if i not in memo:
            memo[i] = 0
            below = {comp_of[w] for n in comps[i] for w in deps[n]} - {i}
            memo[i] = 1 + max((layer(j) for j in below), default=-1)
        return memo[i]

    return {n: layer(comp_of[n]) for n in deps}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", help="object files, or directories of object files")
    ap.add_argument("--report-only", action="store_true", help="exit 0 even with a cycle")
    ap.add_argument("--quiet", action="store_true", help="print only the cycles and the verdict")
    a = ap.parse_args()
    try:
        objs = objects(a.paths)
        deps = graph(objs)
    except (FileNotFoundError, subprocess.CalledProcessError) as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 2
    if not objs:
        print("check_layers: no object files", file=sys.stderr)
        return 2
    comps = sccs(deps)
    lay = layers(deps, comps)
    if not a.quiet:
        for k in range(max(lay.values()) + 1):
            print(f"layer {k}:")
            for n in sorted(x for x in lay if lay[x] == k):
                d = " ".join(sorted(deps[n])) or "-"
                print(f"  {n:24s} -> {d}")
    cycles = [c for c in comps if len(c) > 1]
    for c in cycles:
        print(f"cycle ({len(c)} files): " + " -> ".join(cycle_path(deps, c)))
        print(f"  component: {' '.join(c)}")
    dirs = sorted({os.path.dirname(o) or "." for o in objs})
    where = " ".join(dirs)
    if cycles:
        print(f"check_layers: {len(cycles)} cycle(s) among {len(objs)} files of {where}")
        return 0 if a.report_only else 1
    print(f"check_layers: {len(objs)} files of {where}, no cycle, {max(lay.values()) + 1} layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
