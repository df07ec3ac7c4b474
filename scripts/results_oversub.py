#!/usr/bin/env python3
"""results_oversub.py - the seeds' oversubscription studies (make results-oversub; docs/results.md,
"Oversubscription"): Zheng et al. fig. 9 (eviction random vs LRU, with and without continued
prefetch, 50% of the footprint fitting, oracle warm-up) and fig. 10 (run time from 95% down to 25%
fitting), UVMSmart's eviction policies x prefetchers at 110% and 125% oversubscription, the
driver's FIFO vs LRU vs optimal eviction, the thrashing detector off / nvidia / capacity.

Two steps, so the studies can move to gmmu-sweep (issue 23) unchanged:
  run   the run list is data (STUDIES below): every (workload, memory point, variant) is one C
        model run (gmmu-sim --engine cmodel, configs/paper.cfg + --set overrides); each run's
        stats are cached under --work by a key (trace, gpu_mem_pages, overrides), so a rerun only
        runs what is missing; one row per run is appended to the table file --table-dir/<study>
        .jsonl (workload, point, variant, overrides, status, the statistics used below).
  plot  reads only those table files: Markdown tables (--md-dir/<study>.md) and one plot per study
        (--img-dir/results_oversub_<study>.png).

A variant whose policy or key the simulator does not have yet (gmmu-sim exits 2 with "is not one
of" / "unknown key") is recorded as status "n/a" and shown as such: the policy lists are data and
name the policies other branches are adding (evict_policy nvidia, lru_access, lfu, optimal;
thrashing_policy nvidia, capacity; prefetch_when_full); rerunning after they land fills them in.

  results_oversub.py --sim gmmu-sim --gen gmmu-gen --trace-tool gmmu-trace --work DIR
                     [--studies a,b] [--quick] [--jobs N] [--table-dir D] [--md-dir D]
                     [--img-dir D] [--plot-only]
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

CONFIG = "configs/paper.cfg"
# every run: contiguous runs of a 2 MB block are one DMA (as results_zheng.py)
COMMON = ["migrate_max_pages=512"]
# Zheng's fig. 9/10 workloads the suite has (docs/workloads.md "used by": Zheng'16)
ZHENG_WL = ["backprop", "hotspot", "nw", "sgemm", "stencil", "xsbench"]
# UVMSmart's workloads in the suite + the uvm_oversubs sample's three patterns
UVM_PATTERNS = ["streaming", "block_streaming", "random_warp"]
UVMSMART_WL = ["backprop", "hotspot", "pathfinder", "srad", "nw"] + UVM_PATTERNS
DRIVER_WL = ["backprop", "hotspot", "nw", "sgemm", "xsbench"] + UVM_PATTERNS
# GPU memory (4 KB frames) of the uvm_oversubs runs at an oversubscription point: the generator
# sizes the buffer from it (--param gpu_pages / oversub_pct, docs/workloads.md)
UVM_GPU_PAGES = 2048

WARMUP = ["prefetch_policy=oracle"]  # Zheng §5: oracle prefetch until memory is full
# a prefetcher that keeps prefetching (and evicting) once memory is full (issue 20 item 3)
CONT = ["prefetch_when_full=yes"]


def fit(p):
    return {"fit": p}


def over(p):
    return {"oversub": p}


# Each study: workloads, memory points, variants (label -> overrides), the reference run every
# run time is divided by (label, overrides, point), and the paper's claim (text, shown beside).
STUDIES = {
    "zheng9": {
        "title": "Zheng fig. 9: eviction and continued prefetch at 50% fitting",
        "workloads": ZHENG_WL,
        "points": [fit(50)],
        "variants": {
            "random": WARMUP + ["evict_policy=random"],
            "lru (migration time)": WARMUP + ["evict_policy=lru"],
            "lru (access, oracle)": WARMUP + ["evict_policy=lru_access"],
            "random + locality prefetch": ["prefetch_policy=locality", "evict_policy=random"] +
            CONT,
            "lru + locality prefetch": ["prefetch_policy=locality", "evict_policy=lru"] + CONT,
            "lru (access) + locality prefetch": ["prefetch_policy=locality",
                                                 "evict_policy=lru_access"] + CONT,
        },
        "reference": ("fits (oracle)", WARMUP, fit(100)),
    },
    "zheng10": {
        "title": "Zheng fig. 10: run time from 95% down to 25% of the footprint fitting",
        "workloads": ZHENG_WL + ["pathfinder", "srad"] + UVM_PATTERNS,
        "points": [fit(95), fit(75), fit(50), fit(33), fit(25)],
        "variants": {"oracle warm-up, lru": WARMUP + ["evict_policy=lru"]},
        "reference": ("fits (oracle)", WARMUP, fit(100)),
    },
    "uvmsmart": {
        "title": "UVMSmart: eviction policies x prefetchers at 110% and 125% oversubscription",
        "workloads": UVMSMART_WL,
        "points": [over(110), over(125)],
        "variants": {f"{e} / {p}": [f"evict_policy={e}", f"prefetch_policy={p}"]
                     for e in ["lru", "random", "fifo", "lru64k", "random64k", "lru2m",
                               "random2m", "lfu"]
                     for p in ["none", "random_local", "seq_local", "tbn"]},
        "reference": ("fits (tbn)", ["prefetch_policy=tbn"], fit(100)),
    },
    "driver": {
        "title": "The driver's FIFO vs LRU vs optimal eviction",
        "workloads": DRIVER_WL,
        "points": [over(125), fit(50)],
        "variants": {e: [f"evict_policy={e}", "prefetch_policy=nvidia"]
                     for e in ["fifo", "nvidia", "lru", "lru_access", "random", "optimal"]},
        "reference": ("fits (nvidia)", ["prefetch_policy=nvidia"], fit(100)),
    },
    "thrash": {
        "title": "Thrashing detection: off vs the driver's vs capacity",
        "workloads": DRIVER_WL,
        "points": [over(125), fit(50)],
        "variants": {t: ["evict_policy=fifo", "prefetch_policy=nvidia", f"thrashing_policy={t}"]
                     for t in ["none", "nvidia", "capacity"]},
        "reference": ("fits (nvidia)", ["prefetch_policy=nvidia"], fit(100)),
    },
}
QUICK_WL = ["backprop", "nw", "streaming", "random_warp"]

# the statistics kept in the table (besides run time)
KEEP = ["sim_time_ns", "far_faults", "evictions", "pages_h2d", "pages_d2h", "pages_prefetched",
        "fault_batches", "kernel_ns", "num_thrashing", "num_throttle", "num_pin"]


def die(msg):
    sys.exit(f"results_oversub: {msg}")


def file_id(path):
    """Content hash (12 hex digits) of a built tool."""
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


def run_measured(cmd):
    """subprocess.run(cmd) with the child's own CPU time (user + system, from wait4)."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out = fo.read().decode(errors="replace")
        err = fe.read().decode(errors="replace")
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    return r, ru.ru_utime + ru.ru_stime


