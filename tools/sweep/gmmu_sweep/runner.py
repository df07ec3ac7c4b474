"""runner.py - executing runs: the trace cache, one run of gmmu-sim with its resource use, and
the local backend (a pool of N runs at a time, resumable, Ctrl-C safe, a progress line).
"""
import concurrent.futures
import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from . import store as st
from . import study as sd

LOG_TAIL = 3000


class Stop(Exception):
    """The sweep was interrupted; the run in flight is abandoned (no result written)."""


class Context:
    """What every run of one invocation shares (also rebuilt from a slurm manifest)."""

    def __init__(self, sim, gen, sim_args, store, traces, timeout_s, git_rev, backend,
                 trace_tool=None):
        self.sim, self.gen, self.sim_args = sim, gen, list(sim_args)
        self.trace_tool, self.trace_info = trace_tool, {}
        # keep_traces = false: {trace id: runs still to use it} (local backend), else None
        self.trace_users = None
        self.store, self.traces, self.timeout_s = store, traces, timeout_s
        self.git_rev, self.backend, self.host = git_rev, backend, socket.gethostname()
        self.stop = threading.Event()
        self.locks, self.locks_lock = {}, threading.Lock()
        self.children, self.children_lock = set(), threading.RLock()  # signal handlers

    def to_json(self):
        return {"sim": self.sim, "gen": self.gen, "sim_args": self.sim_args,
                "trace_tool": self.trace_tool,
                "store": self.store, "traces": self.traces, "timeout_s": self.timeout_s,
                "git_rev": self.git_rev}

    def lock(self, key):
        with self.locks_lock:
            return self.locks.setdefault(key, threading.Lock())

    def kill_children(self, sig=signal.SIGTERM):
        with self.children_lock:
            for p in list(self.children):
                signal_child(p, sig)


def signal_child(p, sig):
    """sig to a child not yet reaped (os.kill: Popen.send_signal would poll, and could reap the
    child before spawn_wait's wait4 sees its rusage)."""
    if p.returncode is None:
        try:
            os.kill(p.pid, sig)
        except OSError:
            pass


def spawn_wait(ctx, cmd, log_path, timeout_s):
    """cmd with stdout and stderr into log_path; (exit status, rusage, timed out). The exit
    status is negative for a signal (as subprocess's)."""
    with open(log_path, "wb") as log:
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    with ctx.children_lock:
        ctx.children.add(p)
        if ctx.stop.is_set():  # interrupted between the check in execute and the start
            signal_child(p, signal.SIGTERM)
    timer, timed_out = None, []
    if timeout_s:
        def kill():
            with ctx.children_lock:
                timed_out.append(1)
                signal_child(p, signal.SIGKILL)
        timer = threading.Timer(timeout_s, kill)
        timer.start()
    try:
        while True:
            try:
                # wait, don't reap: the child stays a zombie (its pid not reusable) until
                # returncode is set under the lock that every signal_child holds
                os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
                break
            except InterruptedError:
                continue
        with ctx.children_lock:
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            ctx.children.discard(p)
    finally:
        if timer:
            timer.cancel()
        with ctx.children_lock:
            ctx.children.discard(p)
    return p.returncode, ru, bool(timed_out)


def tail(path, n=LOG_TAIL):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - n))
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def make_trace(ctx, tid, cmd, what):
    """The cached trace tid, made by cmd + [tmp] (to a temporary name, then renamed) once."""
    path = os.path.join(ctx.traces, tid + ".trc")
    with ctx.lock(tid):
        if os.path.exists(path):
            return path
        os.makedirs(ctx.traces, exist_ok=True)
        tmp = st.tmp_name(ctx.traces, tid + ".trc")
        log = tmp + ".log"
        try:
            rc, _, _ = spawn_wait(ctx, cmd(tmp), log, 0)
            if rc != 0:
                if ctx.stop.is_set():
                    raise Stop()
                raise RuntimeError(f"{what}: exit {rc}\n" + tail(log))
            os.replace(tmp, path)
        finally:
            for f in (tmp, log):
                if os.path.exists(f):
                    os.unlink(f)
    return path


def gen_trace(ctx, tid, gen_args):
    return make_trace(ctx, tid, lambda out: [ctx.gen] + gen_args + ["-o", out],
                      f"gmmu-gen {' '.join(gen_args)}")


