"""trace_ctypes.py - Python binding of the trace library's writer (tools/trace/trace_write.c).

The Python tools (the importers in tools/import/) write traces through the C library, loaded with
ctypes from build/lib/libgmmu_trace.so (`make trace-lib`; env GMMU_TRACE_LIB overrides the path),
so the encodings and the encoding choice of docs/trace-format.md have one implementation.
Python 3 standard library only.
"""

import ctypes
import functools
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_LIB = os.path.join(ROOT, "build", "lib", "libgmmu_trace.so")
ERR_LEN = 512
VA_BITS = 48  # TRACE_VA_BITS of trace.h: the library refuses records outside it
VA_LIMIT = 1 << VA_BITS


class TraceLibError(Exception):
    """An error reported by the trace library (str() is its message: 'path: ...: reason')."""


def lib_path():
    return os.environ.get("GMMU_TRACE_LIB", DEFAULT_LIB)


def load():
    """The shared library (loaded once per path); TraceLibError when it is missing."""
    return _load(lib_path())


@functools.lru_cache(maxsize=None)
def _load(path):
    if not os.path.exists(path):
        raise TraceLibError("%s: trace library not found (build it with `make trace-lib`, or set "
                            "GMMU_TRACE_LIB)" % path)
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise TraceLibError("%s: cannot load: %s" % (path, e)) from None
    vp, cp, u32, u64, i, sz = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint64,
                               ctypes.c_int, ctypes.c_size_t)
    sigs = {
        "trace_create": (vp, [cp, i, cp, sz]),
        "trace_finish": (i, [vp, cp, sz]),
        "trace_open": (vp, [cp, cp, sz]),
        "trace_close": (None, [vp]),
        "trace_copy": (i, [vp, vp, cp, sz]),
        "trace_write_alloc": (i, [vp, cp, u64, u64, i, cp, sz]),
        "trace_write_kernel": (i, [vp, cp, cp, sz]),
        "trace_write_mem": (i, [vp, u32, u32, i, u32, u32, ctypes.POINTER(u64), cp, sz]),
        "trace_write_exit": (i, [vp, u32, u32, cp, sz]),
        "trace_write_space": (i, [vp, u32, cp, sz]),
        "trace_write_advise": (i, [vp, u64, u64, u32, cp, sz]),
        "trace_write_prefetch": (i, [vp, u64, u64, u32, cp, sz]),
        "trace_write_free": (i, [vp, cp, cp, sz]),
        "trace_write_cpu": (i, [vp, u64, u64, i, cp, sz]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def _field(name, v, bits):
    """A record field checked against its width in the format (the C side would truncate it
    silently, or ctypes raise an ArgumentError): TraceLibError naming the field."""
    if not isinstance(v, int) or v < 0 or v >> bits:
        raise TraceLibError("%s %r does not fit the format's %d-bit field" % (name, v, bits))
    return v


def _path_arg(path):
    return os.fsencode(path)


class Writer:
    """One trace_writer_t: records are written in call order. path '-' = stdout, *.xz is
    compressed (xz -c). Methods raise TraceLibError with the library's message."""

    def __init__(self, path, binary):
        self._lib = load()
        self._err = ctypes.create_string_buffer(ERR_LEN)
        self._w = self._lib.trace_create(_path_arg(path), 1 if binary else 0, self._err, ERR_LEN)
        if not self._w:
            raise TraceLibError(self._err.value.decode(errors="replace"))
        self._addrs = (ctypes.c_uint64 * 32)()

    def _check(self, rc):
        if rc != 0:
            raise TraceLibError(self._err.value.decode(errors="replace"))

    def alloc(self, name, base, size, readonly=False):
        base, size = _field("allocation base", base, 64), _field("allocation size", size, 64)
        self._check(self._lib.trace_write_alloc(self._w, name.encode(), base, size,
                                                1 if readonly else 0, self._err, ERR_LEN))

    def kernel(self, name):
        self._check(self._lib.trace_write_kernel(self._w, name.encode(), self._err, ERR_LEN))

    def space(self, space):
        """The address space (application, docs/trace-format.md) of the alloc / mem / exit
        records written after this call (0 until called); the library writes the `space`
        records itself whenever the space of a record differs from the last one written."""
        space = _field("space", space, 32)
        self._check(self._lib.trace_write_space(self._w, space, self._err, ERR_LEN))

    def mem(self, cta, warp, op, gap, mask, addrs):
        """addrs: the addresses of the active lanes of mask, in lane order."""
        if len(addrs) != bin(mask).count("1"):
            raise TraceLibError("mask 0x%x has %d active lanes but %d addresses are given"
                                % (mask, bin(mask).count("1"), len(addrs)))
        cta, warp = _field("cta", cta, 32), _field("warp", warp, 32)
        op, gap, mask = _field("op", op, 8), _field("gap", gap, 32), _field("mask", mask, 32)
        for x in addrs:
            _field("address", x, 64)
        a = self._addrs
        a[:len(addrs)] = addrs
        self._check(self._lib.trace_write_mem(self._w, cta, warp, op, gap, mask, a, self._err,
                                              ERR_LEN))

    def exit(self, cta, warp):
        cta, warp = _field("cta", cta, 32), _field("warp", warp, 32)
        self._check(self._lib.trace_write_exit(self._w, cta, warp, self._err, ERR_LEN))

    # host calls (docs/trace-format.md "Host calls"); the range is [base, base + size)
    ADVICE = {"read_mostly": 0, "preferred_location=gpu": 1, "preferred_location=host": 2,
              "accessed_by": 3}
    LOCATIONS = {"gpu": 0, "host": 1}

    def _range(self, base, size):
        return _field("range base", base, 64), _field("range size", size, 64)

    def advise(self, base, size, advice):
        """advice: one of Writer.ADVICE's keys (the text keyword)."""
        if advice not in self.ADVICE:
            raise TraceLibError("advice %r is not one of %s" % (advice, ", ".join(self.ADVICE)))
        base, size = self._range(base, size)
        self._check(self._lib.trace_write_advise(self._w, base, size, self.ADVICE[advice],
                                                 self._err, ERR_LEN))

    def prefetch(self, base, size, dest):
        """dest: 'gpu' or 'host' (cudaMemPrefetchAsync's destination)."""
        if dest not in self.LOCATIONS:
            raise TraceLibError("prefetch destination %r is not gpu or host" % (dest,))
        base, size = self._range(base, size)
        self._check(self._lib.trace_write_prefetch(self._w, base, size, self.LOCATIONS[dest],
                                                   self._err, ERR_LEN))

    def free(self, name):
        self._check(self._lib.trace_write_free(self._w, name.encode(), self._err, ERR_LEN))

    def cpu(self, base, size, op):
        """op: 'R' or 'W' (the CPU reads or writes the range between kernels)."""
        if op not in ("R", "W"):
            raise TraceLibError("cpu op %r is not R or W" % (op,))
        base, size = self._range(base, size)
        self._check(self._lib.trace_write_cpu(self._w, base, size, 0 if op == "R" else 1,
                                              self._err, ERR_LEN))

    def copy_from(self, path):
        """Appends every record of the trace at path (text or binary, re-encoded)."""
        r = self._lib.trace_open(_path_arg(path), self._err, ERR_LEN)
        if not r:
            raise TraceLibError(self._err.value.decode(errors="replace"))
        try:
            self._check(self._lib.trace_copy(r, self._w, self._err, ERR_LEN))
        finally:
            self._lib.trace_close(r)

    def finish(self):
        """Flushes and closes (the binary end record is written here); once."""
        w, self._w = self._w, None
        if w:
            self._check(self._lib.trace_finish(w, self._err, ERR_LEN))
