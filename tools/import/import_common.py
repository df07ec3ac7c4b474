"""import_common.py - shared parts of the trace importers (import_accelsim.py, import_nvbit.py).

Python 3 standard library only. Writes the project's trace format (docs/trace-format.md) in text
or binary, byte-identical to what tools/trace/trace.c writes for the same records, and derives the
allocation records from the touched addresses (see AllocationMap).
"""

import io
import lzma
import os
import shutil
import struct
import sys
import tempfile

LANES = 32
NAME_MAX = 63
OP_READ, OP_WRITE, OP_ATOMIC = 0, 1, 2
OP_LETTER = "RWA"
MASK64 = (1 << 64) - 1


class TraceInputError(Exception):
    """A malformed input: str() is 'file:line: [field N (name): ]reason'."""

    def __init__(self, path, line, reason, field=None, name=None):
        self.path, self.line, self.reason = path, line, reason
        where = "%s:%s" % (path, line) if line is not None else str(path)
        if field is not None:
            reason = "field %d (%s): %s" % (field, name, reason)
        super().__init__("%s: %s" % (where, reason))


def open_text(path):
    """Opens a text input, transparently decompressing .xz (by name or magic). '-' = stdin."""
    if path == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="ascii", errors="replace", newline="")
    with open(path, "rb") as f:
        magic = f.read(6)
    if path.endswith(".xz") or magic == b"\xfd7zXZ\x00":
        return io.TextIOWrapper(lzma.open(path, "rb"), encoding="ascii", errors="replace",
                                newline="")
    return open(path, "r", encoding="ascii", errors="replace", newline="")


def sanitize_name(name, fallback="kernel"):
    """Trace names: 1..63 printable characters without blanks or '#'."""
    out = "".join(c if (" " < c < "\x7f" and c != "#") else "_" for c in name)
    return (out or fallback)[:NAME_MAX]


def find_stride(mask, addrs):
    """Same rule as tools/trace/trace.c: >= 3 active lanes whose addresses are base + lane*stride.
    addrs: addresses of the active lanes in lane order. Returns (base, stride) or None."""
    lanes = [i for i in range(LANES) if mask >> i & 1]
    if len(lanes) < 3:
        return None
    f, s = lanes[0], lanes[1]
    d = (addrs[1] - addrs[0]) & MASK64
    if d >= 1 << 63:
        d -= 1 << 64
    span = s - f
    if d % span != 0:
        return None
    stride = d // span
    base = (addrs[0] - f * stride) & MASK64
    for lane, a in zip(lanes[2:], addrs[2:]):
        if (base + lane * stride) & MASK64 != a:
            return None
    return base, stride


def _exact_div(a, b, span):
    d = (a - b) & MASK64
    if d >= 1 << 63:
        d -= 1 << 64
    if d % span != 0:  # span > 0: Python and C agree on whether the remainder is 0
        return None
    q = abs(d) // span
    return q if d >= 0 else -q


