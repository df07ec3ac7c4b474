#!/usr/bin/env python3
"""make test-sweep: gmmu-sweep's tests (docs/sweep.md), on build/tiny/gmmu-sim and
build/bin/gmmu-gen (make sweep-tools) with small studies in a temporary directory:

  keys      plan keys are stable, and change with the configuration (a --set, a config file's
            value), the trace content, the generator arguments, the seed, the engine and the
            simulator build; not with comments, key order or the spelling of a number
  resume    a second run runs nothing; a deleted result is the only run made again
  atomic    SIGINT while runs are in flight (a simulator that writes half its statistics, then
            waits): no record in runs/, nothing left in tmp/, exit 130; the next run completes
  failure   a failing simulator: recorded in failed/, status says failed, run exits 1; retried
  collect   the table has every run, the axes and the statistics; diff of two stores of the
            same study is empty, a changed statistic is named
  badinput  malformed study files: exit 2, FILE:LINE and the field named
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "sweep"))
from gmmu_sweep import study as sd  # noqa: E402

SWEEP = os.path.join(ROOT, "scripts", "gmmu-sweep")
SIM = os.path.join(ROOT, "build", "tiny", "gmmu-sim")
GEN = os.path.join(ROOT, "build", "bin", "gmmu-gen")

STUDY = """\
[study]
name = "t"
sim = "{sim}"
gen = "{gen}"
store = "{store}"

[[config]]
name = "paper"
file = "{cfg}"

[[axis]]
name = "policy"
values = [
  {{ name = "none", set = ["prefetch_policy=none"] }},
  {{ name = "seq", set = ["migrate_max_pages=512", "prefetch_policy=sequential"] }},
]

[[workload]]
name = "hotspot"
gen = "hotspot"
size_mb = {size}

[[workload]]
name = "small"
trace = "{trace}"

