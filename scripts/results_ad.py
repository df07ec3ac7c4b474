#!/usr/bin/env python3
"""results_ad.py - the figure step of studies/ad.toml (make results-ad; docs/results.md "Accessed
and dirty bits"): reads only the gmmu-sweep store and writes the Markdown table (per workload:
every eviction policy x write-back mode with its cycles, evictions, far-faults, D2H pages,
INVAL_PAGE commands, ACC clears of clock's second chances and the bytes dirty-only write-back did
not copy) and a plot of each run's time relative to `lru` / `all` of the same workload.

  results_ad.py --store results.sqlite [--table-name ad] [--md OUT.md] [--img OUT.png]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "sweep"))
from gmmu_sweep.store import load_table  # noqa: E402

EVICT = ["lru", "lru_oracle", "nvidia", "clock"]
WB = ["all", "dirty"]
LABEL = {"lru": "lru (by migration)", "lru_oracle": "lru_oracle", "nvidia": "nvidia (16-frame chunks)",
         "clock": "clock"}


def die(msg):
    sys.exit(f"results_ad: {msg}")


def cell(v):
    return "-" if v is None else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--table-name")
    ap.add_argument("--md")
    ap.add_argument("--img")
    a = ap.parse_args()
    try:
        table, rows = load_table(a.store, a.table_name)
    except (OSError, ValueError) as e:
        die(str(e))
    if not rows:
        die(f"{a.store}: table {table} has no rows")
    need = ("workload", "evict", "writeback", "run_status", "cycles")
    miss = [k for k in need if k not in rows[0]]
    if miss:
        die(f"{a.store}: table {table} lacks {', '.join(miss)} (not the ad study?)")
    wls = []
    for r in rows:
        if r["workload"] not in wls:
            wls.append(r["workload"])
    by = {(r["workload"], r["evict"], r["writeback"]): r for r in rows}
    out = ["**Accessed and dirty bits: clock eviction and dirty-only write-back** "
           "(studies/ad.toml, configs/oversub_ad.cfg, C model engine, seed 1; run time relative "
           "to lru / all of the same workload)", ""]
    rel = {}
    for w in wls:
        ref = by.get((w, "lru", "all"))
        refc = ref["cycles"] if ref and ref["run_status"] == "done" else None
        out += [f"Workload `{w}`", "",
                "| policy | writeback | cycles | vs lru/all | evictions | far-faults | D2H pages "
                "| INVAL_PAGE | ACC clears | bytes not copied | integrity errors |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        for e in EVICT:
            for b in WB:
                r = by.get((w, e, b))
                if r is None:
                    continue
                if r["run_status"] != "done":
                    out.append(f"| {LABEL[e]} | {b} | **{r['run_status']}** | | | | | | | | |")
                    continue
                x = r["cycles"] / refc if refc else None
                rel[(w, e, b)] = x
                out.append("| " + " | ".join([
                    LABEL[e], b, cell(r["cycles"]), "-" if x is None else f"{x:.3f}",
                    cell(r.get("evictions")), cell(r.get("far_faults")), cell(r.get("pages_d2h")),
                    cell(r.get("invalidates")), cell(r.get("clock_acc_clears")),
                    cell(r.get("wb_bytes_saved")), cell(r.get("integrity_errors"))]) + " |")
        out.append("")
    text = "\n".join(out)
    if a.md:
        os.makedirs(os.path.dirname(os.path.abspath(a.md)), exist_ok=True)
        with open(a.md, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    if a.img:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        vs = [(e, b) for e in EVICT for b in WB if any((w, e, b) in rel for w in wls)]
        fig, ax = plt.subplots(figsize=(9, 4))
        width = 0.8 / max(1, len(vs))
        for i, (e, b) in enumerate(vs):
            ys = [rel.get((w, e, b)) or 0 for w in wls]
            ax.bar([j + i * width for j in range(len(wls))], ys, width, label=f"{e} / {b}")
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_xticks([j + width * (len(vs) - 1) / 2 for j in range(len(wls))])
        ax.set_xticklabels(wls)
        ax.set_ylabel("run time / lru, all")
        ax.set_title("Accessed/dirty bits: clock and dirty-only write-back (oversub_ad)")
        ax.legend(fontsize=7, ncol=3)
        fig.tight_layout()
        os.makedirs(os.path.dirname(os.path.abspath(a.img)), exist_ok=True)
        fig.savefig(a.img, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
