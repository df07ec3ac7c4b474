#!/usr/bin/env python3
"""results_mosaic_l2d.py - Mosaic's speedup over GPU-MMU with the page-walk cache and the L2 data
cache serving the walker's PTE reads, against the cache's capacity (issue 24 item 2; make
results-mosaic-l2d, studies/mosaic_l2d.toml; docs/results.md "Mosaic with the L2 data cache").

The plotting step of the study: it reads only the study's results store (SQLite, `gmmu-sweep
collect`). Per configuration (CONFIGS below) and category (homogeneous / heterogeneous mixes):
(and configuration: with or without the page-walk cache) the geometric mean over the mixes of Mosaic's speedup over GPU-MMU (kernel_ns of gpu-mmu /
kernel_ns of mosaic: run_mode = memcpy, resident data, the kernels timed), GPU-MMU's mean kernel
time, page walks, PTE reads per walk and the L2 data cache's PTE and data hit rates. The paper's
numbers (seed 004: +55.5 % homogeneous, +29.7 % heterogeneous) are printed and drawn beside ours.

  results_mosaic_l2d.py --store results.sqlite [--table-name mosaic_l2d] [--plot PNG]
                        [--table MD] [--json OUT]
"""
import argparse
import json
import math
import os
import sys

from results_store import read_table

PAPER = {"homogeneous": 1.555, "heterogeneous": 1.297}
# the study's configurations: (name, label, page-walk cache, L2 data cache KB)
CONFIGS = [("pwc_l2d_off", "PWC, L2 data cache off", True, 0),
           ("pwc_l2d_256k", "PWC, 256 KB", True, 256),
           ("pwc_l2d_2m", "PWC, 2 MB (Table 1)", True, 2048),
           ("nopwc_l2d_2m", "no PWC, 2 MB (Mosaic's GPU-MMU)", False, 2048),
           ("nopwc_l2d_2m_hit120", "no PWC, 2 MB, 120-cycle hit", False, 2048)]
LABEL = {c[0]: c[1] for c in CONFIGS}
MODES = ("gpu-mmu", "mosaic")


def die(msg):
    sys.exit(f"results_mosaic_l2d: {msg}")


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def ratio(a, b):
    return a / b if b else float("nan")


def load(a):
    rows = read_table(a.store, a.table_name, "results_mosaic_l2d",
                      f"gmmu-sweep collect studies/mosaic_l2d.toml")
    return [r for r in rows if r.get("run_mode") == "memcpy"]


def summarize(rows):
    """(per (kb, category) averages, per-run failures, missing (kb, mix, mode))."""
    by, bad = {}, []
    for r in rows:
        if r.get("kernel_ns") is None:
            continue
        if r.get("integrity_errors") or r.get("far_faults") or r.get("mismatches"):
            bad.append(r)
            continue
        by[(r["config"], r["workload"], r["mode"])] = r
    kbs = [c[0] for c in CONFIGS if any(k == c[0] for k, _, _ in by)]
    mixes = list(dict.fromkeys(r["workload"] for r in rows))
    missing = [(kb, m, mode) for kb in kbs for m in mixes for mode in MODES
               if (kb, m, mode) not in by]
    avg = {}
    for kb in kbs:
        for cat in ("homogeneous", "heterogeneous"):
            ms = [m for m in mixes if m.startswith("homo") == (cat == "homogeneous")]
            pairs = [(by[(kb, m, "gpu-mmu")], by[(kb, m, "mosaic")]) for m in ms
                     if (kb, m, "gpu-mmu") in by and (kb, m, "mosaic") in by]
            if not pairs:
                continue
            g = [p[0] for p in pairs]
            pte = sum((r.get("l2d_pte_hits") or 0) + (r.get("l2d_pte_misses") or 0) for r in g)
            dat = sum((r.get("l2d_data_hits") or 0) + (r.get("l2d_data_misses") or 0) for r in g)
            avg[(kb, cat)] = {
                "n": len(pairs),
                "speedup": geomean([ratio(p[0]["kernel_ns"], p[1]["kernel_ns"]) for p in pairs]),
                "gpummu_kernel_ns": sum(r["kernel_ns"] for r in g) / len(g),
                "gpummu_walks": sum(r["walks"] for r in g) / len(g),
                "pte_reads_per_walk": ratio(sum(r["pte_reads"] for r in g),
                                            sum(r["walks"] for r in g)),
                "pte_hit": ratio(sum(r.get("l2d_pte_hits") or 0 for r in g), pte) if pte else None,
                "data_hit": ratio(sum(r.get("l2d_data_hits") or 0 for r in g), dat) if dat else None,
            }
    return kbs, avg, bad, missing


