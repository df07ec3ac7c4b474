#!/usr/bin/env python3
"""test_importers.py - tests of tools/import/import_accelsim.py and tools/import/import_nvbit.py.

Run by `make test-import` (needs build/bin/gmmu-trace; env GMMU_TRACE overrides its path and
SHARED_TRACES the directory of the shared Accel-Sim traces).
"""

import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "import"))

import import_accelsim  # noqa: E402
import import_common  # noqa: E402
import import_nvbit  # noqa: E402

TOOL = os.environ.get("GMMU_TRACE", os.path.join(ROOT, "build", "bin", "gmmu-trace"))
SHARED = os.environ.get("SHARED_TRACES",
                        os.path.join(ROOT, "..", "shared", "traces", "accel-sim"))
# name -> (global memory instructions, distinct 4 KB pages), from SOURCES.md
SHARED_EXPECT = {"vectoradd-100-32": (12, 1), "matrixmul-32-32": (96, 3),
                 "lud-perimeter-k8": (79, 2)}
# name -> (warps with a global memory instruction = exit records, records in the trace)
SHARED_EXITS = {"vectoradd-100-32": (4, 18), "matrixmul-32-32": (32, 130),
                "lud-perimeter-k8": (1, 82)}


def stats(path):
    out = subprocess.run([TOOL, "stats", path], check=True, capture_output=True, text=True).stdout
    d = {}
    for line in out.splitlines():
        m = re.match(r"^(\D+?)\s+(\d.*)$", line)
        d[m.group(1)] = m.group(2)
    return d


