"""gmmu-sweep - parameter sweeps of the C model: plan, run (local or slurm), status, collect,
diff, figures. The study format and every command: docs/sweep.md.

  gmmu-sweep plan    STUDY [--json]
  gmmu-sweep run     STUDY [-j N] [--backend local|slurm] [--only REGEX] [--retry-failed]
  gmmu-sweep status  STUDY [-v]
  gmmu-sweep collect STUDY [-o results.sqlite]
  gmmu-sweep diff    A.sqlite B.sqlite [--tol REL] [--ignore REGEX]
  gmmu-sweep figures STUDY
"""
import argparse
import json
import os
import re
import subprocess
import sys

from . import runner, store as st, study as sd

EXIT_BAD_INPUT = 2


def die(msg, code=1):
    print(f"gmmu-sweep: {msg}", file=sys.stderr)
    sys.exit(code)


def load(args):
    s = sd.load(args.study, root=args.root)
    if getattr(args, "store", None):
        s["store"] = os.path.abspath(args.store)
    s["traces"] = os.path.abspath(args.traces) if getattr(args, "traces", None) else \
        os.path.join(args.root, "build/sweep/traces")
    return s


def planned(args, s):
    runs = sd.plan(s)
    if getattr(args, "only", None):
        try:
            rx = re.compile(args.only)
        except re.error as e:
            die(f"--only {args.only}: {e}", EXIT_BAD_INPUT)
        runs = [r for r in runs if rx.search(r["name"])]
    return runs


