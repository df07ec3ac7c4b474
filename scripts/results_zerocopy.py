#!/usr/bin/env python3
"""results_zerocopy.py - zero-copy (remote_policy = pin_host) against migration (the default) for
a streaming and a sparse pattern (issue 21 item 5, last bullet; docs/results.md "Zero-copy versus
migration"). Writes the two traces, runs gmmu-sim on each with both policies (C model engine,
configuration tiny), prints a table and plots docs/img/results_zerocopy.png.

  results_zerocopy.py --sim build/tiny/gmmu-sim --out build/results/zerocopy [--plot PNG]

Streaming: `pages` pages read line by line, every 128 B line of every page once (32 loads of a
warp per page, consecutive); streaming x4: the same four times over; sparse: the same pages, one
128 B line each. Kernel time is the
simulated cycles of the run.
"""
import argparse
import json
import os
import subprocess
import sys

BASE = 0x90000000
PAGE = 4096
LINE = 128


def write_trace(path, pages, lines_per_page, warps, passes=1):
    with open(path, "w") as f:
        f.write(f"# zero-copy study: {pages} pages, {lines_per_page} line(s) each "
                "(scripts/results_zerocopy.py)\n")
        f.write(f"alloc a 0x{BASE:x} 0x{pages * PAGE:x}\n")
        f.write("kernel k\n")
        for p in [q for _ in range(passes) for q in range(pages)]:
            w = p % warps
            for l in range(lines_per_page):
                # 32 lanes x 4 B: one 128 B line per load
                f.write(f"s {w} 0 R 1 0xffffffff 0x{BASE + p * PAGE + l * LINE:x} 4\n")


def run(sim, trace, policy, out):
    stats = os.path.join(out, f"{os.path.basename(trace)[:-4]}_{policy}.json")
    cmd = [sim, "--config", "configs/tiny.cfg", "--trace", trace, "--seed", "1", "--engine",
           "cmodel", "--stats", stats, "--quiet", "--set", f"remote_policy={policy}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"results_zerocopy: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}")
    with open(stats) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pages", type=int, default=64)
    ap.add_argument("--plot")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    pats = (("streaming", PAGE // LINE, 1), ("streaming x4", PAGE // LINE, 4), ("sparse", 1, 1))
    for name, lines, passes in pats:
        trace = os.path.join(a.out, name.replace(" ", "_") + ".trc")
        write_trace(trace, a.pages, lines, 8, passes)
        for policy in ("none", "pin_host"):
            st = run(a.sim, trace, policy, a.out)
            rows.append((name, policy, st["cycles"], st["pages_h2d"], st.get("remote_bytes", 0),
                         st["far_faults"]))
    print("| pattern | policy | cycles | pages H2D | remote bytes | far-faults |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3))
        pats = [p[0] for p in pats]
        for i, pol in enumerate(("none", "pin_host")):
            ys = [next(r[2] for r in rows if r[0] == p and r[1] == pol) for p in pats]
            ax.bar([x + 0.38 * i for x in range(len(pats))], ys, 0.38,
                   label="migration (default)" if pol == "none" else "zero-copy (pin_host)")
        ax.set_xticks([x + 0.19 for x in range(len(pats))])
        ax.set_xticklabels(pats)
        ax.set_ylabel("simulated cycles")
        ax.set_title(f"{a.pages} pages, configuration tiny")
        ax.legend()
        fig.tight_layout()
        fig.savefig(a.plot, dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
