#!/usr/bin/env python3
"""import_accelsim.py - convert Accel-Sim (NVBit tracer) traces into the project's trace format.

usage: import_accelsim.py INPUT -o OUT [--text|--binary] [--granule BYTES] [--window N]
                          [--kernels LIST] [--quiet]

INPUT is a directory holding kernelslist.g (or kernelslist), such a kernels list itself, or one
kernel file (kernel-N.traceg, kernel-N.trace, optionally .xz). The rules (which opcodes are kept,
how CTA, warp, gap and allocations are derived) are documented in docs/workloads.md, section
"Importing real traces". Python 3 standard library; records are written through the C trace
library (build/lib/libgmmu_trace.so, tools/trace/trace_ctypes.py).

Accepted input, as written by the Accel-Sim tracer (util/tracer_nvbit) and its post-processor:
  * kernel header lines "-key = value" (kernel name, grid dim, block dim, shmem / local mem
    base_addr, accelsim tracer version, enable lineinfo; unknown keys are ignored);
  * .traceg layout: "#BEGIN_TB", "thread block = x,y,z", "warp = w", "insts = n", instruction
    lines, "#END_TB"; tracer versions 3..5 have no per-line ids, older traces (no version line)
    start every instruction line with "tb_x tb_y tb_z warp";
  * raw .trace layout (before post-processing): every line starts with "tb_x tb_y tb_z warp"
    (optionally followed by "sm_id warp_sm" when traced with TOOL_TRACE_CORE=1);
  * instruction: [line_num] PC mask dest_num [R..] opcode src_num [R..] mem_width
    [mode addresses] [immediate (tracer version >= 5)];
    mode 0: one hex address per active lane; mode 1: base stride (contiguous active lanes,
    lane first+k = base + k*stride); mode 2: base then popcount(mask)-1 decimal deltas, each
    relative to the previous active lane (Accel-Sim's own parser reads popcount deltas: one too
    many).

Warp exit records: a .traceg thread block's warps are held until the block ends, so each warp's
exit follows its last memory record; raw .trace records are written in file order, so their
warps' exits are written at the end of the kernel.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from import_common import (OP_ATOMIC, OP_READ, OP_WRITE, TraceInputError,  # noqa: E402
                           open_text, write_trace)
import trace_ctypes  # noqa: E402  (on the path import_common set up)

MASK64 = (1 << 64) - 1

# Global-memory opcodes (first dot-separated token of the SASS opcode) -> access type.
GLOBAL_OPS = {
    "LDG": OP_READ, "LDGSTS": OP_READ,  # LDGSTS: global -> shared copy, reads global memory
    "STG": OP_WRITE,
    "ATOMG": OP_ATOMIC, "REDG": OP_ATOMIC, "RED": OP_ATOMIC,
}
# Generic-address opcodes: global unless the lane address lies in the shared/local window.
GENERIC_OPS = {"LD": OP_READ, "ST": OP_WRITE, "ATOM": OP_ATOMIC}
# Windows of generic addresses that are not global memory (from the kernel header).
WINDOW = 32 << 20

HEX_RE = re.compile(r"^(0[xX])?[0-9a-fA-F]+$")
DEC_RE = re.compile(r"^[+-]?[0-9]+$")
DIM_RE = re.compile(r"^\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$")


MAX_RANGE_GRANULES = 1 << 20  # one MemcpyHtoD: 2 TB at the default 2 MB granule


class Kernel:
    def __init__(self, path):
        self.path = path
        self.name = None
        self.grid = (1, 1, 1)
        self.block = (1, 1, 1)
        self.version = 0
        self.lineinfo = 0
        self.shmem_base = None
        self.local_base = None


def parse_hex(tok, path, line, field, name):
    if not HEX_RE.match(tok):
        raise TraceInputError(path, line, "'%s' is not a hex number" % tok, field, name)
    v = int(tok, 16)
    if v > MASK64:
        raise TraceInputError(path, line, "'%s' is out of range" % tok, field, name)
    return v


def parse_dec(tok, path, line, field, name, lo=None, hi=None):
    if not DEC_RE.match(tok):
        raise TraceInputError(path, line, "'%s' is not a decimal number" % tok, field, name)
    v = int(tok)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise TraceInputError(path, line, "%d is out of range [%s, %s]" % (v, lo, hi), field,
                              name)
    return v


class Importer:
    def __init__(self, writer, allocs, window=8, quiet=False):
        self.w = writer
        self.allocs = allocs
        self.window = max(1, window)
        self.quiet = quiet
        self.stats = {"kernels": 0, "insts": 0, "mem": 0, "dropped_nonglobal": 0}

    # ---------------------------------------------------------------- kernels list
    def run_list(self, list_path, only=None):
        base = os.path.dirname(list_path)
        kid = 0
        with open_text(list_path) as f:
            for ln, raw in enumerate(f, 1):
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                if line.startswith("Memcpy"):
                    parts = [p.strip() for p in line.split(",")]
                    if len(parts) != 3:
                        raise TraceInputError(list_path, ln, "expected 'MemcpyXtoY,addr,bytes', "
                                              "got %d fields" % len(parts))
                    addr = parse_hex(parts[1], list_path, ln, 2, "address")
                    size = parse_dec(parts[2], list_path, ln, 3, "bytes", 0)
                    if parts[0] == "MemcpyHtoD":
                        self.check_range(addr, size, list_path, ln)
                        self.allocs.touch_range(addr, size)
                    elif parts[0] != "MemcpyDtoH":
                        raise TraceInputError(list_path, ln, "unknown command '%s'" % parts[0],
                                              1, "command")
                    continue
                if " " in line or "," in line:
                    raise TraceInputError(list_path, ln, "unknown command '%s'" % line, 1,
                                          "command")
                kid += 1
                if only is not None and kid not in only:
                    continue
                kpath = os.path.join(base, line)
                if not os.path.exists(kpath):
                    raise TraceInputError(list_path, ln, "kernel file %s not found" % kpath)
                self.run_kernel(kpath)
        if kid == 0:
            raise TraceInputError(list_path, None, "no kernel listed")

    def check_range(self, addr, size, path, ln):
        """A MemcpyHtoD range must lie in the GPU's virtual address space (the trace library's
        rule) and cover at most MAX_RANGE_GRANULES allocation granules (memory and time of the
        allocation map stay bounded)."""
        if addr + size > trace_ctypes.VA_LIMIT:
            raise TraceInputError(path, ln, "MemcpyHtoD [0x%x, +%d) is outside the %d-bit "
                                  "virtual address space" % (addr, size, trace_ctypes.VA_BITS),
                                  3, "bytes")
        n = (size >> self.allocs.shift) + 1
        if n > MAX_RANGE_GRANULES:
            raise TraceInputError(path, ln, "MemcpyHtoD of %d bytes covers %d granules of %d "
                                  "bytes (at most %d: a larger --granule maps it)"
                                  % (size, n, 1 << self.allocs.shift, MAX_RANGE_GRANULES),
                                  3, "bytes")

    # ---------------------------------------------------------------- one kernel file
    def run_kernel(self, path):
        k = Kernel(path)
        self.stats["kernels"] += 1
        started = False
        raw_layout = None  # True: every line carries tb ids (raw .trace / version < 3)
        tb = None          # current thread block (x, y, z) in the .traceg layout
        warp = None
        insts_expected = None
        insts_seen = 0
        id_skip = None     # 4 or 6 leading id tokens (raw layout)
        pending = []       # finished TBs: list of per-warp record lists
        tb_warps = {}      # warp -> list of records of the current TB
        gaps = {}          # (cta, warp) -> instructions since the last global access
        seen_tbs = set()   # thread blocks with a section in this kernel (each appears once)
        streamed = {}      # (cta, warp) written in file order (raw .trace), first-seen order
        line_no = 0

        def flush(force):
            while pending and (force or len(pending) >= self.window):
                group = pending[: self.window]
                del pending[: self.window]
                queues = [q for tbw in group for _, q in sorted(tbw.items())]
                idx = [0] * len(queues)
                left = sum(len(q) for q in queues)
                while left:
                    for qi, q in enumerate(queues):
                        if idx[qi] < len(q):
                            self.w.mem(*q[idx[qi]])
                            idx[qi] += 1
                            left -= 1
                            # a finished TB's warp is complete: its exit follows its last record
                            # (a warp also written in file order exits at the kernel's end)
                            if idx[qi] == len(q) and q[-1][:2] not in streamed:
                                self.w.exit(*q[-1][:2])

        def end_warp():
            if warp is not None and insts_expected is not None and insts_seen != insts_expected:
                raise TraceInputError(path, line_no, "warp %d of thread block %s: 'insts = %d' "
                                      "but %d instruction lines" % (warp, tb, insts_expected,
                                                                    insts_seen))

        def end_tb():
            nonlocal tb_warps
            if tb_warps:
                pending.append(tb_warps)
                tb_warps = {}
                flush(False)

        def start_kernel():
            nonlocal started
            if not started:
                started = True
                self.w.kernel(k.name or os.path.basename(path).split(".")[0])

        with open_text(path) as f:
            for line_no, raw in enumerate(f, 1):
                line = raw.strip()
                if not line:
                    continue
                if line[0] == "-":
                    if started:
                        raise TraceInputError(path, line_no, "header line after instructions")
                    key, sep, val = line[1:].partition("=")
                    if not sep:
                        raise TraceInputError(path, line_no, "header line without '='")
                    self.header(k, key.strip(), val.strip(), line_no)
                    continue
                if line[0] == "#":
                    if line.startswith("#END_TB"):
                        end_warp()
                        end_tb()
                        warp, insts_expected, insts_seen = None, None, 0
                    elif line.startswith("#BEGIN_TB"):
                        end_warp()
                        end_tb()
                        warp, insts_expected, insts_seen = None, None, 0
                    continue
                if line.startswith("thread block"):
                    end_warp()
                    end_tb()
                    _, _, val = line.partition("=")
                    parts = val.split(",")
                    if len(parts) != 3:
                        raise TraceInputError(path, line_no, "expected 'thread block = x,y,z'")
                    tb = tuple(parse_dec(p.strip(), path, line_no, i + 1, "xyz"[i], 0)
                               for i, p in enumerate(parts))
                    if tb in seen_tbs:  # its warps' exits have been written already
                        raise TraceInputError(path, line_no, "thread block %s appears twice in "
                                              "the kernel" % (tb,))
                    seen_tbs.add(tb)
                    warp, insts_expected, insts_seen = None, None, 0
                    if raw_layout is None:
                        raw_layout = k.version < 3
                    continue
                if line.startswith("warp"):
                    end_warp()
                    _, _, val = line.partition("=")
                    warp = parse_dec(val.strip(), path, line_no, 3, "warp", 0)
                    insts_expected, insts_seen = None, 0
                    continue
                if line.startswith("insts"):
                    _, _, val = line.partition("=")
                    insts_expected = parse_dec(val.strip(), path, line_no, 3, "insts", 0)
                    continue
                # instruction line
                start_kernel()
                tok = line.split()
                if raw_layout is None:  # no "thread block" line: raw .trace layout
                    raw_layout = True
                pos = 0
                if raw_layout:
                    if id_skip is None:
                        id_skip = self.detect_ids(tok, k, path, line_no)
                    if len(tok) < id_skip:
                        raise TraceInputError(path, line_no, "missing thread block / warp ids")
                    ids = [parse_dec(tok[i], path, line_no, i + 1, name, 0)
                           for i, name in enumerate(("tb_x", "tb_y", "tb_z", "warp"))]
                    if tb is not None and tuple(ids[:3]) != tb:
                        raise TraceInputError(path, line_no, "thread block ids %s differ from "
                                              "the enclosing 'thread block = %s'" %
                                              (tuple(ids[:3]), tb), 1, "tb_x")
                    if warp is not None and ids[3] != warp:
                        raise TraceInputError(path, line_no, "warp id %d differs from the "
                                              "enclosing 'warp = %d'" % (ids[3], warp), 4,
                                              "warp")
                    ltb, lwarp = tuple(ids[:3]), ids[3]
                    pos = id_skip
                else:
                    if tb is None or warp is None:
                        raise TraceInputError(path, line_no, "instruction outside a thread block"
                                              " / warp section")
                    ltb, lwarp = tb, warp
                insts_seen += 1
                self.stats["insts"] += 1
                gx, gy, gz = k.grid
                if ltb[0] >= gx or ltb[1] >= gy or ltb[2] >= gz:
                    raise TraceInputError(path, line_no, "thread block %s outside grid %s" %
                                          (ltb, k.grid))
                cta = ltb[0] + gx * (ltb[1] + gy * ltb[2])
                key = (cta, lwarp)
                rec = self.parse_inst(tok, pos, k, path, line_no)
                if rec is None:
                    gaps[key] = gaps.get(key, 0) + 1
                    continue
                op, mask, addrs = rec
                gap = gaps.get(key, 0)
                gaps[key] = 0
                self.stats["mem"] += 1
                for a in addrs:
                    self.allocs.touch(a, op != OP_READ)
                r = (cta, lwarp, op, min(gap, 0xffffffff), mask, addrs)
                if raw_layout and tb is None:
                    self.w.mem(*r)  # raw .trace: already in execution order
                    streamed.setdefault(key, None)
                else:
                    tb_warps.setdefault(lwarp, []).append(r)
        end_warp()
        end_tb()
        flush(True)
        if not started:  # kernel without instructions still marks a launch
            start_kernel()
        # records written in file order: a warp's last one is known only at the kernel's end
        for cta, w in streamed:
            self.w.exit(cta, w)

    def header(self, k, key, val, line_no):
        p = k.path
        if key == "kernel name":
            k.name = val
        elif key in ("grid dim", "block dim"):
            m = DIM_RE.match(val)
            if not m:
                raise TraceInputError(p, line_no, "'%s' is not (x,y,z)" % val, 2, key)
            dims = tuple(int(x) for x in m.groups())
            if min(dims) < 1:
                raise TraceInputError(p, line_no, "dimension 0 in %s" % val, 2, key)
            if key == "grid dim":
                k.grid = dims
            else:
                k.block = dims
        elif key == "accelsim tracer version":
            k.version = parse_dec(val, p, line_no, 2, key, 0)
            if k.version > 5:
                raise TraceInputError(p, line_no, "tracer version %d not supported (3..5)" %
                                      k.version, 2, key)
        elif key == "enable lineinfo":
            k.lineinfo = parse_dec(val, p, line_no, 2, key, 0, 1)
        elif key == "shmem base_addr":
            k.shmem_base = parse_hex(val, p, line_no, 2, key)
        elif key == "local mem base_addr":
            k.local_base = parse_hex(val, p, line_no, 2, key)
        # other keys (kernel id, shmem, nregs, binary version, cuda stream id, nvbit version,
        # cluster dim, ...) do not affect the memory trace

    def detect_ids(self, tok, k, path, line_no):
        """Raw layout: 4 ids (tb x y z, warp), or 6 with TOOL_TRACE_CORE (sm id, warp in sm).
        Decided once per file from the first instruction line: the mask is 8 hex digits."""
        li = k.lineinfo
        for skip in (4, 6):
            i = skip + li
            if len(tok) > i + 2 and re.match(r"^[0-9a-fA-F]{8}$", tok[i + 1]) and \
                    DEC_RE.match(tok[i + 2]) and HEX_RE.match(tok[i]):
                return skip
        raise TraceInputError(path, line_no, "cannot locate PC and mask after the thread "
                              "block / warp ids")

    def parse_inst(self, tok, pos, k, path, ln):
        """Returns None for an instruction that is not a global memory access, else
        (op, mask, addrs of active lanes)."""
        n = len(tok)

        def need(i, name):
            if i >= n:
                raise TraceInputError(path, ln, "missing", i + 1, name)
            return tok[i]

        if k.lineinfo:
            parse_dec(need(pos, "line_num"), path, ln, pos + 1, "line_num", 0)
            pos += 1
        parse_hex(need(pos, "pc"), path, ln, pos + 1, "pc")
        mask = parse_hex(need(pos + 1, "mask"), path, ln, pos + 2, "mask")
        if mask > 0xffffffff:
            raise TraceInputError(path, ln, "'%s' is wider than 32 lanes" % tok[pos + 1],
                                  pos + 2, "mask")
        pos += 2
        ndst = parse_dec(need(pos, "dest_num"), path, ln, pos + 1, "dest_num", 0, 8)
        pos += 1 + ndst
        opcode = need(pos, "opcode")
        pos += 1
        nsrc = parse_dec(need(pos, "src_num"), path, ln, pos + 1, "src_num", 0, 8)
        pos += 1 + nsrc
        width = parse_dec(need(pos, "mem_width"), path, ln, pos + 1, "mem_width", 0)
        pos += 1
        addrs = None
        if width > 0:
            mode = parse_dec(need(pos, "address_mode"), path, ln, pos + 1, "address_mode")
            pos += 1
            lanes = [i for i in range(32) if mask >> i & 1]
            if mode == 0:
                addrs = [parse_hex(need(pos + j, "address"), path, ln, pos + j + 1, "address")
                         for j in range(len(lanes))]
                pos += len(lanes)
            elif mode == 1:
                base = parse_hex(need(pos, "base"), path, ln, pos + 1, "base")
                stride = parse_dec(need(pos + 1, "stride"), path, ln, pos + 2, "stride",
                                   -(1 << 31), (1 << 31) - 1)
                pos += 2
                if lanes and lanes != list(range(lanes[0], lanes[-1] + 1)):
                    raise TraceInputError(path, ln, "mode 1 (base+stride) with non-contiguous "
                                          "mask 0x%08x" % mask, pos - 1, "base")
                addrs = [(base + j * stride) & MASK64 for j in range(len(lanes))]
            elif mode == 2:
                base = parse_hex(need(pos, "base"), path, ln, pos + 1, "base")
                pos += 1
                addrs = [base] if lanes else []
                for j in range(max(len(lanes) - 1, 0)):
                    d = parse_dec(need(pos, "delta"), path, ln, pos + 1, "delta")
                    addrs.append((addrs[-1] + d) & MASK64)
                    pos += 1
            else:
                raise TraceInputError(path, ln, "address mode %d is not 0, 1 or 2" % mode,
                                      pos, "address_mode")
        extra = n - pos
        allowed = 1 if k.version >= 5 else 0
        if extra > allowed:
            what = ("%d unexpected fields (mode 2 lists popcount-1 deltas)" % extra
                    if width > 0 and extra else "unexpected field '%s'" % tok[pos])
            raise TraceInputError(path, ln, what, pos + 1, "end")
        if extra == 1:
            parse_dec(tok[pos], path, ln, pos + 1, "immediate")
        if width == 0 or not mask:
            return None
        opb = opcode.split(".")[0]
        op = GLOBAL_OPS.get(opb)
        if op is None:
            op = GENERIC_OPS.get(opb)
            if op is None:
                if width > 0:
                    self.stats["dropped_nonglobal"] += 1
                return None
            # generic: keep the lanes outside the shared / local windows
            keep_mask, keep = 0, []
            lanes = [i for i in range(32) if mask >> i & 1]
            for lane, a in zip(lanes, addrs):
                if not self.in_window(k, a):
                    keep_mask |= 1 << lane
                    keep.append(a)
            if not keep_mask:
                self.stats["dropped_nonglobal"] += 1
                return None
            mask, addrs = keep_mask, keep
        return op, mask, addrs

    @staticmethod
    def in_window(k, a):
        for b in (k.shmem_base, k.local_base):
            if b is not None and b <= a < b + WINDOW:
                return True
        return False


def find_list(inp):
    if os.path.isdir(inp):
        for name in ("kernelslist.g", "kernelslist"):
            p = os.path.join(inp, name)
            if os.path.exists(p):
                return p, True
        raise TraceInputError(inp, None, "no kernelslist.g or kernelslist in directory")
    base = os.path.basename(inp)
    if base.startswith("kernelslist"):
        return inp, True
    return inp, False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("-o", "--output", required=True)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--text", dest="binary", action="store_false", default=None)
    g.add_argument("--binary", dest="binary", action="store_true")
    ap.add_argument("--granule", type=int, default=2 << 20,
                    help="allocation granule in bytes (power of two, default 2 MB)")
    ap.add_argument("--window", type=int, default=8,
                    help="thread blocks interleaved round-robin in the output (default 8)")
    ap.add_argument("--kernels", help="comma-separated 1-based positions in the kernels list")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    def fill(w, allocs):
        only = {int(x) for x in a.kernels.split(",")} if a.kernels else None
        imp = Importer(w, allocs, a.window, a.quiet)
        path, is_list = find_list(a.input)
        if is_list:
            imp.run_list(path, only)
        else:
            imp.run_kernel(path)
        return imp

    done = write_trace("import_accelsim", a, fill)
    if done is None:
        return 1
    w, imp = done
    if not a.quiet:
        s = imp.stats
        print("import_accelsim: %d kernels, %d instructions, %d global memory instructions, "
              "%d non-global memory instructions dropped, %d allocations -> %s" %
              (s["kernels"], s["insts"], s["mem"], s["dropped_nonglobal"],
               len(w.allocs), a.output), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
