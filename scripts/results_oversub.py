#!/usr/bin/env python3
"""results_oversub.py - the figure step of the oversubscription studies (make results-oversub;
docs/results.md, "Oversubscription"): reads only a gmmu-sweep store (SQLite, docs/sweep.md) of
one of studies/oversub_*.toml and writes its Markdown table and plot.

  zheng9    Zheng et al. fig. 9: eviction random vs LRU, with and without continued prefetch,
            50% of the footprint fitting, oracle warm-up
  zheng10   Zheng et al. fig. 10: run time from 95% down to 25% fitting
  uvmsmart  UVMSmart's eviction policies x prefetchers at 110% and 125% oversubscription
  driver    the driver's FIFO vs LRU vs optimal eviction
  thrash    the thrashing detector off / nvidia / capacity

Every run time is divided by the same workload's run at mem = fit100 (everything fits). The
variant of a row is its study axes other than `mem` (joined by " / "). A failed run whose error
says the simulator lacks a policy or key ("is not one of", "unknown key": a branch not merged
yet) is n/a; any other failure (e.g. the watchdog's hang) is shown as **fail** with its
reproduce command.

  results_oversub.py --store results.sqlite [--table-name oversub_zheng9] [--md OUT.md]
                     [--img OUT.png]
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "sweep"))
from gmmu_sweep.store import load_table  # noqa: E402

TITLES = {
    "zheng9": "Zheng fig. 9: eviction and continued prefetch at 50% fitting",
    "zheng10": "Zheng fig. 10: run time from 95% down to 25% of the footprint fitting",
    "uvmsmart": "UVMSmart: eviction policies x prefetchers at 110% and 125% oversubscription",
    "driver": "The driver's FIFO vs LRU vs optimal eviction",
    "thrash": "Thrashing detection: off vs the driver's vs capacity",
}
# the columns of the store that are not axes
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_AXES = ("config", "workload", "engine", "seed", "size_mb", "gen_seed", "iters", "window")


# statistics shown beside the run times when a study's runs have them (only written when the
# feature is on): count_unused (docs/handler.md §6z) and the thrashing detector (§6j)
UNUSED = ("pages_prefetched", "unused_evicted", "unused_evicted_prefetch",
          "prefetch_unused_resident")
THRASH = ("num_thrashing", "num_throttle", "num_pin")
COUNTS = UNUSED + THRASH


def die(msg):
    sys.exit(f"results_oversub: {msg}")


def point_name(pt):
    return pt


def failed_record(store_dir, key):
    """The store's record of a failed run (its command and log tail), or {}."""
    try:
        with open(os.path.join(store_dir, "failed", key + ".json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def rows_of(table, recs, store_dir):
    """The store's rows as {workload, point, variant, reference, status, why, cmd, stats}."""
    if not recs:
        die(f"table {table}: no rows")
    # the study's [[axis]] columns come before run_key in the table
    cols = list(recs[0])
    axes = [c for c in cols[:cols.index("run_key")] if c not in NOT_AXES and c != "mem"]
    out = []
    for r in recs:
        fr = failed_record(store_dir, r["run_key"]) if r["run_status"] != "done" else {}
        err = "\n".join([r.get("run_error") or "", fr.get("log_tail") or ""]) \
            if isinstance(fr.get("log_tail"), str) else "\n".join(
                [r.get("run_error") or ""] + list(fr.get("log_tail") or []))
        if r["run_status"] == "done":
            bad = r.get("integrity_errors") or r.get("platform_errors") or r.get("fatal_faults")
            status, why = ("error", "integrity/platform errors or fatal faults") if bad \
                else ("ok", "")
        elif "is not one of" in err or "unknown key" in err:
            lines = [ln for ln in err.splitlines() if "is not one of" in ln or "unknown key" in ln]
            status, why = "n/a", lines[-1].strip()
        else:
            res = [ln.split(None, 1)[1] for ln in err.splitlines()
                   if ln.strip().startswith("RESULT") and len(ln.split(None, 1)) > 1]
            status, why = "fail", (res[-1].strip() if res else
                                   (err.strip().splitlines() or ["?"])[-1])
        cmd = fr.get("command") or ""
        out.append({"workload": r["workload"], "point": r["mem"],
                    "variant": " / ".join(str(r[a]) for a in axes),
                    "reference": r["mem"] == "fit100", "status": status, "why": why,
                    "cmd": cmd if isinstance(cmd, str) else " ".join(cmd),
                    "cpu_s": (r.get("run_user_s") or 0) + (r.get("run_sys_s") or 0),
                    "wall_s": r.get("run_wall_s") or 0,
                    "stats": {k: r.get(k) for k in ("sim_time_ns", "far_faults", "evictions",
                                                    "pages_h2d", "pages_d2h") + COUNTS}})
    return out


def geomean(xs):
    """Geometric mean; None when a value is missing or failed (n/a)."""
    if not xs or any(not isinstance(x, float) or x <= 0 for x in xs):
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def normalised(rows):
    """{(workload, point, variant): run time / reference run time} (None: n/a)."""
    ref = {r["workload"]: r["stats"].get("sim_time_ns") for r in rows if r["reference"]}
    out = {}
    for r in rows:
        if r["reference"]:
            continue
        k = (r["workload"], point_name(r["point"]), r["variant"])
        t = r["stats"].get("sim_time_ns")
        out[k] = "fail" if r["status"] == "fail" else t / ref[r["workload"]] \
            if r["status"] == "ok" and t and ref.get(r["workload"]) else None
    return out


def repro(cmd):
    """The command of a run without its stats file and --quiet."""
    out, toks = [], cmd.split()
    i = 0
    while i < len(toks):
        if toks[i] == "--stats":
            i += 2
            continue
        if toks[i] != "--quiet":
            out.append(toks[i].replace(ROOT + os.sep, ""))  # relative to the repository
        i += 1
    return " ".join(out)


def fmt(x):
    return "n/a" if x is None else "**fail**" if x == "fail" else f"{x:.2f}"


def md_rows(norm, wls, pt, variants, cell=fmt, geo=True):
    """Table lines of one memory point: a column per variant, or, when every variant is
    "<eviction> / <prefetcher>", a row per (workload, eviction) and a column per prefetcher.
    cell(value of norm) formats a cell; geo: the geomean rows."""
    if variants and all(" / " in v for v in variants):
        evs = list(dict.fromkeys(v.split(" / ")[0] for v in variants))
        pfs = list(dict.fromkeys(v.split(" / ")[1] for v in variants))
        lines = ["| workload | eviction | " + " | ".join(pfs) + " |",
                 "|---|---|" + "---|" * len(pfs)]
        for w in wls:
            for e in evs:
                lines.append(f"| {w} | {e} | " +
                             " | ".join(cell(norm.get((w, pt, f"{e} / {p}"))) for p in pfs) + " |")
        for e in evs if geo else []:
            gm = [geomean([norm.get((w, pt, f"{e} / {p}")) for w in wls]) for p in pfs]
            lines.append(f"| **geomean** | **{e}** | " +
                         " | ".join(f"**{fmt(g)}**" for g in gm) + " |")
        return lines
    lines = ["| workload | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants)]
    for w in wls:
        lines.append(f"| {w} | " + " | ".join(cell(norm.get((w, pt, v))) for v in variants) + " |")
    if geo:
        gm = [geomean([norm.get((w, pt, v)) for w in wls]) for v in variants]
        lines.append("| **geomean** | " + " | ".join(f"**{fmt(g)}**" for g in gm) + " |")
    return lines


def counts_of(rows, keys):
    """{(workload, point, variant): {key: value}} of the finished runs that have every key."""
    return {(r["workload"], point_name(r["point"]), r["variant"]): r["stats"] for r in rows
            if not r["reference"] and r["status"] == "ok" and
            all(isinstance(r["stats"].get(k), (int, float)) for k in keys)}


def unused_cell(s):
    """Prefetched pages evicted before any use, of the pages prefetched (docs/handler.md §6z),
    and the demand pages evicted before their replay's use."""
    if not s:
        return "n/a"
    pf, e, ep = s["pages_prefetched"], s["unused_evicted"], s["unused_evicted_prefetch"]
    out = f"{ep}/{pf} ({100 * ep / pf:.0f}%)" if pf else "-"
    return out + (f" d{e - ep}" if e - ep else "")


def thrash_cell(s):
    return "n/a" if not s else "/".join(str(s[k]) for k in THRASH)


def md_counts(rows, wls, pts, variants):
    """The tables of count_unused and of the thrashing detector, where the runs have them."""
    lines = []
    unused = counts_of(rows, UNUSED)
    if unused:
        lines += ["", "**Prefetched pages evicted before any GPU access** (count_unused = oracle, "
                  "docs/handler.md §6z: the platform's access ORACLE, not something a driver "
                  "sees): evicted unused / pages prefetched (%); `dN`: N demand pages evicted "
                  "before their replay used them; `-`: nothing prefetched"]
        grid = variants and all(" / " in v for v in variants)
        if grid:  # eviction x prefetcher: the workloads summed, a row per eviction policy
            lines[-1] += " (summed over the workloads)"
            tot = {}
            for (w, pt, v), st in unused.items():
                t = tot.setdefault(("all", pt, v), {k: 0 for k in UNUSED})
                for k in UNUSED:
                    t[k] += st[k]
        for pt in pts:
            lines += ["", f"Memory `{pt}`", ""]
            lines += md_rows(tot, ["all"], pt, variants, unused_cell, geo=False) if grid else \
                md_rows(unused, wls, pt, variants, unused_cell, geo=False)
    thrash = counts_of(rows, THRASH)
    if thrash:
        vs = [v for v in variants if any(k[2] == v for k in thrash)]
        lines += ["", "**Thrashing detector** (docs/handler.md §6j): `num_thrashing` / "
                  "`num_throttle` / `num_pin`"]
        for pt in pts:
            lines += ["", f"Memory `{pt}`", ""]
            lines += md_rows(thrash, wls, pt, vs, thrash_cell, geo=False)
    return lines


def md_table(name, rows):
    norm = normalised(rows)
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    pts = list(dict.fromkeys(point_name(r["point"]) for r in rows if not r["reference"]))
    # variants with at least one result; the others are listed as n/a below the table
    variants = [v for v in dict.fromkeys(r["variant"] for r in rows if not r["reference"])
                if any(norm.get((w, p, v)) is not None for w in wls for p in pts)]
    missing = [v for v in dict.fromkeys(r["variant"] for r in rows if not r["reference"])
               if v not in variants]
    ref = sorted({r["variant"] for r in rows if r["reference"]})
    lines = [f"**{TITLES[name]}** (run time / run time of the same workload when everything fits"
             f" (`fit100`, {', '.join(ref)}); lower is better)"]
    na = sorted({r["why"] for r in rows if r["status"] == "n/a"})
    if name == "zheng10":
        v = variants[0]
        lines += ["", "| workload | " + " | ".join(p.replace("fit", "") + "%" for p in pts) +
                  " |", "|---|" + "---|" * len(pts)]
        for w in wls:
            lines.append(f"| {w} | " + " | ".join(fmt(norm.get((w, p, v))) for p in pts) + " |")
    else:
        for pt in pts:
            lines += ["", f"Memory `{pt}` (fit N: N% of the touched pages fit; over N: the "
                      "footprint is N% of the GPU memory)", ""]
            lines += md_rows(norm, wls, pt, variants)
    lines += md_counts(rows, wls, pts, variants)
    if missing:
        lines += ["", "Not in this build yet (n/a): " + ", ".join(f"`{v}`" for v in missing) +
                  " (" + "; ".join(f"`{x}`" for x in na) + ")"]
    fails = [r for r in rows if r["status"] == "fail"]
    for r in fails:
        lines += ["", f"**fail**: {r['workload']} `{point_name(r['point'])}` `{r['variant']}`: "
                  f"{r['why']}; reproduce: `{repro(r['cmd'])}`"]
    errs = [r for r in rows if r["status"] == "error"]
    if errs:
        lines += ["", f"{len(errs)} runs with integrity/platform errors or fatal faults (shown "
                  "as n/a)."]
    sim = [r for r in rows if r["status"] in ("ok", "error")]
    cpu = sum(r["cpu_s"] for r in sim)
    lines += ["", f"{len(rows)} runs, {len(sim)} finished ({cpu:.0f} s of CPU, the sum of their "
              "CPU times), the others n/a or failed.", ""]
    return "\n".join(lines)


def plot(name, rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    title = TITLES[name]
    norm = normalised(rows)
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    pts = list(dict.fromkeys(point_name(r["point"]) for r in rows if not r["reference"]))
    variants = [v for v in dict.fromkeys(r["variant"] for r in rows if not r["reference"])
                if any(norm.get((w, p, v)) is not None for w in wls for p in pts)]
    if name == "zheng10":
        fig, ax = plt.subplots(figsize=(8, 4.5))
        xs = [int(p[3:]) for p in pts]
        cmap = plt.get_cmap("tab20")
        for i, w in enumerate(wls):
            ys = [norm.get((w, p, variants[0])) for p in pts]
            ax.plot(xs, [y if isinstance(y, float) else float("nan") for y in ys], marker="os^D"[i % 4],
                    color=cmap(i % 20), label=w)
        ax.set_xlabel("% of the footprint fitting in GPU memory")
        ax.invert_xaxis()
        ax.set_yscale("log")
        ax.set_ylabel("run time / fitting run time (log)")
        ax.legend(fontsize=8, ncol=2)
        ax.grid(alpha=0.3, which="both")
        ax.set_title(title, fontsize=10)
    else:
        fig, axes = plt.subplots(len(pts), 1, figsize=(max(8, 1.1 * len(wls) + 0.25 *
                                                           len(variants)), 3.8 * len(pts)),
                                 squeeze=False)
        cmap = plt.get_cmap("tab20")
        for ax, pt in zip(axes[:, 0], pts):
            width = 0.85 / max(1, len(variants))
            for i, v in enumerate(variants):
                ys = [norm.get((w, pt, v)) for w in wls]
                ys = [y if isinstance(y, float) else 0 for y in ys]  # n/a, fail: no bar
                xs = [k + (i - len(variants) / 2 + 0.5) * width for k in range(len(wls))]
                ax.bar(xs, ys, width, label=v, color=cmap(i % 20))
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            ax.set_yscale("log")
            ax.set_xticks(range(len(wls)))
            ax.set_xticklabels(wls, fontsize=8)
            ax.set_ylabel("run time / fitting (log)")
            ax.set_title(f"{title}: {pt}", fontsize=9)
            ax.grid(axis="y", which="both", alpha=0.3)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=7, ncol=min(4, len(labels)), loc="upper center")
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.035 * ((len(labels) + 3) // 4) / len(pts)))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="results.sqlite of a gmmu-sweep store")
    ap.add_argument("--table-name", help="the study's table (default: the only one)")
    ap.add_argument("--md", help="Markdown table out")
    ap.add_argument("--img", help="plot out (PNG)")
    args = ap.parse_args()
    try:
        table, recs = load_table(args.store, args.table_name)
    except (OSError, ValueError) as e:
        die(str(e))
    kind = table[len("oversub_"):] if table.startswith("oversub_") else table
    if kind not in TITLES:
        die(f"table {table}: not an oversubscription study ({', '.join(TITLES)})")
    rows = rows_of(table, recs, os.path.dirname(os.path.abspath(args.store)))
    md = md_table(kind, rows)
    print(md)
    if args.md:
        os.makedirs(os.path.dirname(os.path.abspath(args.md)), exist_ok=True)
        with open(args.md, "w") as f:
            f.write(md)
    if args.img:
        os.makedirs(os.path.dirname(os.path.abspath(args.img)), exist_ok=True)
        plot(kind, rows, args.img)
        print(f"results_oversub: plot -> {args.img}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
