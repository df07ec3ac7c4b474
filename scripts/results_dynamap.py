#!/usr/bin/env python3
"""results_dynamap.py - the figure step of studies/dynamap.toml (make results-dynamap;
docs/results.md "DynaMap"): reads only the gmmu-sweep store (SQLite, docs/sweep.md, through
scripts/results_store.py) and writes the Markdown tables and one plot.

  * run time: every policy's speedup over Eager (the driver's default, cycles(eager) /
    cycles(policy)) per workload at 100/200/300 % oversubscription, with the geometric mean
    (DynaMap's figs. 8 and 12 normalize to LazyGrpHW, which is not built here: Eager instead);
  * evictions per page (evictions / the footprint's pages) at 200 % (DynaMap §6.2: 508 for
    LazyGrpHW against 21 for DynaMap on PageRank);
  * DynaMap's decisions: faults of evicted pages mapped remotely / migrated again;
  * LazyGrpHW (configuration paper_acc: the access-counter unit, docs/handler.md §6w.2): its
    notifications serviced, stale, and pages migrated by the counters;
  * fig. 3a: the evicted pages of eager_pst (Eager with the PST recorded) by referenced
    128-byte lines, per workload at 200 %; and the check that eager_pst's run is Eager's.

A policy the simulator lacks (a failed run: "is not one of") is n/a; any other failure fails
the script.

  * LazyPgStatSW / LazyPgDynSW (docs/handler.md §6x.4): pages mapped remotely, pages migrated by
    their software counts, polls; LazyPgStatSW is its best static threshold of 2, 8, 32, 64, 256
    per workload and ratio (the paper's rule), the threshold chosen listed;
  * StaticMap 50 % / DynaMap on the GMMU's bitmap table (pst_source = hw, configuration
    paper_bmp, docs/handler.md §6x.7) against the software PST: run time, evictions, decisions,
    the evicted pages' mean referenced lines, the bitmaps lost;
  * --img-util: fig. 3a alone, one histogram per workload (docs/img/results_dynamap_util.png).

  results_dynamap.py --store results.sqlite [--table-name dynamap] [--md OUT.md] [--img OUT.png]
                     [--img-util OUT.png]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_store import geomean, read_table, run_failed  # noqa: E402

PROG = "results_dynamap"
POLICIES = ["eager", "eager_nopf", "lazy_grp_hw", "lazy_pg_stat_sw", "lazy_pg_dyn_sw",
            "pin_host", "static20", "static50", "static90", "dynamap", "static50_hw", "dynamap_hw"]
LABEL = {"eager": "Eager", "eager_nopf": "Eager-woPref", "lazy_grp_hw": "LazyGrpHW",
         "lazy_pg_stat_sw": "LazyPgStatSW", "lazy_pg_dyn_sw": "LazyPgDynSW",
         "pin_host": "PinHost", "static20": "StaticMap 20%", "static50": "StaticMap 50%",
         "static90": "StaticMap 90%", "dynamap": "DynaMap", "eager_pst": "Eager + PST",
         "dynamap_i1500": "DynaMap 1500", "dynamap_i6000": "DynaMap 6000",
         "static50_hw": "StaticMap 50% HW", "dynamap_hw": "DynaMap HW"}
# the same policy on the GMMU's bitmap table (pst_source = hw, configuration paper_bmp,
# docs/handler.md §6x.7) and on the instrumented program's software PST
HW_PAIRS = [("static50", "static50_hw"), ("dynamap", "dynamap_hw")]
# DynaMap with its instrumentation's cost: pst_update_cycles per new-line update (0 = dynamap)
INSTR = [("dynamap", 0), ("dynamap_i1500", 1500), ("dynamap_i6000", 6000)]
MEMS = ["over100", "over200", "over300"]
# LazyPgStatSW's static thresholds (the paper: the best of 2, 8, 32, 64, 256 per application);
# lazy_pg_stat_sw itself runs at the default 64
STAT_VARIANTS = {"lazy_stat_t2": 2, "lazy_stat_t8": 8, "lazy_stat_t32": 32,
                 "lazy_pg_stat_sw": 64, "lazy_stat_t256": 256}
# utilization buckets of fig. 3a (referenced lines of 32)
BUCKETS = [(0, 0), (1, 4), (5, 8), (9, 16), (17, 24), (25, 31), (32, 32)]


def index(rows):
    """(workload, mem, policy) -> row; n/a runs kept as None; other failures are fatal."""
    out = {}
    for r in rows:
        key = (r["workload"], r["mem"], r["policy"])
        if r.get("run_status") == "failed" or run_failed(r):
            err = r.get("run_error") or ""
            if r["policy"] in ("lazy_grp_hw",):
                out[key] = None  # not built in this branch: n/a
                continue
            sys.exit(f"{PROG}: run {key} failed: {err}")
        out[key] = r
    return out


def best_static(idx):
    """LazyPgStatSW = its best static threshold per (workload, ratio), as the paper fixes it "at
    the best performing value for each application": idx's lazy_pg_stat_sw row replaced by the
    fastest variant; returns (workload, mem) -> the threshold chosen."""
    chosen = {}
    for w, mem in sorted({(k[0], k[1]) for k in idx}):
        runs = [(idx[(w, mem, v)]["cycles"], t, idx[(w, mem, v)]) for v, t in STAT_VARIANTS.items()
                if idx.get((w, mem, v))]
        if runs:
            cyc, t, r = min(runs, key=lambda x: (x[0], x[1]))
            idx[(w, mem, "lazy_pg_stat_sw")] = r
            chosen[(w, mem)] = t
    return chosen


def fmt(x, nd=2):
    return "n/a" if x is None else f"{x:.{nd}f}"


def speedup_table(idx, wls, mem):
    lines = [f"| workload | " + " | ".join(LABEL[p] for p in POLICIES) + " |",
             "|---" * (len(POLICIES) + 1) + "|"]
    per = {p: [] for p in POLICIES}
    for w in wls:
        base = idx.get((w, mem, "eager"))
        cells = []
        for p in POLICIES:
            r = idx.get((w, mem, p))
            if r is None or base is None:
                cells.append("n/a" if (w, mem, p) in idx else "-")
                continue
            s = base["cycles"] / r["cycles"]
            per[p].append(s)
            cells.append(f"{s:.2f}")
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines.append("| **geomean** | " + " | ".join(
        fmt(geomean(per[p])) if per[p] else "n/a" for p in POLICIES) + " |")
    return lines, {p: (geomean(per[p]) if per[p] else None) for p in POLICIES}


def footprint(idx, w):
    r = idx.get((w, "over100", "eager"))
    return r["config.gpu_mem_pages"] if r else None


def hist(r):
    h = json.loads(r["evict_lines"]) if r and r.get("evict_lines") else None
    return h


def lazy_grp_hw_table(idx, wls):
    """LazyGrpHW's access counters (helper "accsvc"): notifications, stale, pages migrated."""
    md = ["", "## LazyGrpHW's access counters (notifications serviced / stale / pages migrated)",
          "",
          "| workload | 200 % notified | 200 % stale | 200 % migrated | 300 % notified | "
          "300 % stale | 300 % migrated |", "|---|---|---|---|---|---|---|"]
    for w in wls:
        c = []
        for mem in ("over200", "over300"):
            r = idx.get((w, mem, "lazy_grp_hw"))
            keys = ("acc_svc_notifications", "acc_svc_stale", "acc_svc_pages")
            c += [str(r.get(k, 0)) for k in keys] if r else ["n/a"] * 3
        md.append(f"| {w} | " + " | ".join(c) + " |")
    return md


