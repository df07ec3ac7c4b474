"""slurm.py - the slurm backend: the missing runs of a study as one `sbatch --array` job, chunks
of runs per array task, a log per task, results written atomically into the shared store by
`gmmu-sweep worker`; `run` waits for the array, then resubmits what is still missing (a failed,
killed or timed-out task) up to --retries times (docs/sweep.md "Slurm").

Each batch lives in <store>/slurm/<batch>/: manifest.json (the context and the chunks of runs,
so a task needs neither the study file nor a plan), batch.sh (the sbatch script), jobid, and
task-<i>.out (the task's output). The store and the trace cache must be on a file system that
every node sees (the repository's build/ on a shared home does).
"""
import json
import os
import shlex
import signal
import subprocess
import sys
import time

from . import runner, store as st

POLL_S = 1.0


def sh(cmd, check=True):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit(f"gmmu-sweep: {cmd[0]}: not found (a Slurm client; make deps installs "
                 "slurm-wlm)")
    if check and r.returncode != 0:
        sys.exit(f"gmmu-sweep: {' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return r


def active_tasks(job_ids):
    """The array tasks of these jobs that slurm still lists (pending, running, completing)."""
    if not job_ids:
        return []
    r = sh(["squeue", "-h", "-r", "-j", ",".join(job_ids), "-o", "%i %T"], check=False)
    if r.returncode != 0:  # a job slurm has already forgotten
        out = []
        for j in job_ids:
            q = sh(["squeue", "-h", "-r", "-j", j, "-o", "%i %T"], check=False)
            out += q.stdout.split("\n") if q.returncode == 0 else []
        return [ln for ln in out if ln.strip()]
    return [ln for ln in r.stdout.split("\n") if ln.strip()]


def batches(store):
    """(batch dir, job id, manifest keys) of every batch submitted into this store."""
    d = os.path.join(store, "slurm")
    out = []
    if not os.path.isdir(d):
        return out
    for b in sorted(os.listdir(d)):
        jp = os.path.join(d, b, "jobid")
        if os.path.exists(jp):
            with open(jp) as f:
                jid = f.read().strip()
            with open(os.path.join(d, b, "manifest.json")) as f:
                keys = {r["key"] for c in json.load(f)["chunks"] for r in c}
            out.append((os.path.join(d, b), jid, keys))
    return out


def submit(args, s, ctx, todo, attempt):
    """todo as one array job; returns (job id, batch dir)."""
    chunk = max(1, args.chunk)
    chunks = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    bdir = os.path.join(s["store"], "slurm", f"{stamp}-{os.getpid()}-{attempt}")
    os.makedirs(bdir)
    manifest = os.path.join(bdir, "manifest.json")
    st.write_atomic(manifest, {"study": s["name"], "context": ctx.to_json(), "chunks": chunks})
    tool = os.path.join(s["root"], "scripts", "gmmu-sweep")
    script = os.path.join(bdir, "batch.sh")
    with open(script, "w") as f:
        f.write("#!/bin/bash\n"
                f"#SBATCH --job-name=gmmu-sweep-{s['name']}\n"
                f"#SBATCH --array=0-{len(chunks) - 1}\n"
                f"#SBATCH --output={bdir}/task-%a.out\n"
                f"#SBATCH --chdir={s['root']}\n"
                "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
                f"exec {shlex.quote(sys.executable)} {shlex.quote(tool)} worker "
                f"{shlex.quote(manifest)} \"$SLURM_ARRAY_TASK_ID\"\n")
    r = sh(["sbatch", "--parsable"] + shlex.split(args.sbatch_args) + [script])
    jid = r.stdout.strip().split(";")[0]
    with open(os.path.join(bdir, "jobid"), "w") as f:
        f.write(jid + "\n")
    print(f"gmmu-sweep: {s['name']}: submitted {len(todo)} runs as job {jid} "
          f"({len(chunks)} array tasks of <= {chunk} runs; {bdir})", file=sys.stderr)
    return jid, bdir


def wait(s, jids, keys, quiet):
    """Until slurm lists no task of these jobs; a progress line meanwhile."""
    t0, last = time.monotonic(), 0.0
    while True:
        act = active_tasks(jids)
        if not act:
            return
        t = time.monotonic()
        if not quiet and t - last >= (2.0 if sys.stderr.isatty() else 10.0):
            last = t
            done = sum(st.has_result(s["store"], k) for k in keys)
            running = sum(" RUNNING" in a for a in act)
            print(f"gmmu-sweep {s['name']}: {done}/{len(keys)} runs done, {running} tasks "
                  f"running, {len(act) - running} waiting, {runner.hms(t - t0)} elapsed",
                  file=sys.stderr)
        time.sleep(POLL_S)


def run(args, s, runs, ctx):
    keys = list(dict.fromkeys(r["key"] for r in runs))
    for attempt in range(args.retries + 1):
        earlier = batches(s["store"])
        live = {jid for _, jid, _ in earlier if active_tasks([jid])}
        if live and not args.no_wait:
            print(f"gmmu-sweep: waiting for earlier jobs {', '.join(sorted(live))}",
                  file=sys.stderr)
            wait(s, sorted(live), keys, args.quiet)
            live = set()
        in_flight = set().union(*[k for _, jid, k in earlier if jid in live]) if live else set()
        todo, seen = [], set()
        for r in runs:
            k = r["key"]
            if k in seen or k in in_flight or st.has_result(s["store"], k):
                continue
            seen.add(k)
            todo.append(r)
        if not todo:
            break
        if attempt:
            print(f"gmmu-sweep: {s['name']}: {len(todo)} runs still missing: resubmitting "
                  f"(attempt {attempt + 1} of {args.retries + 1})", file=sys.stderr)
        jid, _ = submit(args, s, ctx, todo, attempt)
        if args.no_wait:
            return 0
        wait(s, [jid], keys, args.quiet)
    missing = [k for k in keys if not st.has_result(s["store"], k)]
    print(f"gmmu-sweep: {s['name']}: {len(keys) - len(missing)}/{len(keys)} runs done"
          + (f", {len(missing)} missing after {args.retries + 1} submissions "
             f"(gmmu-sweep status -v; logs in {s['store']}/slurm)" if missing else ""),
          file=sys.stderr)
    return 1 if missing else 0


def worker(manifest, task):
    """One array task: its chunk's runs one after another (those already done skipped)."""
    with open(manifest) as f:
        m = json.load(f)
    if not 0 <= task < len(m["chunks"]):
        sys.exit(f"gmmu-sweep worker: {manifest}: no task {task} ({len(m['chunks'])} chunks)")
    c = m["context"]
    ctx = runner.Context(c["sim"], c["gen"], c["sim_args"], c["store"], c["traces"],
                         c["timeout_s"], c["git_rev"], "slurm", c.get("trace_tool"))

    def term(signum, _frame):  # scancel, time limit: stop the child, write nothing
        ctx.stop.set()
        ctx.kill_children()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, term)
    signal.signal(signal.SIGINT, term)
    st.ensure_dirs(ctx.store)
    failed = 0
    for r in m["chunks"][task]:
        if st.has_result(ctx.store, r["key"]):
            print(f"{r['key']} {r['name']}: done before", flush=True)
            continue
        t0 = time.monotonic()
        try:
            ok = runner.execute(ctx, r)
        except runner.Stop:
            return 128 + signal.SIGTERM
        failed += not ok
        print(f"{r['key']} {r['name']}: {'ok' if ok else 'FAILED'} "
              f"({time.monotonic() - t0:.1f} s)", flush=True)
    return 1 if failed else 0
