#!/usr/bin/env python3
"""results_mosaic.py - Mosaic's multi-application results (seed 004: figs. 8, 9, 13, §3.2 bloat)
on the paper's GMMU with 8 address spaces (make results-mosaic; docs/results.md, "Mosaic").

Each mix runs 2..5 applications of the workload suite (gmmu-gen at --size-mb each, combined by
`gmmu-trace mix`: application i in address space i) on configs/mosaic_paper.cfg (configs/paper.cfg
with num_asids = 8), the 16 SMs split evenly (sm_partition), with the C model (--engine cmodel),
in three memory-manager modes:
  gpu-mmu  the baseline allocator (frame_alloc = any) with 4 KB pages only (Mosaic's GPU-MMU)
  mosaic   CoCoA placement + host-side coalescing of fully populated regions (page_size = cocoa)
  2m       "2 MB only" (page_size = 2m): every region migrated and mapped whole
Homogeneous mixes are N copies of one application, heterogeneous ones a fixed pseudo-random pick.
Reported per mix and averaged per category: L1 and L2 TLB miss rates (1 - l1_hits/translations,
l2_misses/(l2_hits + l2_misses)), page walks, run time (cycles; speedup = gpu-mmu / mode), and
the memory of 2m vs 4 KB pages (data_pages_resident: frames holding the mix at the end, nothing
evicted) = Mosaic's memory bloat. The paper's numbers are printed beside ours.

The plotting step of the study studies/mosaic.toml (gmmu-sweep, docs/sweep.md; the mixes are
listed there): it reads only the study's results store (SQLite, `gmmu-sweep collect`).

--run-mode demand (default): the applications' data is demand-paged (far-faults, migration), the
measured quantity is the whole run (cycles). --run-mode memcpy: the resident-data variant
(run_mode = memcpy, docs/handler.md §6e): every allocation is copied to GPU memory and mapped
before its kernel (uvm_handler_populate, which maps 2 MB chunks whole under 2m and coalesces the
regions it fills under cocoa), so the kernels take no far-fault and are TLB-bound; the measured
quantity is the kernel time (kernel_ns, the copy excluded; copy_ns reported beside it).

  results_mosaic.py --store results.sqlite [--table-name mosaic] [--mixes a,b] [--modes m,..]
                    [--run-mode demand|memcpy] [--plot PNG] [--table MD] [--json OUT]
"""
import argparse
import json
import math
import os
import shlex
import sys

from results_store import read_table

CONFIG = "configs/mosaic_paper.cfg"
MODES = {
    "gpu-mmu": [],  # the defaults: frame_alloc = any, page_size = 4k
    "mosaic": ["page_size=cocoa"],
    "2m": ["page_size=2m"],
}
# the paper's numbers (seed 004, §6.1-§6.3, §3.2)
PAPER = {
    "speedup_homogeneous": 1.555,  # Mosaic vs GPU-MMU, homogeneous workloads (avg)
    "speedup_heterogeneous": 1.297,  # heterogeneous
    "mosaic_l1_l2_miss": 0.01,  # Mosaic's L1 and L2 TLB miss rates: below 1 %
    "gpummu_l2_hit_2apps": 0.81,  # GPU-MMU L2 TLB hit rate, 2 applications
    "gpummu_l2_hit_5apps": 0.62,  # 5 applications
    "bloat_2m_avg": 0.402,  # memory bloat of 2 MB pages vs 4 KB (avg; up to 367 %)
}


def die(msg):
    sys.exit(f"results_mosaic: {msg}")


def apps_of(recipe):
    """The applications and the size (MB) of a mix from its trace recipe ("mix: sgemm --size-mb 8
    + hotspot --size-mb 8")."""
    if not recipe or not recipe.startswith("mix: "):
        die(f"trace recipe {recipe!r}: not a mix")
    apps, sizes = [], set()
    for part in recipe[5:].split(" + "):
        a = shlex.split(part)
        apps.append(a[0])
        if "--size-mb" in a:
            sizes.add(float(a[a.index("--size-mb") + 1]))
    return apps, sizes


