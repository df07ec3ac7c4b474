#!/usr/bin/env python3
"""Run co-simulation tests (tb/tests/<name>.test) with gmmu-sim and check their expectations.

  run_test.py [options] NAME          one test, output streamed (make cosim TEST=NAME)
  run_test.py [options] --all         every tb/tests/*.test (make cosim-regress)

A test file has `key = value` lines (`#` comments):
  config = tiny                  configs/<config>.cfg (default: tiny)
  trace = tb/traces/x.trc        the trace, or
  random = 3                     a trace from scripts/gen_random_trace.py --seed 3
  seed = 1                       run seed (default 1)
  engine = cosim                 cosim | cmodel | rtl (default cosim)
  set = key=value                configuration override (repeatable)
  expect = far_faults > 0        check on the stats (repeatable; > >= == != < <=)
  expect_exact = evictions=12 replays=3
                                 exact values of several stats (repeatable): the handler
                                 statistics of a directed run with a fixed seed
  mode = skip_equiv              also run with --no-skip; every stat but clocked_cycles and
                                 wall_seconds must be equal
  exit = 0                       expected exit status of gmmu-sim (default 0)
  expect_fault = 1               the trace faults on purpose (gmmu-sim --expect-fault)
  args = --opt value             extra gmmu-sim options (e.g. --test-hang 5000)
  timeout = 1800                 wall-clock limit of each gmmu-sim run in s (default 1800; 0: none;
                                 run_test.py --timeout overrides); the simulated-time limit is
                                 the watchdog (watchdog_cycles, exit 4)
  csr = CYCLE:w:REG:VALUE[:EV]   a scripted host CSR access (gmmu-sim --csr; repeatable, in order)
  preload = ALLOC:large|nocache|remote|remote_large  the platform maps ALLOC itself (gmmu-sim
                                 --preload; repeatable)
Options --config/--trace/--seed/--engine (from make's CONFIG= TRACE= SEED= ENGINE=) override
the test's values (with --trace, the test's `set`, `args`, `expect_fault`, `exit` and every
expectation but those on mismatches and integrity_errors are dropped: they describe the test's own
trace); --waves (WAVES=1) writes an FST next to the stats.
--netlist runs the tests with gmmu-sim-netlist and the engines cmodel,netlist (unless --engine
is given): the synthesized netlist in lock-step with the C model (make test-netlist); with
--only-binary C only the tests whose configuration runs on configuration C's binary.
--netlist-ecp5: the same with gmmu-sim-netlist-ecp5, the ECP5 netlist of synth_ecp5 (the
bitstream's flow) simulated with Yosys's ECP5 cell models (make test-netlist-ecp5, docs/fpga.md).
"""
import argparse
import concurrent.futures
import json
import operator
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cfg_vflags  # noqa: E402  (the RTL keys of spec/params.toml)
OPS = {">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
       "<": operator.lt, "<=": operator.le}
IGNORED_IN_EQUIV = {"clocked_cycles", "wall_seconds", "no_skip", "result"}


class TestError(Exception):
    pass


def import_if_foreign(path, build, make="make"):
    """Accel-Sim inputs (a directory with kernelslist(.g), the list file, or a kernel-N.trace(g)
    file, optionally .xz) are converted into the project's format first, into
    build/cosim/traces/; anything else is passed to gmmu-sim unchanged."""
    base = os.path.basename(path.rstrip("/"))
    stem = base[:-3] if base.endswith(".xz") else base
    foreign = (os.path.isdir(path) or stem.startswith("kernelslist")
               or stem.endswith(".traceg") or stem.endswith(".trace"))
    if not foreign:
        return path
    tdir = os.path.join(build, "cosim", "traces")
    os.makedirs(tdir, exist_ok=True)
    if os.path.isdir(path):
        name = os.path.basename(os.path.abspath(path))
    else:  # <dir>/kernelslist.g -> <dir>; <dir>/kernel-1.traceg -> <dir>-kernel-1
        name = os.path.basename(os.path.dirname(os.path.abspath(path)))
        if not stem.startswith("kernelslist"):
            name += "-" + stem.split(".")[0]
    out = os.path.join(tdir, "accelsim-" + name + ".trc")
    print(f"run_test: importing Accel-Sim trace {path} -> {out}", flush=True)
    # the importer writes through the trace library (a fresh clone may not have built it yet:
    # make stats-check runs cosim-regress-full first)
    lib = os.path.join(build, "lib", "libgmmu_trace.so")
    r = subprocess.run(shlex.split(make) + ["--no-print-directory", "-s", f"BUILD={build}", lib],
                       cwd=ROOT)
    if r.returncode != 0:
        raise TestError(f"{path}: building {lib} for the Accel-Sim import failed")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "import", "import_accelsim.py"),
                        path, "-o", out, "--quiet"])
    if r.returncode != 0:
        raise TestError(f"{path}: Accel-Sim import failed (exit {r.returncode})")
    return out


