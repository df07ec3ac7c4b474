#!/usr/bin/env python3
"""multi_check.py - multi-application mixes of the small workload suite in lock-step
(make traces-check-multi; docs/trace-format.md "Address spaces", docs/cosim.md).

Each mix combines 2..4 one-application traces of DIR (make traces) with `gmmu-trace mix` (input i
in address space i), runs it with --engine cosim (RTL and C model in lock-step) on the given
configuration with the SMs split evenly among the applications (sm_partition) and the --set
overrides, and requires exit 0, zero mismatches, zero integrity errors and no fatal fault; with
--expect-large also large-page hits in the L1 (l1_large_hit_cycles) and the L2 (l2_large_hits)
and walks that end on a large-page entry (walks_large), summed over the mixes.

Results: one line per mix and OUT/check.json. Exit status 1 if any mix failed.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# homogeneous (the same application twice) and heterogeneous mixes, 2..4 applications
MIXES = {
    "homo-sgemm2": ["sgemm", "sgemm"],
    "homo-kmeans2": ["kmeans", "kmeans"],
    "het-sgemm-nn": ["sgemm", "nn"],
    "het-backprop-kmeans-pagerank": ["backprop", "kmeans", "pagerank"],
    "het-sgemm-nn-bfs-kmeans": ["sgemm", "nn", "bfs", "kmeans"],
}


def partition(num_sm, n):
    """num_sm SMs split among n applications as evenly as possible (the first get the rest)."""
    base, rest = divmod(num_sm, n)
    return ",".join(str(base + (1 if i < rest else 0)) for i in range(n))


def num_sm_of(config):
    with open(config) as f:
        for line in f:
            k, _, v = line.split("#")[0].partition("=")
            if k.strip() == "num_sm":
                return int(v)
    sys.exit(f"multi_check: {config}: no num_sm")


def run_mix(a, name, apps, num_sm):
    trace = os.path.join(a.out, name + ".trc")
    ins = [os.path.join(a.traces, w + ".trc") for w in apps]
    for p in ins:
        if not os.path.exists(p):
            sys.exit(f"multi_check: {p}: missing (make traces)")
    subprocess.run([a.trace_tool, "mix", trace] + ins, check=True)
    stats = os.path.join(a.out, name + ".json")
    cmd = [a.sim, "--config", a.config, "--engine", "cosim", "--trace", trace, "--quiet",
           "--stats", stats, "--set", "sm_partition=" + partition(num_sm, len(apps))]
    for kv in a.set:
        cmd += ["--set", kv]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    st = {}
    if os.path.exists(stats):
        with open(stats) as f:
            st = json.load(f)
    ok = (p.returncode == 0 and st.get("mismatches", 1) == 0
          and st.get("integrity_errors", 1) == 0 and st.get("fatal_faults", 1) == 0)
    keys = ["cycles", "translations", "l1_hits", "l2_hits", "l2_misses", "walks", "far_faults",
            "evictions", "l1_large_hit_cycles", "l2_large_hits", "walks_large", "mismatches",
            "integrity_errors"]
    r = {"mix": name, "apps": apps, "ok": ok, "exit": p.returncode, "seconds": round(secs, 2),
         "cmd": " ".join(cmd)}
    r.update({k: st.get(k) for k in keys})
    if not ok:
        r["log"] = (p.stderr + p.stdout)[-3000:]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--trace-tool", required=True, help="gmmu-trace")
    ap.add_argument("--traces", required=True, help="directory of the small traces")
    ap.add_argument("--config", default="configs/mosaic4.cfg")
    ap.add_argument("--out", required=True)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--mixes", default="", help="comma-separated subset of " + ",".join(MIXES))
    ap.add_argument("--expect-large", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    names = [m for m in a.mixes.split(",") if m] or list(MIXES)
    for m in names:
        if m not in MIXES:
            sys.exit(f"multi_check: unknown mix {m} (known: {', '.join(MIXES)})")
    num_sm = num_sm_of(a.config)
    res, bad = [], 0
    t0 = time.time()
    for m in names:
        r = run_mix(a, m, MIXES[m], num_sm)
        res.append(r)
        bad += not r["ok"]
        print(f"{'ok  ' if r['ok'] else 'FAIL'} {m:32s} {r['seconds']:6.1f} s  "
              f"transl {r['translations']}  walks {r['walks']}  "
              f"L1-large {r['l1_large_hit_cycles']}  L2-large {r['l2_large_hits']}  "
              f"walks-large {r['walks_large']}  evictions {r['evictions']}")
        if not r["ok"]:
            print(r.get("log", ""))
    if a.expect_large:
        for k in ("l1_large_hit_cycles", "l2_large_hits", "walks_large"):
            total = sum(r[k] or 0 for r in res)
            if total == 0:
                print(f"multi_check: FAIL: {k} is 0 over every mix (no large page used)")
                bad += 1
    with open(os.path.join(a.out, "check.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(f"multi_check: {len(res)} mixes, {bad} failures, {time.time() - t0:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
