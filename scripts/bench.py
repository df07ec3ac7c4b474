#!/usr/bin/env python3
"""make bench: simulated and clocked cycles per second of each engine (cmodel, rtl, cosim) on the
same trace and configuration; prints a table and writes $(BUILD)/bench.json.

  bench.py [--config default] [--trace tb/traces/replay.trc] [--seed 1] [--repeat 3]

Every engine runs the same platform on the same inputs, so the runs simulate exactly the same
cycles. The RTL engines and `cmodel-idle` (--no-quiet-skip) clock the same cycles (idle ones are
skipped); `cmodel` also skips quiet cycles (docs/cmodel.md), so it clocks fewer. Two ratios:
per clocked cycle (cmodel-idle vs rtl, the cost of one evaluated cycle) and end to end (cmodel vs
rtl, the wall time of the run). Each C model run is repeated --repeat times and the fastest
counts (less noise from the machine).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default="default")
    ap.add_argument("--trace", default="tb/traces/replay.trc")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--make", default="make")
    ap.add_argument("--build", default="build")
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    os.chdir(ROOT)
    sim = os.path.join(a.build, a.config, "gmmu-sim")
    if not a.no_build:
        r = subprocess.run(shlex.split(a.make) + ["--no-print-directory", "-s", "sim",
                                                  f"CONFIG={a.config}"])
        if r.returncode:
            sys.exit("bench: build failed")
    outdir = os.path.join(a.build, "bench")
    os.makedirs(outdir, exist_ok=True)
    rows = {}
    for eng in ("cmodel", "cmodel-idle", "rtl", "cosim"):
        best = None
        for i in range(a.repeat if eng.startswith("cmodel") else 1):
            stats = os.path.join(outdir, f"{eng}.json")
            cmd = [sim, "--config", f"configs/{a.config}.cfg", "--trace", a.trace, "--seed",
                   a.seed, "--engine", eng.split("-")[0], "--stats", stats, "--quiet"]
            if eng == "cmodel-idle":
                cmd.append("--no-quiet-skip")
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                sys.stdout.write(r.stdout)
                sys.exit(f"bench: {eng} run failed (exit {r.returncode})")
            with open(stats) as f:
                st = json.load(f)
            if best is None or st["wall_seconds"] < best["wall_seconds"]:
                best = st
        w = max(best["wall_seconds"], 1e-6)
        rows[eng] = {"cycles": best["cycles"], "clocked_cycles": best["clocked_cycles"],
                     "wall_seconds": best["wall_seconds"],
                     "sim_cycles_per_s": best["cycles"] / w,
                     "clocked_cycles_per_s": best["clocked_cycles"] / w}
    ratio = rows["rtl"]["wall_seconds"] / max(rows["cmodel-idle"]["wall_seconds"], 1e-6)
    ratio_e2e = rows["rtl"]["wall_seconds"] / max(rows["cmodel"]["wall_seconds"], 1e-6)
    print(f"bench: config {a.config}, trace {a.trace}, seed {a.seed} "
          f"(C model: best of {a.repeat} runs)")
    print(f"  {'engine':<12} {'cycles':>12} {'clocked':>10} {'wall s':>8} "
          f"{'sim cyc/s':>12} {'clocked cyc/s':>14}")
    for eng, r in rows.items():
        print(f"  {eng:<12} {r['cycles']:>12} {r['clocked_cycles']:>10} {r['wall_seconds']:>8.3f} "
              f"{r['sim_cycles_per_s']:>12.3g} {r['clocked_cycles_per_s']:>14.3g}")
    verdict = "ok" if ratio >= 10 else "BELOW the expected 10x"
    print(f"  C model / RTL speed ratio per clocked cycle: {ratio:.1f}x ({verdict}); "
          f"end to end with quiet skipping: {ratio_e2e:.1f}x")
    out = {"config": a.config, "trace": a.trace, "seed": a.seed, "engines": rows,
           "cmodel_over_rtl": ratio, "cmodel_over_rtl_end_to_end": ratio_e2e}
    path = os.path.join(a.build, "bench.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=2)
    print(f"  written {path}")


if __name__ == "__main__":
    main()
