#!/usr/bin/env python3
"""results_zheng.py - Zheng et al.'s fig. 7 (prefetchers vs memcpy and the ideal overlap bound)
on the `paper` configuration (make results-zheng; docs/results.md, "Prefetching (Zheng et al.)").

The plotting step of the study studies/zheng.toml (gmmu-sweep, docs/sweep.md): it reads only
the study's results store (SQLite, `gmmu-sweep collect`), in which every workload was run with
the C model once per prefetch policy in demand mode and once in memcpy mode (run_mode = memcpy,
which also gives the ideal bound: ideal_ns = max(copy_ns, kernel_ns)) for each handler-cost
variant (the study's configurations), and prints a Markdown table of run times normalised to
memcpy (the paper's normalisation), the geometric means, and writes a bar plot.

  results_zheng.py --store results.sqlite [--table-name zheng] [--workloads a,b,...]
                   [--variants v,...] [--plot PNG] [--table MD] [--json OUT]
"""
import argparse
import json
import os
import shlex
import sys

from results_store import geomean, read_table, run_failed

# Zheng's fig. 7 workloads that the suite has (docs/workloads.md "used by": Zheng'16) and that
# stream through their data (xsbench, the sixth, is an irregular table lookup)
WORKLOADS = ["backprop", "hotspot", "nw", "sgemm", "stencil"]
# (--workloads backprop,...,pathfinder,nn adds the suite's other streaming Rodinia kernels)
BASE_POLICIES = ["none", "random", "sequential", "locality", "oracle", "nvidia", "tbn"]
# Zheng's four again with pipelined transfer sets (transfer_sets = pipelined, docs/handler.md
# §6m): sets issued independently of the fault batches, the next one queued while the previous
# one is on the link; column "<policy>+pipe"
PIPE_POLICIES = ["random", "sequential", "locality", "oracle"]
POLICIES = BASE_POLICIES + [p + "+pipe" for p in PIPE_POLICIES]


# handler-cost variants (the study's configurations), with their --set overrides as the table
# labels them; checked against the configuration each run of the store recorded
# (config.hdl_page_ns, config.hdl_pte_ns)
VARIANTS = {
    "default": [],
    "driver_page_costs": ["hdl_page_ns=300", "hdl_pte_ns=10"],
    "link_only": ["hdl_page_ns=0", "hdl_pte_ns=0"],
}
# the paper's claims (seed 000, §4.3), shown beside our figures
CLAIMS = {
    "locality_vs_oracle": 1.03,  # locality within 3% of oracle (geomean)
    "locality_vs_memcpy": 0.88,  # locality 12% below memcpy (geomean)
    "best_vs_worst_prefetcher": 1.11,  # 11% between the best and worst prefetcher
}


def die(msg):
    sys.exit(f"results_zheng: {msg}")


def load(args):
    """{(variant, workload, policy): statistics} of the store's runs; checks that every run the
    figure needs is there, ran without errors, and with the variant's handler costs."""
    rows = read_table(args.store, args.table_name, "results_zheng",
                      "gmmu-sweep collect studies/zheng.toml")
    res, sizes = {}, set()
    for r in rows:
        k = (r["config"], r["workload"], r["policy"])
        if k[0] not in args.variants or k[1] not in args.workloads:
            continue
        if run_failed(r):
            die(f"{r['run_name']}: integrity/platform errors or fatal faults")
        for kv in VARIANTS[k[0]]:
            key, val = kv.split("=")
            if str(r["config." + key]) != val:
                die(f"{r['run_name']}: {key} = {r['config.' + key]}, the variant says {val}")
        recipe = shlex.split(r["run_trace_recipe"] or "")
        if "--size-mb" in recipe:
            sizes.add(float(recipe[recipe.index("--size-mb") + 1]))
        res[k] = r
    want = [(v, w, p) for v in args.variants for w in args.workloads
            for p in POLICIES + ["memcpy"]]
    missing = [k for k in want if k not in res]
    if missing:
        die(f"{args.store}: {len(missing)} runs missing, e.g. config={missing[0][0]},"
            f"workload={missing[0][1]},policy={missing[0][2]} (gmmu-sweep status)")
    if len(sizes) != 1:
        die(f"{args.store}: expected one workload size, found {sorted(sizes)}")
    args.size_mb = sizes.pop()
    return {k: res[k] for k in want}