[grid]
seeds = [{seeds}]
"""


def read(path):
    with open(path) as f:
        return f.read()


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sweep-test.")
        self.store = os.path.join(self.tmp, "store")
        self.traces = os.path.join(self.tmp, "traces")
        self.cfg = os.path.join(self.tmp, "paper.cfg")
        shutil.copy(os.path.join(ROOT, "configs", "paper.cfg"), self.cfg)
        self.trace = os.path.join(self.tmp, "small.trc")
        shutil.copy(os.path.join(ROOT, "tb", "traces", "small.trc"), self.trace)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def study(self, name="s.toml", sim=SIM, size=0.5, seeds="1", text=None):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text if text is not None else STUDY.format(
                sim=sim, gen=GEN, store=self.store, cfg=self.cfg, size=size,
                trace=self.trace, seeds=seeds))
        return path

    def sweep(self, *args, check=True):
        r = subprocess.run([sys.executable, SWEEP, "--root", ROOT] + list(args) +
                           (["--traces", self.traces] if args[0] != "diff" else []),
                           capture_output=True, text=True)
        if check and r.returncode != 0:
            self.fail(f"gmmu-sweep {' '.join(args)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        return r

    def keys(self, path):
        s = sd.load(path, root=ROOT)
        return {r["name"]: r["key"] for r in sd.plan(s)}

    def results(self):
        d = os.path.join(self.store, "runs")
        return sorted(os.listdir(d)) if os.path.isdir(d) else []

    def fake_sim(self, body):
        path = os.path.join(self.tmp, "fake-sim")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body.replace("SIM", SIM) + "\n")
        os.chmod(path, 0o755)
        return path


class Keys(Base):
    def test_stable_and_sensitive(self):
        s = self.study()
        k0 = self.keys(s)
        self.assertEqual(len(k0), 4)
        self.assertEqual(len(set(k0.values())), 4)
        self.assertEqual(k0, self.keys(s))
        self.assertEqual(self.sweep("plan", s).stdout, self.sweep("plan", s).stdout)
        # comments, key order and the spelling of a number do not change a key
        with open(self.cfg) as f:
            lines = [ln for ln in f.read().split("\n") if ln.strip()]
        lines = ["# reordered"] + lines[::-1]
        lines = [ln.replace("batch_size = 256", "batch_size = 0x100  # same") for ln in lines]
        with open(self.cfg, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.assertEqual(self.keys(s), k0)
        # a configuration value changes every key
        with open(self.cfg, "a") as f:
            f.write("hdl_page_ns = 301\n")
        k1 = self.keys(s)
        self.assertTrue(all(k1[n] != k0[n] for n in k0))
        shutil.copy(os.path.join(ROOT, "configs", "paper.cfg"), self.cfg)
        self.assertEqual(self.keys(s), k0)
        # the trace content changes only the runs of that trace
        with open(self.trace, "ab") as f:
            f.write(b"\n")
        k2 = self.keys(s)
        for n in k0:
            self.assertEqual(k2[n] != k0[n], "workload=small" in n, n)
        shutil.copy(os.path.join(ROOT, "tb", "traces", "small.trc"), self.trace)
        # generator arguments, seed and simulator build
        k3 = self.keys(self.study(size=0.25))
        for n in k0:
            self.assertEqual(k3[n] != k0[n], "workload=hotspot" in n, n)
        k4 = self.keys(self.study(seeds="1, 2"))
        self.assertEqual(len(k4), 8)
        self.assertTrue(all(k4[n] == k0[n] for n in k0))
        sim2 = os.path.join(self.tmp, "gmmu-sim-copy")
        shutil.copy(SIM, sim2)
        self.assertEqual(self.keys(self.study(sim=sim2)), k0)  # same content, same build id
        with open(sim2, "ab") as f:
            f.write(b"\0")
        k5 = self.keys(self.study(sim=sim2))
        self.assertTrue(all(k5[n] != k0[n] for n in k0))
        # an override in an axis value
        text = read(self.study()).replace('"prefetch_policy=none"',
                                                 '"prefetch_policy=none", "batch_size=128"')
        k6 = self.keys(self.study(text=text))
        for n in k0:
            self.assertEqual(k6[n] != k0[n], "policy=none" in n, n)
        # the engine
        text = read(self.study()).replace("[grid]", '[grid]\nengines = ["rtl"]')
        k7 = self.keys(self.study(text=text))
        self.assertTrue(all(k != k0[n.replace("engine=rtl", "engine=cmodel")]
                            for n, k in k7.items()))


    def test_lists_exclude_workload_sets(self):
        s = self.study()
        k0 = self.keys(s)
        good = read(s)
        text = good.replace("size_mb = 0.5", "size_mb = [0.5, 1]\nseed = [1, 2]")
        k1 = self.keys(self.study(text=text))
        self.assertEqual(len(k1), 2 * (4 + 1))
        k1b = self.keys(self.study(text=good.replace("size_mb = 0.5",
                                                               "size_mb = 0.5\nseed = 1")))
        self.assertEqual(k1["config=paper,policy=none,workload=hotspot,size_mb=0.5,gen_seed=1,"
                            "engine=cmodel,seed=1"],
                         k1b["config=paper,policy=none,workload=hotspot,engine=cmodel,seed=1"])
        text += '[[exclude]]\npolicy = "seq"\nsize_mb = [1, 7]\n'
        k2 = self.keys(self.study(text=text))
        self.assertEqual(sorted(k2), sorted(n for n in k1 if "policy=seq,workload=hotspot,"
                                            "size_mb=1," not in n))
        # a workload's set: its runs only; the axes' overrides come after it (win)
        text = good.replace('trace = "', 'set = ["batch_size=128"]\ntrace = "')
        k3 = self.keys(self.study(text=text))
        for n in k0:
            self.assertEqual(k3[n] != k0[n], "workload=small" in n, n)
        text = good.replace('trace = "', 'set = ["prefetch_policy=locality"]\n'
                                      'trace = "')
        self.assertEqual(self.keys(self.study(text=text)), k0)


class Run(Base):
    def test_resume_collect_diff(self):
        s = self.study()
        r = self.sweep("run", s, "-j", "2")
        self.assertIn("4/4 done (0 before), 0 failed", r.stderr)
        self.assertEqual(len(self.results()), 4)
        self.assertEqual(len(os.listdir(self.traces)), 1)  # the generated trace, cached once
        mtimes = {n: os.stat(os.path.join(self.store, "runs", n)).st_mtime_ns
                  for n in self.results()}
        r = self.sweep("run", s, "-j", "2")
        self.assertIn("4/4 done (4 before)", r.stderr)
        gone = self.results()[0]
        os.unlink(os.path.join(self.store, "runs", gone))
        self.assertIn("1 missing", self.sweep("status", s, check=False).stdout)
        r = self.sweep("run", s, "-j", "2")
        self.assertIn("4/4 done (3 before)", r.stderr)
        for n in self.results():
            if n != gone:
                self.assertEqual(os.stat(os.path.join(self.store, "runs", n)).st_mtime_ns,
                                 mtimes[n], n)
        self.assertIn("4 done, 0 running, 0 failed, 0 missing", self.sweep("status", s).stdout)
        # collect: every run, its axes, statistics and resource use
        self.sweep("collect", s)
        db = os.path.join(self.store, "results.sqlite")
        con = sqlite3.connect(db)
        rows = list(con.execute("SELECT policy, workload, seed, far_faults, sim_time_ns, "
                                "run_wall_s, run_maxrss_kb, run_git_rev, run_host, "
                                '"config.prefetch_policy" FROM t'))
        con.close()
        self.assertEqual(len(rows), 4)
        for pol, wl, seed, ff, ns, wall, rss, rev, host, cpol in rows:
            self.assertIn(pol, ("none", "seq"))
            self.assertEqual(cpol, "none" if pol == "none" else "sequential")
            self.assertGreater(ns, 0)
            self.assertGreater(ff, 0)
            self.assertGreater(rss, 1000)
            self.assertTrue(rev and host)
        # diff: a second store of the same study, run one at a time, equals the first
        db2 = os.path.join(self.tmp, "b.sqlite")
        self.sweep("run", s, "-j", "1", "--store", os.path.join(self.tmp, "store2"))
        self.sweep("collect", s, "--store", os.path.join(self.tmp, "store2"), "-o", db2)
        r = self.sweep("diff", db, db2)
        self.assertIn("4 runs in both (t / t), 0 differ", r.stdout)
        rec_path = os.path.join(self.tmp, "store2", "runs", self.results()[0])
        with open(rec_path) as f:
            rec = json.load(f)
        rec["stats"]["far_faults"] += 1
        with open(rec_path, "w") as f:
            json.dump(rec, f)
        self.sweep("collect", s, "--store", os.path.join(self.tmp, "store2"), "-o", db2)
        r = self.sweep("diff", db, db2, check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn("1 differ", r.stdout)
        self.assertIn("  far_faults: ", r.stdout)

    def test_failure_recorded_and_retried(self):
        fake = self.fake_sim('case "$*" in *small.trc*) exit 5;; esac\nexec SIM "$@"')
        s = self.study(sim=fake)
        r = self.sweep("run", s, "-j", "2", check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn("2 failed", r.stderr)
        st = self.sweep("status", s, "-v", check=False)
        self.assertEqual(st.returncode, 3)
        self.assertIn("2 done, 0 running, 2 failed, 0 missing", st.stdout)
        self.assertIn("exit status 5", st.stdout)
        r = self.sweep("run", s, "-j", "2", check=False)
        self.assertIn("2/4 done (2 before), 2 failed", r.stderr)  # retried, failed again
        r = self.sweep("collect", s, check=False)
        self.assertEqual(r.returncode, 3)
        self.assertIn("2 runs, 2 without a result", r.stdout)
        self.sweep("collect", s, "--with-failed", "--partial")
        con = sqlite3.connect(os.path.join(self.store, "results.sqlite"))
        got = sorted(con.execute("SELECT workload, run_status, run_error, far_faults FROM t"))
        con.close()
        self.assertEqual([g[:3] for g in got[:2]], [("hotspot", "done", None)] * 2)
        self.assertEqual(got[2:], [("small", "failed", "exit status 5", None)] * 2)

    def test_expressions(self):
        good = read(self.study())
        text = good.replace('"prefetch_policy=none"',
                            '"prefetch_policy=none", "gpu_mem_pages={ceil(footprint_pages / 3)}"')
        text = text.replace('"prefetch_policy=sequential"', '"prefetch_policy=sequential", '
                            '"gpu_mem_pages={max(alloc_pages, 7) * 2}"')
        s = self.study(text=text)
        self.sweep("run", s, "-j", "2")
        self.sweep("collect", s)
        con = sqlite3.connect(os.path.join(self.store, "results.sqlite"))
        got = {(p, w): m for p, w, m in con.execute(
            'SELECT policy, workload, "config.gpu_mem_pages" FROM t')}
        con.close()
        for w, trace in (("small", self.trace),
                         ("hotspot", os.path.join(self.traces, os.listdir(self.traces)[0]))):
            out = subprocess.run([os.path.join(ROOT, "build", "bin", "gmmu-trace"), "stats",
                                  trace], capture_output=True, text=True, check=True).stdout
            fp = int(out.split("\ndistinct pages")[1].split()[0])
            ab = int(out.split("\nallocations")[1].split("(")[1].split()[0])
            self.assertEqual(got[("none", w)], -(-fp // 3), w)
            self.assertEqual(got[("seq", w)], max(-(-ab // 4096), 7) * 2, w)
        for bad, msg in (("{__import__('os')}", "only ceil, floor, round, min, max, int can be called"),
                         ("{footprint * 2}", "unknown name 'footprint'"),
                         ("{footprint_pages.real}", "Attribute not allowed"),
                         ("{footprint_pages *}", "expression {footprint_pages *}: invalid")):
            path = self.study(name="bad.toml", text=good.replace(
                '"prefetch_policy=none"', f'"prefetch_policy=none", "gpu_mem_pages={bad}"'))
            r = self.sweep("plan", path, check=False)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(":13: axis[0].values: value none: set 'gpu_mem_pages=", r.stderr)
            self.assertIn(msg, r.stderr)

    def test_mix(self):
        text = f"""[study]
