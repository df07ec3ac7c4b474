#!/usr/bin/env python3
"""import_nvbit.py - convert the output of NVBit's mem_trace tool into the project's trace format.

usage: import_nvbit.py LOG -o OUT [--text|--binary] [--gap N] [--granule BYTES]
                       [--shared-window BASE:SIZE]...

LOG is the captured stdout of an application run with LD_PRELOAD=mem_trace.so (optionally .xz;
'-' = stdin). Lines that do not start with "MEMTRACE:" (application output, NVBit banner) are
ignored. Recognized lines:

  MEMTRACE: CTX 0x.. - LAUNCH - Kernel pc 0x.. - Kernel name NAME - grid launch id N
            - grid size X,Y,Z - block size X,Y,Z - nregs N - shmem N - cuda stream id N
  MEMTRACE: CTX 0x.. - grid_launch_id N - CTA X,Y,Z - warp W - OPCODE - ADDR x 32

Rules (docs/workloads.md, "Importing real traces"):
  * a new (CTX, grid_launch_id) starts a kernel (name from its LAUNCH line, else "grid<N>");
  * a lane is active when its address is not 0 (mem_trace prints 0 for inactive lanes);
  * opcodes kept: LDG/LDGSTS (R), STG (W), ATOMG/REDG/RED (A), generic LD (R) / ST (W) /
    ATOM (A) unless the address lies in a --shared-window; LDS/STS/LDL/STL/ATOMS/... are dropped;
  * CTA = x + gx*(y + gy*z) when the LAUNCH line gave the grid size, else the CTAs of the kernel
    are numbered in order of first appearance;
  * "warp" in mem_trace is the hardware warp slot (%warpid); warps are renumbered 0.. per CTA in
    order of first appearance;
  * mem_trace records only memory instructions, so every gap is --gap (default 4);
  * allocations: 2 MB granules as for Accel-Sim traces (import_common.AllocationMap);
  * warp exit records: lines come in file order, so the exits of a kernel's warps are written at
    the kernel's end (before the next kernel record, or at the end of the trace).
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from import_common import (OP_ATOMIC, OP_READ, OP_WRITE, AllocationMap,  # noqa: E402
                           TraceInputError, open_text, write_trace)

GLOBAL_OPS = {"LDG": OP_READ, "LDGSTS": OP_READ, "STG": OP_WRITE, "ATOMG": OP_ATOMIC,
              "REDG": OP_ATOMIC, "RED": OP_ATOMIC}
GENERIC_OPS = {"LD": OP_READ, "ST": OP_WRITE, "ATOM": OP_ATOMIC}
HEX_RE = re.compile(r"^0[xX][0-9a-fA-F]{1,16}$")
TRIPLE_RE = re.compile(r"^(\d+),(\d+),(\d+)$")


def parse_triple(s, path, ln, field, name):
    m = TRIPLE_RE.match(s.strip())
    if not m:
        raise TraceInputError(path, ln, "'%s' is not x,y,z" % s.strip(), field, name)
    return tuple(int(x) for x in m.groups())


class NvbitImporter:
    def __init__(self, writer, allocs, gap=4, windows=()):
        self.w, self.allocs, self.gap, self.windows = writer, allocs, gap, list(windows)
        self.launch = {}     # (ctx, grid id) -> (name, grid)
        self.cur = None      # (ctx, grid id) of the current kernel
        self.grid = None
        self.cta_ids = {}
        self.warp_ids = {}
        self.warps = {}      # (cta, warp) with a record in the current kernel, first-seen order
        self.stats = {"kernels": 0, "mem": 0, "dropped": 0}

    def end_kernel(self):
        """Exit records of the current kernel's warps: records come in file order, so a warp's
        last one is known only when the kernel ends (next kernel or end of the log)."""
        for cta, warp in self.warps:
            self.w.exit(cta, warp)
        self.warps = {}

    def run(self, path):
        with open_text(path) as f:
            for ln, raw in enumerate(f, 1):
                if not raw.startswith("MEMTRACE:"):
                    continue
                body = raw[len("MEMTRACE:"):].strip()
                fields = [x.strip() for x in body.split(" - ")]
                if not fields[0].startswith("CTX "):
                    continue  # STARTING CONTEXT, TERMINATING CONTEXT, ...
                ctx = fields[0][4:].strip()
                if len(fields) > 1 and fields[1] == "LAUNCH":
                    self.parse_launch(ctx, fields, path, ln)
                    continue
                self.parse_access(ctx, fields, path, ln)
        self.end_kernel()
        if self.stats["kernels"] == 0:
            raise TraceInputError(path, None, "no MEMTRACE access line found")

    def parse_launch(self, ctx, fields, path, ln):
        name, gid, grid = None, None, None
        for i, fld in enumerate(fields[2:], 3):
            if fld.startswith("Kernel name "):
                # demangled "f(int*, float)": keep the function name
                name = fld[len("Kernel name "):].split("(")[0].strip() or None
            elif fld.startswith("grid launch id "):
                v = fld[len("grid launch id "):]
                if not v.isdigit():
                    raise TraceInputError(path, ln, "'%s' is not a number" % v, i,
                                          "grid launch id")
                gid = int(v)
            elif fld.startswith("grid size "):
                grid = parse_triple(fld[len("grid size "):], path, ln, i, "grid size")
        if gid is None:
            raise TraceInputError(path, ln, "LAUNCH line without 'grid launch id'")
        self.launch[(ctx, gid)] = (name, grid)

    def parse_access(self, ctx, fields, path, ln):
        gid = cta = warp = None
        opcode = addrs_field = None
        for i, fld in enumerate(fields[1:], 2):
            if fld.startswith("grid_launch_id "):
                v = fld[len("grid_launch_id "):]
                if not v.isdigit():
                    raise TraceInputError(path, ln, "'%s' is not a number" % v, i,
                                          "grid_launch_id")
                gid = int(v)
            elif fld.startswith("CTA "):
                cta = parse_triple(fld[4:], path, ln, i, "CTA")
            elif fld.startswith("warp "):
                v = fld[5:]
                if not v.isdigit():
                    raise TraceInputError(path, ln, "'%s' is not a number" % v, i, "warp")
                warp = int(v)
            elif fld.startswith("0x") and i == len(fields):
                addrs_field = (i, fld)
            elif fld.startswith(("pc ", "kernel_name ", "Kernel name ")):
                continue
            elif opcode is None and re.match(r"^[A-Z][A-Z0-9_.]*$", fld):
                opcode = fld
            else:
                raise TraceInputError(path, ln, "unexpected field '%s'" % fld[:40], i, "field")
        for val, name in ((gid, "grid_launch_id"), (cta, "CTA"), (warp, "warp"),
                          (opcode, "opcode"), (addrs_field, "addresses")):
            if val is None:
                raise TraceInputError(path, ln, "missing field '%s'" % name)
        fi, atext = addrs_field
        toks = atext.split()
        if len(toks) != 32:
            raise TraceInputError(path, ln, "%d addresses, expected 32" % len(toks), fi,
                                  "addresses")
        addrs = []
        for t in toks:
            if not HEX_RE.match(t):
                raise TraceInputError(path, ln, "'%s' is not a hex address" % t, fi, "addresses")
            addrs.append(int(t, 16))
        key = (ctx, gid)
        if key != self.cur:
            self.end_kernel()
            self.cur = key
            name, grid = self.launch.get(key, (None, None))
            self.grid = grid
            self.cta_ids, self.warp_ids = {}, {}
            self.stats["kernels"] += 1
            self.w.kernel(name or "grid%d" % gid)
        opb = opcode.split(".")[0]
        op = GLOBAL_OPS.get(opb)
        generic = False
        if op is None:
            op = GENERIC_OPS.get(opb)
            generic = True
        if op is None:
            self.stats["dropped"] += 1
            return
        mask, keep = 0, []
        for lane, a in enumerate(addrs):
            if a == 0 or (generic and any(b <= a < b + s for b, s in self.windows)):
                continue
            mask |= 1 << lane
            keep.append(a)
        if not mask:
            self.stats["dropped"] += 1
            return
        if self.grid:
            gx, gy, gz = self.grid
            if cta[0] >= gx or cta[1] >= gy or cta[2] >= gz:
                raise TraceInputError(path, ln, "CTA %s outside grid %s" % (cta, self.grid))
            cid = cta[0] + gx * (cta[1] + gy * cta[2])
        else:
            cid = self.cta_ids.setdefault(cta, len(self.cta_ids))
        wmap = self.warp_ids.setdefault(cid, {})
        wid = wmap.setdefault(warp, len(wmap))
        for a in keep:
            self.allocs.touch(a, op != OP_READ)
        self.stats["mem"] += 1
        self.w.mem(cid, wid, op, self.gap, mask, keep)
        self.warps.setdefault((cid, wid), None)


def parse_window(s):
    base, _, size = s.partition(":")
    return int(base, 0), int(size, 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--text", dest="binary", action="store_false", default=None)
    g.add_argument("--binary", dest="binary", action="store_true")
    ap.add_argument("--gap", type=int, default=4)
    ap.add_argument("--granule", type=int, default=2 << 20)
    ap.add_argument("--shared-window", action="append", default=[], type=parse_window,
                    help="BASE:SIZE of generic addresses that are not global memory")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    def fill(w, allocs):
        imp = NvbitImporter(w, allocs, a.gap, a.shared_window)
        imp.run(a.input)
        return imp

    done = write_trace("import_nvbit", a, fill)
    if done is None:
        return 1
    w, imp = done
    if not a.quiet:
        s = imp.stats
        print("import_nvbit: %d kernels, %d global memory instructions, %d dropped, "
              "%d allocations -> %s" % (s["kernels"], s["mem"], s["dropped"], len(w.allocs),
                                       a.output), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