def point_name(pt):
    return f"fit{pt['fit']}" if "fit" in pt else f"over{pt['oversub']}"


class Runner:
    def __init__(self, args):
        self.a = args
        self.traces = {}  # (workload, gen params) -> (path, pages touched)
        # the builds are part of every cache key: a new simulator (a merged policy) reruns
        self.sim_id = file_id(args.sim)
        self.tdir = os.path.join(args.work, "traces-" + file_id(args.gen))
        os.makedirs(self.tdir, exist_ok=True)

    def trace(self, wl, params):
        key = (wl, tuple(params))
        if key in self.traces:
            return self.traces[key]
        tag = "-".join([wl, f"{self.a.size_mb:g}mb"] + [p.replace("=", "") for p in params])
        path = os.path.join(self.tdir, tag + ".trc")
        if not os.path.exists(path):
            cmd = [self.a.gen, wl, "--seed", "1", "-o", path + ".tmp"]
            cmd += ["--size-mb", f"{self.a.size_mb:g}"] if not params else []
            for p in params:
                cmd += ["--param", p]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                die(f"{' '.join(cmd)}: {r.stderr.strip()}")
            os.replace(path + ".tmp", path)
        r = subprocess.run([self.a.trace_tool, "stats", path], capture_output=True, text=True)
        pages = [int(ln.split()[2]) for ln in r.stdout.splitlines()
                 if ln.startswith("distinct pages")]
        if r.returncode != 0 or not pages:
            die(f"gmmu-trace stats {path}: {r.stderr.strip()}")
        self.traces[key] = (path, pages[0])
        return self.traces[key]

    def resolve(self, wl, pt):
        """(trace, gpu_mem_pages, footprint pages) of a workload at a memory point."""
        if wl in UVM_PATTERNS and "oversub" in pt:
            # the sample's way: the buffer is oversub% of the GPU memory
            path, pages = self.trace(wl, [f"gpu_pages={UVM_GPU_PAGES}",
                                          f"oversub_pct={pt['oversub']}", "page_kb=4"])
            return path, UVM_GPU_PAGES, pages
        path, pages = self.trace(wl, ["page_kb=4"] if wl in UVM_PATTERNS else [])
        frac = pt["fit"] / 100 if "fit" in pt else 100 / pt["oversub"]
        return path, max(1, math.ceil(pages * frac)), pages

    def run(self, job):
        wl, pt, sets = job["workload"], job["point"], job["sets"]
        trace, gpu, pages = self.resolve(wl, pt)
        allsets = COMMON + sets + [f"gpu_mem_pages={gpu}"]
        key = hashlib.sha1(json.dumps([os.path.basename(trace), allsets, self.sim_id]).encode()).hexdigest()
        stats = os.path.join(self.a.work, f"{wl}.{key[:16]}.json")
        row = dict(job, gpu_mem_pages=gpu, footprint_pages=pages, sets=allsets, key=key,
                   sim_id=self.sim_id)
        fresh = not os.path.exists(stats)
        if not fresh:
            with open(stats) as f:
                st = json.load(f)
        else:
            cmd = [self.a.sim, "--engine", "cmodel", "--config", CONFIG, "--trace", trace,
                   "--seed", "1", "--quiet", "--stats", stats + ".tmp"]
            for s in allsets:
                cmd += ["--set", s]
            t0 = time.time()
            r, cpu = run_measured(cmd)
            if r.returncode == 2 and ("is not one of" in r.stderr or "unknown key" in r.stderr):
                # a policy / key of a branch not merged yet: cached as n/a
                st = {"_status": "n/a", "_why": r.stderr.strip().splitlines()[-1]}
            elif r.returncode != 0:
                # a failed run (e.g. the watchdog's hang) is a result too: kept, shown as "fail"
                res = [ln.split(None, 1)[1] for ln in (r.stdout + r.stderr).splitlines()
                       if ln.strip().startswith("RESULT")]
                why = res[-1].strip() if res else (r.stderr.strip().splitlines() or ["?"])[-1]
                print(f"results_oversub: FAILED (exit {r.returncode}: {why}): {' '.join(cmd)}",
                      file=sys.stderr)
                st = {"_status": "fail", "_why": f"exit {r.returncode}: {why}",
                      "_cmd": " ".join(cmd)}
                if os.path.exists(stats + ".tmp"):
                    os.remove(stats + ".tmp")
            else:
                with open(stats + ".tmp") as f:
                    st = json.load(f)
                os.remove(stats + ".tmp")
                bad = st["integrity_errors"] or st["platform_errors"] or st["fatal_faults"]
                st = {k: st[k] for k in KEEP if k in st}
                st["_status"] = "error" if bad else "ok"
                st["_wall"] = time.time() - t0
                st["_cpu"] = cpu
            with open(stats + ".tmp", "w") as f:
                json.dump(st, f, sort_keys=True)
            os.replace(stats + ".tmp", stats)
        row["status"] = st.get("_status", "ok")
        row["why"] = st.get("_why", "")
        row["cmd"] = st.get("_cmd", "")
        row["stats"] = {k: v for k, v in st.items() if not k.startswith("_")}
        row["wall_s"] = st.get("_wall", 0.0)
        row["cpu_s"] = st.get("_cpu")
        row["fresh"] = fresh
        return row