def read_text_records(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def lanes_of(rec):
    """Expands an m/s text record into {lane: address}."""
    mask = int(rec[5], 16)
    lanes = [i for i in range(32) if mask >> i & 1]
    if rec[0] == "m":
        return dict(zip(lanes, (int(a, 16) for a in rec[6:])))
    base, stride = int(rec[6], 16), int(rec[7])
    return {i: (base + i * stride) & ((1 << 64) - 1) for i in lanes}


def check_exits(test, path, at_end=()):
    """Checks the exit records of a text trace (docs/trace-format.md): per kernel, every warp with
    a memory record exits exactly once, after its last record, and only such warps exit. In the
    kernels listed in at_end (0-based) the exits come together at the kernel's end (importer
    reading in file order); in the others each exit immediately follows its warp's last record."""
    recs = read_text_records(path)
    kernels, cur = [], None
    for r in recs:
        if r[0] == "kernel":
            cur = []
            kernels.append(cur)
        elif r[0] in ("m", "s", "t", "x"):
            test.assertIsNotNone(cur, "record before the first kernel: %s" % r)
            cur.append(r)
    for ki, body in enumerate(kernels):
        last, exits = {}, {}
        for i, r in enumerate(body):
            w = (r[1], r[2])
            if r[0] == "x":
                test.assertNotIn(w, exits, "kernel %d: warp %s exits twice" % (ki, w))
                exits[w] = i
            else:
                test.assertNotIn(w, exits, "kernel %d: record of %s after its exit" % (ki, w))
                last[w] = i
        test.assertEqual(set(exits), set(last), "kernel %d: exits != warps with records" % ki)
        for w, i in exits.items():
            if ki in at_end:
                test.assertGreater(i, max(last.values()), "kernel %d: exit of %s" % (ki, w))
            else:
                test.assertEqual(i, last[w] + 1, "kernel %d: exit of %s not right after its "
                                 "last record" % (ki, w))
    return sum(1 for r in recs if r[0] == "x")


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_import.")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def p(self, name):
        return os.path.join(self.dir, name)

    def accelsim(self, inp, out, *extra):
        return import_accelsim.main([inp, "-o", out, "--quiet", *extra])

    def expect_error(self, fn, args, *want):
        """Runs an importer main() and checks its stderr message."""
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = fn(args)
        self.assertEqual(rc, 1, "no error for %s" % (args,))
        msg = err.getvalue()
        for w in want:
            self.assertIn(w, msg)
        return msg


class SharedTraces(Tmp):
    def test_import_and_page_counts(self):
        for name, (ninst, npages) in SHARED_EXPECT.items():
            with self.subTest(trace=name):
                src = os.path.join(SHARED, name)
                txt, trc = self.p(name + ".txt"), self.p(name + ".trc")
                self.assertEqual(self.accelsim(src, txt), 0)
                self.assertEqual(self.accelsim(src, trc), 0)
                s = stats(trc)
                self.assertTrue(s["instructions"].startswith("%d " % ninst), s["instructions"])
                self.assertEqual(int(s["distinct pages"]), npages)
                self.assertEqual(s["kernels"], "1")
                self.assertEqual(s["outside allocs"], "0")
                nexit, nrec = SHARED_EXITS[name]
                self.assertEqual(int(s["warp exits"]), nexit)
                self.assertEqual(int(s["records"]), nrec)
                self.assertEqual(check_exits(self, txt), nexit)
                subprocess.run([TOOL, "check", trc], check=True, capture_output=True)

    def test_round_trip(self):
        """importer text == C(text->binary->text), importer binary == C(text->binary)."""
        for name in SHARED_EXPECT:
            with self.subTest(trace=name):
                src = os.path.join(SHARED, name)
                txt, trc = self.p("a.txt"), self.p("a.trc")
                self.accelsim(src, txt)
                self.accelsim(src, trc)
                subprocess.run([TOOL, "convert", txt, self.p("b.trc")], check=True)
                subprocess.run([TOOL, "convert", self.p("b.trc"), self.p("b.txt")], check=True)
                with open(txt, "rb") as a, open(self.p("b.txt"), "rb") as b:
                    self.assertEqual(a.read(), b.read())
                with open(trc, "rb") as a, open(self.p("b.trc"), "rb") as b:
                    self.assertEqual(a.read(), b.read())

    def test_mode1_addresses(self):
        """vectoradd: the first LDG of warp 0 reads a[0..31] (base 0x7f2b2d500000, stride 4)."""
        txt = self.p("v.txt")
        self.accelsim(os.path.join(SHARED, "vectoradd-100-32"), txt)
        recs = [r for r in read_text_records(txt) if r[0] in "ms"]
        first = [r for r in recs if r[1] == "0" and r[2] == "0"][0]
        self.assertEqual(first[3], "R")
        self.assertEqual(lanes_of(first), {i: 0x7f2b2d500000 + 4 * i for i in range(32)})
        # gap = non-memory instructions before it in warp 0 (14 lines precede the first LDG)
        self.assertEqual(first[4], "14")

    def test_single_kernel_file(self):
        src = os.path.join(SHARED, "lud-perimeter-k8", "kernel-8.traceg")
        self.assertEqual(self.accelsim(src, self.p("l.trc")), 0)
        self.assertEqual(int(stats(self.p("l.trc"))["distinct pages"]), 2)


class Fixtures(Tmp):
    MODES = os.path.join(HERE, "accelsim-modes")

    def test_expected_output(self):
        self.assertEqual(self.accelsim(self.MODES, self.p("m.txt")), 0)
        with open(self.p("m.txt")) as a, open(os.path.join(self.MODES, "expected.txt")) as b:
            self.assertEqual(a.read(), b.read())
        subprocess.run([TOOL, "check", self.p("m.txt")], check=True, capture_output=True)
        # kernel-1.traceg: exits right after each warp's last record (3 warps); kernel-2.trace
        # (raw, file order): the 2 exits at the kernel's end
        self.assertEqual(check_exits(self, self.p("m.txt"), at_end=(1,)), 5)
        self.assertEqual(stats(self.p("m.txt"))["warp exits"], "5")

    def test_mode2_popcount_minus_one_deltas(self):
        self.accelsim(self.MODES, self.p("m.txt"))
        recs = [r for r in read_text_records(self.p("m.txt")) if r[0] in "ms"]
        full = [r for r in recs if r[5] == "0xffffffff" and r[0] == "m"][0]
        want, a = {}, 0x7f0000000000
        deltas = [8] * 15 + [4096] + [8] * 14 + [-4096]
        want[0] = a
        for lane, d in enumerate(deltas, 1):
            a += d
            want[lane] = a
        self.assertEqual(lanes_of(full), want)
        single = [r for r in recs if r[5] == "0x1"][0]
        self.assertEqual(lanes_of(single), {0: 0x7f0000001ffc})
        two = [r for r in recs if r[5] == "0x3"][0]  # kernel-2: 2 lanes, one delta
        self.assertEqual(lanes_of(two), {0: 0x7f0000000ff0, 1: 0x7f0000000000})

    def test_mode0_and_opcode_filter(self):
        self.accelsim(self.MODES, self.p("m.txt"))
        recs = [r for r in read_text_records(self.p("m.txt")) if r[0] in "ms"]
        m0 = [r for r in recs if r[5] == "0xf"][0]
        self.assertEqual(lanes_of(m0), {0: 0x7f0000000100, 1: 0x7f0000000010,
                                        2: 0x7f0000001000, 3: 0x7f0000000000})
        # LDS, LD to the shared window and the mask-0 LDG are dropped: 10 records remain
        self.assertEqual(len(recs), 10)
        ops = sorted(r[3] for r in recs)
        self.assertEqual(ops, ["A"] + ["R"] * 6 + ["W"] * 3)
        # generic ST.E to global memory is kept (warp 1, gap 1 = the dropped LD.E)
        st = [r for r in recs if r[1] == "0" and r[2] == "1" and r[3] == "W"][0]
        self.assertEqual(st[4], "1")

    def test_xz_and_kernelslist_variants(self):
        d = self.p("x")
        shutil.copytree(self.MODES, d)
        for k in ("kernel-1.traceg", "kernel-2.trace"):
            with open(os.path.join(d, k), "rb") as f, lzma.open(os.path.join(d, k + ".xz"),
                                                                  "wb") as g:
                g.write(f.read())
            os.remove(os.path.join(d, k))
        with open(os.path.join(d, "kernelslist.g")) as f:
            lst = f.read().replace(".traceg", ".traceg.xz").replace(".trace\n", ".trace.xz\n")
        os.remove(os.path.join(d, "kernelslist.g"))
        with open(os.path.join(d, "kernelslist"), "w") as f:  # raw tracer name
            f.write(lst)
        self.assertEqual(self.accelsim(d, self.p("x.txt")), 0)
        with open(self.p("x.txt")) as a, open(os.path.join(self.MODES, "expected.txt")) as b:
            self.assertEqual(a.read(), b.read())
        # compressed output
        self.assertEqual(self.accelsim(d, self.p("x.trc.xz")), 0)
        subprocess.run([TOOL, "convert", self.p("x.trc.xz"), self.p("y.txt")], check=True)
        with open(self.p("y.txt")) as a, open(os.path.join(self.MODES, "expected.txt")) as b:
            self.assertEqual(a.read(), b.read())

    def test_nvbit(self):
        log = os.path.join(HERE, "nvbit-memtrace", "memtrace.log")
        out = self.p("n.txt")
        self.assertEqual(import_nvbit.main([log, "-o", out, "--quiet"]), 0)
        with open(out) as a, open(os.path.join(HERE, "nvbit-memtrace", "expected.txt")) as b:
            self.assertEqual(a.read(), b.read())
        recs = read_text_records(out)
        self.assertEqual(recs[1], ["kernel", "vecAdd"])
        mem = [r for r in recs if r[0] in "ms"]
        # CTA (1,0,0) with grid 2x1x1 -> cta 1; hardware warps 4, 5 -> warps 0, 1
        self.assertEqual((mem[0][1], mem[0][2]), ("1", "0"))
        self.assertEqual((mem[3][1], mem[3][2]), ("1", "1"))
        # tail warp: lanes with address 0 are inactive
        self.assertEqual(mem[5][5], "0xfffff")
        # kernel without LAUNCH line: CTAs in order of first appearance
        self.assertIn(["kernel", "grid1"], recs)
        k2 = mem[12:]
        self.assertEqual([r[1] for r in k2], ["0", "1", "0"])
        subprocess.run([TOOL, "check", out], check=True, capture_output=True)
        # file order: every kernel's exits come at its end, warps in order of first record
        self.assertEqual(check_exits(self, out, at_end=(0, 1)), 6)
        self.assertEqual([r for r in recs if r[0] == "x"][:4],
                         [["x", "1", "0"], ["x", "1", "1"], ["x", "0", "0"], ["x", "0", "1"]])
        self.assertEqual(recs[-1], ["x", "1", "0"])
        # binary output: 6 exit records of 9 bytes, same records as the text
        self.assertEqual(import_nvbit.main([log, "-o", self.p("n.trc"), "--quiet"]), 0)
        subprocess.run([TOOL, "convert", self.p("n.trc"), self.p("c.txt")], check=True)
        with open(out) as a, open(self.p("c.txt")) as b:
            self.assertEqual(a.read(), b.read())


EXITS_OK = """alloc a 0x7f0000000000 0x100000
kernel k
s 3 1 R 2 0xffffffff 0x7f0000000000 4
x 3 1
x 9 9
s 0 0 W 0 0xffffffff 0x7f0000000080 4
x 0 0
kernel k2
s 3 1 R 2 0xffffffff 0x7f0000000000 4
m 0 0 R 0 0x1 0x7f0000000100
x 3 1
"""


class TraceTool(Tmp):
    """gmmu-trace convert / stats / check on warp exit records (docs/trace-format.md)."""

    def write(self, name, text):
        with open(self.p(name), "w") as f:
            f.write(text)
        return self.p(name)

    def check(self, path):
        return subprocess.run([TOOL, "check", path], capture_output=True, text=True)

    def test_convert_and_stats(self):
        txt = self.write("e.txt", EXITS_OK)
        subprocess.run([TOOL, "convert", txt, self.p("e.trc")], check=True)
        subprocess.run([TOOL, "convert", self.p("e.trc"), self.p("f.txt")], check=True)
        with open(self.p("f.txt")) as f:
            self.assertEqual(f.read(), EXITS_OK)
        # 4 exits of 9 bytes; exit records are neither instructions nor lane accesses
        self.assertEqual(os.path.getsize(self.p("e.trc")),
                         8 + 20 + 3 + 4 + 3 * 34 + (18 + 8) + 4 * 9 + 1)
        for path in (txt, self.p("e.trc")):
            s = stats(path)
            self.assertEqual(s["records"], "11")
            self.assertEqual(s["warp exits"], "4")
            self.assertEqual(s["kernels"], "2")
            self.assertTrue(s["instructions"].startswith("4 (R 3, W 1, A 0)"), s["instructions"])
            self.assertEqual(s["lane accesses"], "97")
            r = self.check(path)
            self.assertEqual(r.returncode, 0, r.stderr)
        # a trace without exit records has 0
        self.assertEqual(stats(self.write("n.txt", "kernel k\n"))["warp exits"], "0")

    def test_check_errors(self):
        bad = EXITS_OK.replace("alloc a", "x 1 1\nalloc a")       # line 1: before any kernel
        bad = bad.replace("x 0 0\n", "x 0 0\nx 3 1\nm 0 0 R 0 0x1 0x7f0000000100\n")
        # lines: 5 x 3 1, 8 x 0 0, 9 second x 3 1, 10 memory of (0, 0) after its exit
        txt = self.write("b.txt", bad)
        r = self.check(txt)
        self.assertEqual(r.returncode, 1)
        self.assertIn("b.txt:1: exit record before the first kernel", r.stderr)
        self.assertIn("b.txt:9: warp (cta 3, warp 1) exits twice (first exit at line 5)",
                      r.stderr)
        self.assertIn("b.txt:10: warp (cta 0, warp 0) has exited at line 8", r.stderr)
        self.assertIn("b.txt: 3 warp exit errors", r.stderr)
        # the same warp runs again in the next kernel: no error there (the map is per kernel)
        self.assertNotIn("b.txt:1" + "2:", r.stderr)
        # binary: positions are byte offsets
        subprocess.run([TOOL, "convert", txt, self.p("b.trc")], check=True)
        r = self.check(self.p("b.trc"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("b.trc:offset 8: exit record before the first kernel", r.stderr)
        # header 8, exit 9, alloc 20, kernel 3, strided 34: the first x 3 1 is at offset 74
        self.assertRegex(r.stderr, r"b\.trc:offset \d+: warp \(cta 3, warp 1\) exits twice "
                         r"\(first exit at offset 74\)")
        self.assertRegex(r.stderr, r"b\.trc:offset \d+: warp \(cta 0, warp 0\) has exited at "
                         r"offset \d+")

    def test_check_many_errors_counted(self):
        lines = ["alloc a 0x7f0000000000 0x100000", "kernel k", "x 0 0"]
        lines += ["s 0 0 R 0 0xffffffff 0x7f0000000000 4"] * 25
        r = self.check(self.write("m.txt", "\n".join(lines) + "\n"))
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.count("has exited at line 3"), 10)  # first 10 reported
        self.assertIn("m.txt: 25 warp exit errors", r.stderr)


HDR = """-kernel name = k
-grid dim = (1,1,1)
-block dim = (32,1,1)
-accelsim tracer version = %d
-enable lineinfo = 0

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = %d
"""


class Malformed(Tmp):
    def kernel(self, lines, version=4, insts=None):
        path = self.p("kernel-1.traceg")
        with open(path, "w") as f:
            f.write(HDR % (version, len(lines) if insts is None else insts))
            f.write("\n".join(lines) + "\n#END_TB\n")
        return path

    def bad(self, lines, *want, version=4, insts=None):
        path = self.kernel(lines, version, insts)
        return self.expect_error(import_accelsim.main, [path, "-o", self.p("o.txt")],
                                 "kernel-1.traceg:", *want)

    def test_errors(self):
        self.bad(["0010 ffffffff 1 R2 LDG.E 1 R2 4 3 0x10 4 "], ":13:",
                 "address mode 3 is not 0, 1 or 2")
        self.bad(["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0xzz 4 "], ":13:", "field 10 (base)",
                 "'0xzz' is not a hex number")
        self.bad(["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 "], ":13:",
                 "field 11 (stride): missing")
        self.bad(["0010 0000000f 1 R2 LDG.E 1 R2 4 0 0x10 0x20 0x30 "], ":13:",
                 "field 13 (address): missing")
        # mode 2 written with popcount deltas (Accel-Sim's parser's count) is rejected
        self.bad(["0010 00000003 1 R2 LDG.E 1 R2 4 2 0x10 4 4 "], ":13:", "unexpected fields",
                 "popcount-1")
        self.bad(["0010 00000005 1 R2 LDG.E 1 R2 4 1 0x10 4 "], "non-contiguous")
        self.bad(["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 "], ":14:", "'insts = 2' but 1",
                 insts=2)
        self.bad(["0010 fffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 "], "field 2 (mask)")
        self.bad(["0010 ffffffff x R2 LDG.E 1 R2 4 1 0x10 4 "], "field 3 (dest_num)")

    def test_thread_block_twice(self):
        # its warps' exits would already be written: a repeated thread block is an error
        path = self.p("kernel-1.traceg")
        line = "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x7f0000000010 4 "
        with open(path, "w") as f:
            f.write(HDR % (4, 1) + line + "\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n"
                    "warp = 0\ninsts = 1\n" + line + "\n#END_TB\n")
        self.expect_error(import_accelsim.main, [path, "-o", self.p("o.txt")],
                          "kernel-1.traceg:16:", "thread block (0, 0, 0) appears twice")

    def test_versions_3_to_5(self):
        line = "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x7f0000000010 4 "
        for version, extra in ((3, ""), (4, ""), (5, "0 ")):
            path = self.kernel([line + extra], version=version)
            out = self.p("v%d.txt" % version)
            self.assertEqual(import_accelsim.main([path, "-o", out, "--quiet"]), 0)
            with open(out) as f:
                self.assertIn("s 0 0 R 0 0xffffffff 0x7f0000000010 4\n", f.read())
        self.bad([line], "tracer version 6 not supported", version=6)

    def test_version5_immediate(self):
        # v5: one trailing immediate is allowed; v4: it is an error
        path = self.kernel(["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 0 "], version=5)
        self.assertEqual(import_accelsim.main([path, "-o", self.p("o.txt"), "--quiet"]), 0)
        self.bad(["0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 0 "], "unexpected field",
                 version=4)

    def test_kernelslist_errors(self):
        with open(self.p("kernelslist.g"), "w") as f:
            f.write("MemcpyHtoD,0x10\n")
        self.expect_error(import_accelsim.main, [self.dir, "-o", self.p("o.txt")],
                          "kernelslist.g:1:", "expected 'MemcpyXtoY,addr,bytes'")
        with open(self.p("kernelslist.g"), "w") as f:
            f.write("kernel-9.traceg\n")
        self.expect_error(import_accelsim.main, [self.dir, "-o", self.p("o.txt")],
                          "kernelslist.g:1:", "not found")

    def test_nvbit_errors(self):
        log = self.p("m.log")
        ctx = "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E - "
        with open(log, "w") as f:
            f.write("hello\n" + ctx + " ".join(["0x10"] * 31) + "\n")
        self.expect_error(import_nvbit.main, [log, "-o", self.p("o.txt")], "m.log:2:",
                          "31 addresses, expected 32")
        with open(log, "w") as f:
            f.write(ctx + " ".join(["0x10"] * 31 + ["0xqq"]) + "\n")
        self.expect_error(import_nvbit.main, [log, "-o", self.p("o.txt")], "m.log:1:",
                          "'0xqq' is not a hex address")
        with open(log, "w") as f:
            f.write(ctx.replace("CTA 0,0,0", "CTA 0,0") + " ".join(["0x10"] * 32) + "\n")
        self.expect_error(import_nvbit.main, [log, "-o", self.p("o.txt")], "m.log:1:",
                          "(CTA)")


class Writer(unittest.TestCase):
    def test_python_writer_matches_c(self):
        """Random list / strided / tile records through the importers' writer (records go through
        ctypes into a temporary binary body, allocations are put first at close): its text and
        binary outputs convert into each other with gmmu-trace (text -> binary -> text gives
        the same bytes), and the encoding choice yields every record kind."""
        import random
        rnd = random.Random(7)
        d = tempfile.mkdtemp(prefix="test_writer.")
        try:
            recs = []
            for n in range(400):
                mask = rnd.choice([0xffffffff, 0xffff, 0xff00ff, 0x7, 0x3, 0x1, 0x80000001,
                                   rnd.getrandbits(32) or 1])
                kind = n % 4
                g = rnd.choice([2, 4, 8, 16])
                base = rnd.getrandbits(47)
                s1, s2 = rnd.randint(-4096, 4096), rnd.randint(-1 << 20, 1 << 20)
                lanes = [i for i in range(32) if mask >> i & 1]
                if kind == 0:
                    addrs = [rnd.getrandbits(48) for _ in lanes]
                elif kind == 1:
                    addrs = [(base + i * s1) & ((1 << 64) - 1) for i in lanes]
                else:
                    addrs = [(base + (i % g) * s1 + (i // g) * s2) & ((1 << 64) - 1)
                             for i in lanes]
                recs.append((n % 5, n % 3, n % 3, n, mask, addrs))
            # warp exits: every warp after its last record, plus warps without records (allowed)
            # up to the largest ids
            exits = sorted({r[:2] for r in recs}) + [(0xffffffff, 0xffffffff), (7, 0x10000)]
            for binary, name in ((False, "p.txt"), (True, "p.trc")):
                w = import_common.TraceWriter(os.path.join(d, name), binary)
                w.add_alloc("a", 0x1000, 0x1000)
                w.kernel("k")
                for r in recs:
                    w.mem(*r)
                for e in exits:
                    w.exit(*e)
                w.close()
            subprocess.run([TOOL, "convert", os.path.join(d, "p.txt"), os.path.join(d, "c.trc")],
                           check=True)
            subprocess.run([TOOL, "convert", os.path.join(d, "c.trc"), os.path.join(d, "c.txt")],
                           check=True)
            for a, b in (("p.txt", "c.txt"), ("p.trc", "c.trc")):
                with open(os.path.join(d, a), "rb") as x, open(os.path.join(d, b), "rb") as y:
                    self.assertEqual(x.read(), y.read(), a)
            with open(os.path.join(d, "p.txt")) as x:
                kinds = {line[0] for line in x}
            self.assertTrue({"m", "s", "t", "x"} <= kinds, kinds)
            with open(os.path.join(d, "p.txt")) as x:
                self.assertEqual(x.read().splitlines()[-2:],
                                 ["x 4294967295 4294967295", "x 7 65536"])
        finally:
            shutil.rmtree(d)

    def test_writer_errors(self):
        """Records the C writer cannot encode raise TraceLibError with its message; abort() and
        a failed close leave no output file and no temporary body behind."""
        d = tempfile.mkdtemp(prefix="test_writer.")
        try:
            out = os.path.join(d, "o.trc")
            w = import_common.TraceWriter(out, True)
            body = w.body_path
            w.kernel("k")
            with self.assertRaisesRegex(import_common.TraceLibError,
                                        "^%s: record 2: mask has no active lane" % out):
                w.mem(0, 0, 0, 0, 0, [])
            with self.assertRaisesRegex(import_common.TraceLibError, "bad op 7"):
                w.mem(0, 0, 7, 0, 1, [0x1000])
            with self.assertRaisesRegex(import_common.TraceLibError, "2 addresses are given"):
                w.mem(0, 0, 0, 0, 1, [0x1000, 0x2000])
            # the shared record rule and the format's field widths (issue 11 items 1, 9)
            with self.assertRaisesRegex(import_common.TraceLibError,
                                        "lane 0 address 0x1000000000000 is outside the 48-bit"):
                w.mem(0, 0, 0, 0, 1, [1 << 48])
            with self.assertRaisesRegex(import_common.TraceLibError, "cta 8589934592 does not fit"):
                w.mem(1 << 33, 0, 0, 0, 1, [0x1000])
            w.abort()
            self.assertFalse(os.path.exists(body))
            self.assertFalse(os.path.exists(out))
            w = import_common.TraceWriter(out, True)
            body = w.body_path
            w.add_alloc("a", 0x1000, 0)  # size 0: the C writer rejects it at close
            with self.assertRaisesRegex(import_common.TraceLibError, "allocation 'a' of 0 bytes"):
                w.close()
            self.assertFalse(os.path.exists(body))
            self.assertFalse(os.path.exists(out))
        finally:
            shutil.rmtree(d)

    def test_python_writer_spaces(self):
        """Writer.space(): the records after it belong to that address space; the library
        writes the `space` records (never for a kernel record), the trace checks, a text ->
        binary -> text round trip gives the same bytes, and a space beyond the format's limit
        is refused with the record named."""
        tc = import_common.trace_ctypes
        d = tempfile.mkdtemp(prefix="test_writer.")
        try:
            txt = os.path.join(d, "s.txt")
            w = tc.Writer(txt, False)
            for sp in (0, 1):
                w.space(sp)
                w.alloc("a%d" % sp, 0x10000, 0x10000)
            w.kernel("k")
            for sp in (1, 0):
                w.space(sp)
                w.mem(0, 0, 0, 0, 1, [0x10000 + 0x1000 * sp])
                w.exit(0, 0)
            w.finish()
            with open(txt) as f:
                lines = f.read().splitlines()
            spaces = [ln for ln in lines if ln.startswith("space")]
            # one record per change of space (the kernel record does not reset it)
            self.assertEqual(spaces, ["space 1", "space 0"], lines)
            subprocess.run([TOOL, "check", txt], check=True, capture_output=True)
            subprocess.run([TOOL, "convert", txt, os.path.join(d, "s.trc")], check=True)
            subprocess.run([TOOL, "convert", os.path.join(d, "s.trc"), os.path.join(d, "r.txt")],
                           check=True)
            with open(txt, "rb") as x, open(os.path.join(d, "r.txt"), "rb") as y:
                self.assertEqual(x.read(), y.read())
            w = tc.Writer(os.path.join(d, "bad.trc"), True)
            with self.assertRaisesRegex(tc.TraceLibError, "record 1: address space 256 is not below 256"):
                w.space(256)
            with self.assertRaisesRegex(tc.TraceLibError, "space -1 does not fit"):
                w.space(-1)
            w.finish()
        finally:
            shutil.rmtree(d)

    def test_python_writer_host_calls(self):
        """Writer.advise/prefetch/free/cpu and TraceWriter.host_call (issue 22): the records in
        call order, a checked trace, a text -> binary -> text round trip with the same bytes,
        and each bad argument refused with the field named."""
        tc = import_common.trace_ctypes
        d = tempfile.mkdtemp(prefix="test_writer.")
        try:
            txt = os.path.join(d, "h.txt")
            w = import_common.TraceWriter(txt, False)
            w.add_alloc("a", 0x10000, 0x10000)
            w.host_call("advise", 0x10000, 0x1000, "preferred_location=host")
            w.host_call("prefetch", 0x10000, 0x10000, "gpu")
            w.kernel("k")
            w.mem(0, 0, 0, 0, 1, [0x10000])
            w.host_call("cpu", 0x10000, 0x10, "W")
            w.host_call("free", "a")
            w.close()
            with open(txt) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines, ["alloc a 0x10000 0x10000",
                                     "advise 0x10000 0x1000 preferred_location=host",
                                     "prefetch 0x10000 0x10000 gpu", "kernel k",
                                     "m 0 0 R 0 0x1 0x10000", "cpu 0x10000 0x10 W", "free a"])
            subprocess.run([TOOL, "check", txt], check=True, capture_output=True)
            subprocess.run([TOOL, "convert", txt, os.path.join(d, "h.trc")], check=True)
            subprocess.run([TOOL, "convert", os.path.join(d, "h.trc"), os.path.join(d, "r.txt")],
                           check=True)
            with open(txt, "rb") as x, open(os.path.join(d, "r.txt"), "rb") as y:
                self.assertEqual(x.read(), y.read())
            w = tc.Writer(os.path.join(d, "bad.trc"), True)
            with self.assertRaisesRegex(tc.TraceLibError, "advice 'often' is not one of"):
                w.advise(0x10000, 0x1000, "often")
            with self.assertRaisesRegex(tc.TraceLibError, "destination 'cpu' is not gpu or host"):
                w.prefetch(0x10000, 0x1000, "cpu")
            with self.assertRaisesRegex(tc.TraceLibError, "cpu op 'A' is not R or W"):
                w.cpu(0x10000, 0x1000, "A")
            with self.assertRaisesRegex(tc.TraceLibError, "record 1: range of 0 bytes"):
                w.prefetch(0x10000, 0, "gpu")
            with self.assertRaisesRegex(tc.TraceLibError, "range size -1 does not fit"):
                w.cpu(0x10000, -1, "R")
            w.finish()
        finally:
            shutil.rmtree(d)

    def test_missing_library(self):
        """Without the shared trace library the importer stops with a clear message."""
        d = tempfile.mkdtemp(prefix="test_writer.")
        env = dict(os.environ, GMMU_TRACE_LIB=os.path.join(d, "nope.so"))
        try:
            r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "import",
                                                             "import_nvbit.py"),
                                os.path.join(HERE, "nvbit-memtrace", "memtrace.log"), "-o",
                                os.path.join(d, "o.trc")], env=env, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("nope.so: trace library not found (build it with `make trace-lib`",
                          r.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "o.trc")))
        finally:
            shutil.rmtree(d)

    def test_allocation_rule(self):
        m = import_common.AllocationMap(2 << 20)
        m.touch(0x7f0000000010, False)
        m.touch(0x7f0000200000, True)
        m.touch(0x7f0000800000, False)
        m.touch_range(0x7f0001000000 - 4, 8)
        self.assertEqual(m.allocations(), [
            ("seg0", 0x7f0000000000, 0x400000, False),
            ("seg1", 0x7f0000800000, 0x200000, True),
            ("seg2", 0x7f0000e00000, 0x400000, True)])


if __name__ == "__main__":
    unittest.main(verbosity=1)
