#!/usr/bin/env python3
"""results_uvmsmart.py - UVMSmart's two figures (seed 002; issue 24 item 4; make results-uvmsmart,
docs/results.md "UVMSmart"), the plotting steps of studies/uvmsmart_prefetch.toml and
studies/uvmsmart_shootdown.toml: they read only the study's results store (SQLite, `gmmu-sweep
collect`).

  prefetch   TBNp vs the other prefetchers (D.1, Fig. 4). Per far-fault cost (axis `fault`) and
             prefetcher: the geometric mean over the workloads of the speedup over no prefetcher
             (cycles of none / cycles), and the distance to the driver's prefetcher (`nvidia`, our
             stand-in for the real V100 of Fig. 4): the geometric mean of |cycles / cycles of
             nvidia - 1| over the workloads. The paper's claim: TBNp correlates best with the
             hardware, i.e. the smallest distance among none, random, sequential-local and TBNp.
  shootdown  per-entry vs whole-TLB shootdown (C.3, D.2, Figs. 5-6). Per prefetcher (axis
             `prefetch`) and fault batch size (axis `batch`): the mean over the workloads of the L1 TLB hit rate (l1_hits /
             translations) and of the TLB hit rate (L1 or L2: (l1_hits + l2_hits) / translations)
             under each granularity, their difference in percentage points (paper: 11 on average),
             and the geometric mean of cycles(all) / cycles(entry) (paper: "little effect").

  results_uvmsmart.py prefetch|shootdown --store results.sqlite [--table-name T] [--plot PNG]
                      [--table MD] [--json OUT]
"""
import argparse
import json
import math
import os
import sys

from results_store import read_table

PREFETCHERS = ["none", "random_local", "seq_local", "tbn", "nvidia"]
UVMSMART = ["none", "random_local", "seq_local", "tbn"]  # the four of Fig. 4
PAPER_HIT_DIFF_PP = 11.0  # D.2: "The average hit rate difference is 11%"


def die(msg):
    sys.exit(f"results_uvmsmart: {msg}")


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def load(a):
    rows = read_table(a.store, a.table_name, "results_uvmsmart",
                      f"gmmu-sweep collect studies/uvmsmart_{a.part}.toml")
    done = [r for r in rows if r.get("cycles")]
    bad = [r for r in done if r.get("integrity_errors") or r.get("mismatches") or
           r.get("fatal_faults")]
    missing = [r for r in rows if not r.get("cycles")]
    return [r for r in done if r not in bad], bad, missing


def prefetch(rows):
    by = {(r["fault"], r["prefetch"], r["workload"]): r for r in rows}
    faults = list(dict.fromkeys(r["fault"] for r in rows))
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    res = {}
    for f in faults:
        for p in PREFETCHERS:
            sp, dist, faults_n = [], [], []
            for w in wls:
                r, n, d = by.get((f, p, w)), by.get((f, "none", w)), by.get((f, "nvidia", w))
                if not r or not n or not d:
                    continue
                sp.append(n["cycles"] / r["cycles"])
                dist.append(abs(r["cycles"] / d["cycles"] - 1.0))
                faults_n.append(r["far_faults"])
            if sp:
                res[(f, p)] = {"n": len(sp), "speedup": geomean(sp),
                               "dist": geomean([x + 1e-9 for x in dist]),
                               "mean_dist": sum(dist) / len(dist),
                               "far_faults": sum(faults_n) / len(faults_n)}
    return faults, res


def prefetch_table(faults, res):
    out = ["| far-fault cost | prefetcher | workloads | speedup over none (geomean) | "
           "distance to the driver's prefetcher (mean abs.) | far-faults (mean) |",
           "|" + "---|" * 6]
    for f in faults:
        for p in PREFETCHERS:
            v = res.get((f, p))
            if v:
                out.append(f"| {f} | {p} | {v['n']} | {v['speedup']:.3f} | "
                           f"{100 * v['mean_dist']:.1f} % | {v['far_faults']:.0f} |")
    out.append("")
    for f in faults:
        cand = [(res[(f, p)]["mean_dist"], p) for p in UVMSMART if (f, p) in res]
        fast = [(res[(f, p)]["speedup"], p) for p in UVMSMART if (f, p) in res]
        if cand:
            out.append(f"- {f}: closest to the driver's prefetcher: **{min(cand)[1]}** "
                       f"({100 * min(cand)[0]:.1f} %); fastest of UVMSmart's four: "
                       f"**{max(fast)[1]}** ({max(fast)[0]:.3f}x over none)")
    return "\n".join(out) + "\n"


def shootdown(rows):
    by = {((r.get("batch") or "256") + "/" + r["prefetch"], r["shootdown"], r["workload"]): r
          for r in rows}
    pfs = sorted(dict.fromkeys(k[0] for k in by), key=lambda k: (-int(k.split("/")[0]), k))
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    res = {}
    for p in pfs:
        e = [(by[(p, "entry", w)], by[(p, "all", w)]) for w in wls
             if (p, "entry", w) in by and (p, "all", w) in by]
        if not e:
            continue

        def l1(r):
            return r["l1_hits"] / r["translations"]

        def tlb(r):
            return (r["l1_hits"] + r["l2_hits"]) / r["translations"]
        res[p] = {"n": len(e),
                  "l1_entry": sum(l1(a) for a, _ in e) / len(e),
                  "l1_all": sum(l1(b) for _, b in e) / len(e),
                  "tlb_entry": sum(tlb(a) for a, _ in e) / len(e),
                  "tlb_all": sum(tlb(b) for _, b in e) / len(e),
                  "cycles_ratio": geomean([b["cycles"] / a["cycles"] for a, b in e]),
                  "invalidates_all": sum(b["invalidates"] for _, b in e) / len(e),
                  "invalidates_entry": sum(a["invalidates"] for a, _ in e) / len(e)}
        v = res[p]
        v["tlb_diff_pp"] = 100 * (v["tlb_entry"] - v["tlb_all"])
        v["l1_diff_pp"] = 100 * (v["l1_entry"] - v["l1_all"])
    return pfs, res


