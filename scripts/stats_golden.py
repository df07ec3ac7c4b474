#!/usr/bin/env python3
"""stats_golden.py - behaviour-preservation check: the statistics of every directed co-simulation
test (tb/tests/*.test), every small workload trace and the real Accel-Sim traces, compared with a
snapshot taken before a refactoring (make stats-golden / make stats-check).

  stats_golden.py collect OUT.json   read the stats files of the last `make cosim-regress` and
                                     `make traces-check TRACES_CHECK_ARGS=--only small` runs
                                     (build/cosim/*/stats*.json, build/traces/check/*.cosim.json)
                                     into one snapshot
  stats_golden.py compare GOLD.json NEW.json [--present]
                                     every run of GOLD must exist in NEW with identical values
                                     (wall time and paths excluded); prints each difference.
                                     --present: only the runs NEW has (make test runs a subset of
                                     the traces); a run of NEW that GOLD lacks is still an error

A refactoring that must not change behaviour keeps `compare` silent. An intended change of
behaviour re-snapshots GOLD in the same commit and says why in its message.
"""
import glob
import json
import os
import sys

# keys that depend on the host, the path of the build or the wall clock, not on behaviour
IGNORED = {"wall_seconds", "trace", "config_file"}


def load(path):
    with open(path) as f:
        st = json.load(f)
    return {k: v for k, v in st.items() if k not in IGNORED}


def collect(build, out):
    runs = {}
    for p in sorted(glob.glob(os.path.join(build, "cosim", "*", "stats*.json"))):
        test = os.path.basename(os.path.dirname(p))
        tag = os.path.basename(p)[len("stats"):-len(".json")]
        runs["test:" + test + tag] = load(p)
    for p in sorted(glob.glob(os.path.join(build, "traces", "check", "*.cosim.json"))):
        runs["trace:" + os.path.basename(p)[:-len(".cosim.json")]] = load(p)
    if not runs:
        sys.exit(f"stats_golden: no stats files under {build}/cosim or {build}/traces/check")
    with open(out, "w") as f:
        json.dump(runs, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"stats_golden: {len(runs)} runs -> {out}")


def compare(gold_path, new_path, present=False):
    with open(gold_path) as f:
        gold = json.load(f)
    with open(new_path) as f:
        new = json.load(f)
    diffs = [f"{run}: not in {gold_path} (a new run: re-take the snapshot, make stats-golden)"
             for run in sorted(set(new) - set(gold))]
    skipped = 0
    for run in sorted(gold):
        if run not in new:
            if present:
                skipped += 1
            else:
                diffs.append(f"{run}: missing from {new_path}")
            continue
        g, n = gold[run], new[run]
        for k in sorted(set(g) | set(n)):
            if g.get(k) != n.get(k):
                diffs.append(f"{run}: {k}: {g.get(k)!r} before, {n.get(k)!r} now")
    for d in diffs:
        print("stats_golden: " + d)
    print(f"stats_golden: {len(gold) - skipped} runs compared, {len(diffs)} differences"
          + (f" ({skipped} runs of the snapshot not run)" if skipped else ""))
    return 1 if diffs else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "collect":
        collect(os.environ.get("BUILD", "build"), sys.argv[2])
        return 0
    if len(sys.argv) in (4, 5) and sys.argv[1] == "compare":
        if len(sys.argv) == 5 and sys.argv[4] != "--present":
            sys.exit(__doc__)
        return compare(sys.argv[2], sys.argv[3], len(sys.argv) == 5)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
