#!/usr/bin/env python3
"""Coverage-guided fuzzing of the Python input surfaces with atheris (libFuzzer for Python).

  fuzz_py.py HARNESS [libFuzzer options] [corpus dirs or files]

HARNESS:
  accelsim  tools/import/import_accelsim.py: the input is a kernel trace (kernel-1.traceg), or,
            when it contains a line '%%', a kernels list (kernelslist.g, which may name
            kernel-1.traceg) before that line and the kernel trace after it
  nvbit     tools/import/import_nvbit.py: the input is an NVBit mem_trace log
  testfile  scripts/run_test.py parse_test: the input is a tb/tests/*.test file

The importers run through their main(): an error must end in exit status 1 with a message (the
write_trace frame catches the error classes the importers raise); any other exception (a Python
traceback) is a crash. parse_test must raise TestError or return a test. The trace library is
build/lib/libgmmu_trace.so (GMMU_TRACE_LIB overrides), not instrumented: atheris measures the
Python code's coverage.
"""
import contextlib
import io
import os
import sys
import tempfile

import atheris

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "tools", "import"), os.path.join(ROOT, "tools", "trace"),
                os.path.join(ROOT, "scripts")]

with atheris.instrument_imports(include=["import_accelsim", "import_common", "import_nvbit",
                                          "trace_ctypes", "run_test"]):
    import import_accelsim
    import import_common
    import import_nvbit
    import run_test

TMP = tempfile.mkdtemp(prefix="gmmu-fuzz-py-", dir=os.environ.get("GMMU_FUZZ_TMP"))


def run_importer(mod, argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = mod.main(argv)
    if rc not in (0, 1):
        raise RuntimeError(f"importer returned {rc!r}")
    if rc == 1 and not err.getvalue().strip():
        raise RuntimeError("importer failed without a message")


def one_accelsim(data):
    kdir = os.path.join(TMP, "as")
    os.makedirs(kdir, exist_ok=True)
    for f in os.listdir(kdir):
        os.remove(os.path.join(kdir, f))
    sep = data.find(b"\n%%\n")
    if sep >= 0:
        with open(os.path.join(kdir, "kernelslist.g"), "wb") as f:
            f.write(data[:sep + 1])
        with open(os.path.join(kdir, "kernel-1.traceg"), "wb") as f:
            f.write(data[sep + 4:])
        inp = kdir
    else:
        inp = os.path.join(kdir, "kernel-1.traceg")
        with open(inp, "wb") as f:
            f.write(data)
    run_importer(import_accelsim, [inp, "-o", os.path.join(TMP, "as.trc"), "--quiet"])


def one_nvbit(data):
    inp = os.path.join(TMP, "memtrace.log")
    with open(inp, "wb") as f:
        f.write(data)
    run_importer(import_nvbit, [inp, "-o", os.path.join(TMP, "nv.trc"), "--quiet"])


def one_testfile(data):
    inp = os.path.join(TMP, "fuzz.test")
    with open(inp, "wb") as f:
        f.write(data)
    try:
        t = run_test.parse_test(inp)
    except run_test.TestError as e:
        if not str(e).strip():
            raise RuntimeError("TestError without a message")
        return
    if not isinstance(t, dict) or not (t["trace"] or t["random"] is not None):
        raise RuntimeError("parse_test returned a test without a trace")


HARNESSES = {"accelsim": one_accelsim, "nvbit": one_nvbit, "testfile": one_testfile}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in HARNESSES:
        print(__doc__, file=sys.stderr)
        return 2
    fn = HARNESSES[sys.argv[1]]
    atheris.Setup([sys.argv[0]] + sys.argv[2:], fn)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