def metrics(r, run_mode):
    """One run's row of the tables from its statistics (a row of the store)."""
    tr = r["translations"] or 1
    l2 = (r["l2_hits"] + r["l2_misses"]) or 1
    # memcpy: the kernels' time only (the copy before them is copy_ns)
    cycles = r["cycles"] if run_mode == "demand" else r["kernel_ns"]
    apps, _ = apps_of(r["run_trace_recipe"])
    return {"mix": r["workload"], "mode": r["mode"], "apps": apps, "cycles": cycles,
            "copy_ns": r["copy_ns"] or 0, "far_faults": r["far_faults"] or 0,
            "l1_miss": 1.0 - r["l1_hits"] / tr, "l2_miss": r["l2_misses"] / l2,
            "walks": r["walks"], "walks_large": r["walks_large"] or 0,
            "frames": r["data_pages_resident"], "pages_h2d": r["pages_h2d"],
            "evictions": r["evictions"], "coalesces": r["coalesces"] or 0,
            "integrity_errors": r["integrity_errors"]}


def load(a, modes):
    """(rows of the selected run mode, mix names in the study's order, missing (mix, mode))."""
    rows = read_table(a.store, a.table_name, "results_mosaic",
                      "gmmu-sweep collect studies/mosaic.toml")
    rows = [r for r in rows if r["run_mode"] == a.run_mode and
            (not a.config or r["config"] == a.config)]
    names = list(dict.fromkeys(r["workload"] for r in rows))
    if a.mixes:
        want = [m for m in a.mixes.split(",") if m]
        for m in want:
            if m not in names:
                die(f"unknown mix {m} (in the store: {', '.join(names)})")
        names = want
    res, sizes = [], set()
    for r in rows:
        if r["workload"] in names and r["mode"] in modes:
            res.append(metrics(r, a.run_mode))
            sizes |= apps_of(r["run_trace_recipe"])[1]
    have = {(r["mix"], r["mode"]) for r in res}
    missing = [(m, mode) for m in names for mode in modes if (m, mode) not in have]
    if len(sizes) > 1:
        die(f"{a.store}: applications of several sizes {sorted(sizes)}")
    a.size_mb = sizes.pop() if sizes else float("nan")
    return res, names, missing


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summarize(res, names):
    by = {(r["mix"], r["mode"]): r for r in res if "error" not in r}
    rows, cats = [], {}
    for m in names:
        base = by.get((m, "gpu-mmu"))
        cat = "homogeneous" if m.startswith("homo") else "heterogeneous"
        for mode in MODES:
            r = by.get((m, mode))
            if not r:
                continue
            r["speedup"] = base["cycles"] / r["cycles"] if base else float("nan")
            r["bloat"] = (r["frames"] / base["frames"] - 1.0) if base and base["frames"] else 0.0
            rows.append(r)
            cats.setdefault((cat, mode), []).append(r)
    avg = {}
    for (cat, mode), rs in cats.items():
        avg[(cat, mode)] = {
            "l1_miss": sum(r["l1_miss"] for r in rs) / len(rs),
            "l2_miss": sum(r["l2_miss"] for r in rs) / len(rs),
            "walks": sum(r["walks"] for r in rs) / len(rs),
            "speedup": geomean([r["speedup"] for r in rs]),
            "bloat": sum(r["bloat"] for r in rs) / len(rs), "n": len(rs)}
    return rows, avg


def table(rows, avg, a):
    what = ("demand paging; time = the whole run (cycles)" if a.run_mode == "demand" else
            "run_mode = memcpy (resident data: every allocation copied and mapped before its "
            "kernel); time = kernel_ns (the kernels only, the copy excluded)")
    tcol = "cycles" if a.run_mode == "demand" else "kernel ns"
    out = [f"Mixes of the workload suite at {a.size_mb:g} MB per application, "
           f"{CONFIG} (C model), SMs split evenly, {what}.", "",
           f"| mix | applications | mode | L1 miss | L2 miss | walks | {tcol} | speedup vs "
           "gpu-mmu | frames | bloat vs 4 KB | coalesces |", "|" + "---|" * 11]
    for r in rows:
        out.append(f"| {r['mix']} | {'+'.join(r['apps'])} | {r['mode']} | {100 * r['l1_miss']:.2f} % "
                   f"| {100 * r['l2_miss']:.2f} % | {r['walks']} | {r['cycles']} | "
                   f"{r['speedup']:.3f} | {r['frames']} | {100 * r['bloat']:.1f} % | "
                   f"{r['coalesces']} |")
    out += ["", "| category | mode | mixes | mean L1 miss | mean L2 miss | mean walks | "
            "speedup (geomean) | mean bloat |", "|" + "---|" * 8]
    for (cat, mode), v in sorted(avg.items()):
        out.append(f"| {cat} | {mode} | {v['n']} | {100 * v['l1_miss']:.2f} % | "
                   f"{100 * v['l2_miss']:.2f} % | {v['walks']:.0f} | {v['speedup']:.3f} | "
                   f"{100 * v['bloat']:.1f} % |")
    out += ["", "Mosaic (seed 004): speedup over GPU-MMU "
            f"{PAPER['speedup_homogeneous']:.3f} (homogeneous), "
            f"{PAPER['speedup_heterogeneous']:.3f} (heterogeneous); L1 and L2 TLB miss rates "
            f"below {100 * PAPER['mosaic_l1_l2_miss']:.0f} % with Mosaic; GPU-MMU L2 hit rate "
            f"{100 * PAPER['gpummu_l2_hit_2apps']:.0f} % (2 applications) to "
            f"{100 * PAPER['gpummu_l2_hit_5apps']:.0f} % (5); 2 MB pages inflate memory by "
            f"{100 * PAPER['bloat_2m_avg']:.1f} % on average."]
    return "\n".join(out) + "\n"


