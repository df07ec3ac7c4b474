"""results_store.py - what the study scripts share: read one table of a gmmu-sweep results store
(SQLite, read-only), check a run's error counters, the geometric mean. Every results_*.py plots
from the store only (docs/sweep.md)."""

import math
import os
import sqlite3
import sys


def read_table(path, table, prog, hint):
    """Rows (dicts) of `table` in the store at `path`; exits with `prog: ...` when the store is
    missing (`hint`: the command that makes it) or unreadable."""
    if not os.path.isfile(path):
        sys.exit(f"{prog}: {path}: no results store ({hint})")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute('SELECT * FROM "%s"' % table.replace('"', '""'))]
    except sqlite3.Error as e:
        sys.exit(f"{prog}: {path}: {e}")
    finally:
        db.close()


def run_failed(r):
    """True when a stored run exited non-zero or counted integrity/platform errors or fatal
    faults."""
    return bool(r["exit_status"] or r["integrity_errors"] or r["platform_errors"]
                or r["fatal_faults"])


def geomean(xs):
    """Geometric mean of positive values; NaN for none."""
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
