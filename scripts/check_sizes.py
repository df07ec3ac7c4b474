#!/usr/bin/env python3
"""check_sizes.py - the size limits of the C code (issue 7): no C file over 600 lines and no
function over 100 lines in the given folders (default: cosim cmodel sw-handler common).

A function starts at a signature line at column 0 (a name and '(', not a declaration of a
type or an initializer) whose line or continuation lines end with '{', and ends at the next '}'
at column 0 (the code is clang-formatted, so this is exact for
this tree). Prints every violation; exit 1 if any.
"""
import glob
import os
import re
import sys

MAX_FILE, MAX_FUNC = 600, 100
NOT_FUNC = re.compile(r"^(typedef|struct|enum|union|static const|const|#)|=\s*\{$")


def check(path):
    errs = []
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if path.endswith(".c") and len(lines) > MAX_FILE:
        errs.append(f"{path}: {len(lines)} lines (limit {MAX_FILE})")
    start = sig = None
    for n, line in enumerate(lines, 1):
        if start is None:
            if line[:1].isalpha() and "(" in line and not NOT_FUNC.search(line):
                sig, name = n, line.split("(")[0].split()[-1].lstrip("*")
            elif not (sig and line[:1].isspace()):
                sig = None
            if sig and line.rstrip().endswith("{"):
                start, sig = n, None
        elif line.startswith("}"):
            body = n - start - 1
            if body > MAX_FUNC:
                errs.append(f"{path}:{start}: function {name}: {body} lines (limit {MAX_FUNC})")
            start = None
    return errs


def main():
    dirs = sys.argv[1:] or ["cosim", "cmodel", "sw-handler", "common"]
    errs, n = [], 0
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "*.c")) + glob.glob(os.path.join(d, "*.h"))):
            n += 1
            errs += check(p)
    for e in errs:
        print("check_sizes: " + e)
    print(f"check_sizes: {n} files in {' '.join(dirs)}, {len(errs)} over the limits")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