def cmd_plan(args):
    s = load(args)
    runs = planned(args, s)
    if args.json:
        json.dump(runs, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    for r in runs:
        print(f"{r['key']}  {r['name']}")
    print(f"# {len(runs)} runs, {len({r['key'] for r in runs})} distinct keys, "
          f"{len({r['trace_id'] for r in runs})} traces; store {s['store']}")
    return 0


def context(s, backend):
    return runner.Context(s["sim"], s["gen"], s["sim_args"], s["store"], s["traces"],
                          s["timeout_s"], st.git_rev(s["root"]), backend, s["trace_tool"])


def cmd_run(args):
    s = load(args)
    runs = planned(args, s)
    st.ensure_dirs(s["store"])
    st.clean_stale(*(os.path.join(s["store"], d) for d in ("tmp", "runs", "failed")),
                   s["traces"])
    if args.backend == "slurm":
        from . import slurm
        return slurm.run(args, s, runs, context(s, "slurm"))
    ctx = context(s, "local")
    try:
        passed, failed = runner.run_local(ctx, runs, args.jobs, s["name"], args.quiet,
                                          s["keep_traces"])
    except KeyboardInterrupt:
        print("gmmu-sweep: interrupted; finished runs are kept, run again to go on",
              file=sys.stderr)
        return 130
    if failed:
        print(f"gmmu-sweep: {failed} runs failed (gmmu-sweep status {args.study} -v; logs in "
              f"{s['store']}/logs)", file=sys.stderr)
    return 1 if failed else 0


def cmd_status(args):
    s = load(args)
    runs = planned(args, s)
    stt = st.status(s["store"], runs)
    counts = {k: 0 for k in ("done", "running", "failed", "missing")}
    for r in runs:
        counts[stt[r["key"]]] += 1
        if args.verbose and stt[r["key"]] != "done":
            extra = ""
            if stt[r["key"]] == "failed":
                fr = st.read_record(os.path.join(s["store"], "failed", r["key"] + ".json"))
                extra = f"  ({fr.get('error')}; log {s['store']}/logs/{r['key']}.log)"
            print(f"{stt[r['key']]:8} {r['key']}  {r['name']}{extra}")
    print(f"{s['name']}: {len(runs)} runs: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0 if counts["done"] == len(runs) else 3


def cmd_collect(args):
    s = load(args)
    runs = planned(args, s)
    out = args.output or os.path.join(s["store"], "results.sqlite")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    n, missing = st.collect(s["store"], s["name"], runs, out, args.with_failed)
    print(f"gmmu-sweep: {out}: table \"{s['name']}\", {n} runs"
          + (f", {missing} without a result (gmmu-sweep status)" if missing else ""))
    return 0 if not missing or args.partial else 3


def differs(a, b, tol):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and tol:
        return abs(a - b) > tol * max(abs(a), abs(b))
    return a != b


def cmd_diff(args):
    try:
        ta, ra = st.load_table(args.a, args.table)
        tb, rb = st.load_table(args.b, args.table)
    except (OSError, ValueError) as e:
        die(str(e), EXIT_BAD_INPUT)
    meta = (set(st.META) - {"run_name"}) | set(st.HOST_STATS)
    ign = re.compile(args.ignore) if args.ignore else None
    ia = {r["run_name"]: r for r in ra}
    ib = {r["run_name"]: r for r in rb}
    only_a = sorted(set(ia) - set(ib))
    only_b = sorted(set(ib) - set(ia))
    ndiff = 0
    for name in sorted(set(ia) & set(ib)):
        a, b = ia[name], ib[name]
        cols = [c for c in list(a) + [c for c in b if c not in a]
                if c not in meta and not (ign and ign.search(c))]
        d = [(c, a.get(c), b.get(c)) for c in cols if differs(a.get(c), b.get(c), args.tol)]
        if d:
            ndiff += 1
            print(f"{name}: {len(d)} statistics differ")
            for c, x, y in d[:args.max_stats]:
                print(f"  {c}: {x} -> {y}")
            if len(d) > args.max_stats:
                print(f"  ... {len(d) - args.max_stats} more")
    for n in only_a:
        print(f"only in A: {n}")
    for n in only_b:
        print(f"only in B: {n}")
    common = len(set(ia) & set(ib))
    print(f"gmmu-sweep diff: {common} runs in both ({ta} / {tb}), {ndiff} differ, "
          f"{len(only_a)} only in A, {len(only_b)} only in B")
    return 1 if ndiff or only_a or only_b else 0


def cmd_figures(args):
    s = load(args)
    db = os.path.join(s["store"], "results.sqlite")
    if not os.path.exists(db):
        die(f"{db}: no results store (gmmu-sweep collect {args.study})")
    rc = 0
    for f in s["figures"]:
        cmd = [c.replace("{store}", db).replace("{table}", s["name"])
               .replace("{python}", sys.executable) for c in f["command"]]
        print(f"gmmu-sweep: figure {f['name']}: {' '.join(cmd)}")
        r = subprocess.run(cmd, cwd=s["root"])
        if r.returncode:
            print(f"gmmu-sweep: figure {f['name']}: exit {r.returncode}", file=sys.stderr)
            rc = 1
    return rc


def cmd_worker(args):
    from . import slurm
    return slurm.worker(args.manifest, args.task)


def parser():
    ap = argparse.ArgumentParser(prog="gmmu-sweep", description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.getcwd(),
                    help="repository root: study paths are relative to it (default: .)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def study_cmd(name, fn, help_):
        p = sub.add_parser(name, help=help_)
        p.add_argument("study")
        p.add_argument("--store", help="store directory (default: the study's, "
                       "build/sweep/<name>)")
        p.add_argument("--traces", help="trace cache (default: build/sweep/traces)")
        p.add_argument("--only", help="only the runs whose name matches this regex")
        p.set_defaults(fn=fn)
        return p

    p = study_cmd("plan", cmd_plan, "list the runs and their keys")
    p.add_argument("--json", action="store_true", help="every run in full, as JSON")
    p = study_cmd("run", cmd_run, "execute the runs that have no result")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--backend", choices=["local", "slurm"], default="local")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--chunk", type=int, default=8, help="slurm: runs per array task")
    p.add_argument("--sbatch-args", default="", help="slurm: extra sbatch options")
    p.add_argument("--no-wait", action="store_true",
                   help="slurm: submit and return (default: wait, resubmit failures)")
    p.add_argument("--retries", type=int, default=2,
                   help="slurm: resubmissions of runs still missing after a batch")
    p = study_cmd("status", cmd_status, "done / running / failed / missing")
    p.add_argument("-v", "--verbose", action="store_true", help="list every run not done")
    p = study_cmd("collect", cmd_collect, "the results into one SQLite table")
    p.add_argument("-o", "--output", help="default: <store>/results.sqlite")
    p.add_argument("--partial", action="store_true", help="exit 0 even with runs missing")
    p.add_argument("--with-failed", action="store_true",
                   help="a row per failed run too (run_status, run_error; no statistics)")
    study_cmd("figures", cmd_figures, "run the study's [[figure]] commands on its store")
    p = sub.add_parser("diff", help="compare two results stores run by run")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--table")
    p.add_argument("--tol", type=float, default=0.0, help="relative tolerance of numbers")
    p.add_argument("--ignore", help="regex of columns not compared")
    p.add_argument("--max-stats", type=int, default=20)
    p.set_defaults(fn=cmd_diff)
    p = sub.add_parser("worker", help="(internal) one slurm array task")
    p.add_argument("manifest")
    p.add_argument("task", type=int)
    p.set_defaults(fn=cmd_worker)
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    args.root = os.path.abspath(args.root)
    try:
        return args.fn(args)
    except sd.StudyError as e:
        die(str(e), EXIT_BAD_INPUT)
    except BrokenPipeError:  # gmmu-sweep plan ... | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
