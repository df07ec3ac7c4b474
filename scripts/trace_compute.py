#!/usr/bin/env python3
"""trace_compute.py - compute per memory instruction measured on real GPU traces.

usage: trace_compute.py [TRACE_DIR ...]   (default: every directory of ../shared/traces/accel-sim)

Each Accel-Sim trace directory is imported with tools/import/import_accelsim.py (the same rules
as `make traces`: a record's gap is the number of instruction lines of the same warp since its
previous kept global memory instruction, docs/workloads.md "Importing real traces"); this script
prints, per trace, the number of global memory instructions and the mean, median and range of
their gaps: the measured non-memory instructions per memory instruction that
docs/workloads.md "Compute per memory instruction" takes as the `compute` parameter of the
generators. Needs build/lib/libgmmu_trace.so (`make trace-lib`). Exit status 1 on any error.
"""

import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(ROOT, "..", "shared", "traces", "accel-sim")
IMPORTER = os.path.join(ROOT, "tools", "import", "import_accelsim.py")


def gaps_of(trace_dir):
    """The gaps of every memory record of the imported trace, in file order."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.txt")
        subprocess.run([sys.executable, IMPORTER, trace_dir, "-o", out, "--text", "--quiet"],
                       check=True)
        gaps = []
        with open(out, encoding="ascii") as f:
            for n, line in enumerate(f, 1):
                tok = line.split()
                if len(tok) >= 6 and tok[3] in ("R", "W", "A"):
                    try:
                        gaps.append(int(tok[4]))
                    except ValueError:
                        sys.exit(f"trace_compute: {out}:{n}: field 5 (gap): not a number")
        return gaps


def main(argv):
    dirs = argv[1:]
    if not dirs:
        if not os.path.isdir(DEFAULT_DIR):
            sys.exit(f"trace_compute: {DEFAULT_DIR}: no such directory")
        dirs = sorted(os.path.join(DEFAULT_DIR, d) for d in os.listdir(DEFAULT_DIR)
                      if os.path.isdir(os.path.join(DEFAULT_DIR, d)))
    print("| trace | global memory instructions | mean gap | median | min | max |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        try:
            g = gaps_of(d)
        except subprocess.CalledProcessError as e:
            sys.exit(f"trace_compute: {d}: import failed (status {e.returncode})")
        if not g:
            sys.exit(f"trace_compute: {d}: no global memory instruction")
        print(f"| {os.path.basename(os.path.normpath(d))} | {len(g)} | {statistics.mean(g):.2f} "
              f"| {statistics.median(g):g} | {min(g)} | {max(g)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