def trace_path(ctx, run):
    """The run's trace: a trace file, or its generated (or mixed) trace from the cache."""
    spec = run["trace"]
    if "file" in spec:
        return spec["file"]
    if "mix" in spec:
        parts = [gen_trace(ctx, c["id"], c["gen_args"]) for c in spec["mix"]]
        return make_trace(ctx, run["trace_id"],
                          lambda out: [ctx.trace_tool, "mix", out] + parts,
                          f"gmmu-trace mix of {' + '.join(c['gen_args'][0] for c in spec['mix'])}")
    return gen_trace(ctx, run["trace_id"], spec["gen_args"])


def trace_vars(ctx, trace):
    """The variables of override expressions for a trace: footprint_pages (distinct 4 KB pages
    touched) and alloc_pages (allocated bytes / 4096), from gmmu-trace stats (cached)."""
    with ctx.lock("info:" + trace):
        if trace in ctx.trace_info:
            return ctx.trace_info[trace]
        r = subprocess.run([ctx.trace_tool, "stats", trace], capture_output=True, text=True)
        v = {}
        for ln in r.stdout.split("\n"):
            f = ln.split()
            if ln.startswith("distinct pages") and len(f) >= 3:
                v["footprint_pages"] = int(f[2])
            elif ln.startswith("allocations") and len(f) >= 3:
                v["alloc_pages"] = -(-int(f[2].lstrip("(")) // 4096)
        if r.returncode != 0 or len(v) != 2:
            raise RuntimeError(f"gmmu-trace stats {trace}: exit {r.returncode}: "
                               f"{r.stderr.strip()[-500:]}")
        ctx.trace_info[trace] = v
        return v


def sim_cmd(ctx, run, trace, stats, sets):
    cmd = [ctx.sim, "--engine", run["engine"], "--config", run["config_file"], "--trace", trace,
           "--seed", str(run["seed"]), "--quiet", "--stats", stats] + ctx.sim_args
    for s in sets:
        cmd += ["--set", s]
    return cmd


def trace_recipe(run, trace):
    spec = run["trace"]
    if "mix" in spec:
        return "mix: " + " + ".join(" ".join(c["gen_args"]) for c in spec["mix"])
    return " ".join(spec.get("gen_args", [])) or trace


def trace_ids(run):
    """The cached traces a run uses: its own (generated or mixed) and a mix's applications."""
    spec = run["trace"]
    if "file" in spec:
        return []
    return [run["trace_id"]] + [c["id"] for c in spec.get("mix", [])]


def release_traces(ctx, run):
    """keep_traces = false: delete each cached trace of the run that no later run uses."""
    if ctx.trace_users is None:
        return
    for tid in trace_ids(run):
        with ctx.lock(tid):
            ctx.trace_users[tid] -= 1
            if ctx.trace_users[tid] == 0:
                path = os.path.join(ctx.traces, tid + ".trc")
                if os.path.exists(path):
                    os.unlink(path)


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def execute(ctx, run):
    """One run: its result record written atomically (True), or its failure recorded (False).
    Raises Stop when the sweep is interrupted (nothing written)."""
    key, store = run["key"], ctx.store
    if ctx.stop.is_set():
        raise Stop()
    failed = os.path.join(store, "failed", key + ".json")
    stats = os.path.join(store, "tmp", f"{key}@{st.owner_tag()}.stats.json")
    log = os.path.join(store, "logs", key + ".log")
    cmd = None
    try:
        trace = trace_path(ctx, run)
        sets = run["sets"]
        if sd.has_expr(sets):
            try:
                sets = sd.resolve_sets(sets, trace_vars(ctx, trace))
            except sd.StudyError as e:
                raise RuntimeError(str(e)) from None
        cmd = sim_cmd(ctx, run, trace, stats, sets)
        t0 = time.monotonic()
        rc, ru, timed_out = spawn_wait(ctx, cmd, log, ctx.timeout_s)
        wall = time.monotonic() - t0
        if rc != 0 and (ctx.stop.is_set() or rc == -signal.SIGINT):
            raise Stop()  # interrupted (Ctrl-C reaches the children first): no record
        err = None
        if timed_out:
            err = f"timed out after {ctx.timeout_s} s"
        elif rc != 0:
            err = f"exit status {rc}"
        else:
            try:
                with open(stats) as f:
                    sj = json.load(f)
            except (OSError, ValueError) as e:
                err = f"stats file unreadable: {e}"
        if err:
            st.write_atomic(failed, {"key": key, "name": run["name"], "error": err,
                                     "command": cmd, "log_tail": tail(log), "host": ctx.host,
                                     "finished_utc": now_utc()})
            release_traces(ctx, run)
            return False
        trace_sha = sd.sha256_file(trace)[:sd.KEY_LEN]
        rec = {"key": key, "name": run["name"], "axes": run["axes"], "stats": sj,
               "wall_s": round(wall, 3), "user_s": round(ru.ru_utime, 3),
               "sys_s": round(ru.ru_stime, 3), "maxrss_kb": ru.ru_maxrss,
               "git_rev": ctx.git_rev, "host": ctx.host, "sim_id": run["sim_id"],
               "trace_id": run["trace_id"], "trace_sha256": trace_sha, "command": cmd,
               "trace_recipe": trace_recipe(run, trace),
               "finished_utc": now_utc(), "backend": ctx.backend}
        st.write_atomic(st.result_path(store, key), rec)
        if os.path.exists(failed):
            os.unlink(failed)
        release_traces(ctx, run)
        return True
    except RuntimeError as e:  # no trace, no footprint, an expression without a value
        st.write_atomic(failed, {"key": key, "name": run["name"], "error": str(e),
                                 "command": cmd, "host": ctx.host, "finished_utc": now_utc()})
        return False
    finally:
        if os.path.exists(stats):
            os.unlink(stats)


def hms(s):
    s = int(s)
    return f"{s // 3600:d}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    """Runs done / failed / running, elapsed time and an estimate of the time left."""

    def __init__(self, total, skipped, name, every=10.0):
        self.total, self.skipped, self.name = total, skipped, name
        self.done = self.failed = self.running = 0
        self.t0 = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.every, self.last = (0.5 if self.tty else every), 0.0

    def line(self):
        el = time.monotonic() - self.t0
        n = self.done + self.failed
        left = self.total - self.skipped - n
        eta = hms(el / n * left) if n else "?"
        return (f"gmmu-sweep {self.name}: {self.skipped + self.done}/{self.total} done "
                f"({self.skipped} before), {self.failed} failed, {self.running} running, "
                f"{hms(el)} elapsed, ETA {eta}")

    def show(self, force=False):
        t = time.monotonic()
        if not force and t - self.last < self.every:
            return
        self.last = t
        if self.tty:
            sys.stderr.write("\r" + self.line() + "\033[K")
            if force:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(self.line() + "\n")
        sys.stderr.flush()


def run_local(ctx, runs, jobs, name, quiet=False, keep_traces=True):
    """The runs that have no result, jobs at a time. Returns (passed, failed). SIGINT or SIGTERM
    stops the children and raises KeyboardInterrupt once every thread has ended (nothing
    half-written: results are renamed into place only when complete)."""
    todo, seen = [], set()
    for r in runs:
        if r["key"] in seen or st.has_result(ctx.store, r["key"]):
            continue
        seen.add(r["key"])
        todo.append(r)
    total = len({r["key"] for r in runs})
    prog = Progress(total, total - len(todo), name)
    if not keep_traces:
        ctx.trace_users = {}
        for r in todo:
            for tid in trace_ids(r):
                ctx.trace_users[tid] = ctx.trace_users.get(tid, 0) + 1

    def on_signal(_signum, _frame):
        ctx.stop.set()
        ctx.kill_children()

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        pending = {ex.submit(execute, ctx, r) for r in todo}
        prog.running = min(jobs, len(todo))
        while pending and not ctx.stop.is_set():
            finished, pending = concurrent.futures.wait(pending, timeout=0.5)
            for f in finished:
                try:
                    ok = f.result()
                except Stop:
                    continue
                prog.done += ok
                prog.failed += not ok
            prog.running = min(jobs, len(pending))
            if not quiet:
                prog.show()
    finally:
        if ctx.stop.is_set() or sys.exc_info()[0] is not None:
            ctx.stop.set()
            ctx.kill_children()
        ex.shutdown(wait=True, cancel_futures=True)
        for sig, h in old.items():
            signal.signal(sig, h)
    if not quiet:
        prog.running = 0
        prog.show(force=True)
    if ctx.stop.is_set():
        raise KeyboardInterrupt()
    return prog.done, prog.failed
