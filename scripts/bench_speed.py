#!/usr/bin/env python3
"""make bench-speed: end-to-end wall time of the C model (and of the trace generator) on a few
workload runs, for TWO builds side by side in one run: the tree issue 23 item 6 started from
(--base, default 4a1b7b9, built from a detached git worktree in $(BUILD)/bench-base) and the
current tree. Prints both times and the ratio base/current per run and in total, writes
$(BUILD)/bench-speed.json.

  bench_speed.py [--base 4a1b7b9] [--runs hotspot:64,...] [--config configs/h100.cfg] [--repeat 1]
                 [--only current]

A run is workload:size_mb[:key=value]...: a key=value is a generator parameter (--param), a
set.key=value a configuration override (--set), e.g. sparse:1024:k=512 or
stream:1024:set.warps_per_sm=33 (the calibration's probe rows, scripts/calibrate.py). Per run and
build it also prints the simulated time per wall second against the real H100's (1.0 = real time).

Both builds run the same (configuration, trace, seed), so their statistics must be identical (the
configuration file is the base tree's copy of --config: the current tree's may carry later keys);
the script compares them (minus the wall-clock keys) and fails when they differ: a speed-up that
changes a statistic is not one.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from stats_golden import IGNORED  # noqa: E402  (keys of the host / paths / wall clock)


def sh(cmd, **kw):
    r = subprocess.run(cmd, **kw)
    if r.returncode:
        sys.exit(f"bench-speed: failed (exit {r.returncode}): {' '.join(cmd)}")
    return r


def build(make, tree, build_dir):
    sh(shlex.split(make) + ["--no-print-directory", "-s", "-C", tree, f"BUILD={build_dir}",
                            "sim", "CONFIG=tiny", f"{build_dir}/bin/gmmu-gen"])


def base_tree(commit, build):
    """A detached worktree of the base commit under build/bench-base/src (made once)."""
    src = os.path.join(build, "bench-base", "src")
    if not os.path.isdir(src):
        os.makedirs(os.path.dirname(src), exist_ok=True)
        sh(["git", "-C", ROOT, "worktree", "add", "--detach", src, commit],
           stdout=subprocess.DEVNULL)
    return src


def timed(cmd):
    t = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        sys.stdout.write(r.stdout[-2000:])
        sys.exit(f"bench-speed: failed (exit {r.returncode}): {' '.join(cmd)}")
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="4a1b7b9")
    ap.add_argument("--runs", default="hotspot:64,sgemm:64",
                    help="comma-separated workload:size_mb")
    ap.add_argument("--config", default="configs/h100.cfg")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--make", default="make")
    ap.add_argument("--build", default="build")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--only", choices=["current"],
                    help="time the current tree alone (no ratio, no statistics comparison)")
    a = ap.parse_args()
    os.chdir(ROOT)
    build_abs = os.path.abspath(a.build)
    trees = {"current": (ROOT, build_abs)}
    if not a.only:
        trees = {"base": (base_tree(a.base, build_abs),
                          os.path.join(build_abs, "bench-base", "build")), **trees}
    if not a.no_build:
        for tree, bdir in trees.values():
            build(a.make, tree, bdir)
    out_dir = os.path.join(build_abs, "bench-speed")
    os.makedirs(out_dir, exist_ok=True)
    # both builds read the base tree's copy of the configuration: a key the current tree added
    # later (e.g. h100.cfg's memcpy_dma_pages, issue 24) is unknown to the base, and a changed
    # value would change the statistics; the current build must give the base's statistics for
    # the base's configuration (new keys at their defaults)
    cfg = a.config if a.only else os.path.join(trees["base"][0], a.config)
    rows = []
    total = {"base": 0.0, "current": 0.0}
    for spec in a.runs.split(","):
        wl, size, *extra = spec.split(":")
        params = [x for x in extra if not x.startswith("set.")]
        sets = [x[4:] for x in extra if x.startswith("set.")]
        tag = "-".join([wl, size] + [x.replace("=", "") for x in extra])
        row = {"run": spec, "workload": wl, "size_mb": float(size)}
        stats = {}
        for name, (_, bdir) in trees.items():
            trc = os.path.join(out_dir, f"{name}-{tag}.trc")
            gen = [os.path.join(bdir, "bin", "gmmu-gen"), wl, "--size-mb", size, "-o", trc]
            for x in params:
                gen += ["--param", x]
            gen_s = min(timed(gen) for _ in range(a.repeat))
            st = os.path.join(out_dir, f"{name}-{tag}.json")
            sim = [os.path.join(bdir, "tiny", "gmmu-sim"), "--engine", "cmodel", "--config",
                   cfg, "--trace", trc, "--seed", a.seed, "--quiet", "--stats", st]
            for x in sets:
                sim += ["--set", x]
            sim_s = min(timed(sim) for _ in range(a.repeat))
            with open(st) as f:
                stats[name] = {k: v for k, v in json.load(f).items() if k not in IGNORED}
            sim_ns = stats[name].get("sim_time_ns") or 0
            row[name] = {"gen_s": gen_s, "sim_s": sim_s, "cycles": stats[name].get("cycles"),
                         "clocked": stats[name].get("clocked_cycles"), "sim_ns": sim_ns,
                         # wall time of the C model per simulated second: x slower than the H100
                         "slower": sim_s / (sim_ns * 1e-9) if sim_ns else None}
            total[name] += gen_s + sim_s
            os.unlink(trc)
        if not a.only:
            row["stats_equal"] = stats["base"] == stats["current"]
            row["ratio"] = (row["base"]["gen_s"] + row["base"]["sim_s"]) / max(
                row["current"]["gen_s"] + row["current"]["sim_s"], 1e-6)
        rows.append(row)
    report(a, rows, total)
    ratio = total["base"] / max(total["current"], 1e-6) if not a.only else None
    path = os.path.join(build_abs, "bench-speed.json")
    with open(path, "w") as f:
        json.dump({"base": None if a.only else a.base, "config": a.config, "seed": a.seed,
                   "runs": rows, "total": total, "speedup": ratio}, f, indent=2)
    print(f"  written {path}")
    if not a.only and not all(r["stats_equal"] for r in rows):
        sys.exit("bench-speed: statistics differ between the base and the current tree")


def slower(x):
    return f"{x:>8.0f}x" if x else f"{'-':>9}"


def report(a, rows, total):
    """Prints the table (times in s; 'slower': C model wall time / simulated time)."""
    if a.only:
        print(f"bench-speed: current tree alone, config {a.config}, seed {a.seed} "
              f"(best of {a.repeat})")
        print(f"  {'run':<34} {'cycles':>12} {'clocked':>10} {'sim ms':>8} {'gen':>7} "
              f"{'sim':>7} {'slower':>9}")
        for r in rows:
            c = r["current"]
            print(f"  {r['run']:<34} {c['cycles']:>12} {c['clocked']:>10} {c['sim_ns'] / 1e6:>8.3f} "
                  f"{c['gen_s']:>7.2f} {c['sim_s']:>7.2f} {slower(c['slower'])}")
        print(f"  total: {total['current']:.2f} s")
        return
    print(f"bench-speed: base {a.base} vs current tree, config {a.config}, seed {a.seed} "
          f"(best of {a.repeat})")
    print(f"  {'run':<34} {'cycles':>12} {'base gen':>9} {'base sim':>9} {'cur gen':>9} "
          f"{'cur sim':>9} {'ratio':>6} {'base slower':>11} {'cur slower':>10} stats")
    for r in rows:
        b, c = r["base"], r["current"]
        print(f"  {r['run']:<34} {c['cycles']:>12} "
              f"{b['gen_s']:>9.2f} {b['sim_s']:>9.2f} {c['gen_s']:>9.2f} {c['sim_s']:>9.2f} "
              f"{r['ratio']:>5.2f}x {slower(b['slower']):>11} {slower(c['slower']):>10} "
              f"{'equal' if r['stats_equal'] else 'DIFFER'}")
    ratio = total["base"] / max(total["current"], 1e-6)
    print(f"  total: base {total['base']:.2f} s, current {total['current']:.2f} s, "
          f"speed-up {ratio:.2f}x")


if __name__ == "__main__":
    main()
