#!/usr/bin/env python3
"""Write a GTKWave save file for an FST of gmmu_top: the mismatch first, then one group per block.

Usage: gen_gtkw.py WAVE.fst OUT.gtkw
Groups:
- "mismatch at ..." (an FST written at a lock-step mismatch, which holds the reference engine's
  outputs: TOP.model, TOP.diff, TOP.mismatch, docs/cosim.md "Waveforms"): TOP.mismatch, then for
  every output port that differs at the first mismatch time, in the order the comparison reports
  them (the reported port first): the RTL's port, the model's port, the port's diff bits. The
  primary marker and named marker A are put at that time, the view is a window around it.
- the top-level ports, one group per port group of the port list spec/ports.toml, in its order
  (a new port lands in its group without an edit here); gmmu_top's own signals; one group per
  block instance below gmmu_top (u_csr, g_l1[s].u_l1, u_l2, u_ptw, u_ff) and per TLB array inside
  a block (u_base, u_large, u_req, their u_store), each with its registers (_q) first.
Command opcodes by name: every cmd_op_q / cmd_op_d signal gets a GTKWave file filter (written
beside the save file, OUT.cmd.filter) that maps the values of spec/gmmu.toml [cmd] to their
names (NOP, REPLAY_PAGE, ...), so no opcode is read as a number.
Event markers: named markers B..Z at the events of the run (a fault entry posted, every executed
command by its opcode: REPLAY_PAGE, INVAL_ALL, CANCEL_PAGE, ...): at most MARKERS_PER_KIND per
kind, the last ones before the mismatch (or the first of the run), 25 in all (A is the mismatch).
FSM states by name: Verilator writes an FST enum table for every enum-typed signal (the state
registers of the FSMs); the save file gives those signals GTKWave's enum format (TR_ENUM, checked
with GTKWave 3.3.118), which shows the state names from the table. The hierarchy (with the enum
references) is read by scripts/fst_hier.py, the values of the mismatch signals through fst2vcd
(shipped with gtkwave).
"""
import math
import os
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fst_hier  # noqa: E402
import gen_ports  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FST = CMD_FILTER = None
TLB_SUBBLOCKS = ("u_base", "u_large", "u_req", "u_store")
CYCLE = 10  # FST time units per clock cycle (vshim.cpp: 5 per half cycle)
WINDOW = 60  # clock cycles shown around the mismatch
WAVE_PX = 960  # pixels of the wave pane with the window and pane sizes written below
# GTKWave trace flags (analyzer.h of GTKWave 3.3): binary right-justified + TR_ENUM (bit 32)
F_ENUM = 0x100000028
# TR_FTRANSLATED (a file filter) + hex + right-justified
F_FILTER = 0x2022
CMD_OP_SIGNALS = ("cmd_op_q", "cmd_op_d")
MARKERS_PER_KIND = 5
EV_FAULT = "TOP.gmmu_top.fb_wr_valid_o"
EV_CMD = "TOP.gmmu_top.cmd_cycle"
EV_OP = "TOP.gmmu_top.u_csr.cmd_op_q"


def cmd_names():
    """opcode -> name of spec/gmmu.toml [cmd] (the one source of the opcodes)."""
    with open(os.path.join(ROOT, "spec/gmmu.toml"), "rb") as f:
        cmd = tomllib.load(f)["cmd"]
    return {v["value"]: k for k, v in cmd.items()}


def write_cmd_filter(path):
    """GTKWave file filter: one 'value name' line per opcode (the value as a hex display shows it)."""
    with open(path, "w") as f:
        for v, name in sorted(cmd_names().items()):
            f.write(f"{v:x} {name}\n")


def rises(ch):
    """Times at which a 1-bit change list goes to 1."""
    out, last = [], "0"
    for t, v in ch:
        if v == "1" and last != "1":
            out.append(t)
        last = v
    return out


def events(vars_, t_mismatch):
    """[(time, label)] of the named markers, in time order (at most 25)."""
    names = {".".join(p) + "." + n for p, n, _, _ in vars_}
    want = [n for n in (EV_FAULT, EV_CMD, EV_OP) if n in names]
    if not want:
        return []
    ch, _ = fst_hier.scan(FST, want)
    ops = cmd_names()
    kinds = {"fault posted": rises(ch.get(EV_FAULT, []))}
    for t in rises(ch.get(EV_CMD, [])):
        v = fst_hier.value_at(ch.get(EV_OP, []), t)
        try:
            name = ops.get(int(v, 2), f"cmd {v}") if v is not None else "cmd"
        except ValueError:  # x / z
            name = f"cmd {v}"
        if name != "NOP":
            kinds.setdefault(name, []).append(t)
    picked = []
    for label, ts in kinds.items():
        if t_mismatch is not None:
            ts = [t for t in ts if t <= t_mismatch][-MARKERS_PER_KIND:]
        else:
            ts = ts[:MARKERS_PER_KIND]
        picked += [(t, label) for t in ts]
    picked.sort()
    if t_mismatch is not None:
        return picked[-25:]
    return picked[:25]