def instr_table(idx, wls):
    """DynaMap's instrumentation cost (pst_update_cycles 0 / 1500 / 6000): geomean speedup over
    Eager and over LazyGrpHW (the paper's baseline) per ratio, on the workloads where every run
    of the row exists."""
    md = ["", "## DynaMap's instrumentation cost (pst_update_cycles per PST update)", "",
          "| ratio | pst_update_cycles | DynaMap / Eager (geomean) | DynaMap / LazyGrpHW (geomean) "
          "| workloads | DynaMap faster than LazyGrpHW on |", "|---|---|---|---|---|---|"]
    for mem in MEMS:
        for p, cyc in INSTR:
            ve, vl, faster, n = [], [], [], 0
            for w in wls:
                r, e = idx.get((w, mem, p)), idx.get((w, mem, "eager"))
                lz = idx.get((w, mem, "lazy_grp_hw"))
                if not r or not e or not lz:
                    continue
                n += 1
                ve.append(e["cycles"] / r["cycles"])
                vl.append(lz["cycles"] / r["cycles"])
                if r["cycles"] < lz["cycles"]:
                    faster.append(w)
            md.append(f"| {mem[4:]} % | {cyc} | {fmt(geomean(ve)) if ve else 'n/a'} | "
                      f"{fmt(geomean(vl)) if vl else 'n/a'} | {n} | {', '.join(faster) or '-'} |")
    return md


