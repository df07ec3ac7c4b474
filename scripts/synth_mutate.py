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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--reg", default="\\g_l1[0].u_l1.u_req.ent_q")
    ap.add_argument("--bits", default="1,2")
    args = ap.parse_args()
    a, b = (int(x) for x in args.bits.split(","))
    with open(args.inp) as f:
        text = f.read()
    try:
        out = mutate(text, args.reg, a, b)
    except ValueError as e:
        sys.exit(f"synth_mutate: {args.inp}: {e}")
    with open(args.out, "w") as f:
        f.write(out)
    print(f"synth_mutate: {args.out}: {args.reg} [{a}] and [{b}] swapped their next values")


if __name__ == "__main__":
    main()