def shootdown_table(pfs, res):
    out = ["| batch size / prefetcher | workloads | L1 TLB hit rate entry / all | TLB hit rate (L1 or L2) "
           "entry / all | difference (pp) | cycles all / entry (geomean) | shootdowns entry / "
           "all (mean) |", "|" + "---|" * 7]
    for p in pfs:
        v = res.get(p)
        if v:
            out.append(f"| {p} | {v['n']} | {100 * v['l1_entry']:.1f} % / {100 * v['l1_all']:.1f} % "
                       f"| {100 * v['tlb_entry']:.1f} % / {100 * v['tlb_all']:.1f} % | "
                       f"{v['tlb_diff_pp']:.1f} (L1 {v['l1_diff_pp']:.1f}) | "
                       f"{v['cycles_ratio']:.3f} | {v['invalidates_entry']:.0f} / "
                       f"{v['invalidates_all']:.0f} |")
    out += ["", f"UVMSmart (seed 002, D.2): per-entry shootdown's TLB hit rate is "
            f"{PAPER_HIT_DIFF_PP:.0f} percentage points higher on average; the cycles barely "
            "change."]
    return "\n".join(out) + "\n"


def plot_prefetch(faults, res, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    w = 0.8 / max(len(faults), 1)
    for i, f in enumerate(faults):
        xs = [x + i * w for x in range(len(PREFETCHERS))]
        axes[0].bar(xs, [res.get((f, p), {}).get("speedup", 0) for p in PREFETCHERS], w,
                    label=f"far-fault {f}")
        axes[1].bar(xs, [100 * res.get((f, p), {}).get("mean_dist", 0) for p in PREFETCHERS], w,
                    label=f"far-fault {f}")
    for ax, t, y in ((axes[0], "speedup over no prefetcher (geomean)", "x"),
                     (axes[1], "distance to the driver's prefetcher (nvidia)", "% of its cycles")):
        ax.set_xticks([x + w * (len(faults) - 1) / 2 for x in range(len(PREFETCHERS))])
        ax.set_xticklabels(PREFETCHERS, fontsize=8)
        ax.set_title(t, fontsize=10)
        ax.set_ylabel(y)
        ax.legend(fontsize=7)
    fig.suptitle("UVMSmart prefetchers (seed 002 Fig. 4: TBNp correlates best with the GPU)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_shootdown(pfs, res, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    xs = list(range(len(pfs)))
    axes[0].bar([x - 0.2 for x in xs], [100 * res[p]["tlb_entry"] for p in pfs], 0.4,
                label="per entry")
    axes[0].bar([x + 0.2 for x in xs], [100 * res[p]["tlb_all"] for p in pfs], 0.4,
                label="whole TLB")
    axes[0].set_ylabel("TLB hit rate (L1 or L2), %")
    axes[1].bar(xs, [res[p]["cycles_ratio"] for p in pfs], 0.5)
    axes[1].axhline(1.0, color="k", lw=0.8)
    axes[1].set_ylabel("cycles whole TLB / per entry (geomean)")
    for ax, t in ((axes[0], "TLB hit rate (paper: per entry +11 pp)"),
                  (axes[1], "simulated cycles (paper: little effect)")):
        ax.set_xticks(xs)
        ax.set_xticklabels([f"batch {p.split('/')[0]}\nprefetch {p.split('/')[1]}" for p in pfs],
                           fontsize=8)
        ax.set_title(t, fontsize=10)
        ax.legend(fontsize=7) if ax is axes[0] else None
    fig.suptitle("UVMSmart TLB shootdown granularity (seed 002 Figs. 5-6)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("part", choices=["prefetch", "shootdown"])
    ap.add_argument("--store", required=True)
    ap.add_argument("--table-name", default="")
    ap.add_argument("--plot")
    ap.add_argument("--table")
    ap.add_argument("--json")
    a = ap.parse_args()
    a.table_name = a.table_name or f"uvmsmart_{a.part}"
    rows, bad, missing = load(a)
    for r in bad:
        print(f"results_uvmsmart: {r['name'] if 'name' in r else r['workload']}: FAILED "
              "(integrity errors, mismatches or fatal faults)")
    if missing:
        print(f"results_uvmsmart: {len(missing)} runs without a result (gmmu-sweep status)")
    if a.part == "prefetch":
        keys, res = prefetch(rows)
        md = prefetch_table(keys, res)
        js = {f"{f}/{p}": v for (f, p), v in res.items()}
    else:
        keys, res = shootdown(rows)
        md = shootdown_table(keys, res)
        js = res
    print(md)
    for path in (a.table, a.json, a.plot):
        if path and os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    if a.table:
        with open(a.table, "w") as f:
            f.write(md)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(js, f, indent=1)
    if a.plot and res:
        (plot_prefetch if a.part == "prefetch" else plot_shootdown)(keys, res, a.plot)
    print(f"results_uvmsmart: {len(rows)} runs, {len(bad) + len(missing)} failed")
    return 1 if bad or missing or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