def mean_lines(r):
    """the mean referenced lines of the evicted pages (evict_lines), or None"""
    h = hist(r)
    n = sum(h) if h else 0
    return sum(i * v for i, v in enumerate(h)) / n if n else None


def hw_table(idx, wls):
    """StaticMap 50 % and DynaMap on the hardware bitmap table (hw) against the software PST
    (sw, pst_update_cycles 0) and DynaMap 6000 (the software PST at the paper's update cost): run
    time over Eager, evictions, the decisions (faults of evicted pages remote / migrated), the
    mean referenced lines of an evicted page, the bitmaps the GMMU lost."""
    md = ["", "## The hardware bitmap as DynaMap's PST (pst_source = hw) against the software PST",
          "",
          "Speedup over Eager; evictions; decisions remote / migrated again; mean referenced lines "
          "of an evicted page (evict_lines); hw: bitmaps lost by the GMMU (bmp_lost).", "",
          "| ratio | workload | policy | sw speedup | hw speedup | DynaMap 6000 speedup | "
          "sw evictions | hw evictions | sw decisions | hw decisions | sw lines | hw lines | "
          "hw bmp_lost |", "|---" * 13 + "|"]
    agg = {}
    for mem in ("over200", "over300"):
        for sw, hw in HW_PAIRS:
            for w in wls:
                rs, rh, e = idx.get((w, mem, sw)), idx.get((w, mem, hw)), idx.get((w, mem, "eager"))
                if not rs or not rh or not e:
                    continue
                i6 = idx.get((w, mem, "dynamap_i6000")) if sw == "dynamap" else None
                a = agg.setdefault((mem, sw), {"sw": [], "hw": [], "i6": [], "same": 0, "n": 0})
                a["sw"].append(e["cycles"] / rs["cycles"])
                a["hw"].append(e["cycles"] / rh["cycles"])
                if i6:
                    a["i6"].append(e["cycles"] / i6["cycles"])
                dec = [(r.get("pst_remote", 0), r.get("pst_migrate", 0)) for r in (rs, rh)]
                a["n"] += 1
                a["same"] += dec[0] == dec[1] and rs["cycles"] == rh["cycles"]
                md.append(
                    f"| {mem[4:]} % | {w} | {LABEL[sw]} | {e['cycles'] / rs['cycles']:.2f} | "
                    f"{e['cycles'] / rh['cycles']:.2f} | "
                    f"{fmt(e['cycles'] / i6['cycles']) if i6 else '-'} | {rs['evictions']} | "
                    f"{rh['evictions']} | {dec[0][0]} / {dec[0][1]} | {dec[1][0]} / {dec[1][1]} | "
                    f"{fmt(mean_lines(rs), 1)} | {fmt(mean_lines(rh), 1)} | "
                    f"{rh.get('bmp_lost', 'n/a')} |")
    md += ["", "| ratio | policy | sw geomean | hw geomean | DynaMap 6000 geomean | "
           "workloads | same decisions and cycles |", "|---|---|---|---|---|---|---|"]
    for (mem, sw), a in sorted(agg.items()):
        md.append(f"| {mem[4:]} % | {LABEL[sw]} | {fmt(geomean(a['sw']))} | "
                  f"{fmt(geomean(a['hw']))} | {fmt(geomean(a['i6'])) if a['i6'] else '-'} | "
                  f"{a['n']} | {a['same']} |")
    return md


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--table-name", default="dynamap")
    ap.add_argument("--md")
    ap.add_argument("--img")
    ap.add_argument("--img-util")
    a = ap.parse_args()
    rows = read_table(a.store, a.table_name, PROG, "make results-dynamap")
    idx = index(rows)
    chosen = best_static(idx)
    wls = sorted({k[0] for k in idx})
    md = ["# DynaMap study (studies/dynamap.toml)", ""]
    gms = {}
    for mem in MEMS:
        md += [f"## Speedup over Eager at {mem[4:]} % (footprint / GPU memory)", ""]
        t, gms[mem] = speedup_table(idx, wls, mem)
        md += t + [""]
    md += ["## Evictions per page at 200 % (evictions / footprint pages)", "",
           "| workload | pages | " + " | ".join(LABEL[p] for p in POLICIES) + " |",
           "|---" * (len(POLICIES) + 2) + "|"]
    for w in wls:
        fp = footprint(idx, w)
        cells = []
        for p in POLICIES:
            r = idx.get((w, "over200", p))
            cells.append("n/a" if r is None or not fp else f"{r['evictions'] / fp:.1f}")
        md.append(f"| {w} | {fp} | " + " | ".join(cells) + " |")
    md += ["", "## DynaMap's decisions (faults of evicted pages: remote / migrated again)", "",
           "| workload | 200 % remote | 200 % migrated | 300 % remote | 300 % migrated |",
           "|---|---|---|---|---|"]
    for w in wls:
        c = []
        for mem in ("over200", "over300"):
            r = idx.get((w, mem, "dynamap"))
            c += [str(r.get("pst_remote", 0)), str(r.get("pst_migrate", 0))] if r else ["-", "-"]
        md.append(f"| {w} | " + " | ".join(c) + " |")
    md += lazy_grp_hw_table(idx, wls)
    md += instr_table(idx, wls)
    md += hw_table(idx, wls)
    md += ["", "## Fig. 3a: evicted pages by referenced 128 B lines (Eager + PST, 200 %)", "",
           "| workload | evicted | " + " | ".join(
               f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in BUCKETS) + " | Eager's run |",
           "|---" * (len(BUCKETS) + 3) + "|"]
    same = True
    for w in wls:
        r = idx.get((w, "over200", "eager_pst"))
        e = idx.get((w, "over200", "eager"))
        h = hist(r)
        if not h:
            continue
        n = sum(h)
        cells = [f"{100.0 * sum(h[lo:hi + 1]) / n:.0f} %" if n else "-" for lo, hi in BUCKETS]
        ok = e is not None and e["cycles"] == r["cycles"] and e["evictions"] == r["evictions"]
        same = same and ok
        md.append(f"| {w} | {n} | " + " | ".join(cells) +
                  f" | {'identical' if ok else 'DIFFERS'} |")
    md += lazy_table(idx, wls, chosen)
    md.append("")
    md.append("eager_pst's cycles and evictions equal Eager's in every workload: "
              + ("yes (recording the PST at pst_update_cycles = 0 changes nothing)."
                 if same else "NO: the recording changed a run."))
    text = "\n".join(md) + "\n"
    if a.md:
        os.makedirs(os.path.dirname(os.path.abspath(a.md)), exist_ok=True)
        with open(a.md, "w") as f:
            f.write(text)
    print(text)
    if a.img:
        plot(idx, wls, gms, a.img)
    if a.img_util:
        plot_util(idx, wls, a.img_util)
    return 0 if same else 1


