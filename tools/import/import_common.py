"""import_common.py - shared parts of the trace importers (import_accelsim.py, import_nvbit.py).

Python 3 standard library. Writes the project's trace format (docs/trace-format.md) in text
or binary through the C trace library (tools/trace/trace_ctypes.py, build/lib/libgmmu_trace.so),
and derives the allocation records from the touched addresses (see AllocationMap).
"""

import io
import lzma
import os
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "trace"))
import trace_ctypes  # noqa: E402

TraceLibError = trace_ctypes.TraceLibError

NAME_MAX = 63
OP_READ, OP_WRITE, OP_ATOMIC = 0, 1, 2


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


class TraceWriter:
    """Streams kernel, memory and warp exit records into a temporary body; allocations may be
    added at any time before close(), which writes allocations (in the order added), then the
    body. Every record is encoded by the C trace library (tools/trace/trace_ctypes.py): the body
    goes to a temporary binary trace, close() copies it after the allocations into the output in
    the requested encoding. path '-' = stdout; a path ending in .xz is xz-compressed. The caller
    keeps the exit rules of docs/trace-format.md (at most one exit per warp and kernel, none
    before the first kernel, no memory record of the warp after it)."""

    def __init__(self, path, binary):
        self.path, self.binary = path, binary
        self.allocs = []
        self.records = 0
        fd, self.body_path = tempfile.mkstemp(prefix="gmmu-import.", suffix=".trc")
        os.close(fd)
        try:
            self.body = trace_ctypes.Writer(self.body_path, True)
        except trace_ctypes.TraceLibError:
            os.unlink(self.body_path)
            raise

    def add_alloc(self, name, base, size, readonly=False):
        self.allocs.append((sanitize_name(name, "alloc"), base, size, readonly))

    def host_call(self, kind, *args):
        """A host call (docs/trace-format.md "Host calls") in record order: kind 'advise',
        'prefetch', 'free' or 'cpu' with the arguments of trace_ctypes.Writer's method of that
        name (no importer's source has these calls yet; for one that does)."""
        if kind not in ("advise", "prefetch", "free", "cpu"):
            raise TraceLibError("unknown host call %r" % (kind,))
        self.records += 1
        try:
            getattr(self.body, kind)(*args)
        except TraceLibError as e:
            raise self._body_error(e) from None

    def _body_error(self, e):
        """The library names the temporary body; the user knows the output path."""
        return TraceLibError(str(e).replace(self.body_path, self.path))

    def kernel(self, name):
        self.records += 1
        try:
            self.body.kernel(sanitize_name(name))
        except TraceLibError as e:
            raise self._body_error(e) from None

    def mem(self, cta, warp, op, gap, mask, addrs):
        """addrs: addresses of the active lanes of mask, in lane order."""
        self.records += 1
        try:
            self.body.mem(cta, warp, op, gap, mask, addrs)
        except TraceLibError as e:
            raise self._body_error(e) from None

    def exit(self, cta, warp):
        """Warp exit record: warp (cta, warp) has no further memory record in this kernel."""
        self.records += 1
        try:
            self.body.exit(cta, warp)
        except TraceLibError as e:
            raise self._body_error(e) from None

    def abort(self):
        """Drops everything (after an input error); no output file is written. May follow a
        failed close() (which has removed the body already)."""
        try:
            self.body.finish()
        except TraceLibError:
            pass  # the error that made the caller abort is the one reported
        finally:
            if os.path.exists(self.body_path):
                os.unlink(self.body_path)

    def close(self):
        """Writes the output (output_target: a regular file through a temporary file renamed
        over it, anything else in place); on an error no output file is left behind, and
        nothing the importer did not create is removed."""
        tmp, target = output_target(self.path)
        wpath = tmp or self.path
        created = False
        try:
            self.body.finish()
            if self.path == "-":
                sys.stdout.flush()
            out = trace_ctypes.Writer(wpath, self.binary)
            created = tmp is not None
            try:
                for a in self.allocs:
                    out.alloc(*a)
                out.copy_from(self.body_path)
            finally:
                out.finish()
            if tmp is not None:
                os.replace(tmp, target)
                created = False
        except (TraceLibError, OSError) as e:
            if created and os.path.lexists(tmp):
                os.unlink(tmp)
            msg = str(e).replace(tmp, self.path) if tmp else str(e)
            raise TraceLibError(msg.replace(self.body_path, self.path)) from None
        finally:
            if os.path.exists(self.body_path):
                os.unlink(self.body_path)


def output_target(path):
    """Where an output goes (the rule of tools/trace/trace_out.h, issue 26): (tmp, target) for a
    regular file or a new name (write tmp beside it, then rename it over target; a symbolic link
    is followed on purpose: tmp goes beside the link's target, the link stays), (None, None) for
    '-', a device node, a FIFO, a socket or a dangling link: written in place, never removed."""
    if path == "-":
        return None, None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return None, None  # dangling: written through, creating its target
        target = path
    except OSError:
        target = path  # the writer reports the error
    else:
        if not stat.S_ISREG(st.st_mode):
            return None, None
        target = os.path.realpath(path) if os.path.islink(path) else path
    return "%s.tmp%d%s" % (target, os.getpid(), ".xz" if path.endswith(".xz") else ""), target


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


def write_trace(tool, a, fill):
    """The frame every importer shares: checks the output folder, opens the writer (text or
    binary from a.output and a.binary) and an AllocationMap of a.granule, calls fill(w, allocs),
    which reads the input and writes the kernels and returns the importer, then writes the
    allocations and closes the trace. An error is printed as '<tool>: message' and leaves no
    output behind. Returns (writer, importer), or None after an error."""
    w = None
    try:
        check_output_dir(a.output)
        w = TraceWriter(a.output, output_is_binary(a.output, a.binary))
        allocs = AllocationMap(a.granule)
        imp = fill(w, allocs)
        for name, base, size, ro in allocs.allocations():
            w.add_alloc(name, base, size, ro)
        w.close()
    except (TraceInputError, trace_ctypes.TraceLibError, OSError, ValueError) as e:
        if w is not None:
            w.abort()
        print("%s: %s" % (tool, e), file=sys.stderr)
        return None
    except (lzma.LZMAError, EOFError) as e:  # a corrupt or truncated .xz input
        if w is not None:
            w.abort()
        print("%s: %s: corrupt or truncated .xz input: %s" % (tool, a.input, e), file=sys.stderr)
        return None
    return w, imp
