#!/usr/bin/env python3
"""The registered-state name table of gmmu-sim --state-compare (docs/cosim.md).

Reads the symbol table that Verilator writes for a model built with cosim/statecmp.vlt
(public_flat_rd on every *_q) - V<prefix>__Syms.cpp, its scope configure() and varInsert()
calls - and writes one C initializer row per register of every instance:
    {"g_l1[1].u_l1.u_req", "state_q", 3, 4},   /* scope below gmmu_top, name, width, elements */
The shim (cosim/vshim.cpp, -DVSHIM_STATE) compiles the rows in; the platform compares each row
element by element against the C model's hand-written accessors (cmodel/*_state_get).

Usage: gen_state_table.py SYMS_CPP OUT_INC
"""
import re
import sys

CONF = re.compile(r'(__Vscope_\w+)\.configure\(this, name\(\), "([^"]*)"')
VAR = re.compile(r'(__Vscope_\w+)\.varInsert\(__Vfinal,"(\w+)", &\([^)]*\), (?:true|false), '
                 r'(\w+),[^,]*,([^)]*)\);')


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    text = open(argv[1], encoding="utf-8").read()
    scopes = {sym: path for sym, path in CONF.findall(text)}
    rows = []
    for sym, name, vltype, dims in VAR.findall(text):
        if not name.endswith("_q"):
            continue
        if sym not in scopes:
            sys.stderr.write(f"{argv[1]}: variable {name} in unknown scope {sym}\n")
            return 1
        path = scopes[sym]
        path = "" if path == "gmmu_top" else path[len("gmmu_top."):]
        nums = [int(x) for x in dims.split(",") if x.strip()]
        ndim, ranges = nums[0], nums[1:]
        if len(ranges) != 2 * ndim:
            sys.stderr.write(f"{argv[1]}: {path}.{name}: cannot read the dimensions '{dims}'\n")
            return 1
        width = abs(ranges[0] - ranges[1]) + 1 if ndim >= 1 else 1
        elems = 1
        for k in range(1, ndim):
            elems *= abs(ranges[2 * k] - ranges[2 * k + 1]) + 1
        udims = ndim - 1 if ndim else 0
        if ndim == 1 and ranges[0] < ranges[1]:
            # an unpacked array of single bits (`logic x [N]`): Verilator lists its one range
            # [0:N-1] as the packed one (the RTL's packed ranges all descend, [N-1:0]); it stores
            # one byte per element, so it is N elements of width 1 (the shim accepts the shape)
            width, elems, udims = 1, ranges[1] - ranges[0] + 1, 1
        # unpacked dimensions beyond the first are flattened; the shim checks it can read them
        rows.append((path, name, width, elems, udims))
    if not rows:
        sys.stderr.write(f"{argv[1]}: no public _q signal (built without cosim/statecmp.vlt?)\n")
        return 1
    rows.sort()
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(f"// generated from {argv[1]} by scripts/gen_state_table.py; do not edit\n")
        f.write("// scope below gmmu_top, register, element width, elements, unpacked dims\n")
        for path, name, width, elems, udims in rows:
            f.write(f'{{"{path}", "{name}", {width}, {elems}, {udims}}},\n')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
