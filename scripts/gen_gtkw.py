#!/usr/bin/env python3
"""Write a GTKWave save file for an FST of gmmu_top, with one signal group per block.

Usage: gen_gtkw.py WAVE.fst OUT.gtkw
Groups: the top-level ports, one group per port group of the port list spec/ports.toml, in its
order (a new port lands in its group without an edit here); gmmu_top's own signals; then one
group per block instance below gmmu_top (u_csr, g_l1[s].u_l1, u_l2, u_ptw, u_ff) and per TLB
array inside a block (u_base, u_large, u_req, their u_store), each with its registers (_q) first.
Signal names are read from the FST header through fst2vcd (shipped with gtkwave).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_ports  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def port_groups():
    """sv port name -> (group order, group name) from spec/ports.toml."""
    ports = gen_ports.load(os.path.join(ROOT, "spec/ports.toml"), os.path.join(ROOT, "spec/gmmu.toml"))
    order, out = [], {}
    for i, p in enumerate(ports):
        if p.group not in order:
            order.append(p.group)
        out[p.sv] = (order.index(p.group), "ports: " + p.group, f"{i:03d}")
    return out


TLB_SUBBLOCKS = ("u_base", "u_large", "u_req", "u_store")


def scopes(fst):
    """Yield (scope path tuple, var name, width) from the FST header."""
    proc = subprocess.Popen(["fst2vcd", fst], stdout=subprocess.PIPE, text=True, errors="replace")
    path = []
    for line in proc.stdout:
        tok = line.split()
        if not tok:
            continue
        if tok[0] == "$scope":
            path.append(tok[2])
        elif tok[0] == "$upscope":
            path.pop()
        elif tok[0] == "$var":
            yield tuple(path), tok[4], int(tok[2])
        elif tok[0] == "$enddefinitions":
            break
    proc.kill()
    proc.wait()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_gtkw.py WAVE.fst OUT.gtkw")
    fst, out = sys.argv[1], sys.argv[2]
    pgroups = port_groups()
    groups = {}
    order = []
    for _, g in sorted({v[:2] for v in pgroups.values()}):
        groups[g] = []
        order.append(g)
    for path, name, width in scopes(fst):
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
        full = ".".join(path) + "." + name
        if width > 1:
            full += f"[{width - 1}:0]"
        # registers first, then by name; ports in the order of the port list
        rank = pgroups[name][2] if len(path) == 2 and name in pgroups else name
        groups[key].append((not name.endswith("_q"), rank, full))
    order = [k for k in order if groups[k]]
    if not order:
        sys.exit(f"{fst}: no gmmu_top scope found (is this an FST of gmmu_top?)")
    lines = [f'[dumpfile] "{fst}"', "[timestart] 0", "[size] 1600 900", "[sst_expanded] 1"]
    for key in order:
        lines.append("@800200")
        lines.append(f"-{key}")
        for _, _, full in sorted(groups[key]):
            lines.append("@22" if "[" in full else "@28")
            lines.append(full)
        lines.append("@1000200")
        lines.append(f"-{key}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(out)


if __name__ == "__main__":
    main()
