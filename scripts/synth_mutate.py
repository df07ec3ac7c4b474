#!/usr/bin/env python3
"""Inject a deliberate mis-synthesis into the Yosys netlist of gmmu_top (make test-netlist).

Usage: synth_mutate.py IN.v OUT.v [--reg NAME] [--bits A,B]

The old Yosys front end (read_verilog -sv) silently mis-read member selects on arrays of packed
structs (docs/rtl.md); it can no longer read today's RTL at all (it stops with a syntax error on
the packages and the type-parameterized TLB modules), so its mis-read is reproduced here on the
netlist the slang front end produced: the flip-flops of two bits of a member of an array of
structs take each other's next value, i.e. a member write lands on the wrong bits. Default: the
L1 request table of SM 0 (gmmu_l1_req_table, `ent_q`, an array of l1_req_entry_t {vpn, write,
id, ppn, fatal}), entry 0, bits 1 and 2 = ppn[0] and ppn[1]. The flip-flop count is unchanged,
so scripts/synth.py's count check cannot see it; the netlist engine must (a lock-step mismatch).

On an ECP5 netlist (synth_ecp5, scripts/synth_ecp5_netlist.py: flip-flops are TRELLIS_FF cell
instances, not always blocks) the same two flip-flops swap the nets on their data inputs DI: a
mis-mapped netlist with the same cells. The TRELLIS_FF is found by the net on its Q pin, the
register bit itself or a net `assign`ed from or to it (write_verilog names a net by one of its
aliases).

Exits non-zero unless both flip-flops are found exactly once (the mutation is never a no-op).
"""
import argparse
import re
import sys


def mutate(text, reg, a, b):
    """Swaps the next-state expressions of reg[a] and reg[b] (write_verilog -noattr flip-flops:
    `else <reg> [i] <= <expr>;`). Returns the new text or raises ValueError."""
    # a register whose other bits are constant (e.g. the ASID bits above log2(NumAsids), which
    # synthesis removes) is written one flip-flop per bit, named with "_reg" before its first
    # index: `else \g_l1_reg[0].u_l1.u_req.ent_q[1]  <= <expr>;`
    i = reg.find("[")
    split = (reg[:i] + "_reg" + reg[i:]) if i >= 0 else reg + "_reg"

    def rx(bit):
        whole = re.escape(reg) + r" \[" + str(bit) + r"\]"
        single = re.escape(split) + r"\[" + str(bit) + r"\]"
        return re.compile(r"(\n\s*else (?:" + whole + "|" + single + r") +<= )([^;]+);")
    found = {}
    for bit in (a, b):
        hits = rx(bit).findall(text)
        if len(hits) != 1:
            raise ValueError(f"{reg} [{bit}]: {len(hits)} flip-flops found, expected 1")
        found[bit] = hits[0][1]
    if found[a] == found[b]:
        raise ValueError(f"{reg} [{a}] and [{b}] have the same next value: swapping changes nothing")
    text = rx(a).sub(lambda m: m.group(1) + "\0B;", text)
    text = rx(b).sub(lambda m: m.group(1) + found[a] + ";", text)
    return text.replace("\0B;", found[b] + ";")


ECP5_FF = re.compile(r"(TRELLIS_FF #\([^;]*?\)\s*\S+ \(\s*(?:\.\w+\([^;]*?\),\s*)*?)"
                     r"\.DI\(([^;]*?)\)(,\s*(?:\.\w+\([^;]*?\),\s*)*?\.Q\(([^;]*?)\)\s*\);)")


def aliases(text, net):
    """The nets write_verilog connects to `net` by plain `assign a = b;` (both directions)."""
    names = {net}
    rx = re.compile(r"^\s*assign (.+?) = (.+?);$", re.M)
    pairs = [(m.group(1).strip(), m.group(2).strip()) for m in rx.finditer(text)]
    for lhs, rhs in pairs:
        if lhs == net:
            names.add(rhs)
        elif rhs == net:
            names.add(lhs)
    return names


def mutate_ecp5(text, reg, a, b):
    """Swaps the DI nets of the TRELLIS_FF cells whose Q is reg[a] and reg[b] (ECP5 netlist)."""
    ffs = list(ECP5_FF.finditer(text))
    i = reg.find("[")
    split = (reg[:i] + "_reg" + reg[i:]) if i >= 0 else reg + "_reg"
    found = {}
    for bit in (a, b):
        nets = set()
        for n in (f"{reg} [{bit}]", f"{reg}[{bit}]", f"{split}[{bit}]"):
            nets |= {x.strip() for x in aliases(text, n)}
        hits = [m for m in ffs if m.group(4).strip() in nets]
        if len(hits) != 1:
            raise ValueError(f"{reg} [{bit}]: {len(hits)} TRELLIS_FF cells found, expected 1")
        found[bit] = hits[0]
    if found[a].group(2) == found[b].group(2):
        raise ValueError(f"{reg} [{a}] and [{b}] have the same DI net: swapping changes nothing")
    spans = sorted((found[a], found[b]), key=lambda m: m.start())
    new = {found[a].start(): found[b].group(2), found[b].start(): found[a].group(2)}
    out, pos = [], 0
    for m in spans:
        out += [text[pos:m.start(2)], new[m.start()]]
        pos = m.end(2)
    return "".join(out) + text[pos:]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--reg", default=None,
                    help="default: \\g_l1[0].u_l1.u_req.ent_q; on an ECP5 netlist hit_ppn_o")
    ap.add_argument("--bits", default="1,2")
    args = ap.parse_args()
    a, b = (int(x) for x in args.bits.split(","))
    with open(args.inp) as f:
        text = f.read()
    ecp5 = "TRELLIS_FF #(" in text
    # synth_ecp5 drops the names of internal registers (only port names survive in the mapped
    # netlist): the ECP5 default is the L1 hit register of SM 0, port 0 (hppn, bits 1 and 2 of
    # the hit PPN), a flip-flop named by the output it drives
    if args.reg is None:
        args.reg = "hit_ppn_o" if ecp5 else "\\g_l1[0].u_l1.u_req.ent_q"
    try:
        out = (mutate_ecp5 if ecp5 else mutate)(text, args.reg, a, b)
    except ValueError as e:
        sys.exit(f"synth_mutate: {args.inp}: {e}")
    with open(args.out, "w") as f:
        f.write(out)
    what = "TRELLIS_FF data inputs" if ecp5 else "next values"
    print(f"synth_mutate: {args.out}: {args.reg} [{a}] and [{b}] swapped their {what}")


if __name__ == "__main__":
    main()
