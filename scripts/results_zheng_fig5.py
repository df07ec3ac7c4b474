#!/usr/bin/env python3
"""results_zheng_fig5.py - Zheng et al.'s fig. 5: paged memory without prefetching, blocking vs
replayable far-faults with 1..16 far-fault MSHRs per CU (issue 24 item 4).

Reads only the results store of studies/zheng_fig5.toml (gmmu-sweep collect --partial) and prints
each workload's run time divided by its kernel time with every page resident (the memcpy run's
kernel_ns at quota 4: the same kernels without a far-fault), for the blocking baseline (quota 4:
one outstanding far-fault blocks the SM, so the quota does not matter) and for replayable
far-faults at each quota, with the geometric means; --plot draws it (matplotlib).
docs/results.md "Zheng fig. 5". Exit status 1 on a missing run, a run with errors, a bad store.
"""

import argparse
import os
import sys

from results_store import geomean, read_table, run_failed

WORKLOADS = ["backprop", "hotspot", "nw", "sgemm", "stencil"]
QUOTAS = [1, 2, 4, 8, 16]


def die(msg):
    sys.exit(f"results_zheng_fig5: {msg}")


def load(path, table):
    rows = read_table(path, table, "results_zheng_fig5",
                      "gmmu-sweep collect studies/zheng_fig5.toml --partial")
    res = {}
    for r in rows:
        if r.get("run_status", "done") != "done":
            continue
        if run_failed(r):
            die(f"{r['run_name']}: integrity/platform errors or fatal faults")
        q = int(r["config"][1:])
        if int(r["config.ff_quota"]) != q:
            die(f"{r['run_name']}: ff_quota = {r['config.ff_quota']}, the configuration says {q}")
        res[(q, r["mode"], r["workload"])] = r
    return res


def need(res, key):
    if key not in res:
        die(f"missing run config=q{key[0]},mode={key[1]},workload={key[2]} (gmmu-sweep status)")
    return res[key]


def table(res):
    cols = ["blocking"] + [f"replayable q{q}" for q in QUOTAS]
    lines = ["| workload | " + " | ".join(cols) + " | resident kernels (ms) |",
             "|---|" + "---|" * len(cols) + "---|"]
    norm = {c: [] for c in cols}
    for w in WORKLOADS:
        base = need(res, (4, "memcpy", w))["kernel_ns"]
        row = {"blocking": need(res, (4, "blocking", w))["sim_time_ns"] / base}
        for q in QUOTAS:
            row[f"replayable q{q}"] = need(res, (q, "replayable", w))["sim_time_ns"] / base
        for c in cols:
            norm[c].append(row[c])
        lines.append(f"| {w} | " + " | ".join(f"{row[c]:.2f}" for c in cols) +
                     f" | {base / 1e6:.3f} |")
    gm = {c: geomean(norm[c]) for c in cols}
    lines.append("| **geomean** | " + " | ".join(f"**{gm[c]:.2f}**" for c in cols) + " | |")
    return "\n".join(lines) + "\n", cols, norm, gm


def plot(cols, norm, gm, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = WORKLOADS + ["geomean"]
    fig, ax = plt.subplots(figsize=(11, 4))
    width = 0.85 / len(cols)
    cmap = plt.get_cmap("viridis")
    for k, c in enumerate(cols):
        ys = norm[c] + [gm[c]]
        xs = [n + (k - len(cols) / 2) * width + width / 2 for n in range(len(names))]
        ax.bar(xs, ys, width, label=c, color="black" if c == "blocking" else
               cmap(k / len(cols)))
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("run time / resident kernels")
    ax.set_title("Zheng fig. 5 on paper.cfg: no prefetching, far-fault MSHRs per CU", fontsize=10)
    ax.legend(fontsize=8, ncol=3)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of studies/zheng_fig5.toml")
    ap.add_argument("--table-name", default="zheng_fig5")
    ap.add_argument("--plot")
    ap.add_argument("--table", help="also write the Markdown table here")
    args = ap.parse_args()
    text, cols, norm, gm = table(load(args.store, args.table_name))
    print(text)
    if args.table:
        os.makedirs(os.path.dirname(args.table) or ".", exist_ok=True)
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(text)
    if args.plot:
        plot(cols, norm, gm, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
