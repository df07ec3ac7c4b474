#!/usr/bin/env python3
"""Waveform names and markers (make test-wave-markers, issue 26; docs/cosim.md "Waveforms").

Usage: wave_markers_test.py BUILD
Runs tb/traces/fatal.trc (faults, REPLAY_ALL, CANCEL_PAGE) on tiny in lock-step with --waves,
writes the GTKWave save file (scripts/gen_gtkw.py) and checks, reading the FST back on its own:
- the command opcode filter maps every opcode of spec/gmmu.toml [cmd] to its name, and the save
  file shows cmd_op_q through it (file filter line, then the translated format, then the signal);
- the named markers: a "fault posted" one at a rise of fb_wr_valid_o, a CANCEL_PAGE and a
  REPLAY_ALL one at a rise of cmd_cycle with cmd_op_q holding that opcode; in time order.
Exit 0 if every check holds, else 1 naming the failed checks.
"""
import os
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fst_hier  # noqa: E402


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    out = os.path.join(build, "wave-markers")
    os.makedirs(out, exist_ok=True)
    fst, gtkw = os.path.join(out, "fatal.fst"), os.path.join(out, "fatal.gtkw")
    subprocess.run([os.path.join(build, "tiny", "gmmu-sim"), "--config", "configs/tiny.cfg",
                    "--quiet", "--trace", "tb/traces/fatal.trc", "--expect-fault", "--waves", fst],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run([sys.executable, os.path.join(HERE, "gen_gtkw.py"), fst, gtkw], check=True)
    bad = []
    with open(os.path.join(ROOT, "spec/gmmu.toml"), "rb") as f:
        cmd = {v["value"]: k for k, v in tomllib.load(f)["cmd"].items()}
    flt = os.path.splitext(gtkw)[0] + ".cmd.filter"
    with open(flt) as f:
        got = dict(ln.split() for ln in f if ln.strip())
    if got != {f"{v:x}": k for v, k in cmd.items()}:
        bad.append(f"opcode filter {flt}: {got}")
    lines = open(gtkw).read().splitlines()
    i = next((k for k, ln in enumerate(lines) if ln.startswith("TOP.gmmu_top.u_csr.cmd_op_q")), None)
    if i is None or lines[i - 1] != "@2022" or lines[i - 2] != f"^1 {os.path.abspath(flt)}":
        bad.append("cmd_op_q is not shown through the opcode filter")
    pos = next((ln for ln in lines if ln.startswith("*")), "").split()[1:]
    names = [ln[len("[markername] "):] for ln in lines if ln.startswith("[markername] ")]
    marks = [(int(pos[1 + ord(n[0]) - ord("A")]), n[1:]) for n in names if n[0] != "A"]
    ch, _ = fst_hier.scan(fst, ["TOP.gmmu_top.fb_wr_valid_o", "TOP.gmmu_top.cmd_cycle",
                                "TOP.gmmu_top.u_csr.cmd_op_q"])

    def rose(sig, t):
        return fst_hier.value_at(ch[sig], t) == "1" and fst_hier.value_at(ch[sig], t - 1) != "1"

    for want in ("fault posted", "CANCEL_PAGE", "REPLAY_ALL"):
        if not any(label == want for _, label in marks):
            bad.append(f"no '{want}' marker (markers: {marks})")
    for t, label in marks:
        if label == "fault posted":
            ok = rose("TOP.gmmu_top.fb_wr_valid_o", t)
        else:
            v = fst_hier.value_at(ch["TOP.gmmu_top.u_csr.cmd_op_q"], t)
            ok = rose("TOP.gmmu_top.cmd_cycle", t) and v is not None and cmd.get(int(v, 2)) == label
        if not ok:
            bad.append(f"marker '{label}' at t={t}: no such event there")
    if [t for t, _ in marks] != sorted(t for t, _ in marks):
        bad.append("markers not in time order")
    for b in bad:
        print("wave_markers_test: FAIL " + b)
    if not bad:
        print(f"wave_markers_test: ok ({len(marks)} event markers, opcode names in {gtkw})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
