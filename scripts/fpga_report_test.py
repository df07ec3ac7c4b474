#!/usr/bin/env python3
"""make test-fpga-report: the baseline check of scripts/fpga_report.py on made-up board builds.

No tool runs: a temporary <fpga-dir>/<board>/ gets the three files fpga/fpga_build.py leaves
(build.json, stat.json, <board>_report.json) with chosen figures, a baseline is recorded from
them (--update-baseline), then the builds are changed and fpga_report.py run against it:

  same figures, 4 % more LUTs, 4 % less Fmax, fewer LUTs, higher Fmax    -> exit 0
  6 % more LUTs, 6 % less Fmax, timing not met, another configuration,
  a clock of the baseline missing, no baseline file                     -> exit 1 with the
                                                                           check's verdict
and the improvement is not written to the baseline unless --update-baseline is given.
Exits non-zero (naming the case) if any outcome differs.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join(ROOT, "scripts", "fpga_report.py")
BOARD = "ulx3s"
CLK = "clk_25mhz"


def write_build(d, luts=10000, fmax=40.0, constraint=25.0, config="fpga_ulx3s", clk=CLK):
    bd = os.path.join(d, BOARD)
    os.makedirs(bd, exist_ok=True)
    with open(os.path.join(bd, "build.json"), "w") as f:
        json.dump({"board": BOARD, "part": "LFE5U-85F-6BG381C", "config": f"configs/{config}.cfg",
                   "router": "router2", "seed": "1", "date": "2026-11-23",
                   "tools": {"yosys": "Yosys test", "nextpnr": "nextpnr test"},
                   "seconds": {"yosys": 1, "nextpnr": 1, "ecppack": 1}}, f)
    # luts = LUT4 + 2 x CCU2C
    with open(os.path.join(bd, "stat.json"), "w") as f:
        json.dump({"modules": {"ulx3s_top": {"num_cells_by_type": {
            "LUT4": luts - 200, "CCU2C": 100, "TRELLIS_FF": 3000}}}}, f)
    with open(os.path.join(bd, f"{BOARD}_report.json"), "w") as f:
        json.dump({"fmax": {f"$glbnet${clk}": {"achieved": fmax, "constraint": constraint}},
                   "utilization": {"TRELLIS_COMB": {"used": luts, "available": 83640}},
                   "critical_paths": []}, f)


def run(d, base, *extra):
    cmd = [sys.executable, REPORT, "--boards", BOARD, "--fpga-dir", d,
           "--out", os.path.join(d, "report"), "--baseline", base, *extra]
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    errors = []

    def expect(name, rc_want, d, base, **kw):
        write_build(d, **kw)
        r = run(d, base)
        out = r.stdout + r.stderr
        # a failure must be the check's verdict, not a crash (a traceback also exits 1)
        verdict = "FAILED against" in out or "no baseline" in out
        got = 0 if r.returncode == 0 else (1 if verdict and "Traceback" not in out else 2)
        status = "ok" if got == rc_want else "WRONG"
        print(f"fpga_report_test: {name:<34} exit {r.returncode} (want "
              f"{'0' if rc_want == 0 else 'non-zero'}) {status}")
        if got != rc_want:
            errors.append(name)
            print(out[-3000:])

    with tempfile.TemporaryDirectory() as d:
        base = os.path.join(d, "baseline.json")
        expect("no baseline file", 1, d, base)
        write_build(d)
        r = run(d, base, "--update-baseline")
        if r.returncode != 0:
            sys.exit(f"fpga_report_test: recording the baseline failed:\n{r.stdout}{r.stderr}")
        with open(base) as f:
            recorded = f.read()
        expect("same figures", 0, d, base)
        expect("LUTs +4 %", 0, d, base, luts=10400)
        expect("LUTs +6 %", 1, d, base, luts=10600)
        expect("Fmax -4 %", 0, d, base, fmax=38.4)
        expect("Fmax -6 %", 1, d, base, fmax=37.6)
        expect("timing not met", 1, d, base, fmax=24.0, constraint=25.0)
        expect("another configuration", 1, d, base, config="tiny")
        expect("baseline clock missing", 1, d, base, clk="other_clk")
        expect("improvement (fewer LUTs, faster)", 0, d, base, luts=9000, fmax=45.0)
        with open(base) as f:
            if f.read() != recorded:
                errors.append("baseline changed without --update-baseline")
                print("fpga_report_test: the baseline changed without --update-baseline WRONG")
    if errors:
        sys.exit(f"fpga_report_test: FAILED: {', '.join(errors)}")
    print("fpga_report_test: all cases as expected")


if __name__ == "__main__":
    main()
