#!/usr/bin/env python3
"""fpga_links.py - the host link's UART rate and the logic clock per board, from
fpga/boards/links.toml (the one source of truth: docs/fpga.md "Host link rate", "Boards").

Usage:
  fpga_links.py --baud BOARD          print the board's rate (make fpga-lint, fpga_build.py)
  fpga_links.py --vflags BOARD [--clk-khz N]
                                      the board top's Verilator -G flags: -GBaud=, and -GClkKhz=
                                      (clk_khz, or N) where the top has that parameter (make
                                      fpga-lint)
  fpga_links.py --pll KHZ             print the ULX3S EHXPLLL's divisors for KHZ from its 25 MHz
                                      oscillator (ulx3s_top's pll_div, mirrored here); exit 1 if
                                      there are none
  fpga_links.py --header OUT          write the C table of gmmu-board --board (make gen)
  fpga_links.py --div KHZ BAUD        print gmmu_board's cycles per bit for this clock and rate
                                      (exit 1 if gmmu_board would refuse them)
  fpga_links.py --check [--core F]    every rate valid at its clock (ClkDiv >= 8, <= 2 % off, the
                                      rule of gmmu_board.sv), clk_khz equal to the board top's
                                      fixed ClkKhz or, where the top has a ClkKhz parameter (the
                                      ULX3S: a PLL clock), its oscillator or a clock the PLL makes,
                                      and (with --core) gmmu.core's board targets passing the same
                                      Baud (and ClkKhz where the top has it); exit 1 with the
                                      differences
"""
import argparse
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINKS = os.path.join(ROOT, "fpga", "boards", "links.toml")


def load(path=LINKS):
    with open(path, "rb") as f:
        data = tomllib.load(f)
    for board, v in data.items():
        for key in ("clk_khz", "baud"):
            if not isinstance(v.get(key), int) or v[key] <= 0:
                sys.exit(f"{path}: [{board}]: {key} must be a positive integer")
    return data


