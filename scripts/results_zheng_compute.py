#!/usr/bin/env python3
"""results_zheng_compute.py - Zheng et al.'s fig. 7 with kernels that compute (issue 24).

Reads only the results store of studies/zheng_compute.toml (gmmu-sweep collect) and prints, per
handler-cost variant and per workload set (the workloads' derived compute, docs/workloads.md
"Compute per memory instruction", and the sensitivity with compute = 100 instructions per memory
instruction), the run time of each paging policy (--policies; a policy
without every workload's run is left out of its block) normalised to the memcpy run of
the same workload, the ideal overlap bound, the copy and kernel times, and the geometric means;
with --plot a bar chart (matplotlib). A (variant, workload set) block with a missing run is
listed as not run (make results-zheng-compute runs a part of the grid: mk/results.mk).
docs/results.md "Zheng fig. 7 with kernels that compute". Exit status 1 on a run with errors, a
bad store, or no complete block.
"""

import argparse
import os
import sys

from results_store import geomean, read_table, run_failed

POLICIES = ["none", "sequential+pipe", "locality+pipe", "oracle+pipe"]
WORKLOADS = ["backprop", "hotspot", "nw", "sgemm", "stencil"]
SETS = [("derived", ""), ("compute=100", "_c100")]


def die(msg):
    sys.exit(f"results_zheng_compute: {msg}")


def load(path, table):
    rows = read_table(path, table, "results_zheng_compute",
                      "gmmu-sweep collect studies/zheng_compute.toml")
    res = {}
    for r in rows:
        if run_failed(r):
            die(f"{r['run_name']}: integrity/platform errors or fatal faults")
        if str(r["config.sm_issue_ipc"]) != "2":
            die(f"{r['run_name']}: sm_issue_ipc = {r['config.sm_issue_ipc']}, the study says 2")
        res[(r["config"], r["workload"], r["policy"])] = r
    return res


def tables(res, variants, policies):
    lines, out = [], {}
    for v in variants:
        for sname, suffix in SETS:
            have = [p for p in policies + ["memcpy"]
                    if all((v, w + suffix, p) in res for w in WORKLOADS)]
            if "memcpy" not in have or len(have) == 1:
                lines.append(f"\n`{v}`, compute {sname}: not run")
                continue
            pols = [p for p in have if p != "memcpy"]
            cols = pols + ["memcpy", "ideal"]
            lines.append(f"\n**`{v}`, compute {sname}**: run time / memcpy run time\n")
            lines.append("| workload | " + " | ".join(cols) + " | memcpy (ms): copy + kernels |")
            lines.append("|---|" + "---|" * len(cols) + "---|")
            norm = {c: [] for c in cols}
            for w in WORKLOADS:
                m = res[(v, w + suffix, "memcpy")]
                base = m["sim_time_ns"]
                row = {p: res[(v, w + suffix, p)]["sim_time_ns"] / base for p in pols}
                row["memcpy"] = 1.0
                row["ideal"] = m["ideal_ns"] / base
                for c in cols:
                    norm[c].append(row[c])
                lines.append(f"| {w} | " + " | ".join(f"{row[c]:.2f}" for c in cols) +
                             f" | {base / 1e6:.2f}: {m['copy_ns'] / 1e6:.2f} + "
                             f"{m['kernel_ns'] / 1e6:.2f} |")
            gm = {c: geomean(norm[c]) for c in cols}
            lines.append("| **geomean** | " + " | ".join(f"**{gm[c]:.2f}**" for c in cols) +
                         " | |")
            out[(v, sname)] = (cols, norm, gm)
    if not out:
        die("no complete (variant, workload set) block in the store (gmmu-sweep status)")
    return "\n".join(lines) + "\n", out


def plot(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = WORKLOADS + ["geomean"]
    fig, axes = plt.subplots(1, len(out), figsize=(6.5 * len(out), 4), squeeze=False)
    cmap = plt.get_cmap("tab10")
    for j, ((v, sname), (cols, norm, gm)) in enumerate(out.items()):
        ax = axes[0, j]
        width = 0.85 / len(cols)
        for k, c in enumerate(cols):
            ys = norm[c] + [gm[c]]
            xs = [n + (k - len(cols) / 2) * width + width / 2 for n in range(len(names))]
            ax.bar(xs, ys, width, label=c, color="black" if c == "memcpy" else
                   "0.6" if c == "ideal" else cmap(k))
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        ax.set_yscale("log")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, fontsize=8)
        ax.set_ylabel("run time / memcpy (log)")
        ax.set_title(f"{v}, compute {sname}, sm_issue_ipc 2", fontsize=9)
        ax.grid(axis="y", which="both", alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, ncol=len(labels), fontsize=9, loc="upper center")
    fig.tight_layout(rect=(0, 0, 1, 0.90))
    fig.savefig(path, dpi=100)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of studies/zheng_compute.toml")
    ap.add_argument("--table-name", default="zheng_compute")
    ap.add_argument("--variants", default="driver_page_costs,link_only")
    ap.add_argument("--policies", default=",".join(POLICIES),
                    help="paging policies to tabulate (columns)")
    ap.add_argument("--plot")
    ap.add_argument("--table", help="also write the Markdown table here")
    args = ap.parse_args()
    variants = args.variants.split(",")
    text, out = tables(load(args.store, args.table_name), variants, args.policies.split(","))
    print(text)
    if args.table:
        os.makedirs(os.path.dirname(args.table) or ".", exist_ok=True)
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(text)
    if args.plot:
        plot(out, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
