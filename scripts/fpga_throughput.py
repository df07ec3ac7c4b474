#!/usr/bin/env python3
"""make fpga-throughput: translations per second of the board model, from simulated cycles
(docs/fpga.md "Throughput on the board model").

Usage: fpga_throughput.py --dir build/fpga/tput --host build/fpga/gmmu-board --trace T
                          --runs "25000_1000000 24000_3000000 ..." [--repeat 2] [--usb-rtt-ms 1]

For each run <clock kHz>_<baud>, DIR/<run>/board-sim (gmmu_board built at that clock and rate,
make fpga-throughput builds it) runs on a pseudo-terminal and gmmu-board on it runs the trace
--repeat times (pass 1 faults the pages in; with all frames, pass 2 finds them resident). The
simulator's host-zero-time clock (fpga/sim/board_sim.cpp) makes the board cycles of each kernel
a pure function of trace and rate: the host's own computing counts zero, the bits on the line
count at the configured rate. Per pass: accesses, faults, board cycles, translations per second
at the clock, the link's share (bytes x 10 bits x cycles per bit over the cycles) and its bytes
per access by purpose (status polls, requests, results, fault service); per run the link's
bounds (the rate over the bytes per access without faults, and per fault) and the GMMU's busy
share (board-sim --stats). Writes DIR/throughput.json and DIR/throughput.md; exits 1 if a run
fails (a failed gmmu-board check included).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpga_links  # noqa: E402

CLASSES = ("setup", "poll", "req", "res", "fault")


def one_run(a, run):
    khz, baud = (int(x) for x in run.split("_"))
    div = fpga_links.clk_div(khz, baud)
    d = os.path.join(a.dir, run)
    sim = os.path.join(d, "board-sim")
    link, sim_json, host_json = (os.path.join(d, n) for n in ("pty", "sim.json", "host.json"))
    for p in (link, sim_json, host_json):
        if os.path.exists(p):
            os.remove(p)
    t0 = time.time()
    with open(os.path.join(d, "board-sim.log"), "w") as slog:
        sp = subprocess.Popen([sim, "--pty-link", link, "--stats", sim_json], stdout=slog,
                              stderr=subprocess.STDOUT)
    for _ in range(400):
        if os.path.exists(link) and os.path.getsize(link) > 0:
            break
        if sp.poll() is not None:
            break
        time.sleep(0.05)
    else:
        sp.kill()
        sys.exit(f"fpga-throughput: {run}: board-sim did not start")
    with open(link) as f:
        pty = f.read().strip()
    cmd = [a.host, "--port", pty, "--trace", a.trace, "--timeout-ms", "600000", "--quiet",
           "--repeat", str(a.repeat), "--stats", host_json]
    with open(os.path.join(d, "gmmu-board.log"), "w") as hlog:
        rc = subprocess.run(cmd, stdout=hlog, stderr=subprocess.STDOUT).returncode
    try:
        sp.wait(timeout=30)
    except subprocess.TimeoutExpired:
        sp.kill()
        sp.wait()
    wall = time.time() - t0
    if rc != 0 or not os.path.exists(sim_json):
        with open(os.path.join(d, "gmmu-board.log")) as f:
            print(f.read())
        sys.exit(f"fpga-throughput: {run}: gmmu-board exit {rc}")
    with open(sim_json) as f:
        simst = json.load(f)
    with open(host_json) as f:
        host = json.load(f)
    if simst["clk_div"] != div:
        sys.exit(f"fpga-throughput: {run}: board-sim has {simst['clk_div']} cycles per bit, "
                 f"gmmu_board's rule gives {div}: rebuild it")
    if host["clk_khz"] != khz:
        sys.exit(f"fpga-throughput: {run}: the board reports {host['clk_khz']} kHz")
    kern = host["kernels"]
    per = len(kern) // a.repeat
    passes = []
    for p in range(a.repeat):
        ks = kern[p * per:(p + 1) * per]
        s = {k: sum(x[k] for x in ks) for k in ks[0]}
        cyc = s["cycles"]
        sec = cyc / (khz * 1000.0)
        nbytes = sum(s[f"{c}_bytes"] for c in CLASSES)
        reads = sum(s[f"{c}_reads"] for c in CLASSES)
        passes.append({
            "pass": p + 1, "accesses": s["accesses"], "faults": s["faults"], "cycles": cyc,
            "seconds": sec, "translations_per_s": s["accesses"] / sec if sec else 0.0,
            "link_share": nbytes * 10 * div / cyc if cyc else 0.0,
            "bytes": {c: s[f"{c}_bytes"] for c in CLASSES},
            "commands": {c: s[f"{c}_commands"] for c in CLASSES},
            "reads": reads,
            "translations_per_s_usb": s["accesses"] / (sec + reads * a.usb_rtt_ms / 1000.0),
        })
    nofault = [p for p in passes if p["faults"] == 0]
    fault = [p for p in passes if p["faults"] > 0]
    bound = {}
    if nofault:
        p = nofault[-1]
        bpa = (p["bytes"]["poll"] + p["bytes"]["req"] + p["bytes"]["res"]) / p["accesses"]
        bound["bytes_per_access"] = bpa
        bound["translations_per_s"] = baud / 10.0 / bpa
    if fault:
        p = fault[0]
        bpf = p["bytes"]["fault"] / p["faults"]
        bound["bytes_per_fault"] = bpf
        bound["faults_per_s"] = baud / 10.0 / bpf
    return {"run": run, "clk_khz": khz, "baud": baud, "clk_div": div, "passes": passes,
            "bound": bound, "sim": simst, "wall_s": wall,
            "gmmu_busy_share": simst["gmmu_busy"] / simst["cycles"],
            "line_busy_share": simst["line_busy"] / simst["cycles"]}


def markdown(res, a):
    out = [f"Trace `{a.trace}` x {a.repeat} (pass 1 faults the pages in; pass 2 finds them "
           f"resident), board `tiny` (make fpga-sim's), host computing time zero; "
           f"translations/s = accesses / (board cycles / clock). \"usb\": the same with "
           f"{a.usb_rtt_ms:g} ms added per read round trip (an estimate, not simulated).", "",
           "| clock | UART | cycles/bit | pass | accesses | far faults | board cycles | "
           "translations/s | usb | link share | bytes/access: poll, req, res, fault | "
           "GMMU busy (run) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in res:
        for p in r["passes"]:
            b = p["bytes"]
            per = ", ".join(f"{b[c] / p['accesses']:.1f}" for c in ("poll", "req", "res", "fault"))
            out.append(f"| {r['clk_khz'] / 1000:g} MHz | {r['baud']} | {r['clk_div']} | "
                       f"{p['pass']} | {p['accesses']} | {p['faults']} | {p['cycles']} | "
                       f"{p['translations_per_s']:.0f} | {p['translations_per_s_usb']:.0f} | "
                       f"{100 * p['link_share']:.1f} % | {per} | "
                       f"{100 * r['gmmu_busy_share']:.2f} % |")
    out += ["", "| clock | UART | bytes per access (no faults) | link bound, translations/s | "
            "bytes per far fault | link bound, faults/s | simulated cycles | wall |",
            "|---|---|---|---|---|---|---|---|"]
    for r in res:
        bd = r["bound"]
        out.append(f"| {r['clk_khz'] / 1000:g} MHz | {r['baud']} | "
                   f"{bd.get('bytes_per_access', 0):.1f} | {bd.get('translations_per_s', 0):.0f} | "
                   f"{bd.get('bytes_per_fault', 0):.0f} | {bd.get('faults_per_s', 0):.0f} | "
                   f"{r['sim']['cycles']} | {r['wall_s']:.0f} s |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--host", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--runs", required=True, help="<clock kHz>_<baud> ...")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--usb-rtt-ms", type=float, default=1.0)
    a = ap.parse_args()
    if a.repeat < 1:
        sys.exit("fpga-throughput: --repeat must be at least 1")
    res = []
    for run in a.runs.split():
        r = one_run(a, run)
        res.append(r)
        for p in r["passes"]:
            print(f"fpga-throughput: {run} pass {p['pass']}: {p['accesses']} accesses, "
                  f"{p['faults']} faults, {p['cycles']} cycles, "
                  f"{p['translations_per_s']:.0f} translations/s, link "
                  f"{100 * p['link_share']:.1f} %", flush=True)
    with open(os.path.join(a.dir, "throughput.json"), "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    md = markdown(res, a)
    with open(os.path.join(a.dir, "throughput.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