def jobs_of(name, study, workloads):
    ref_label, ref_sets, ref_pt = study["reference"]
    out = []
    for w in workloads:
        out.append({"study": name, "workload": w, "point": ref_pt, "variant": ref_label,
                    "sets": ref_sets, "reference": True})
        for pt in study["points"]:
            for label, sets in study["variants"].items():
                out.append({"study": name, "workload": w, "point": pt, "variant": label,
                            "sets": sets, "reference": False})
    return out


def run_studies(args, names):
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.table_dir, exist_ok=True)
    runner = Runner(args)
    for name in names:
        study = STUDIES[name]
        wls = [w for w in study["workloads"] if w in QUICK_WL] if args.quick \
            else study["workloads"]
        jobs = jobs_of(name, study, wls)
        if args.quick:  # one point, the first four variants
            keep = list(study["variants"])[:4]
            jobs = [j for j in jobs if j["reference"] or
                    (j["point"] == study["points"][0] and j["variant"] in keep)]
        # traces first (serially: shared by the runs)
        for j in jobs:
            runner.resolve(j["workload"], j["point"])
        t0, cpu0 = time.time(), os.times()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            rows = list(ex.map(runner.run, jobs))
        cpu1 = os.times()
        cpu = (cpu1.children_user + cpu1.children_system) - \
            (cpu0.children_user + cpu0.children_system)
        ran = sum(1 for r in rows if r["fresh"] and r["status"] != "n/a")
        path = os.path.join(args.table_dir, f"{name}.jsonl")
        with open(path + ".tmp", "w") as f:
            f.write(json.dumps({"meta": {"study": name, "runs": len(rows), "ran": ran,
                                         "cpu_s": round(cpu, 1), "wall_s": round(time.time() - t0,
                                                                                 1),
                                         "size_mb": args.size_mb, "quick": args.quick,
                                         "config": CONFIG}}) + "\n")
            for r in rows:
                f.write(json.dumps(r, sort_keys=True) + "\n")
        os.replace(path + ".tmp", path)
        print(f"results_oversub: {name}: {len(rows)} runs ({ran} run now, {cpu:.0f} s CPU) "
              f"-> {path}")


