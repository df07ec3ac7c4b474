#!/usr/bin/env python3
"""oversub_check.py - the small workload suite oversubscribed, in lock-step (make oversub-check,
issue 20: "every eviction policy ... in lock-step with 0 mismatches and 0 integrity errors on the
small workload suite oversubscribed").

For each trace (make traces: the suite at its small default size) and each eviction policy, runs
gmmu-sim --engine cosim (RTL + C model in lock-step, the handler scoreboard on) with the small
configuration and gpu_mem_pages = ceil(fit% x the distinct 4 KB pages the trace touches), and
requires exit 0, 0 mismatches, 0 integrity / platform errors, 0 fatal faults and at least one
eviction (the run really was oversubscribed).

  oversub_check.py --sim gmmu-sim --trace-tool gmmu-trace --traces DIR --config tiny.cfg
                   [--fit 50] [--evict lru,random,fifo] [--workloads a,b] [--jobs N]
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import time


def pages_touched(tool, trace):
    r = subprocess.run([tool, "stats", trace], capture_output=True, text=True)
    for ln in r.stdout.splitlines():
        if ln.startswith("distinct pages"):
            return int(ln.split()[2])
    sys.exit(f"oversub_check: gmmu-trace stats {trace}: {r.stderr.strip()}")


def run(a, trace, gpu, policy, stats):
    cmd = [a.sim, "--engine", "cosim", "--config", a.config, "--trace", trace, "--quiet",
           "--seed", "1", "--stats", stats, "--set", f"gpu_mem_pages={gpu}",
           "--set", f"evict_policy={policy}"]
    for kv in a.set:  # extra keys for every run (e.g. a thrashing policy)
        cmd += ["--set", kv]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(stats):
        return f"exit {r.returncode}: {(r.stdout + r.stderr).strip().splitlines()[-1:]}", 0, 0
    with open(stats) as f:
        st = json.load(f)
    bad = {k: st[k] for k in ("mismatches", "integrity_errors", "platform_errors",
                              "fatal_faults") if st.get(k)}
    if bad:
        return f"{bad}", st.get("evictions", 0), time.time() - t0
    if not st.get("evictions"):
        return "no eviction (not oversubscribed)", 0, time.time() - t0
    return None, st["evictions"], time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--trace-tool", required=True)
    ap.add_argument("--traces", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--fit", type=float, default=50.0)
    ap.add_argument("--evict", default="lru,random,fifo")
    ap.add_argument("--workloads", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a key for every run (repeatable): e.g. thrashing_policy=capacity")
    a = ap.parse_args()
    names = sorted(f[:-4] for f in os.listdir(a.traces) if f.endswith(".trc"))
    if a.workloads:
        want = a.workloads.split(",")
        missing = [w for w in want if w not in names]
        if missing:
            sys.exit(f"oversub_check: no trace for {missing} in {a.traces} (make traces)")
        names = want
    if not names:
        sys.exit(f"oversub_check: no .trc in {a.traces} (make traces)")
    out = os.path.join(a.traces, "oversub")
    os.makedirs(out, exist_ok=True)
    jobs = []
    tag = "".join("." + kv.replace("=", "-") for kv in a.set)
    for w in names:
        trace = os.path.join(a.traces, w + ".trc")
        pages = pages_touched(a.trace_tool, trace)
        gpu = max(1, math.ceil(pages * a.fit / 100))
        if gpu >= pages:
            sys.exit(f"oversub_check: {trace}: {pages} pages touched, cannot be oversubscribed at "
                     f"{a.fit:g}% fitting (choose other --workloads)")
        for p in a.evict.split(","):
            jobs.append((w, p, trace, gpu, os.path.join(out, f"{w}.{p}{tag}.json")))
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, a, t, g, p, s) for _, p, t, g, s in jobs]
        for (w, p, _, g, _), f in zip(jobs, futs):
            err, ev, wall = f.result()
            fails += err is not None
            print(f"oversub_check: {w:32s} {p:8s} gpu_mem_pages {g:5d}: " +
                  (f"FAIL {err}" if err else f"ok, {ev} evictions, {wall:.1f} s"))
    print(f"oversub_check: {len(jobs) - fails}/{len(jobs)} lock-step runs passed at "
          f"{a.fit:g}% fitting")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