def plot(rows, avg, path, run_mode):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.2))
    cats = ["homogeneous", "heterogeneous"]
    modes = list(MODES)
    width = 0.8 / len(modes)
    for ax, key, title in zip(axes, ["l1_miss", "l2_miss", "walks", "speedup"],
                              ["L1 TLB miss rate", "L2 TLB miss rate", "page walks (mean)",
                               "speedup vs gpu-mmu (geomean)"]):
        for i, mode in enumerate(modes):
            ys = [avg.get((c, mode), {}).get(key, 0) for c in cats]
            if key in ("l1_miss", "l2_miss"):
                ys = [100 * y for y in ys]
            ax.bar([x + i * width for x in range(len(cats))], ys, width, label=mode)
        ax.set_xticks([x + width for x in range(len(cats))])
        ax.set_xticklabels(cats)
        ax.set_title(title)
        if key in ("l1_miss", "l2_miss"):
            ax.axhline(100 * PAPER["mosaic_l1_l2_miss"], color="k", ls="--", lw=0.8,
                       label="Mosaic paper: < 1 %")
            ax.set_ylabel("%")
        if key == "speedup":
            ax.axhline(PAPER["speedup_homogeneous"], color="k", ls="--", lw=0.8,
                       label="paper homo 1.555")
            ax.axhline(PAPER["speedup_heterogeneous"], color="gray", ls=":", lw=0.8,
                       label="paper het 1.297")
        ax.legend(fontsize=7)
    fig.suptitle("Mosaic modes, " + ("demand paging (time = whole run)" if run_mode == "demand"
                                      else "resident data, run_mode = memcpy (time = kernels)"),
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of studies/mosaic.toml")
    ap.add_argument("--table-name", default="mosaic")
    ap.add_argument("--mixes", default="")
    ap.add_argument("--config", default="",
                    help="only the runs of this study configuration (default: every run)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--run-mode", choices=["demand", "memcpy"], default="demand",
                    help="demand paging (time = cycles) or resident data (run_mode = memcpy, "
                         "time = kernel_ns)")
    ap.add_argument("--plot")
    ap.add_argument("--table")
    ap.add_argument("--json")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            die(f"unknown mode {m} (known: {', '.join(MODES)})")
    res, names, missing = load(a, modes)
    bad = [r for r in res if r.get("integrity_errors") or
           (a.run_mode == "memcpy" and r.get("far_faults"))]
    for m, mode in missing:
        print(f"results_mosaic: {m} {mode}: FAILED (no result in the store: gmmu-sweep status)")
    for r in bad:
        print(f"results_mosaic: {r['mix']} {r['mode']}: FAILED (integrity errors or far-faults)")
    rows, avg = summarize(res, names)
    md = table(rows, avg, a)
    print(md)
    for path in (a.table, a.json, a.plot):
        if path and os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    if a.table:
        with open(a.table, "w") as f:
            f.write(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "avg": {f"{c}/{m}": v for (c, m), v in avg.items()}}, f,
                      indent=1)
    if a.plot:
        plot(rows, avg, a.plot, a.run_mode)
    print(f"results_mosaic: {len(res)} runs, {len(missing) + len(bad)} failed")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
