"""store.py - the results of a study: one JSON record per run key, written atomically, and the
table that `collect` makes of them (SQLite, docs/sweep.md "Results store").

Layout of a store directory:
  runs/<key>.json     the result record of a run that passed (written to a temporary name in the
                      same directory, then renamed: a reader never sees half a record)
  failed/<key>.json   the last failure of a run that has no result (exit status, log tail)
  logs/<key>.log      gmmu-sim's output of the last attempt
  tmp/                temporary files of runs in flight (removed when they end)
  slurm/<batch>/      manifests, batch scripts and per-task logs of the slurm backend
  results.sqlite      the table written by collect (one table named after the study)
"""
import json
import os
import socket
import sqlite3
import subprocess

# statistics that depend on the host, the checkout's path or the wall clock, not on behaviour
# (scripts/stats_golden.py's IGNORED): diff skips them
HOST_STATS = ["config_file", "trace", "wall_seconds"]
META = ["run_key", "run_name", "run_wall_s", "run_user_s", "run_sys_s", "run_maxrss_kb",
        "run_git_rev", "run_host", "run_sim_id", "run_trace_id", "run_trace_sha256", "run_trace_recipe",
        "run_finished_utc", "run_backend", "run_status", "run_error"]


def ensure_dirs(store):
    for d in ("runs", "failed", "logs", "tmp"):
        os.makedirs(os.path.join(store, d), exist_ok=True)


def owner_tag():
    """host@pid@thread: who writes a temporary file ('@' cannot be in a host name)."""
    import threading
    return f"{socket.gethostname()}@{os.getpid()}@{threading.get_ident()}"


def tmp_name(directory, base):
    """A temporary file name in directory, unique to this host, process and thread."""
    return os.path.join(directory, f".{base}@{owner_tag()}.tmp")


def owner_alive(name):
    """Whether the writer of a temporary file (named with owner_tag) may still run: False only
    for a process of this host that no longer exists."""
    parts = name.split("@")
    if len(parts) < 4:
        return True
    host, pid = parts[-3], parts[-2]
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass
    return True


def clean_stale(*dirs):
    """Remove the temporary files of processes of this host that died (SIGKILL, a crash):
    the half-written statistics in tmp/, records and traces never renamed into place."""
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for n in os.listdir(d):
            if "@" in n and not owner_alive(n):
                try:
                    os.unlink(os.path.join(d, n))
                except OSError:
                    pass


def write_atomic(path, obj):
    """obj as JSON at path, through a temporary file in the same directory and a rename."""
    tmp = tmp_name(os.path.dirname(path), os.path.basename(path))
    try:
        with open(tmp, "w") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def result_path(store, key):
    return os.path.join(store, "runs", key + ".json")


def has_result(store, key):
    return os.path.exists(result_path(store, key))


def read_record(path):
    with open(path) as f:
        return json.load(f)


def git_rev(root):
    """HEAD's commit, with '-dirty' when tracked files differ from it; 'unknown' outside git."""
    try:
        rev = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD", "--"],
                               capture_output=True).returncode != 0
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def status(store, runs):
    """{key: 'done' | 'failed' | 'running' | 'missing'} of the planned runs."""
    running = set()
    tdir = os.path.join(store, "tmp")
    if os.path.isdir(tdir):
        running = {n.split("@")[0] for n in os.listdir(tdir) if owner_alive(n)}
    out = {}
    for r in runs:
        k = r["key"]
        if has_result(store, k):
            out[k] = "done"
        elif k in running:
            out[k] = "running"
        elif os.path.exists(os.path.join(store, "failed", k + ".json")):
            out[k] = "failed"
        else:
            out[k] = "missing"
    return out


def flatten(d, prefix=""):
    """Nested dicts into dotted keys; lists into JSON text."""
    out = {}
    for k, v in d.items():
        name = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, name + "."))
        elif isinstance(v, list):
            out[name] = json.dumps(v)
        else:
            out[name] = v
    return out


def row_of(run, rec):
    """One row of the table: the planned run's axes, the record's metadata and statistics."""
    row = dict(run["axes"])
    for m in META:
        row[m] = rec.get(m[4:]) if m not in ("run_key", "run_name") else None
    row["run_key"], row["run_name"] = run["key"], run["name"]
    row["run_status"], row["run_error"] = ("failed", rec.get("error")) if "stats" not in rec \
        else ("done", None)
    for k, v in flatten(rec.get("stats", {})).items():
        # a statistic named like an axis (engine, seed) or a metadata column: "stat.<name>"
        row["stat." + k if k in row else k] = v
    return row


def sql_type(vals):
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals if v is not None):
        return "INTEGER"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals
           if v is not None):
        return "REAL"
    return "TEXT"


def collect(store, study_name, runs, out_path, with_failed=False):
    """Every planned run that has a result into one SQLite table (replaced); with_failed, also
    a row (axes, run_status 'failed', run_error, no statistics) per run whose last attempt
    failed. Returns (rows written, runs without a result)."""
    rows, missing = [], 0
    for r in runs:
        p = result_path(store, r["key"])
        if not os.path.exists(p):
            missing += 1
            fp = os.path.join(store, "failed", r["key"] + ".json")
            if with_failed and os.path.exists(fp):
                rows.append(row_of(r, read_record(fp)))
            continue
        rows.append(row_of(r, read_record(p)))
    cols = []
    for row in rows:
        for c in row:
            if c not in cols:
                cols.append(c)
    tmp = tmp_name(os.path.dirname(os.path.abspath(out_path)), os.path.basename(out_path))
    try:
        db = sqlite3.connect(tmp)
        q = '"' + study_name.replace('"', '""') + '"'
        decl = ", ".join('"%s" %s' % (c, sql_type([row.get(c) for row in rows])) for c in cols)
        db.execute(f"CREATE TABLE {q} ({decl})" if cols else f"CREATE TABLE {q} (run_key TEXT)")
        ph = ", ".join("?" for _ in cols)
        for row in rows:
            vals = [int(v) if isinstance(v, bool) else v for v in (row.get(c) for c in cols)]
            db.execute(f"INSERT INTO {q} VALUES ({ph})", vals)
        db.commit()
        db.close()
        if os.path.exists(out_path) and not os.path.exists(tmp):
            raise OSError(f"{tmp}: vanished")
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return len(rows), missing


def load_table(path, table=None):
    """(table name, [row dicts]) of a results.sqlite (its only table unless named)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: no such results store")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    if table is None:
        if len(names) != 1:
            raise ValueError(f"{path}: {len(names)} tables ({', '.join(names)}): name one")
        table = names[0]
    elif table not in names:
        raise ValueError(f"{path}: no table '{table}'")
    q = '"' + table.replace('"', '""') + '"'
    rows = [dict(r) for r in db.execute(f"SELECT * FROM {q}")]
    db.close()
    return table, rows