def parse_test(path):
    t = {"name": os.path.splitext(os.path.basename(path))[0], "config": "tiny", "trace": None,
         "random": None, "seed": "1", "engine": "cosim", "set": [], "expect": [],
         "mode": "normal", "exit": 0, "path": path, "expect_fault": False, "args": [],
         "timeout": WALL_LIMIT_S}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except UnicodeDecodeError as e:
        raise TestError(f"{path}: not UTF-8 text (byte {e.start}: {e.reason})")
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise TestError(f"{path}:{n}: expected 'key = value'")
        k, v = (x.strip() for x in line.split("=", 1))
        if k in ("set", "expect"):
            if k == "expect":
                m = re.fullmatch(r"(\w+)\s*(>=|<=|==|!=|>|<)\s*(-?(?:[0-9]+\.?[0-9]*|\.[0-9]+))", v)
                if not m:
                    raise TestError(f"{path}:{n}: expect: '{v}' is not 'stat op number'")
                v = (m.group(1), m.group(2), float(m.group(3)), n)
            t[k].append(v)
        elif k == "expect_exact":
            for pair in v.split():
                m = re.fullmatch(r"(\w+)=([0-9]+)", pair)
                if not m:
                    raise TestError(f"{path}:{n}: expect_exact: '{pair}' is not 'stat=integer'")
                t["expect"].append((m.group(1), "==", float(m.group(2)), n))
        elif k in ("config", "trace", "seed", "engine", "random", "mode"):
            t[k] = v
        elif k == "exit":
            if not re.fullmatch(r"[0-9]{1,3}", v) or int(v) > 255:
                raise TestError(f"{path}:{n}: exit: '{v}' is not an exit status 0..255")
            t[k] = int(v)
        elif k == "timeout":
            if not re.fullmatch(r"[0-9]{1,6}", v) or int(v) == 0:
                raise TestError(f"{path}:{n}: timeout: '{v}' is not a number of seconds 1..999999")
            t[k] = int(v)
        elif k == "expect_fault":
            t[k] = v in ("1", "yes", "true")
        elif k == "args":
            try:
                t[k] += shlex.split(v)
            except ValueError as e:
                raise TestError(f"{path}:{n}: args: {e}")
        elif k in ("csr", "preload"):  # gmmu-sim --csr STEP / --preload ALLOC:KIND
            t["args"] += ["--" + k, v]
        else:
            raise TestError(f"{path}:{n}: {k}: unknown key")
    if t["mode"] not in ("normal", "skip_equiv"):
        raise TestError(f"{path}: mode: '{t['mode']}' is not normal or skip_equiv")
    if not t["trace"] and t["random"] is None:
        raise TestError(f"{path}: no trace (set trace = ... or random = N)")
    return t


RTL_KEYS = tuple(cfg_vflags.RTL_KEYS)  # spec/params.toml