def table(res, args):
    lines = []
    out = {"size_mb": args.size_mb, "variants": {}}
    for v in args.variants:
        cols = POLICIES + ["memcpy", "ideal"]
        lines.append(f"\n**Variant `{v}`** ({' '.join(VARIANTS[v]) or 'configs/paper.cfg as is'})"
                     ": run time / memcpy run time (lower is better)\n")
        lines.append("| workload | " + " | ".join(cols) + " | memcpy (ms): copy + kernels |")
        lines.append("|---|" + "---|" * len(cols) + "---|")
        norm = {c: [] for c in cols}
        vout = {}
        for w in args.workloads:
            m = res[(v, w, "memcpy")]
            base = m["sim_time_ns"]
            row = {p: res[(v, w, p)]["sim_time_ns"] / base for p in POLICIES}
            row["memcpy"] = 1.0
            row["ideal"] = m["ideal_ns"] / base
            for c in cols:
                norm[c].append(row[c])
            vout[w] = {"norm": row, "memcpy_ns": base, "copy_ns": m["copy_ns"],
                       "kernel_ns": m["kernel_ns"], "copy_bytes": m["copy_bytes"],
                       "far_faults": {p: res[(v, w, p)]["far_faults"] for p in POLICIES},
                       "ns": {p: res[(v, w, p)]["sim_time_ns"] for p in POLICIES},
                       "bytes_h2d": {p: res[(v, w, p)]["bytes_h2d"] for p in POLICIES},
                       "fault_batches": {p: res[(v, w, p)]["fault_batches"] for p in POLICIES},
                       "dma_h2d": {p: res[(v, w, p)]["dma_h2d"] for p in POLICIES},
                       "ts_sets": {p: res[(v, w, p)]["ts_sets"] for p in POLICIES},
                       "ts_pages": {p: res[(v, w, p)]["ts_pages"] for p in POLICIES},
                       "handler_calls": {p: res[(v, w, p)]["handler_calls"] for p in POLICIES},
                       # H2D link busy fraction (one copy channel in configs/paper.cfg)
                       "link_busy": {p: res[(v, w, p)]["h2d_busy_ns"] /
                                     res[(v, w, p)]["sim_time_ns"] for p in POLICIES},
                       "memcpy_link_busy": m["h2d_busy_ns"] / m["sim_time_ns"]}
            lines.append(f"| {w} | " + " | ".join(f"{row[c]:.2f}" for c in cols) +
                         f" | {base / 1e6:.2f}: {m['copy_ns'] / 1e6:.2f} + "
                         f"{m['kernel_ns'] / 1e6:.2f} |")
        gm = {c: geomean(norm[c]) for c in cols}
        lines.append("| **geomean** | " + " | ".join(f"**{gm[c]:.2f}**" for c in cols) + " | |")
        out["variants"][v] = {"workloads": vout, "geomean": gm}
        lines += link_table(v, vout, args)
    return "\n".join(lines) + "\n", out


def link_table(v, vout, args):
    """H2D link busy fraction and transfer sets of Zheng's prefetchers, batch vs pipelined."""
    cols = [p for p in PIPE_POLICIES if p != "random"]
    lines = [f"\nLink use, variant `{v}`: H2D busy fraction of the run (`h2d_busy_ns / "
             "sim_time_ns`), transfer sets issued and pages per set, batch / pipelined\n",
             "| workload | memcpy busy | " +
             " | ".join(f"{p} busy | {p} sets (pages/set)" for p in cols) + " |",
             "|---|---|" + "---|---|" * len(cols)]
    for w in args.workloads:
        o = vout[w]
        cells = [f"{o['memcpy_link_busy']:.2f}"]
        for p in cols:
            q = p + "+pipe"
            cells.append(f"{o['link_busy'][p]:.2f} / {o['link_busy'][q]:.2f}")
            per = [o["ts_pages"][x] / o["ts_sets"][x] if o["ts_sets"][x] else 0 for x in (p, q)]
            cells.append(f"{o['ts_sets'][p]} ({per[0]:.0f}) / {o['ts_sets'][q]} ({per[1]:.0f})")
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    return lines


def plot(out, args, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cols = POLICIES + ["memcpy", "ideal"]
    names = args.workloads + ["geomean"]
    fig, axes = plt.subplots(len(args.variants), 1, figsize=(12, 4.2 * len(args.variants)),
                             squeeze=False)
    colors = plt.get_cmap("tab20")
    for ax, v in zip(axes[:, 0], args.variants):
        vo = out["variants"][v]
        width = 0.85 / len(cols)
        for i, c in enumerate(cols):
            ys = [vo["workloads"][w]["norm"][c] for w in args.workloads] + [vo["geomean"][c]]
            xs = [k + (i - len(cols) / 2) * width + width / 2 for k in range(len(names))]
            ax.bar(xs, ys, width, label=c, color="black" if c == "memcpy" else
                   "0.6" if c == "ideal" else colors(i), hatch="//" if "+pipe" in c else None)
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        ax.set_yscale("log")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names)
        ax.set_ylabel("run time / memcpy (log)")
        ax.set_title(f"paper config, {args.size_mb:g} MB per workload, handler costs: {v} "
                     f"({' '.join(VARIANTS[v]) or 'defaults'})", fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, ncol=(len(cols) + 1) // 2, fontsize=9, loc="upper center")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of studies/zheng.toml")
    ap.add_argument("--table-name", default="zheng")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--variants", default="default,driver_page_costs,link_only",
                    help="handler-cost variants: " + ",".join(VARIANTS))
    ap.add_argument("--plot")
    ap.add_argument("--table")
    ap.add_argument("--json")
    args = ap.parse_args()
    args.workloads = [w for w in args.workloads.split(",") if w]
    args.variants = [v for v in args.variants.split(",") if v]
    for v in args.variants:
        if v not in VARIANTS:
            die(f"unknown variant '{v}' (known: {', '.join(VARIANTS)})")
    res = load(args)
    md, out = table(res, args)
    cpu = sum(r["run_user_s"] + r["run_sys_s"] for r in res.values())
    out["runs"] = len(res)
    out["cpu_s"] = cpu
    md += (f"\n{len(res)} runs of the C model, {cpu:.0f} s CPU, {args.size_mb:g} MB per "
           "workload.\n")
    print(md)
    for path in (args.table, args.json, args.plot):
        if path and os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    if args.table:
        with open(args.table, "w") as f:
            f.write(md)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
    if args.plot:
        plot(out, args, args.plot)
        print(f"results_zheng: plot -> {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