def clk_div(clk_khz, baud):
    """gmmu_board.sv's ClkDiv: clock cycles per bit, rounded"""
    return (clk_khz * 1000 + baud // 2) // baud


def rate_error(clk_khz, baud):
    """None, or why gmmu_board would refuse the rate at this clock"""
    div = clk_div(clk_khz, baud)
    if div < 8:
        return f"{baud} baud at {clk_khz} kHz: {div} cycles per bit, fewer than 8"
    off = abs(div * baud - clk_khz * 1000) / (clk_khz * 1000)
    if off * 50 > 1:
        return f"{baud} baud at {clk_khz} kHz: {div} cycles per bit is {100 * off:.1f} % off (> 2 %)"
    return None


def top_path(board):
    return os.path.join(ROOT, "fpga", "boards", board, f"{board}_top.sv")


def top_clock(board):
    """How the board top sets gmmu_board's ClkKhz: ("param", default, oscillator kHz) for a top with
    a ClkKhz parameter (make fpga passes clk_khz as -G ClkKhz=; the top makes it from its OscKhz
    oscillator), ("fixed", kHz, None) for a literal .ClkKhz (N); OSError if there is no top."""
    with open(top_path(board)) as f:
        text = f.read()
    m = re.search(r"parameter\s+int\s+unsigned\s+ClkKhz\s*=\s*(\d+)", text)
    if m:
        osc = re.search(r"localparam\s+int\s+unsigned\s+OscKhz\s*=\s*(\d+)", text)
        return "param", int(m.group(1)), int(osc.group(1)) if osc else None
    m = re.search(r"\.ClkKhz\s*\(\s*(\d+)\s*\)", text)
    return ("fixed", int(m.group(1)), None) if m else (None, None, None)


def pll_div(out_khz, osc_khz=25000):
    """ulx3s_top's pll_div: the EHXPLLL's (CLKI_DIV, CLKFB_DIV, CLKOP_DIV) for out_khz from osc_khz
    with feedback from CLKOP, or None. out = osc * CLKFB_DIV / CLKI_DIV exactly, PFD = osc /
    CLKI_DIV >= 3.125 MHz, CLKFB_DIV <= 80, VCO = out * CLKOP_DIV in 400..800 MHz (CLKOP_DIV <= 128)
    nearest 600 MHz (the lower on a tie); the smallest CLKI_DIV wins."""
    for i in range(1, osc_khz // 3125 + 1):
        if (out_khz * i) % osc_khz:
            continue
        fb = out_khz * i // osc_khz
        if not 1 <= fb <= 80:
            continue
        ops = [op for op in range(1, 129) if 400000 <= out_khz * op <= 800000]
        if ops:
            return i, fb, min(ops, key=lambda op: (abs(out_khz * op - 600000), op))
    return None


def clock_error(board, clk_khz):
    """None, or why the board top cannot run at clk_khz"""
    kind, khz, osc = top_clock(board)
    if kind == "fixed" and khz != clk_khz:
        return f"{top_path(board)}: ClkKhz {khz}, clk_khz = {clk_khz}"
    if kind == "param" and clk_khz != osc and (osc is None or not pll_div(clk_khz, osc)):
        return (f"{top_path(board)}: clk_khz = {clk_khz}: not its {osc} kHz oscillator and no "
                f"EHXPLLL divisors make it (exact, VCO 400..800 MHz, PFD >= 3.125 MHz)")
    if kind is None:
        return f"{top_path(board)}: no ClkKhz parameter or .ClkKhz (N) found"
    return None


def vflags(data, board, clk_khz=None):
    """the board top's Verilator -G flags (make fpga-lint)"""
    flags = [f"-GBaud={data[board]['baud']}"]
    if top_clock(board)[0] == "param":
        flags.append(f"-GClkKhz={clk_khz or data[board]['clk_khz']}")
    return flags


def header(data):
    lines = ["/* Generated by scripts/fpga_links.py from fpga/boards/links.toml. Do not edit. */",
             "#ifndef FPGA_GEN_BOARD_LINKS_H", "#define FPGA_GEN_BOARD_LINKS_H", "",
             "/* {board, logic clock kHz, host-link UART rate}: gmmu-board --board */",
             "#define BOARD_LINK_RATES \\", "    { \\"]
    for board in sorted(data):
        lines.append(f'        {{"{board}", {data[board]["clk_khz"]}u, {data[board]["baud"]}u}}, \\')
    lines += ["    }", "", "#endif", ""]
    return "\n".join(lines)


def check(data, core=None):
    errs = []
    for board, v in sorted(data.items()):
        e = rate_error(v["clk_khz"], v["baud"])
        if e:
            errs.append(f"{LINKS}: [{board}]: {e}")
        try:
            e = clock_error(board, v["clk_khz"])
        except OSError as ex:
            errs.append(f"{LINKS}: [{board}]: {ex}")
            continue
        if e:
            errs.append(f"{e} ({LINKS} [{board}])")
    if core:
        import yaml  # FuseSoC's dependency (make deps installs fusesoc)
        with open(core) as f:
            targets = yaml.safe_load(f).get("targets", {})
        for board, v in sorted(data.items()):
            t = targets.get(board)
            if t is None:
                errs.append(f"{core}: no target '{board}'")
                continue
            got = dict(str(x).split("=", 1) for x in t.get("parameters", []) if "=" in str(x))
            if got.get("Baud") != str(v["baud"]):
                errs.append(f"{core}: target {board}: Baud={got.get('Baud', '(missing)')}, "
                            f"{LINKS} [{board}] has baud = {v['baud']}")
            want = str(v["clk_khz"]) if top_clock(board)[0] == "param" else None
            if got.get("ClkKhz") != want:
                errs.append(f"{core}: target {board}: ClkKhz={got.get('ClkKhz', '(missing)')}, "
                            f"expected {want or '(none: the top has no ClkKhz parameter)'}")
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--links", default=LINKS)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--baud", metavar="BOARD")
    g.add_argument("--header", metavar="OUT")
    g.add_argument("--check", action="store_true")
    g.add_argument("--div", nargs=2, type=int, metavar=("KHZ", "BAUD"))
    g.add_argument("--vflags", metavar="BOARD")
    g.add_argument("--pll", type=int, metavar="KHZ")
    ap.add_argument("--core")
    ap.add_argument("--clk-khz", type=int, metavar="N", help="with --vflags: ClkKhz instead of clk_khz")
    a = ap.parse_args()
    if a.pll is not None:
        d = pll_div(a.pll)
        if not d:
            sys.exit(f"fpga_links: {a.pll} kHz: no EHXPLLL divisors from 25 MHz (exact, VCO "
                     "400..800 MHz, PFD >= 3.125 MHz)")
        print(f"CLKI_DIV={d[0]} CLKFB_DIV={d[1]} CLKOP_DIV={d[2]} (VCO {a.pll * d[2] / 1000:g} MHz, "
              f"PFD {25 / d[0]:g} MHz)")
        return
    if a.div:
        if a.div[0] <= 0 or a.div[1] <= 0:
            sys.exit("fpga_links: --div: clock and rate must be positive")
        e = rate_error(*a.div)
        if e:
            sys.exit(f"fpga_links: {e}")
        print(clk_div(*a.div))
        return
    data = load(a.links)
    if a.baud:
        if a.baud not in data:
            sys.exit(f"{a.links}: no board '{a.baud}' (boards: {', '.join(sorted(data))})")
        print(data[a.baud]["baud"])
    elif a.vflags:
        if a.vflags not in data:
            sys.exit(f"{a.links}: no board '{a.vflags}' (boards: {', '.join(sorted(data))})")
        if a.clk_khz:
            e = clock_error(a.vflags, a.clk_khz)
            if e:
                sys.exit(f"fpga_links: {e}")
        print(" ".join(vflags(data, a.vflags, a.clk_khz)))
    elif a.header:
        os.makedirs(os.path.dirname(a.header) or ".", exist_ok=True)
        with open(a.header, "w") as f:
            f.write(header(data))
    else:
        errs = check(data, a.core)
        for e in errs:
            print(e, file=sys.stderr)
        if errs:
            sys.exit(1)
        rates = ", ".join(f"{b} {v['baud']} baud at {v['clk_khz']} kHz"
                          for b, v in sorted(data.items()))
        print(f"fpga_links: {rates}: valid, board tops agree" +
              (f", {a.core} agrees" if a.core else ""))


if __name__ == "__main__":
    main()
