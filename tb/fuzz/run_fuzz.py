#!/usr/bin/env python3
"""Runs the fuzz harnesses of tb/fuzz/ (make fuzz, make fuzz-quick; docs/verification.md).

For each harness: first a replay of its seed corpus (tb/fuzz/corpus/<h>/) and of its regression
inputs (tb/fuzz/regress/<h>/: inputs that once crashed), which must all pass; then libFuzzer
(C harnesses: build/fuzz/bin/fuzz_<h>; Python: atheris through tb/fuzz/fuzz_py.py) for
--seconds, growing the working corpus build/fuzz/corpus/<h>/. A crash, a sanitizer report, a
timeout (a hang) or an out-of-memory stops that harness; its input is kept in
build/fuzz/artifacts/<h>/ and named in the report, to be copied into tb/fuzz/regress/<h>/ with
the fix. Writes build/fuzz/report.md and report.json (executions, corpus, coverage, crashes);
exit status 1 if any harness failed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tb", "fuzz")
# per harness: largest input and the time one input may take (s)
MAX_LEN = {"trace_text": 8192, "trace_bin": 8192, "trace_xz": 4096, "config": 4096,
           "sim_args": 512, "trace_args": 256, "accelsim": 8192, "nvbit": 8192,
           "testfile": 2048}
TIMEOUT = 20
LOG_TAIL = 256 * 1024
# the command-line harnesses print the programs' usage on every bad argv: their stdout and
# stderr are discarded (-close_fd_mask=3; libFuzzer and the sanitizers keep reporting)
QUIET = {"sim_args", "trace_args"}


def prepare_scratch(build):
    """The scratch directory of the command-line harnesses: configurations and small traces."""
    d = os.path.abspath(os.path.join(build, "fuzz", "scratch"))
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(os.path.join(d, "seed"))
    for c in os.listdir(os.path.join(ROOT, "configs")):
        if c.endswith(".cfg"):
            shutil.copy(os.path.join(ROOT, "configs", c), d)
    shutil.copy(os.path.join(ROOT, "tb", "traces", "replay.trc"), d)
    small = os.path.join(ROOT, "tb", "traces", "small.trc")
    tool = os.path.join(build, "bin", "gmmu-trace")
    seeds = os.path.join(d, "seed")
    shutil.copy(small, os.path.join(seeds, "a.trc"))
    subprocess.run([tool, "convert", small, os.path.join(seeds, "b.trc"), "--binary"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(seeds, "c.trc.xz"), "wb") as f:
        subprocess.run(["xz", "-c", small], stdout=f, check=True)
    shutil.copy(os.path.join(ROOT, "tb", "traces", "bad_record.trc"), os.path.join(seeds, "d.txt"))
    for s in os.listdir(seeds):
        shutil.copy(os.path.join(seeds, s), d)
    return d


def command(h, is_py, build):
    if is_py:
        return [sys.executable, os.path.join(HERE, "fuzz_py.py"), h]
    return [os.path.join(build, "fuzz", "bin", "fuzz_" + h)]


def stat_of(out, key):
    m = re.findall(r"stat::%s:\s*(\d+)" % key, out)
    return int(m[-1]) if m else 0


def cov_of(out):
    m = re.findall(r"\bcov: (\d+) ft: (\d+)", out)
    return (int(m[-1][0]), int(m[-1][1])) if m else (0, 0)


def run(cmd, env, nice, logpath):
    if nice:
        cmd = ["nice", "-n", str(nice)] + cmd
    t0 = time.time()
    with open(logpath, "w") as log:
        r = subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, cwd=ROOT)
    # only the end of the log: the statistics and the error are there, and a log can be large
    # (a parent's peak RSS is inherited through fork + exec and libFuzzer's -rss_limit_mb
    # counts it: this process must stay small)
    with open(logpath, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - LOG_TAIL))
        return r.returncode, f.read().decode(errors="replace"), time.time() - t0


def inputs_of(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d)) if os.path.isdir(d) else []


def one(h, is_py, args, env):
    bdir = os.path.join(args.build, "fuzz")
    logs = os.path.join(bdir, "logs")
    art = os.path.join(bdir, "artifacts", h) + os.sep
    # the quick run starts from the seeds each time (constant time); make fuzz grows its corpus
    work = os.path.join(bdir, "quick-corpus" if args.quick else "corpus", h)
    if args.quick and os.path.isdir(work):
        shutil.rmtree(work)
    for d in (logs, art, work):
        os.makedirs(d, exist_ok=True)
    seed = os.path.join(HERE, "corpus", h)
    regress = os.path.join(HERE, "regress", h)
    cmd = command(h, is_py, args.build) + (["-close_fd_mask=3"] if h in QUIET else [])
    res = {"harness": h, "engine": "atheris" if is_py else "libFuzzer", "seed_inputs":
           len(inputs_of(seed)), "regress_inputs": len(inputs_of(regress)), "ok": True}
    # 1. replay: every seed and regression input once (files given one by one)
    files = inputs_of(seed) + inputs_of(regress)
    if files:
        rc, out, dt = run(cmd + ["-timeout=%d" % TIMEOUT, "-rss_limit_mb=2048"] + files, env,
                          args.nice, os.path.join(logs, h + "-replay.log"))
        res["replay_s"] = round(dt, 1)
        if rc != 0:
            res["ok"] = False
            res["error"] = "replay of the seed/regression inputs failed (log %s)" % \
                os.path.join(logs, h + "-replay.log")
            return res
    # 2. fuzz
    log = os.path.join(logs, h + ".log")
    rc, out, dt = run(cmd + ["-max_total_time=%d" % args.seconds, "-timeout=%d" % TIMEOUT,
                             "-rss_limit_mb=4096", "-malloc_limit_mb=2048", "-max_len=%d" % MAX_LEN[h],
                             "-print_final_stats=1", "-artifact_prefix=" + art, work]
                      + ([seed] if os.path.isdir(seed) else []), env, args.nice, log)
    res.update(seconds=round(dt, 1), execs=stat_of(out, "number_of_executed_units"),
               corpus=len(inputs_of(work)), cov=cov_of(out)[0], features=cov_of(out)[1],
               log=log)
    if rc != 0:
        res["ok"] = False
        arts = [a for a in inputs_of(art)]
        kind = re.findall(r"ERROR: (libFuzzer: [\w-]+|AddressSanitizer: [\w-]+)|(runtime error: .*)"
                          r"|(fuzz: .*)|(Uncaught Python exception)", out)
        res["error"] = "exit %d: %s; input(s): %s (log %s)" % (
            rc, "; ".join(" ".join(k).strip() for k in kind[:2]) or "see log",
            " ".join(arts) or "none", log)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--c", action="append", default=[], help="a C (libFuzzer) harness")
    ap.add_argument("--py", action="append", default=[], help="a Python (atheris) harness")
    ap.add_argument("--seconds", type=int, default=400)
    ap.add_argument("--nice", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="make fuzz-quick (report name)")
    ap.add_argument("--only", help="comma-separated harnesses")
    args = ap.parse_args()
    args.build = os.path.abspath(os.path.join(ROOT, args.build))
    env = dict(os.environ)
    tmp = os.path.join(args.build, "fuzz", "tmp")
    os.makedirs(tmp, exist_ok=True)
    env["GMMU_FUZZ_TMP"] = tmp
    env["GMMU_FUZZ_SCRATCH"] = prepare_scratch(args.build)
    env.setdefault("GMMU_TRACE_LIB", os.path.join(args.build, "lib", "libgmmu_trace.so"))
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    only = set(args.only.split(",")) if args.only else None
    todo = [(h, False) for h in args.c] + [(h, True) for h in args.py]
    results = []
    t0 = time.time()
    for h, is_py in todo:
        if only and h not in only:
            continue
        r = one(h, is_py, args, env)
        results.append(r)
        print("fuzz %-11s %-9s %s  %4s s  %9s execs  corpus %5s  cov %5s%s" % (
            h, r["engine"], "ok  " if r["ok"] else "FAIL", r.get("seconds", "-"),
            r.get("execs", "-"), r.get("corpus", "-"), r.get("cov", "-"),
            "" if r["ok"] else "\n      " + r["error"]), flush=True)
    total = time.time() - t0
    name = "report-quick" if args.quick else "report"
    out = os.path.join(args.build, "fuzz", name)
    with open(out + ".json", "w") as f:
        json.dump({"seconds_per_harness": args.seconds, "wall_s": round(total, 1),
                   "harnesses": results}, f, indent=1)
    with open(out + ".md", "w") as f:
        f.write("| harness | engine | result | seconds | execs | corpus | coverage (edges) | "
                "seed + regression inputs |\n|---|---|---|---|---|---|---|---|\n")
        for r in results:
            f.write("| %s | %s | %s | %s | %s | %s | %s | %d + %d |\n" % (
                r["harness"], r["engine"], "ok" if r["ok"] else "FAIL: " + r["error"],
                r.get("seconds", "-"), r.get("execs", "-"), r.get("corpus", "-"),
                r.get("cov", "-"), r["seed_inputs"], r["regress_inputs"]))
    execs = sum(r.get("execs", 0) for r in results)
    bad = [r["harness"] for r in results if not r["ok"]]
    print("fuzz: %d harnesses, %.0f s, %d executions, %s; report %s.md" % (
        len(results), total, execs, "failed: " + " ".join(bad) if bad else "no failure", out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
