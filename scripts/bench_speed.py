#!/usr/bin/env python3
"""make bench-speed: end-to-end wall time of the C model (and of the trace generator) on a few
workload runs, for TWO builds side by side in one run: the tree issue 23 item 6 started from
(--base, default 4a1b7b9, built from a detached git worktree in $(BUILD)/bench-base) and the
current tree. Prints both times and the ratio base/current per run and in total, writes
$(BUILD)/bench-speed.json.

  bench_speed.py [--base 4a1b7b9] [--runs hotspot:64,...] [--config configs/h100.cfg] [--repeat 1]

Both builds run the same (configuration, trace, seed), so their statistics must be identical;
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
    a = ap.parse_args()
    os.chdir(ROOT)
    build_abs = os.path.abspath(a.build)
    trees = {"base": (base_tree(a.base, build_abs), os.path.join(build_abs, "bench-base", "build")),
             "current": (ROOT, build_abs)}
    if not a.no_build:
        for tree, bdir in trees.values():
            build(a.make, tree, bdir)
    out_dir = os.path.join(build_abs, "bench-speed")
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    total = {"base": 0.0, "current": 0.0}
    for spec in a.runs.split(","):
        wl, size = spec.split(":")
        row = {"workload": wl, "size_mb": float(size)}
        stats = {}
        for name, (_, bdir) in trees.items():
            trc = os.path.join(out_dir, f"{name}-{wl}-{size}.trc")
            gen_s = min(timed([os.path.join(bdir, "bin", "gmmu-gen"), wl, "--size-mb", size,
                               "-o", trc]) for _ in range(a.repeat))
            st = os.path.join(out_dir, f"{name}-{wl}-{size}.json")
            sim = [os.path.join(bdir, "tiny", "gmmu-sim"), "--engine", "cmodel", "--config",
                   a.config, "--trace", trc, "--seed", a.seed, "--quiet", "--stats", st]
            sim_s = min(timed(sim) for _ in range(a.repeat))
            with open(st) as f:
                stats[name] = {k: v for k, v in json.load(f).items() if k not in IGNORED}
            row[name] = {"gen_s": gen_s, "sim_s": sim_s,
                         "cycles": stats[name].get("cycles")}
            total[name] += gen_s + sim_s
            os.unlink(trc)
        row["stats_equal"] = stats["base"] == stats["current"]
        row["ratio"] = (row["base"]["gen_s"] + row["base"]["sim_s"]) / max(
            row["current"]["gen_s"] + row["current"]["sim_s"], 1e-6)
        rows.append(row)
    print(f"bench-speed: base {a.base} vs current tree, config {a.config}, seed {a.seed} "
          f"(best of {a.repeat})")
    print(f"  {'run':<16} {'cycles':>12} {'base gen':>9} {'base sim':>9} {'cur gen':>9} "
          f"{'cur sim':>9} {'ratio':>6} stats")
    for r in rows:
        b, c = r["base"], r["current"]
        print(f"  {r['workload'] + ':' + str(r['size_mb']):<16} {c['cycles']:>12} "
              f"{b['gen_s']:>9.2f} {b['sim_s']:>9.2f} {c['gen_s']:>9.2f} {c['sim_s']:>9.2f} "
              f"{r['ratio']:>5.2f}x {'equal' if r['stats_equal'] else 'DIFFER'}")
    ratio = total["base"] / max(total["current"], 1e-6)
    print(f"  total: base {total['base']:.2f} s, current {total['current']:.2f} s, "
          f"speed-up {ratio:.2f}x")
    path = os.path.join(build_abs, "bench-speed.json")
    with open(path, "w") as f:
        json.dump({"base": a.base, "config": a.config, "seed": a.seed, "runs": rows,
                   "total": total, "speedup": ratio}, f, indent=2)
    print(f"  written {path}")
    if not all(r["stats_equal"] for r in rows):
        sys.exit("bench-speed: statistics differ between the base and the current tree")


if __name__ == "__main__":
    main()