def rtl_signature(config):
    """The RTL keys of configs/<config>.cfg (None if unreadable; gmmu-sim reports errors)."""
    vals = {}
    try:
        with open(os.path.join(ROOT, "configs", config + ".cfg")) as f:
            for raw in f:
                line = raw.split("#", 1)[0]
                if "=" in line:
                    k, v = (x.strip() for x in line.split("=", 1))
                    vals[k] = v
    except OSError:
        return None
    for k, d in cfg_vflags.HIDDEN.items():  # left out = the default
        vals.setdefault(k, str(d))
    return tuple(vals.get(k) for k in RTL_KEYS)


def sim_config(config):
    """The configuration whose gmmu-sim binary runs `config`: a configuration with the same RTL
    keys shares the Verilator model (oversub runs on tiny's binary), saving a Verilator build."""
    sig = rtl_signature(config)
    for c in ("tiny", "default"):
        if sig is not None and c != config and rtl_signature(c) == sig:
            return c
    return config


# binary and make target: the normal gmmu-sim, gmmu-sim-state (--state-compare, its Verilator
# model has public _q signals) or gmmu-sim-netlist (the synthesized netlist as engine `netlist`;
# docs/cosim.md)
SIM_BINS = {False: ("gmmu-sim", "sim"), True: ("gmmu-sim-state", "sim-state"),
            "netlist": ("gmmu-sim-netlist", "sim-netlist"),
            "netlist-ecp5": ("gmmu-sim-netlist-ecp5", "sim-netlist-ecp5")}
NETLIST_ENGINE = "cmodel,netlist"


def sim_path(build, config, state=False):
    return os.path.join(build, sim_config(config), SIM_BINS[state][0])


def build_sim(make, build, config, quiet, state=False):
    cmd = shlex.split(make) + ["--no-print-directory", "-s", SIM_BINS[state][1], f"CONFIG={config}"]
    if not quiet:
        print(f"run_test: building {sim_path(build, config, state)}", flush=True)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        raise TestError(f"build of gmmu-sim for CONFIG={config} failed")


def resolve(t, args, build):
    """Applies the command-line overrides; returns the effective test."""
    t = dict(t)
    for k in ("config", "seed", "engine"):
        v = getattr(args, k)
        if v:
            t[k] = v
    if getattr(args, "timeout", None) is not None:
        t["timeout"] = args.timeout
    if not os.path.exists(os.path.join(ROOT, "configs", t["config"] + ".cfg")):
        raise TestError(f"{t['name']}: configs/{t['config']}.cfg: no such configuration (configs: "
                        + " ".join(sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "configs"))
                                          if f.endswith(".cfg"))) + ")")
    if args.trace:
        t["trace"] = import_if_foreign(args.trace, build, args.make)
        # the test's expectations describe its own trace: with another trace only the checks
        # that hold for every run remain (gmmu-sim's exit status covers mismatches and integrity)
        t["expect"] = [e for e in t["expect"] if e[0] in ("mismatches", "integrity_errors")]
        t["set"], t["args"], t["expect_fault"], t["exit"] = [], [], False, 0
    elif t["trace"]:
        t["trace"] = import_if_foreign(t["trace"], build, args.make)
    elif t["random"] is not None:
        tdir = os.path.join(build, "cosim", "traces")
        os.makedirs(tdir, exist_ok=True)
        trc = os.path.join(tdir, f"random_{t['random']}.trc")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_random_trace.py"),
                        "--seed", str(t["random"]), "-o", trc], check=True)
        t["trace"] = trc
    return t


def run_sim(t, build, outdir, extra, waves, capture, tag=""):
    stats = os.path.join(outdir, f"stats{tag}.json")
    if os.path.exists(stats):
        os.remove(stats)
    if t.get("state") is True and t["engine"] == "cosim":
        extra = extra + ["--state-compare"]
    cmd = [sim_path(build, t["config"], t.get("state", False)), "--config", os.path.join("configs", t["config"] + ".cfg"),
           "--trace", t["trace"], "--seed", str(t["seed"]), "--engine", t["engine"],
           "--stats", stats] + extra
    for s in t["set"]:
        cmd += ["--set", s]
    if t["expect_fault"]:
        cmd += ["--expect-fault"]
    cmd += t["args"]
    if waves:
        cmd += ["--waves", os.path.join(outdir, f"{t['name']}{tag}.fst")]
    log = os.path.join(outdir, f"log{tag}.txt")
    t0 = time.time()
    if capture:
        with open(log, "w") as f:
            f.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
            f.flush()
            rc = run_limited(cmd + ["--quiet"], t, stdout=f, stderr=subprocess.STDOUT)
    else:
        print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
        rc = run_limited(cmd, t)
    dt = time.time() - t0
    st = None
    if os.path.exists(stats):
        with open(stats) as f:
            st = json.load(f)
    return rc, st, dt, log