def find_tile(mask, addrs):
    """Same rule as tools/trace/trace.c trace_find_tile: >= 4 active lanes with
    addr[i] = base + (i % g)*stride + (i // g)*stride2, g in 16, 8, 4, 2 (first that fits).
    Returns (base, stride, g, stride2) or None."""
    lanes = [i for i in range(LANES) if mask >> i & 1]
    if len(lanes) < 4:
        return None
    a = dict(zip(lanes, addrs))
    f = lanes[0]
    for g in (16, 8, 4, 2):
        i = j = None
        for lane in lanes:
            if i is not None and lane // g == i // g:
                j = lane
                break
            i = lane
        k = next((lane for lane in lanes if lane // g != f // g), None)
        if j is None or k is None:
            continue
        s1 = _exact_div(a[j], a[i], j - i)
        if s1 is None:
            continue
        ok = (a[k] - (k % g) * s1) & MASK64
        of = (a[f] - (f % g) * s1) & MASK64
        s2 = _exact_div(ok, of, k // g - f // g)
        if s2 is None:
            continue
        base = (of - (f // g) * s2) & MASK64
        if all((base + (lane % g) * s1 + (lane // g) * s2) & MASK64 == a[lane] for lane in lanes):
            return base, s1, g, s2
    return None


class TraceWriter:
    """Streams kernel, memory and warp exit records into a temporary body; allocations may be
    added at any time before close(), which writes header, allocations (in the order added), then
    the body. path '-' = stdout; a path ending in .xz is xz-compressed. The caller keeps the exit
    rules of docs/trace-format.md (at most one exit per warp and kernel, none before the first
    kernel, no memory record of the warp after it)."""

    def __init__(self, path, binary):
        self.path, self.binary = path, binary
        self.allocs = []
        self.body = tempfile.TemporaryFile()
        self.buf = []
        self.records = 0

    def add_alloc(self, name, base, size, readonly=False):
        self.allocs.append((sanitize_name(name, "alloc"), base, size, readonly))

    def _put(self, data):
        self.buf.append(data)
        if len(self.buf) >= 4096:
            self.body.write(b"".join(self.buf))
            self.buf = []

    def _alloc_bytes(self, name, base, size, ro):
        if self.binary:
            n = name.encode()
            return struct.pack("<BBQQB", 1, 1 if ro else 0, base, size, len(n)) + n
        return ("alloc %s 0x%x 0x%x%s\n" % (name, base, size, " ro" if ro else "")).encode()

    def kernel(self, name):
        name = sanitize_name(name)
        self.records += 1
        if self.binary:
            n = name.encode()
            self._put(struct.pack("<BB", 2, len(n)) + n)
        else:
            self._put(("kernel %s\n" % name).encode())

    def mem(self, cta, warp, op, gap, mask, addrs):
        """addrs: addresses of the active lanes of mask, in lane order."""
        assert mask and len(addrs) == bin(mask).count("1")
        self.records += 1
        st = find_stride(mask, addrs)
        tl = None if st else find_tile(mask, addrs)
        if self.binary:
            if st:
                self._put(struct.pack("<BIIBIIQq", 4, cta, warp, op, gap, mask, st[0], st[1]))
            elif tl:
                self._put(struct.pack("<BIIBIIQqBq", 5, cta, warp, op, gap, mask, *tl))
            else:
                self._put(struct.pack("<BIIBII%dQ" % len(addrs), 3, cta, warp, op, gap, mask,
                                      *addrs))
        elif st:
            self._put(("s %u %u %s %u 0x%x 0x%x %d\n" % (cta, warp, OP_LETTER[op], gap, mask,
                                                          st[0], st[1])).encode())
        elif tl:
            self._put(("t %u %u %s %u 0x%x 0x%x %d %d %d\n" % (cta, warp, OP_LETTER[op], gap,
                                                                mask, *tl)).encode())
        else:
            self._put(("m %u %u %s %u 0x%x %s\n" % (cta, warp, OP_LETTER[op], gap, mask,
                                                    " ".join("0x%x" % a for a in addrs))).encode())

    def exit(self, cta, warp):
        """Warp exit record: warp (cta, warp) has no further memory record in this kernel."""
        self.records += 1
        if self.binary:
            self._put(struct.pack("<BII", 6, cta, warp))
        else:
            self._put(("x %u %u\n" % (cta, warp)).encode())

    def abort(self):
        """Drops everything (after an input error); no output file is written."""
        self.body.close()

    def close(self):
        if self.buf:
            self.body.write(b"".join(self.buf))
            self.buf = []
        self.body.seek(0)
        if self.path == "-":
            out = sys.stdout.buffer
        elif self.path.endswith(".xz"):
            out = lzma.open(self.path, "wb", preset=1)
        else:
            out = open(self.path, "wb")
        try:
            if self.binary:
                out.write(b"GMTB" + struct.pack("<I", 1))
            for a in self.allocs:
                out.write(self._alloc_bytes(*a))
            shutil.copyfileobj(self.body, out, 1 << 20)
            if self.binary:
                out.write(b"\xff")
        finally:
            if out is sys.stdout.buffer:
                out.flush()
            else:
                out.close()
            self.body.close()


class AllocationMap:
    """Derives allocation records from what the trace touches (real traces do not list the
    cudaMallocManaged calls). Rule (docs/workloads.md, "Importing real traces"):
      * every touched address and every MemcpyHtoD range marks the granule(s) it falls in
        (granule = 2 MB by default, aligned);
      * each maximal run of consecutive marked granules becomes one allocation, in ascending
        address order, named seg0, seg1, ...;
      * an allocation is read-only ('ro') when no write or atomic touched it.
    """

    def __init__(self, granule=2 << 20):
        if granule <= 0 or granule & (granule - 1):
            raise ValueError("granule must be a power of two")
        self.shift = granule.bit_length() - 1
        self.granules = {}  # granule index -> written?

    def touch(self, addr, write):
        g = addr >> self.shift
        if write:
            self.granules[g] = True
        elif g not in self.granules:
            self.granules[g] = False

    def touch_range(self, base, size):
        for g in range(base >> self.shift, ((base + max(size, 1) - 1) >> self.shift) + 1):
            self.granules.setdefault(g, False)

    def allocations(self):
        out = []
        run = None
        for g in sorted(self.granules):
            w = self.granules[g]
            if run and g == run[1]:
                run[1] = g + 1
                run[2] = run[2] or w
            else:
                if run:
                    out.append(run)
                run = [g, g + 1, w]
        if run:
            out.append(run)
        return [("seg%d" % i, lo << self.shift, (hi - lo) << self.shift, not w)
                for i, (lo, hi, w) in enumerate(out)]


def output_is_binary(path, force):
    """--binary / --text win; otherwise text when OUT ends in .txt(.xz) or is stdout."""
    if force is not None:
        return force
    return not (path == "-" or path.endswith(".txt") or path.endswith(".txt.xz"))


def check_output_dir(path):
    d = os.path.dirname(os.path.abspath(path)) if path != "-" else "."
    if not os.path.isdir(d):
        raise TraceInputError(path, None, "output directory %s does not exist" % d)