def plot(idx, wls, gms, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(13, 4.2))
    shown = [p for p in POLICIES if any(idx.get((w, "over200", p)) for w in wls)]
    width = 0.8 / len(shown)
    for i, p in enumerate(shown):
        ys = []
        for w in wls:
            r, b = idx.get((w, "over200", p)), idx.get((w, "over200", "eager"))
            ys.append(b["cycles"] / r["cycles"] if r and b else 0.0)
        ax0.bar([x + i * width for x in range(len(wls))], ys, width, label=LABEL[p],
                color=plt.get_cmap("tab20")(i % 20), hatch="//" if p in dict(HW_PAIRS).values() else None)
    ax0.set_xticks([x + 0.4 - width / 2 for x in range(len(wls))])
    ax0.set_xticklabels(wls, rotation=30)
    ax0.set_yscale("log")
    ax0.set_ylabel("speedup over Eager (log)")
    ax0.set_title("200 % oversubscription (cf. DynaMap fig. 8)")
    ax0.legend(fontsize=7, ncol=2)
    for w in wls:
        h = hist(idx.get((w, "over200", "eager_pst")))
        if h and sum(h):
            n = sum(h)
            ax1.plot(range(33), [100.0 * v / n for v in h], marker=".", label=w)
    ax1.set_xlabel("referenced 128 B lines of an evicted page (of 32)")
    ax1.set_ylabel("% of evicted pages")
    ax1.set_title("Spatial utilization of evicted pages, Eager, 200 % (cf. fig. 3a)")
    ax1.legend(fontsize=7)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=100)