WALL_LIMIT_S = 1800  # default wall-clock limit of one gmmu-sim run (--timeout, test key timeout)
RC_TIMEOUT = -124


def run_limited(cmd, t, **kw):
    """gmmu-sim with the test's wall-clock limit (the simulated-time limit is the watchdog)."""
    limit = t.get("timeout", WALL_LIMIT_S) or None
    try:
        return subprocess.run(cmd, cwd=ROOT, timeout=limit, **kw).returncode
    except subprocess.TimeoutExpired:
        return RC_TIMEOUT


def check(t, rc, st):
    errs = []
    if rc == RC_TIMEOUT:
        errs.append(f"gmmu-sim ran longer than the wall-clock limit of {t.get('timeout')} s "
                    "(test key timeout, run_test.py --timeout)")
    elif rc != t["exit"]:
        errs.append(f"gmmu-sim exited {rc}, expected {t['exit']}")
    if st is None:
        errs.append("no stats file written")
        return errs
    for name, op, val, line in t["expect"]:
        if name not in st:
            errs.append(f"expect (line {line}): no stat '{name}'")
        elif not OPS[op](float(st[name]), val):
            errs.append(f"expect {name} {op} {val:g}: got {st[name]}")
    return errs


def run_one(t, args, build, capture):
    try:
        return run_one_(t, args, build, capture)
    except OSError as e:
        return [f"cannot run gmmu-sim: {e}"], None, 0.0, os.devnull


def run_one_(t, args, build, capture):
    sub = {True: "cosim-state", "netlist": "cosim-netlist",
           "netlist-ecp5": "cosim-netlist-ecp5"}.get(t.get("state"), "cosim")
    outdir = os.path.join(build, sub, t["name"])
    os.makedirs(outdir, exist_ok=True)
    rc, st, dt, log = run_sim(t, build, outdir, [], args.waves, capture)
    errs = check(t, rc, st)
    if t["mode"] == "skip_equiv" and not errs:
        rc2, st2, dt2, _ = run_sim(t, build, outdir, ["--no-skip"], False, capture, "_noskip")
        dt += dt2
        errs += [f"--no-skip: {e}" for e in check(t, rc2, st2)]
        if st2 is not None:
            for k in sorted(set(st) | set(st2)):
                if k in IGNORED_IN_EQUIV:
                    continue
                if st.get(k) != st2.get(k):
                    errs.append(f"skip_equiv: {k}: {st.get(k)} with idle skipping, "
                                f"{st2.get(k)} with --no-skip")
            if not st["clocked_cycles"] < st2["clocked_cycles"]:
                errs.append("skip_equiv: idle skipping clocked no fewer cycles than --no-skip")
    return errs, st, dt, log


