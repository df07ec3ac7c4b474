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
FSM states by name: Verilator writes an FST enum table for every enum-typed signal; GTKWave
shows those names by itself, and this script also writes them as translate filter files
(OUT-enums/<enum>.txt, both binary and hex keys) applied to those signals in the save file, so
the names show whatever the radix. The hierarchy is read by scripts/fst_hier.py, the values of
the mismatch signals through fst2vcd (shipped with gtkwave).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fst_hier  # noqa: E402
import gen_ports  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TLB_SUBBLOCKS = ("u_base", "u_large", "u_req", "u_store")
CYCLE = 10  # FST time units per clock cycle (vshim.cpp: 5 per half cycle)
WINDOW = 60  # clock cycles shown around the mismatch
# GTKWave trace flags (analyzer.h): hex / binary, right-justified, file-translated, groups
F_HEX, F_BIN, F_TRANSLATED, F_GROUP_BEGIN, F_GROUP_END, F_BLANK = 0x22, 0x28, 0x2000, 0x800000, \
    0x1000000, 0x200


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


def mismatch_group(vars_, ports):
    """(time, lines) of the mismatch group, or (None, []) if the FST has no reference signals or
    no mismatch."""
    names = {".".join(p) + "." + n: w for p, n, w, _ in vars_}
    if "TOP.mismatch" not in names:
        return None, []
    outs = [p for grp in compare_order(ports) for p in grp]
    diffs = [f"TOP.diff.{p.sv}" for p in outs if f"TOP.diff.{p.sv}" in names]
    ch = fst_hier.changes(FST, ["TOP.mismatch"] + diffs)
    t = next((ct for ct, v in ch["TOP.mismatch"] if v == "1"), None)
    if t is None:
        return None, []
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
    for _, p, ks in sorted(keyed, key=lambda x: x[0]):
        w = names.get(f"TOP.gmmu_top.{p.sv}", 1)
        el = ",".join(str(k) for k in ks)
        lines += ["@22", f"+{{RTL {p.sv}}} {sig(('TOP', 'gmmu_top'), p.sv, w)}",
                  f"+{{model {p.sv}}} {sig(('TOP', 'model'), p.sv, w)}",
                  "@28" if names[f'TOP.diff.{p.sv}'] == 1 else "@22",
                  f"+{{diff {p.sv} (elements {el})}} "
                  f"{sig(('TOP', 'diff'), p.sv, names[f'TOP.diff.{p.sv}'])}"]
    lines += ["@1000200", f"-mismatch at t={t} (cycle {(t + CYCLE // 2) // CYCLE})"]
    return t, lines


def enum_filters(enums, used, out):
    """Translate filter files of the enum tables in use: {handle: (number, path)}."""
    d = os.path.splitext(out)[0] + "-enums"
    os.makedirs(d, exist_ok=True)
    files = {}
    for n, h in enumerate(sorted(used), start=1):
        name, items = enums[h]
        path = os.path.abspath(os.path.join(d, name.replace("/", "_") + ".txt"))
        with open(path, "w") as f:
            f.write(f"# {name}: FST enum table written by Verilator (scripts/gen_gtkw.py)\n")
            for bits, lit in items:
                f.write(f"{bits} {lit}\n")  # binary, as wide as the signal
                f.write(f"{int(bits, 2):X} {lit}\n")  # hex
        files[h] = (n, path)
    return files


def block_groups(vars_, pgroups, filters):
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
            if enum in filters:
                n, fpath = filters[enum]
                lines += [f"@{F_HEX | F_TRANSLATED:x}", f"^{n} {fpath}", full]
            else:
                lines += ["@22" if width > 1 else "@28", full]
        lines += ["@1000200", f"-{key}"]
    return lines


def main():
    global FST
    if len(sys.argv) != 3:
        sys.exit("usage: gen_gtkw.py WAVE.fst OUT.gtkw")
    FST, out = sys.argv[1], sys.argv[2]
    try:
        vars_, enums = fst_hier.hierarchy(FST)
    except (OSError, ValueError, IndexError) as e:
        sys.exit(f"gen_gtkw.py: {FST}: cannot read the FST hierarchy ({e})")
    if not any(len(p) >= 2 and p[1] == "gmmu_top" for p, _, _, _ in vars_):
        sys.exit(f"{FST}: no gmmu_top scope found (is this an FST of gmmu_top?)")
    ports = load_ports()
    used = {e for p, _, _, e in vars_ if e in enums and len(p) >= 2 and p[1] == "gmmu_top"}
    filters = enum_filters(enums, used, out)
    t, mlines = mismatch_group(vars_, ports)
    head = [f'[dumpfile] "{os.path.abspath(FST)}"', "[size] 1600 900", "[sst_expanded] 1"]
    if t is not None:
        start = max(0, t - WINDOW * CYCLE * 2 // 3)
        zoom = -math.log2(WINDOW * CYCLE / 1200.0)  # GTKWave: 2^-zoom time units per pixel
        head = [head[0], f"[timestart] {start}"] + head[1:]
        head.append(f"*{zoom:.6f} {t} {t}" + " -1" * 25)
        head.append("[markername] Amismatch")
    else:
        head.insert(1, "[timestart] 0")
    lines = head + mlines + block_groups(vars_, port_groups(ports), filters)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(out + (f" (mismatch at t={t}, cycle {t // CYCLE})" if t is not None else ""))


if __name__ == "__main__":
    main()
