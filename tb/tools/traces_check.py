#!/usr/bin/env python3
"""traces_check.py - replay the workload suite through gmmu-sim (make traces-check).

  small: every DIR/*.trc (make traces) with --engine cosim (lock-step RTL + C model) and the
         small configuration; must exit 0 with zero mismatches and no fatal fault.
  big:   every workload generated at --big-mb MB (gmmu-gen piped into gmmu-sim, nothing on disk)
         with --engine cmodel and the big configuration (plus --big-set overrides); must exit 0.
         Then prints the results table of docs/workloads.md (big_table.py).

Results: one line per run and DIR/check.json. Exit status 1 if any run failed.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time


def run_small(a, trace):
    name = os.path.splitext(os.path.basename(trace))[0]
    stats = os.path.join(a.out, name + ".cosim.json")
    cmd = [a.sim, "--config", a.small_config, "--engine", "cosim", "--trace", trace, "--quiet",
           "--stats", stats]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return finish("small", name, cmd, p.returncode, p.stderr + p.stdout, stats, time.time() - t0)


def run_big(a, wl):
    stats = os.path.join(a.out, wl + ".big.json")
    gen = [a.gen, wl, "--size-mb", str(a.big_mb), "-o", "-", "--verbose"]
    if wl in a.iters:
        gen += ["--iters", a.iters[wl]]
    sim = [a.sim, "--config", a.big_config, "--engine", "cmodel", "--trace", "-", "--quiet",
           "--stats", stats]
    for kv in a.big_set:
        sim += ["--set", kv]
    t0 = time.time()
    g = subprocess.Popen(gen, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s = subprocess.Popen(sim, stdin=g.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    g.stdout.close()
    sout, serr = s.communicate()
    gerr = g.stderr.read().decode(errors="replace")
    g.wait()
    rc = s.returncode if s.returncode else (1 if g.returncode else 0)
    res = finish("big", wl, gen + ["|"] + sim, rc, gerr + serr + sout, stats, time.time() - t0)
    res["generator"] = gerr.strip().splitlines()[-1] if gerr.strip() else ""
    return res


def read_stats(stats):
    """The run's statistics: (dict, None), or ({}, reason) when the file is missing, unreadable
    or lacks the counters checked: a run that crashed before writing them fails (issue 26)."""
    try:
        with open(stats) as f:
            st = json.load(f)
    except (OSError, ValueError) as e:
        return {}, "statistics %s missing or unreadable: %s" % (stats, e)
    if not isinstance(st, dict) or any(k not in st for k in ("mismatches", "fatal_faults")):
        return {}, "statistics %s lack mismatches / fatal_faults" % stats
    return st, None


def finish(kind, name, cmd, rc, log, stats, secs):
    st, why = read_stats(stats)
    if why:
        log = log + "\n" + why
    ok = rc == 0 and why is None and st["mismatches"] == 0 and st["fatal_faults"] == 0
    return {"kind": kind, "name": name, "ok": ok, "exit": rc, "seconds": round(secs, 2),
            "cycles": st.get("cycles"), "translations": st.get("translations"),
            "far_faults": st.get("far_faults"), "evictions": st.get("evictions"),
            "mismatches": st.get("mismatches"), "fatal_faults": st.get("fatal_faults"),
            "cmd": " ".join(cmd), "log": "" if ok else log[-3000:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--traces", required=True, help="directory of the small traces")
    ap.add_argument("--small-config", default="configs/tiny.cfg")
    ap.add_argument("--big-config", default="configs/default.cfg")
    ap.add_argument("--big-mb", type=float, default=256)
    ap.add_argument("--iters", default="", help="per-workload --iters of the big runs (bfs=2,...)")
    ap.add_argument("--big-set", action="append", default=[], metavar="KEY=VALUE",
                    help="configuration override of the big runs (repeatable)")
    ap.add_argument("--only", choices=["small", "big"])
    ap.add_argument("--workloads", help="comma-separated subset")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    a.out = os.path.join(a.traces, "check")
    a.iters = dict(kv.split("=") for kv in a.iters.split(",")) if a.iters else {}
    os.makedirs(a.out, exist_ok=True)
    names = subprocess.run([a.gen, "list"], check=True, capture_output=True,
                           text=True).stdout.split("\n")
    workloads = [line.split()[0] for line in names if line.strip()]
    if a.workloads:
        keep = set(a.workloads.split(","))
        workloads = [w for w in workloads if w in keep]
    jobs = []
    if a.only in (None, "small"):
        traces = sorted(os.path.join(a.traces, f) for f in os.listdir(a.traces)
                        if f.endswith(".trc"))
        if a.workloads:
            traces = [t for t in traces if os.path.basename(t)[:-4] in keep]
        jobs += [(run_small, t) for t in traces]
    if a.only in (None, "big"):
        jobs += [(run_big, w) for w in workloads]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(fn, a, arg) for fn, arg in jobs]
        for f in concurrent.futures.as_completed(futs):
            r = f.result()
            results.append(r)
            print("%-5s %-28s %s exit %d  %7.1f s  %s translations  %s far-faults  %s evictions"
                  % (r["kind"], r["name"], "PASS" if r["ok"] else "FAIL", r["exit"], r["seconds"],
                     r["translations"], r["far_faults"], r["evictions"]), flush=True)
            if not r["ok"]:
                print("  command: %s\n%s" % (r["cmd"], r["log"]), flush=True)
    results.sort(key=lambda r: (r["kind"], r["name"]))
    with open(os.path.join(a.traces, "check.json"), "w") as f:
        json.dump(results, f, indent=1)
    bad = [r["name"] for r in results if not r["ok"]]
    if any(r["kind"] == "big" for r in results):
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "big_table.py"), a.out, "--seconds",
                        os.path.join(a.traces, "check.json")])
    print("traces-check: %d runs, %d failed%s" % (len(results), len(bad),
                                                  (": " + ", ".join(bad)) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