def lazy_table(idx, wls, chosen):
    """LazyPgStatSW / LazyPgDynSW (§6x.4): remote maps, pages migrated by the counts, polls;
    LazyPgStatSW's threshold chosen per workload and ratio (best_static)."""
    pols = ["lazy_pg_stat_sw", "lazy_pg_dyn_sw"]
    md = ["", "## LazyPgStatSW / LazyPgDynSW: pages mapped remotely / migrated by their counts "
          "(polls, of them by the timer)", "",
          "| workload | " + " | ".join(f"{LABEL[p]} {m[4:]} %" for m in ("over200", "over300")
                                     for p in pols) + " |",
          "|---" * 5 + "|"]
    for w in wls:
        cells = []
        for m in ("over200", "over300"):
            for p in pols:
                r = idx.get((w, m, p))
                cells.append("n/a" if r is None else
                             f"{r.get('remote_maps', 0)} / {r.get('lazy_pages', 0)} "
                             f"({r.get('lazy_polls', 0)}, {r.get('lazy_timer_polls', 0)})")
        md.append(f"| {w} | " + " | ".join(cells) + " |")
    md += ["", "LazyPgStatSW's best static threshold (of 2, 8, 32, 64, 256) per workload, "
           "200 % / 300 %: " + ", ".join(
               f"{w} {chosen.get((w, 'over200'), '-')} / {chosen.get((w, 'over300'), '-')}"
               for w in wls) + "."]
    return md


def plot_util(idx, wls, path):
    """Fig. 3a: per workload, the evicted pages of Eager + PST at 200 % by referenced lines."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shown = [w for w in wls if hist(idx.get((w, "over200", "eager_pst")))]
    cols = 4
    rows = max(1, (len(shown) + cols - 1) // cols)
    fig, axs = plt.subplots(rows, cols, figsize=(13, 2.8 * rows), squeeze=False)
    for i, w in enumerate(shown):
        ax = axs[i // cols][i % cols]
        h = hist(idx.get((w, "over200", "eager_pst")))
        n = sum(h)
        ax.bar(range(33), [100.0 * v / n if n else 0.0 for v in h], width=0.9)
        ax.set_title(f"{w} ({n} evictions)", fontsize=9)
        ax.set_xlim(-0.5, 32.5)
        ax.set_xlabel("lines referenced (of 32)", fontsize=8)
        ax.set_ylabel("% of evicted pages", fontsize=8)
    for j in range(len(shown), rows * cols):
        axs[j // cols][j % cols].axis("off")
    fig.suptitle("Spatial utilization of evicted 4 KB pages, Eager + PST, 200 % "
                 "(cf. DynaMap fig. 3a, Gaussian)", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
