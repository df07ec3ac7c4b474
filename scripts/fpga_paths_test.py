#!/usr/bin/env python3
"""make test-fpga-paths: scripts/fpga_paths.py on a made-up ECP5 netlist (no tool runs).

The netlist: flip-flop A -> LUT -> LUT -> flip-flop B (2 LUTs, 3 hops); A -> carry cell S0 ->
CIN of a second carry cell -> its S1 -> flip-flop C (the carry hop has no routing); a block RAM's
output -> LUT -> flip-flop D; a two-LUT loop feeding nothing (reported on stderr, left out).
With --route 1.0 the expected worst times are
  D: 4.3 (DP16KD clock-to-output) + 1 + 0.24 + 1                  = 6.54 ns
  B: 0.52 + 1 + 0.24 + 1 + 0.24 + 1                               = 4.00 ns
  C: 0.52 + 1 + 0.45 (A0 -> S0... COUT) + 0 + 0.06 (CIN -> S1) + 1 = 3.03 ns
in that order, with the start and end points named after their registers; a missing file and a
JSON without the top exit non-zero with the file named. Exits non-zero naming what differs.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "fpga_paths.py")


def cell(t, conns, dirs, src=""):
    return {"type": t, "connections": conns, "port_directions": dirs,
            "attributes": {"src": src} if src else {}}


FF = {"CLK": "input", "DI": "input", "Q": "output"}
LUT = {"A": "input", "B": "input", "C": "input", "D": "input", "Z": "output"}
CCU = {"A0": "input", "B0": "input", "C0": "input", "D0": "input", "A1": "input", "B1": "input",
       "C1": "input", "D1": "input", "CIN": "input", "S0": "output", "S1": "output",
       "COUT": "output"}
NETLIST = {"modules": {"top": {
    "attributes": {"top": "00000000000000000000000000000001"},
    "ports": {"clk": {"direction": "input", "bits": [2]}},
    "cells": {
        "a_ff": cell("TRELLIS_FF", {"CLK": [2], "DI": [3], "Q": [10]}, FF, "r.sv:10.3-12.4"),
        "u_x.l1": cell("LUT4", {"A": [10], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [11]}, LUT),
        "g_y[3].l2": cell("LUT4", {"A": [11], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [12]}, LUT),
        "b_ff": cell("TRELLIS_FF", {"CLK": [2], "DI": [12], "Q": [13]}, FF, "r.sv:20.3-22.4"),
        "c1": cell("CCU2C", {"A0": [10], "B0": ["0"], "C0": ["0"], "D0": ["0"], "A1": ["0"],
                             "B1": ["0"], "C1": ["0"], "D1": ["0"], "CIN": ["0"], "S0": [20],
                             "S1": [21], "COUT": [22]}, CCU, "r.sv:30.5-30.9"),
        "c2": cell("CCU2C", {"A0": ["0"], "B0": ["0"], "C0": ["0"], "D0": ["0"], "A1": ["0"],
                             "B1": ["0"], "C1": ["0"], "D1": ["0"], "CIN": [22], "S0": [23],
                             "S1": [24], "COUT": [25]}, CCU, "r.sv:30.5-30.9"),
        "c_ff": cell("TRELLIS_FF", {"CLK": [2], "DI": [24], "Q": [26]}, FF, "r.sv:40.3-42.4"),
        "ram": cell("DP16KD", {"CLKA": [2], "DOA0": [30]}, {"CLKA": "input", "DOA0": "output"}),
        "l3": cell("LUT4", {"A": [30], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [31]}, LUT),
        "d_ff": cell("TRELLIS_FF", {"CLK": [2], "DI": [31], "Q": [32]}, FF, "r.sv:50.3-52.4"),
        "loop1": cell("LUT4", {"A": [41], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [40]}, LUT),
        "loop2": cell("LUT4", {"A": [40], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [41]}, LUT),
    },
    "netnames": {
        "clk": {"bits": [2], "hide_name": 0},
        "u.a_q": {"bits": [10], "hide_name": 0},
        "u.b_q": {"bits": [13], "hide_name": 0},
        "u.c_q": {"bits": [26], "hide_name": 0},
        "u.d_q": {"bits": [32], "hide_name": 0},
        "u.ram_rd": {"bits": [30], "hide_name": 0},
        "a_LUT4_Z_x": {"bits": [11], "hide_name": 0},
    }}}}


def main():
    fails = []
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "n.json")
        with open(js, "w") as f:
            json.dump(NETLIST, f)
        r = subprocess.run([sys.executable, SCRIPT, js, "--route", "1.0", "-n", "5"],
                           capture_output=True, text=True)
        out = r.stdout.splitlines()
        heads = [ln for ln in out if " ns (" in ln]
        want = [("6.54", "u.ram_rd", "DP16KD"), ("4.00", "u.a_q", "r.sv:10"),
                ("3.03", "u.a_q", "r.sv:10")]
        ends = [ln for ln in out if "-> " in ln]
        want_ends = ["u.d_q (TRELLIS_FF, r.sv:50)", "u.b_q (TRELLIS_FF, r.sv:20)",
                     "u.c_q (TRELLIS_FF, r.sv:40)"]
        if r.returncode != 0:
            fails.append(f"exit {r.returncode}: {r.stderr}")
        if len(heads) != 3:
            fails.append(f"3 paths expected, got {len(heads)}: {out}")
        for k, (t, start, what) in enumerate(want[:len(heads)]):
            if not (heads[k].strip().startswith(t) and start in heads[k] and what in heads[k]):
                fails.append(f"path {k}: expected {t} ns from {start} ({what}): {heads[k]}")
        for k, e in enumerate(want_ends[:len(ends)]):
            if e not in ends[k]:
                fails.append(f"path {k}: expected the end {e}: {ends[k]}")
        if not any("r.sv:30" in ln for ln in out):
            fails.append("the carry cells' RTL line r.sv:30 is not named")
        if "loops" not in r.stderr:
            fails.append(f"the two-LUT loop is not reported: {r.stderr!r}")
        # --blocks: each path as the blocks it crosses (the cells' instance paths)
        r = subprocess.run([sys.executable, SCRIPT, js, "--route", "1.0", "-n", "5", "--blocks"],
                           capture_output=True, text=True)
        want_b = "blocks: (top) (start) > u_x x1 > g_y[] x1 > (top) (end)"
        if r.returncode != 0 or want_b not in r.stdout:
            fails.append(f"--blocks: expected {want_b!r} in {r.stdout!r}")
        # bad input: a missing file, a netlist without the top
        r = subprocess.run([sys.executable, SCRIPT, os.path.join(d, "none.json")],
                           capture_output=True, text=True)
        if r.returncode == 0 or "none.json" not in r.stderr:
            fails.append(f"a missing file: exit {r.returncode}, {r.stderr!r}")
        r = subprocess.run([sys.executable, SCRIPT, js, "--top", "nosuch"],
                           capture_output=True, text=True)
        if r.returncode == 0 or "nosuch" not in r.stderr:
            fails.append(f"an unknown top: exit {r.returncode}, {r.stderr!r}")
    for f_ in fails:
        print(f"fpga_paths_test: FAIL: {f_}")
    if fails:
        sys.exit(1)
    print("fpga_paths_test: ok (3 paths, carry hops, loop, blocks, bad input)")


if __name__ == "__main__":
    main()
