#!/usr/bin/env python3
"""gen_bench.py - generation time, trace size and generator memory of every workload at a large
footprint (make traces-bench). The trace is streamed into this script and counted, never
stored; the generator's peak RSS is its VmHWM (/proc/PID/status), sampled with every MB of output
(wait4's ru_maxrss would also count the forking Python process, ~15 MB). Fails when a generator's RSS exceeds
--max-rss-mb (bounded memory: the generators stream their output).

  gen_bench.py --gen build/bin/gmmu-gen [--size-mb 256] [--workloads a,b] [--out bench.json]
"""

import argparse
import json
import os
import subprocess
import sys
import time


def vm_hwm_kb(pid):
    """Peak RSS so far of a running process (0 once it has exited)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def bench(gen, wl, size_mb, extra):
    cmd = [gen, wl, "--size-mb", str(size_mb), "-o", "-", "--verbose"] + extra
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    nbytes = 0
    hwm_kb = 0
    while True:
        chunk = p.stdout.read(1 << 20)
        hwm_kb = max(hwm_kb, vm_hwm_kb(p.pid))
        if not chunk:
            break
        nbytes += len(chunk)
    err = p.stderr.read().decode(errors="replace")
    hwm_kb = max(hwm_kb, vm_hwm_kb(p.pid))
    _, status, _ = os.wait4(p.pid, 0)
    secs = time.time() - t0
    rc = os.waitstatus_to_exitcode(status)
    line = err.strip().splitlines()[-1] if err.strip() else ""
    rec = {"workload": wl, "size_mb": size_mb, "exit": rc, "seconds": round(secs, 2),
           "max_rss_mb": round(hwm_kb / 1024.0, 1), "trace_mb": round(nbytes / 2**20, 1),
           "summary": line}
    for key, tag in (("instructions", " instructions"), ("kernels", " kernels"),
                     ("allocated_mb", " MB)")):
        if tag in line:
            head = line.split(tag)[0]
            num = head.replace("(", " ").split()[-1]
            try:
                rec[key] = float(num) if "." in num else int(num)
            except ValueError:
                pass
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--size-mb", type=float, default=256)
    ap.add_argument("--workloads")
    ap.add_argument("--iters", help="per-workload --iters, e.g. bfs=2,sssp=2")
    ap.add_argument("--max-rss-mb", type=float, default=256)
    ap.add_argument("--out")
    a = ap.parse_args()
    names = [ln.split()[0] for ln in subprocess.run([a.gen, "list"], check=True,
                                                     capture_output=True, text=True).stdout
             .splitlines() if ln.strip()]
    if a.workloads:
        keep = a.workloads.split(",")
        names = [n for n in names if n in keep]
    iters = dict(kv.split("=") for kv in a.iters.split(",")) if a.iters else {}
    results, bad = [], []
    for wl in names:
        extra = ["--iters", iters[wl]] if wl in iters else []
        r = bench(a.gen, wl, a.size_mb, extra)
        r["iters"] = int(iters[wl]) if wl in iters else None
        results.append(r)
        ok = r["exit"] == 0 and r["max_rss_mb"] <= a.max_rss_mb
        if not ok:
            bad.append(wl)
        print("%-11s %s %7.1f s  RSS %6.1f MB  trace %8.1f MB  %s instructions  %s MB allocated"
              % (wl, "ok  " if ok else "FAIL", r["seconds"], r["max_rss_mb"], r["trace_mb"],
                 r.get("instructions"), r.get("allocated_mb")), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(results, f, indent=1)
    print("traces-bench: %d workloads at %g MB, %d failed%s" %
          (len(results), a.size_mb, len(bad), (": " + ", ".join(bad)) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