def summary_line(st):
    if not st:
        return ""
    keys = ["cycles", "clocked_cycles", "far_faults", "evictions", "fatal_faults",
            "integrity_errors", "mismatches"]
    return " ".join(f"{k}={st.get(k)}" for k in keys)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", nargs="*", help="test name(s)")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--make", default="make")
    ap.add_argument("--build", default="build")
    ap.add_argument("--config")
    ap.add_argument("--trace")
    ap.add_argument("--seed")
    ap.add_argument("--engine")
    ap.add_argument("--waves", action="store_true")
    ap.add_argument("--timeout", type=int,
                    help=f"wall-clock limit of each gmmu-sim run in s (default: the test's "
                         f"timeout key, else {WALL_LIMIT_S}; 0: none)")
    ap.add_argument("--state-compare", action="store_true",
                    help="gmmu-sim-state --state-compare (cosim tests; outputs in cosim-state/)")
    ap.add_argument("--netlist", action="store_true",
                    help="gmmu-sim-netlist, engines cmodel,netlist (outputs in cosim-netlist/)")
    ap.add_argument("--netlist-ecp5", action="store_true",
                    help="gmmu-sim-netlist-ecp5 (the synth_ecp5 netlist with Yosys's ECP5 cell "
                         "models as engine netlist), engines cmodel,netlist (outputs in "
                         "cosim-netlist-ecp5/)")
    ap.add_argument("--only-binary", metavar="CONFIG",
                    help="only the tests that run on this configuration's binary")
    ap.add_argument("--skip-config", metavar="CONFIGS", default="",
                    help="comma-separated configurations whose tests --all leaves out (make test "
                         "leaves out the slow-to-build ones; cosim-regress-full runs them)")
    ap.add_argument("--skip-test", metavar="NAMES", default="",
                    help="comma-separated tests --all leaves out (make test leaves out tests "
                         "of one optional mode; cosim-regress-full runs them)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    os.chdir(ROOT)
    build = args.build
    tdir = os.path.join("tb", "tests")
    try:
        if args.all:
            names = sorted(f[:-5] for f in os.listdir(tdir) if f.endswith(".test"))
        elif args.test:
            names = args.test
        else:
            ap.error("give a test name or --all")
        tests = []
        for n in names:
            path = os.path.join(tdir, n + ".test")
            if not os.path.exists(path):
                raise TestError(f"no test {path} (tests: " +
                                " ".join(sorted(f[:-5] for f in os.listdir(tdir)
                                                if f.endswith(".test"))) + ")")
            t = resolve(parse_test(path), args, build)
            if args.only_binary and sim_config(t["config"]) != args.only_binary:
                continue
            if args.all and sim_config(t["config"]) in args.skip_config.split(","):
                continue
            if args.all and n in args.skip_test.split(","):
                continue
            t["state"] = ("netlist" if args.netlist else
                          "netlist-ecp5" if args.netlist_ecp5 else args.state_compare)
            if (args.netlist or args.netlist_ecp5) and not args.engine:
                t["engine"] = NETLIST_ENGINE
            tests.append(t)
        if not tests:
            raise TestError(f"no test runs on the binary of configuration {args.only_binary}")
        if not args.no_build:
            for c in sorted({sim_config(t["config"]) for t in tests}):
                build_sim(args.make, build, c, args.all, tests[0]["state"])
    except (TestError, subprocess.CalledProcessError) as e:
        print(f"run_test: {e}", file=sys.stderr)
        return 2

    if len(tests) == 1 and not args.all:
        t = tests[0]
        errs, st, dt, _ = run_one(t, args, build, capture=False)
        if errs:
            for e in errs:
                print(f"test {t['name']}: FAIL: {e}")
            print("0 passed, 1 failed")
            return 1
        print(f"test {t['name']}: PASS ({dt:.1f} s) {summary_line(st)}")
        print("1 passed, 0 failed")
        return 0

    t0 = time.time()
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_one, t, args, build, True): t for t in tests}
        for fut in concurrent.futures.as_completed(futs):
            t = futs[fut]
            errs, st, dt, log = fut.result()
            if errs:
                failed.append(t["name"])
                print(f"FAIL  {t['name']:<18} ({dt:5.1f} s)  log: {log}")
                for e in errs:
                    print(f"      {e}")
                with open(log) as f:
                    tail = f.readlines()[-25:] if log != os.devnull else []
                sys.stdout.write("".join("      | " + line for line in tail))
            else:
                print(f"PASS  {t['name']:<18} ({dt:5.1f} s)  {summary_line(st)}", flush=True)
    n = len(tests)
    print(f"cosim-regress: {n - len(failed)} of {n} tests passed in {time.time() - t0:.0f} s"
          + (f"; failed: {' '.join(sorted(failed))}" if failed else ""))
    print(f"{n - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