def load_ports():
    ports = gen_ports.load(os.path.join(ROOT, "spec/ports.toml"), os.path.join(ROOT, "spec/gmmu.toml"))
    return ports


def port_groups(ports):
    """sv port name -> (group order, group name, rank) from spec/ports.toml."""
    order, out = [], {}
    for i, p in enumerate(ports):
        if p.group not in order:
            order.append(p.group)
        out[p.sv] = (order.index(p.group), "ports: " + p.group, f"{i:03d}")
    return out


def compare_order(ports):
    """The output ports in loops (gen_ports.loops): the compare reports the first difference in
    loop order, element by element, port by port inside a loop."""
    sel = [p for p in ports if p.dir == "out" and p.cycle]
    return gen_ports.loops(sel)


def sig(path, name, width):
    full = ".".join(path) + "." + name
    return full + (f"[{width - 1}:0]" if width > 1 else "")


def num_sm(names, ports):
    """SMs of the FST's configuration: the width of a per-SM RTL port over its element width."""
    for p in ports:
        if p.dir == "out" and p.rep == "sm" and f"TOP.gmmu_top.{p.sv}" in names:
            return names[f"TOP.gmmu_top.{p.sv}"] // p.width
    return 1


def elem_label(p, k, n, n_sm):
    """hit_ppn[s][p] / miss_ppn[s] / fb_wr_data[k] for element k of a port of n elements."""
    if p.rep == "sm_port":
        n_ports = max(1, n // n_sm)
        return f"{p.name}[{k // n_ports}][{k % n_ports}]"
    return f"{p.name}[{k}]"


def slice_bits(full, width, k, w):
    """GTKWave's bit-slice syntax for bits [w * k + w - 1 : w * k] of a vector [width-1:0]: its
    bits by index from the most significant (0), msb first."""
    vec = f"{full}[{width - 1}:0]"
    return " ".join(f"({width - 1 - b}){vec}" for b in range(w * k + w - 1, w * k - 1, -1))


def mismatch_group(vars_, ports):
    """(time, end of the file, lines) of the mismatch group; time None and no lines if the FST
    has no reference signals or no mismatch."""
    names = {".".join(p) + "." + n: w for p, n, w, _ in vars_}
    if "TOP.mismatch" not in names:
        return None, None, []
    outs = [p for grp in compare_order(ports) for p in grp]
    diffs = [f"TOP.diff.{p.sv}" for p in outs if f"TOP.diff.{p.sv}" in names]
    ch, end = fst_hier.scan(FST, ["TOP.mismatch"] + diffs)
    t = next((ct for ct, v in ch["TOP.mismatch"] if v == "1"), None)
    if t is None:
        return None, end, []
    keyed = []
    for li, grp in enumerate(compare_order(ports)):
        for pi, p in enumerate(grp):
            d = f"TOP.diff.{p.sv}"
            bits = fst_hier.value_at(ch.get(d, []), t) or ""
            # VCD bit strings are msb first, leading zeros dropped: element k = bit k from the right
            ks = [k for k, b in enumerate(reversed(bits)) if b == "1"]
            if ks:
                keyed.append(((li, ks[0], pi), p, ks))
    lines = ["@800200", f"-mismatch at t={t} (cycle {(t + CYCLE // 2) // CYCLE})", "@28",
             "+{mismatch (any diff)} TOP.mismatch"]
    n_sm = num_sm(names, ports)
    for _, p, ks in sorted(keyed, key=lambda x: x[0]):
        w = names.get(f"TOP.gmmu_top.{p.sv}", 1)
        n = names[f"TOP.diff.{p.sv}"]
        el = ",".join(str(k) for k in ks)
        if n > 1:  # the differing elements (at most 4) as bit slices of the flattened ports
            for k in ks[:4]:
                label = elem_label(p, k, n, n_sm)
                for scope, who in (("gmmu_top", "RTL"), ("model", "model")):
                    lines += ["@22", f"#{{{who} {label}}} " + slice_bits(f"TOP.{scope}.{p.sv}", w, k,
                                                                          p.width)]
        lines += ["@22", f"+{{RTL {p.sv}}} {sig(('TOP', 'gmmu_top'), p.sv, w)}",
                  f"+{{model {p.sv}}} {sig(('TOP', 'model'), p.sv, w)}",
                  "@28" if names[f'TOP.diff.{p.sv}'] == 1 else "@22",
                  f"+{{diff {p.sv} (elements {el})}} "
                  f"{sig(('TOP', 'diff'), p.sv, names[f'TOP.diff.{p.sv}'])}"]
    lines += ["@1000200", f"-mismatch at t={t} (cycle {(t + CYCLE // 2) // CYCLE})"]
    return t, end, lines


def block_groups(vars_, pgroups, enums):
    groups, order = {}, []
    for _, g in sorted({v[:2] for v in pgroups.values()}):
        groups[g] = []
        order.append(g)
    for path, name, width, enum in vars_:
        if len(path) < 2 or path[1] != "gmmu_top":
            continue
        # one group per block: gmmu_top's ports, u_csr, g_l1[s].u_l1, u_l2, u_ptw, u_ff;
        # helper instances (PLRU trees, fill pickers) and unnamed blocks inside a block are left out
        depth = 4 if len(path) > 2 and path[2].startswith("g_") else 3
        # the TLB arrays inside a block (u_base, u_large, u_req and their u_store) get groups too
        sub = path[depth:] if len(path) > depth else ()
        if len(path) not in (2, depth) and not (sub and all(x in TLB_SUBBLOCKS for x in sub)):
            continue
        key = ".".join(path[2:]) or (pgroups[name][1] if name in pgroups else "gmmu_top")
        if key not in groups:
            groups[key] = []
            order.append(key)
        # registers first, then by name; ports in the order of the port list
        rank = pgroups[name][2] if len(path) == 2 and name in pgroups else name
        groups[key].append((not name.endswith("_q"), rank, sig(path, name, width), width, enum))
    lines = []
    for key in [k for k in order if groups[k]]:
        lines += ["@800200", f"-{key}"]
        for _, _, full, width, enum in sorted(groups[key]):
            if enum in enums:  # an FSM state: its names from the FST enum table
                lines += [f"@{F_ENUM:x}", full]
            elif CMD_FILTER and full.split(".")[-1].split("[")[0] in CMD_OP_SIGNALS:
                lines += [f"^1 {CMD_FILTER}", f"@{F_FILTER:x}", full]
            else:
                lines += ["@22" if width > 1 else "@28", full]
        lines += ["@1000200", f"-{key}"]
    return lines


def main():
    global FST, CMD_FILTER
    if len(sys.argv) != 3:
        sys.exit("usage: gen_gtkw.py WAVE.fst OUT.gtkw")
    FST, out = sys.argv[1], sys.argv[2]
    CMD_FILTER = os.path.abspath(os.path.splitext(out)[0] + ".cmd.filter")
    write_cmd_filter(CMD_FILTER)
    try:
        vars_, enums = fst_hier.hierarchy(FST)
    except (OSError, ValueError, IndexError) as e:
        sys.exit(f"gen_gtkw.py: {FST}: cannot read the FST hierarchy ({e})")
    if not any(len(p) >= 2 and p[1] == "gmmu_top" for p, _, _, _ in vars_):
        sys.exit(f"{FST}: no gmmu_top scope found (is this an FST of gmmu_top?)")
    ports = load_ports()
    t, end, mlines = mismatch_group(vars_, ports)
    # fixed pane widths: the wave pane is about WAVE_PX pixels wide in a 1600 x 900 window
    head = [f'[dumpfile] "{os.path.abspath(FST)}"', "[timestart] 0", "[size] 1600 900",
            "[sst_width] 200", "[signals_width] 400", "[sst_expanded] 1"]
    if t is not None:
        # the window: WINDOW cycles, the mismatch at two thirds; GTKWave starts at 0 instead if the
        # window passes the end of the file (a re-run writes PLAT_WAVE_TAIL cycles past the
        # mismatch, a run that ended earlier has fewer)
        span = WINDOW * CYCLE
        start = max(0, min(t - span * 2 // 3, end - span))
        # GTKWave 3.3: 2^-zoom / 203 time units per pixel (measured on a screenshot)
        zoom = -math.log2(span / WAVE_PX * 203.0)
        head[1] = f"[timestart] {start}"
    ev = events(vars_, t)
    if t is not None:
        head.append(f"*{zoom:.6f} {t} {t}" + "".join(f" {et}" for et, _ in ev) +
                    " -1" * (25 - len(ev)))
        head.append("[markername] Amismatch")
    elif ev:  # the whole run in view, no primary marker
        zoom = -math.log2(max(end or ev[-1][0], CYCLE) / WAVE_PX * 203.0)
        head.append(f"*{zoom:.6f} -1 -1" + "".join(f" {et}" for et, _ in ev) +
                    " -1" * (25 - len(ev)))
    for i, (_, label) in enumerate(ev):
        head.append(f"[markername] {chr(ord('B') + i)}{label}")
    lines = head + mlines + block_groups(vars_, port_groups(ports), enums)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(out + (f" (mismatch at t={t}, cycle {(t + CYCLE // 2) // CYCLE})" if t is not None else "") +
          f", {len(ev)} event markers")


if __name__ == "__main__":
    main()
