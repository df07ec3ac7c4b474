#!/usr/bin/env python3
"""Check the waveform of a lock-step mismatch (scripts/wave_test.sh, docs/cosim.md "Waveforms").

Usage: wave_check.py RUN.log NUM_PORTS
RUN.log is gmmu-sim's output of a run that stopped on a mismatch; it names the first differing
signal with the expected (reference) and actual (RTL) values and the FST written for it. Checks,
reading the FST back (scripts/fst_hier.py: hierarchy, fst2vcd: values):
- the FST has the RTL port (TOP.gmmu_top.<port>_o), the model's (TOP.model.<port>_o), its diff
  bits (TOP.diff.<port>_o) and TOP.mismatch;
- TOP.mismatch first rises at the time of the reported cycle's edge (10 * cycle - 5);
- at that time the reported element of the RTL port holds the actual value, the model's holds the
  expected one, they differ and the element's diff bit is set;
- before it every model port had the RTL port's values at every change (cycle alignment), over
  at least 10 changes in the window;
- gen_gtkw.py writes a save file whose first group names the RTL and model port (and the
  reported element of both), with the primary marker at the mismatch time, and the FSM state
  registers (enum tables in the FST) in GTKWave's enum format, which shows state names.
Exit 0 if every check holds, else 1 with the failed checks.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fst_hier  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def element(bits, k, w):
    """Element k (w bits) of a VCD bit string (msb first, leading zeros may be dropped)."""
    v = int(bits, 2) if bits and set(bits) <= {"0", "1"} else None
    return None if v is None else (v >> (k * w)) & ((1 << w) - 1)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: wave_check.py RUN.log NUM_PORTS")
    log, nports = open(sys.argv[1]).read(), int(sys.argv[2])
    fails = []

    def check(cond, what):
        print(("  ok    " if cond else "  FAIL  ") + what)
        if not cond:
            fails.append(what)
        return cond

    m = re.search(r"MISMATCH at cycle (\d+) \(clocked cycle \d+\): (\w+)((?:\[\d+\])*): "
                  r"expected \([^)]*\) 0x([0-9a-f]+), actual \([^)]*\) 0x([0-9a-f]+)", log)
    f = re.search(r"waveform \(FST[^)]*\): (\S+)", log)
    if not check(m is not None and f is not None, "the log reports a mismatch and its FST"):
        sys.exit(1)
    cycle, port, idx = int(m.group(1)), m.group(2) + "_o", [int(x) for x in re.findall(r"\d+", m.group(3))]
    exp, act = int(m.group(4), 16), int(m.group(5), 16)
    k = idx[0] * nports + idx[1] if len(idx) == 2 else (idx[0] if idx else 0)
    fst = f.group(1)
    print(f"  mismatch: cycle {cycle}, {port} element {k}: expected 0x{exp:x}, actual 0x{act:x}; {fst}")

    vars_, _ = fst_hier.hierarchy(fst)
    width = {".".join(p) + "." + n: w for p, n, w, _ in vars_}
    rtl, model, diff = f"TOP.gmmu_top.{port}", f"TOP.model.{port}", f"TOP.diff.{port}"
    if not check(all(s in width for s in (rtl, model, diff, "TOP.mismatch")),
                 f"the FST has {rtl}, {model}, {diff} and TOP.mismatch"):
        sys.exit(1)
    check(width[rtl] == width[model], f"{model} is as wide as {rtl} ({width[rtl]} bits)")
    w = width[rtl] // width[diff]
    ch = fst_hier.changes(fst, [rtl, model, diff, "TOP.mismatch"])
    t = next((ct for ct, v in ch["TOP.mismatch"] if v == "1"), None)
    if not check(t is not None, "TOP.mismatch rises"):
        sys.exit(1)
    check(t == 10 * cycle - 5, f"it rises at the edge of the reported cycle (t={t}, "
          f"expected {10 * cycle - 5})")
    r_v, m_v = element(fst_hier.value_at(ch[rtl], t), k, w), element(fst_hier.value_at(ch[model], t), k, w)
    d_v = element(fst_hier.value_at(ch[diff], t), k, 1)
    check(r_v == act, f"RTL {port} element {k} at t={t} is the actual value (0x{act:x}): "
          f"{'none' if r_v is None else hex(r_v)}")
    check(m_v == exp, f"model {port} element {k} at t={t} is the expected value (0x{exp:x}): "
          f"{'none' if m_v is None else hex(m_v)}")
    check(r_v != m_v and d_v == 1, f"they differ and diff bit {k} is set")
    # cycle alignment: every output port of the model equals the RTL's at every change before t
    allp = sorted(n[len("TOP.model."):] for n in width if n.startswith("TOP.model."))
    cha = fst_hier.changes(fst, [f"TOP.gmmu_top.{q}" for q in allp] + [f"TOP.model.{q}" for q in allp])
    bad = [q for q in allp if [c for c in cha[f"TOP.gmmu_top.{q}"] if c[0] < t]
           != [c for c in cha[f"TOP.model.{q}"] if c[0] < t]]
    nch = sum(len([c for c in cha[f"TOP.gmmu_top.{q}"] if 0 < c[0] < t]) for q in allp)
    check(not bad, f"before t={t} every model port ({len(allp)}) changes at the same times to the "
          f"same values as the RTL's ({nch} changes after the window's first dump)"
          + (f"; differ: {', '.join(bad)}" if bad else ""))
    check(nch >= 10, "the window holds port activity before the mismatch (>= 10 changes)")
    gtkw = os.path.splitext(fst)[0] + ".gtkw"
    out = subprocess.run([sys.executable, os.path.join(HERE, "gen_gtkw.py"), fst, gtkw],
                         capture_output=True, text=True)
    if not check(out.returncode == 0, f"gen_gtkw.py writes {gtkw}"):
        print(out.stderr)
        sys.exit(1)
    lines = open(gtkw).read().splitlines()
    first_end = next(i for i, ln in enumerate(lines) if ln == "@1000200")
    top = "\n".join(lines[:first_end])
    check(f"{rtl}[" in top or f"{rtl}\n" in top, f"the first group of the save file names {rtl}")
    check(f"{model}[" in top or f"{model}\n" in top, f"the first group of the save file names {model}")
    check(any(ln.startswith(f"*") and ln.split()[1] == str(t) for ln in lines),
          f"the primary marker is at t={t}")
    if width[diff] > 1:
        check(f"#{{RTL {m.group(2)}{m.group(3)}}}" in top and f"#{{model {m.group(2)}{m.group(3)}}}"
              in top, f"the first group has the element {m.group(2)}{m.group(3)} of both")
    # FSM states by name: the state registers carry FST enum tables and GTKWave's enum format
    vars_e, enums = fst_hier.hierarchy(fst)
    states = {sig for p, n, w, e in vars_e if e in enums and n.split("[")[0].endswith("state_q")
              for sig in [".".join(p) + "." + n + (f"[{w - 1}:0]" if w > 1 else "")]}
    enum_lines = {lines[i + 1] for i, ln in enumerate(lines[:-1]) if ln == "@100000028"}
    check(bool(states) and states <= enum_lines, f"the FSM state registers ({len(states)}) have enum "
          f"tables in the FST and the enum format in the save file")
    if fails:
        print(f"wave_check: {len(fails)} check(s) failed")
        sys.exit(1)
    print("wave_check: all checks hold")


if __name__ == "__main__":
    main()