def pct(x):
    return "off" if x is None else f"{100 * x:.1f} %"


def table(kbs, avg):
    out = ["| configuration | category | mixes | speedup mosaic vs gpu-mmu (geomean) | paper | "
           "gpu-mmu kernel ns (mean) | gpu-mmu walks (mean) | PTE reads / walk | "
           "PTE hit rate (gpu-mmu) | data hit rate (gpu-mmu) |", "|" + "---|" * 10]
    for kb in kbs:
        for cat in ("homogeneous", "heterogeneous"):
            v = avg.get((kb, cat))
            if not v:
                continue
            out.append(f"| {LABEL[kb]} | {cat} | {v['n']} | {v['speedup']:.3f} | {PAPER[cat]:.3f} | "
                       f"{v['gpummu_kernel_ns']:.0f} | {v['gpummu_walks']:.0f} | "
                       f"{v['pte_reads_per_walk']:.2f} | {pct(v['pte_hit'])} | "
                       f"{pct(v['data_hit'])} |")
    return "\n".join(out) + "\n"


def plot(kbs, avg, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    xs = list(range(len(kbs)))
    labels = [LABEL[kb].replace(" (", "\n(").replace(", ", ",\n", 1) for kb in kbs]
    for cat, color in (("homogeneous", "C0"), ("heterogeneous", "C1")):
        ys = [avg.get((kb, cat), {}).get("speedup", float("nan")) for kb in kbs]
        axes[0].plot(xs, ys, "o-", color=color, label=f"{cat} (ours)")
        axes[0].axhline(PAPER[cat], color=color, ls="--", lw=0.8, label=f"{cat} (paper)")
        hs = [avg.get((kb, cat), {}).get("pte_hit") for kb in kbs]
        axes[1].plot(xs, [float("nan") if h is None else 100 * h for h in hs], "o-",
                     color=color, label=f"PTE reads, {cat}")
        ds = [avg.get((kb, cat), {}).get("data_hit") for kb in kbs]
        axes[1].plot(xs, [float("nan") if d is None else 100 * d for d in ds], "s:",
                     color=color, label=f"data lines, {cat}")
    axes[0].set_title("Mosaic speedup over GPU-MMU (geomean)")
    axes[0].set_ylabel("speedup")
    axes[1].set_title("L2 data cache hit rate under GPU-MMU")
    axes[1].set_ylabel("%")
    for ax in axes:
        ax.set_xticks(xs)
        ax.set_xticklabels(labels)
        ax.set_xlabel("configuration (L2 data cache: 16 ways, 128 B lines; a hit 10 cycles unless stated)")
        ax.tick_params(axis="x", labelsize=7)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of studies/mosaic_l2d.toml")
    ap.add_argument("--table-name", default="mosaic_l2d")
    ap.add_argument("--plot")
    ap.add_argument("--table")
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = load(a)
    kbs, avg, bad, missing = summarize(rows)
    for kb, m, mode in missing:
        print(f"results_mosaic_l2d: {kb} {m} {mode}: FAILED (no result in the store)")
    for r in bad:
        print(f"results_mosaic_l2d: {r['config']} {r['workload']} {r['mode']}: FAILED "
              "(integrity errors, mismatches or far-faults with resident data)")
    md = table(kbs, avg)
    print(md)
    for path in (a.table, a.json, a.plot):
        if path and os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    if a.table:
        with open(a.table, "w") as f:
            f.write(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({f"{kb}/{cat}": v for (kb, cat), v in avg.items()}, f, indent=1)
    if a.plot and kbs:
        plot(kbs, avg, a.plot)
    print(f"results_mosaic_l2d: {len(rows)} runs, {len(missing) + len(bad)} failed")
    return 1 if bad or missing or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