name = "m"
store = "{self.store}"
[[config]]
name = "mp"
file = "configs/mosaic_paper.cfg"
[[workload]]
name = "two"
mix = ["hotspot", {{gen = "sgemm", size_mb = 0.25}}]
size_mb = 0.5
set = ["sm_partition=8,8"]
"""
        s = self.study(text=text)
        k0 = self.keys(s)
        self.assertEqual(k0, self.keys(self.study(text=text.replace("0.5\n", "0.5\n\n"))))
        self.assertNotEqual(k0, self.keys(self.study(text=text.replace("0.25", "0.5"))))
        s = self.study(text=text)
        self.sweep("run", s, "-j", "1")
        self.assertEqual(len(os.listdir(self.traces)), 3)  # two applications and their mix
        (rec,) = self.results()
        with open(os.path.join(self.store, "runs", rec)) as f:
            r = json.load(f)
        self.assertEqual(r["trace_recipe"],
                         "mix: hotspot --size-mb 0.5 + sgemm --size-mb 0.25")
        self.assertEqual(r["stats"]["config"]["sm_partition"], "8,8")
        self.assertGreater(r["stats"]["translations"], 0)

    def test_keep_traces_false(self):
        text = read(self.study()).replace('name = "t"', 'name = "t"\nkeep_traces = false')
        s = self.study(text=text)
        self.assertIn("4/4 done (0 before)", self.sweep("run", s, "-j", "2").stderr)
        self.assertEqual(len(self.results()), 4)
        self.assertEqual(os.listdir(self.traces), [])  # the generated trace, once unused
        self.assertTrue(os.path.exists(self.trace))  # a trace file is never deleted
        bad = self.study(name="bad.toml", text=text.replace("= false", "= 0"))
        r = self.sweep("plan", bad, check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn(":3: study.keep_traces: expected true or false", r.stderr)

    def test_timeout(self):
        fake = self.fake_sim("exec sleep 30")
        text = read(self.study(sim=fake)).replace('name = "t"', 'name = "t"\ntimeout_s = 1')
        s = self.study(text=text)
        t0 = time.time()
        r = self.sweep("run", s, "-j", "4", check=False)
        self.assertLess(time.time() - t0, 15)
        self.assertEqual(r.returncode, 1)
        st = self.sweep("status", s, "-v", check=False).stdout
        self.assertIn("0 done, 0 running, 4 failed", st)
        self.assertIn("timed out after 1 s", st)

    def test_interrupt_is_atomic(self):
        # the simulator writes half of its statistics file, then waits to be interrupted
        fake = self.fake_sim('while [ $# -gt 0 ]; do [ "$1" = --stats ] && out=$2; shift; done\n'
                             'printf \'{"far_faults": 1,\' > "$out"\nexec sleep 60')
        s = self.study(sim=fake)
        tmpdir = os.path.join(self.store, "tmp")
        # SIGINT to gmmu-sweep alone, to its process group (Ctrl-C on a terminal), SIGTERM
        for group, sig in ((False, signal.SIGINT), (True, signal.SIGINT),
                           (False, signal.SIGTERM)):
            p = subprocess.Popen([sys.executable, SWEEP, "--root", ROOT, "run", s, "-j", "2",
                                  "--traces", self.traces], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)
            deadline = time.time() + 20
            while time.time() < deadline:
                if os.path.isdir(tmpdir) and len(os.listdir(tmpdir)) == 2:
                    break
                time.sleep(0.05)
            self.assertEqual(len(os.listdir(tmpdir)), 2, "two runs in flight")
            t0 = time.time()
            if group:
                os.killpg(p.pid, sig)
            else:
                p.send_signal(sig)
            out, err = p.communicate(timeout=20)
            what = f"{signal.Signals(sig).name} to the {'group' if group else 'process'}"
            self.assertLess(time.time() - t0, 10, f"{what} stops the children")
            self.assertEqual(p.returncode, 130, f"{what}: {err}")
            self.assertIn("interrupted", err)
            self.assertEqual(self.results(), [], what)
            self.assertEqual(os.listdir(tmpdir), [], what)
            self.assertEqual(os.listdir(os.path.join(self.store, "failed")), [], what)
        # SIGKILL to the group: no handler runs; the half-written statistics stay in tmp/, but
        # their writers are dead: status does not count them as running, run removes them
        p = subprocess.Popen([sys.executable, SWEEP, "--root", ROOT, "run", s, "-j", "2",
                              "--traces", self.traces], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.time() + 20
        while time.time() < deadline and len(os.listdir(tmpdir)) < 2:
            time.sleep(0.05)
        time.sleep(0.3)  # the fake simulator has written its half file
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate(timeout=20)
        self.assertEqual(len(os.listdir(tmpdir)), 2)
        self.assertEqual(self.results(), [])
        self.assertIn("0 done, 0 running, 0 failed, 4 missing",
                      self.sweep("status", s, check=False).stdout)
        # the real simulator then runs everything
        s = self.study()
        self.assertIn("4/4 done (0 before)", self.sweep("run", s, "-j", "2").stderr)
        self.assertEqual(os.listdir(tmpdir), [])
        for n in self.results():
            with open(os.path.join(self.store, "runs", n)) as f:
                self.assertIn("far_faults", json.load(f)["stats"])


BAD = [
    # (what, edit of the good study text, expected exit, expected message parts)
    ("toml syntax", ("[grid]", "[grid\n"), ["malformed TOML", "line"]),
    ("unknown top table", ("[grid]", "[gird]\nx = 1\n[grid]"), ["unknown table or key 'gird'"]),
    ("unknown config field", ('file = "', 'fiel = 1\nfile = "'),
     [":9: config[0].fiel: unknown field"]),
    ("missing config file", ('file = "', 'file = "nonexistent/'),
     [":9: config[0].file: nonexistent/", "no such file"]),
    ("bad set", ('"prefetch_policy=none"', '"prefetch_policy"'),
     [":13: axis[0].values: value none: set 'prefetch_policy': expected key=value"]),
    ("duplicate workload", ('name = "small"', 'name = "hotspot"'),
     [":24: workload[1].name: duplicate name 'hotspot'"]),
    ("gen and trace", ('gen = "hotspot"', 'gen = "hotspot"\ntrace = "x.trc"'),
     [":18: workload[0]: exactly one of gen"]),
    ("negative size", ("size_mb = 0.5", "size_mb = -1"),
     [":21: workload[0].size_mb: expected a non-negative number"]),
    ("seed type", ("seeds = [1]", 'seeds = ["one"]'), [":28: grid.seeds: expected"]),
    ("exclude unknown axis", ("[grid]", "[[exclude]]\npolicyy = \"seq\"\n[grid]"),
     [":28: exclude[0].policyy: not an axis"]),
    ("empty size list", ("size_mb = 0.5", "size_mb = []"),
     [":21: workload[0].size_mb: expected a number or a non-empty list"]),
    ("no study name", ('name = "t"', 'nam = "t"'), ["study.nam: unknown field"]),
]


class BadInput(Base):
    def test_bad_studies(self):
        good = read(self.study())
        self.assertEqual(self.sweep("plan", self.study()).returncode, 0)
        for what, (old, new), parts in BAD:
            with self.subTest(what):
                self.assertIn(old, good)
                path = self.study(name="bad.toml", text=good.replace(old, new, 1))
                r = self.sweep("plan", path, check=False)
                self.assertEqual(r.returncode, 2, f"{what}: {r.stdout}{r.stderr}")
                self.assertIn(path, r.stderr)
                for p in parts:
                    self.assertIn(p, r.stderr, what)
                self.assertNotIn("Traceback", r.stderr)
        r = self.sweep("plan", os.path.join(self.tmp, "absent.toml"), check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("absent.toml: No such file", r.stderr)


if __name__ == "__main__":
    for tool in (SIM, GEN):
        if not os.access(tool, os.X_OK):
            sys.exit(f"test_sweep: {tool}: not built (make sweep-tools)")
    t0 = time.time()
    res = unittest.main(exit=False, verbosity=1).result
    print(f"test_sweep: {res.testsRun} tests, {time.time() - t0:.1f} s")
    sys.exit(0 if res.wasSuccessful() else 1)
