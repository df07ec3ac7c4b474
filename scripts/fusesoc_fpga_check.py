#!/usr/bin/env python3
"""make fusesoc-fpga-check: the FuseSoC trellis targets of gmmu.core (ulx3s, orangecrab) build the
same bitstream as make fpga (issue 25 item 6), checked without running the tools.

Usage: fusesoc_fpga_check.py [--boards ulx3s,orangecrab] [--out build/fusesoc-check]
                             [--fusesoc fusesoc]

Per board: `fusesoc run --setup --target B ::gmmu` writes edalize's work directory (Makefile,
the yosys Tcl); fpga/fusesoc/edalize_yosys.py (the `yosys` of fpga/fusesoc/bin that the flow
runs) turns the Tcl into its read_slang script with YOSYS=true (no synthesis); fpga/fpga_build.py
--synth-only with --yosys true writes make fpga's script the same way. Compared: the source files,
include directories, parameters (-G), defines (-D), top and synthesis command of the two yosys
scripts, and nextpnr-ecp5's and ecppack's options (device, package, speed grade, router, seed,
constraint file; what only names outputs or reports is not compared). Exit 1 on a difference.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "fpga"))
import fpga_build  # noqa: E402  make fpga: its boards' nextpnr options

SRC = "src/gmmu_0.1.0/"  # where edalize copies the core's files


def parse_ys(path, strip=""):
    """read_slang flags and files, the synthesis command of a yosys script"""
    with open(path) as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    rs = next((ln for ln in lines if ln.startswith("read_slang")), None)
    syn = next((ln for ln in lines if ln.startswith("synth_")), None)
    if rs is None or syn is None:
        sys.exit(f"fusesoc-fpga-check: {path}: no read_slang or synth_ line")
    tok = shlex.split(rs)[1:]
    out = {"files": set(), "incdirs": set(), "params": {}, "defines": {}, "top": None}
    i = 0
    while i < len(tok):
        t = tok[i]
        if t in ("-G", "-D", "-I", "--top", "-j"):
            v = tok[i + 1]
            i += 2
            if t == "-G":
                k, _, val = v.partition("=")
                out["params"][k] = val
            elif t == "-D":
                k, _, val = v.partition("=")
                out["defines"][k] = "1" if val in ("", "1", "True", "true") else val
            elif t == "-I":
                out["incdirs"].add(os.path.normpath(v[len(strip):] if v.startswith(strip) else v))
            elif t == "--top":
                out["top"] = v
            continue
        out["files"].add(os.path.normpath(t[len(strip):] if t.startswith(strip) else t))
        i += 1
    syn = re.sub(r"\s+-json\s+\S+", "", syn)  # the output file is not an option
    out["synth"] = " ".join(syn.split())
    return out


def tool_opts(cmd, strip=""):
    """the options of a nextpnr-ecp5 / ecppack command that change the result"""
    tok = cmd if isinstance(cmd, list) else shlex.split(cmd)
    drop_val = {"-l", "--json", "--textcfg", "--report", "--log"}
    drop = {"--timing-allow-fail", "--gui"}
    flag_only = {"--compress"}  # followed by a positional argument (ecppack's input)
    opts, i = [], 1
    while i < len(tok):
        t = tok[i]
        if t in drop_val:
            i += 2
            continue
        if t in drop or not t.startswith("-"):
            i += 1
            continue
        if t not in flag_only and i + 1 < len(tok) and not tok[i + 1].startswith("-"):
            v = tok[i + 1]
            opts.append(f"{t} {os.path.normpath(v[len(strip):] if v.startswith(strip) else v)}")
            i += 2
        else:
            opts.append(t)
            i += 1
    return sorted(opts)


def run(cmd, cwd, env=None, log=None):
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if log:
        with open(log, "w") as f:
            f.write(res.stdout + res.stderr)
    if res.returncode != 0:
        print(res.stdout[-3000:] + res.stderr[-3000:])
        sys.exit(f"fusesoc-fpga-check: {' '.join(cmd)} failed (rc {res.returncode})")
    return res


def check_board(board, out, fusesoc):
    d = os.path.join(out, board)
    os.makedirs(d, exist_ok=True)
    run([fusesoc, "--cores-root", ROOT, "run", "--setup", "--target", board, "::gmmu:0.1.0"],
        cwd=d, log=os.path.join(d, "fusesoc-setup.log"))
    work = os.path.join(d, "build", "gmmu_0.1.0", board)
    env = dict(os.environ, YOSYS="true")
    run([sys.executable, os.path.join(ROOT, "fpga", "fusesoc", "edalize_yosys.py"), "-l",
         "yosys.log", "-p", "tcl edalize_yosys_template.tcl"], cwd=work, env=env)
    mk = os.path.join(d, "make")
    run([sys.executable, os.path.join(ROOT, "fpga", "fpga_build.py"), "--board", board,
         "--out", os.path.relpath(mk, ROOT), "--synth-only", "--yosys", "true"], cwd=ROOT)
    a = parse_ys(os.path.join(work, "edalize_slang.ys"), SRC)
    b = parse_ys(os.path.join(mk, "synth.ys"))
    diffs = []
    for key in ("files", "incdirs"):
        if a[key] != b[key]:
            diffs.append(f"{key}: only FuseSoC {sorted(a[key] - b[key])}, "
                         f"only make fpga {sorted(b[key] - a[key])}")
    for key in ("params", "defines"):
        for k in sorted(set(a[key]) | set(b[key])):
            if a[key].get(k) != b[key].get(k):
                diffs.append(f"{key[:-1]} {k}: FuseSoC {a[key].get(k, '(not set)')}, "
                             f"make fpga {b[key].get(k, '(not set)')}")
    for key in ("top", "synth"):
        if a[key] != b[key]:
            diffs.append(f"{key}: FuseSoC '{a[key]}', make fpga '{b[key]}'")
    with open(os.path.join(work, "Makefile")) as f:
        mtext = f.read()
    cmds = {}
    for tool in ("nextpnr-ecp5", "ecppack"):
        m = re.search(r"^\t\$\(EDALIZE_LAUNCHER\) " + re.escape(tool) + r" (.*)$", mtext, re.M)
        if not m or "--gui" in m.group(1):
            diffs.append(f"edalize Makefile: no {tool} command")
            continue
        cmds[tool] = tool_opts([tool] + shlex.split(m.group(1)), SRC)
    bd = fpga_build.BOARDS[board]
    want = {"nextpnr-ecp5": tool_opts(["nextpnr-ecp5", bd["dev"], "--package", bd["package"],
                                       "--speed", bd["speed"], "--lpf",
                                       f"fpga/boards/{board}/{board}.lpf", "--seed", "1",
                                       "--router", "router2"]),
            "ecppack": tool_opts(["ecppack", "--compress"])}
    for tool, w in want.items():
        if tool in cmds and cmds[tool] != w:
            diffs.append(f"{tool}: FuseSoC {cmds[tool]}, make fpga {w}")
    return diffs, a


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default="ulx3s,orangecrab")
    ap.add_argument("--out", default="build/fusesoc-check")
    ap.add_argument("--fusesoc", default="fusesoc")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    bad = 0
    for board in a.boards.split(","):
        diffs, got = check_board(board, out, a.fusesoc)
        for d in diffs:
            print(f"fusesoc-fpga-check: {board}: {d}")
        bad += len(diffs)
        if not diffs:
            print(f"fusesoc-fpga-check: {board}: same as make fpga ({len(got['files'])} files, "
                  f"{len(got['params'])} parameters, top {got['top']}, '{got['synth']}', "
                  "nextpnr-ecp5 and ecppack options)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