# ---- plotting: reads only the table files -------------------------------------------------------
def load(path):
    meta, rows = None, []
    with open(path) as f:
        for ln in f:
            o = json.loads(ln)
            if "meta" in o:
                meta = o["meta"]
            else:
                rows.append(o)
    return meta, rows


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
            out.append(toks[i])
        i += 1
    return " ".join(out)


def fmt(x):
    return "n/a" if x is None else "**fail**" if x == "fail" else f"{x:.2f}"


def md_rows(norm, wls, pt, variants):
    """Table lines of one memory point: a column per variant, or, when every variant is
    "<eviction> / <prefetcher>", a row per (workload, eviction) and a column per prefetcher."""
    if variants and all(" / " in v for v in variants):
        evs = list(dict.fromkeys(v.split(" / ")[0] for v in variants))
        pfs = list(dict.fromkeys(v.split(" / ")[1] for v in variants))
        lines = ["| workload | eviction | " + " | ".join(pfs) + " |",
                 "|---|---|" + "---|" * len(pfs)]
        for w in wls:
            for e in evs:
                lines.append(f"| {w} | {e} | " +
                             " | ".join(fmt(norm.get((w, pt, f"{e} / {p}"))) for p in pfs) + " |")
        for e in evs:
            gm = [geomean([norm.get((w, pt, f"{e} / {p}")) for w in wls]) for p in pfs]
            lines.append(f"| **geomean** | **{e}** | " +
                         " | ".join(f"**{fmt(g)}**" for g in gm) + " |")
        return lines
    lines = ["| workload | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants)]
    for w in wls:
        lines.append(f"| {w} | " + " | ".join(fmt(norm.get((w, pt, v))) for v in variants) + " |")
    gm = [geomean([norm.get((w, pt, v)) for w in wls]) for v in variants]
    lines.append("| **geomean** | " + " | ".join(f"**{fmt(g)}**" for g in gm) + " |")
    return lines


def md_table(name, meta, rows):
    study = STUDIES[name]
    norm = normalised(rows)
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    pts = list(dict.fromkeys(point_name(r["point"]) for r in rows if not r["reference"]))
    # variants with at least one result; the others are listed as n/a below the table
    variants = [v for v in dict.fromkeys(r["variant"] for r in rows if not r["reference"])
                if any(norm.get((w, p, v)) is not None for w in wls for p in pts)]
    missing = [v for v in dict.fromkeys(r["variant"] for r in rows if not r["reference"])
               if v not in variants]
    ref_label = study["reference"][0]
    lines = [f"**{study['title']}** (run time / run time when it {ref_label}; lower is better)"]
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
    sim = [r for r in rows if r["status"] in ("ok", "fail", "error")]
    cpu = sum(r["cpu_s"] if r.get("cpu_s") is not None else r["wall_s"] for r in sim)
    exact = all(r.get("cpu_s") is not None for r in sim)
    lines += ["", f"{meta['runs']} runs ({meta['size_mb']:g} MB per suite workload, "
              f"configs/paper.cfg), {len(sim)} simulated (the rest n/a), "
              f"{'' if exact else 'at most '}{cpu / 60:.1f} CPU minutes from scratch (sum of "
              f"the runs' {'CPU' if exact else 'wall'} times; runs shared with another study "
              "are counted in both).", ""]
    return "\n".join(lines)


def plot(name, rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    study = STUDIES[name]
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
        ax.set_title(study["title"], fontsize=10)
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
            ax.set_title(f"{study['title']}: {pt}", fontsize=9)
            ax.grid(axis="y", which="both", alpha=0.3)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=7, ncol=min(4, len(labels)), loc="upper center")
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.035 * ((len(labels) + 3) // 4) / len(pts)))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_studies(args, names):
    os.makedirs(args.md_dir, exist_ok=True)
    for name in names:
        path = os.path.join(args.table_dir, f"{name}.jsonl")
        if not os.path.exists(path):
            die(f"{path}: no table (run the study first)")
        meta, rows = load(path)
        md = md_table(name, meta, rows)
        with open(os.path.join(args.md_dir, f"{name}.md"), "w") as f:
            f.write(md)
        print(md)
        if args.img_dir:
            os.makedirs(args.img_dir, exist_ok=True)
            plot(name, rows, os.path.join(args.img_dir, f"results_oversub_{name}.png"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim")
    ap.add_argument("--gen")
    ap.add_argument("--trace-tool")
    ap.add_argument("--work", required=True)
    ap.add_argument("--studies", default=",".join(STUDIES))
    ap.add_argument("--size-mb", type=float, default=8.0)
    ap.add_argument("--quick", action="store_true",
                    help="4 workloads, first point, 4 variants, 2 MB (a check, not a result)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--table-dir")
    ap.add_argument("--md-dir")
    ap.add_argument("--img-dir")
    ap.add_argument("--plot-only", action="store_true", help="only read the tables and plot")
    args = ap.parse_args()
    names = [s for s in args.studies.split(",") if s]
    for n in names:
        if n not in STUDIES:
            die(f"unknown study '{n}' (known: {', '.join(STUDIES)})")
    if args.quick and args.size_mb == 8.0:
        args.size_mb = 2.0
    args.table_dir = args.table_dir or os.path.join(args.work, "tables")
    args.md_dir = args.md_dir or os.path.join(args.work, "md")
    if not args.plot_only:
        for tool in (args.sim, args.gen, args.trace_tool):
            if not tool or not os.access(tool, os.X_OK):
                die(f"{tool}: not built (make results-oversub builds it)")
        run_studies(args, names)
    plot_studies(args, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
