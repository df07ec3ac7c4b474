#!/usr/bin/env python3
"""big_table.py - the table of docs/workloads.md "Results at 264 MB" from the statistics that
`make traces-check` writes (DIR/check/<workload>.big.json, gmmu-sim --stats).

  big_table.py build/traces/check [--seconds build/traces/check.json]

Columns (all from the stats, nothing typed in):
  L1 hit rate          l1_hits / translations
  walks / translation  walks / translations
  far-faults / page    far_faults / pages_h2d (posted faults per page migrated)
  faults / batch       faults_fetched / fault_batches (what the handler services per batch)
  evictions            pages evicted (the footprint exceeds the GPU memory of the configuration)
  read-ahead peak      trace_buffer_peak: most trace instructions held at once by the lazy reader
"""
import argparse
import glob
import json
import os
import sys

PATTERN = {
    "backprop": "regular", "hotspot": "regular", "pathfinder": "regular", "srad": "regular",
    "kmeans": "regular", "nn": "regular", "sgemm": "regular", "stencil": "regular",
    "nw": "regular (column)", "gaussian": "regular (column)", "atax": "regular (column)",
    "bfs": "irregular", "sssp": "irregular", "pagerank": "irregular", "bst": "irregular",
    "xsbench": "irregular",
}


def millions(x):
    return "%.1f M" % (x / 1e6)


def ratio(a, b, fmt="%.2f"):
    return fmt % (a / b) if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", help="directory of <workload>.big.json")
    ap.add_argument("--seconds", help="check.json of traces_check.py (wall time per run)")
    a = ap.parse_args()
    secs = {}
    if a.seconds and os.path.exists(a.seconds):
        with open(a.seconds) as f:
            secs = {r["name"]: r["seconds"] for r in json.load(f) if r["kind"] == "big"}
    files = sorted(glob.glob(os.path.join(a.dir, "*.big.json")))
    if not files:
        sys.exit(f"big_table: no *.big.json in {a.dir}")
    rows = []
    for path in files:
        name = os.path.basename(path)[:-len(".big.json")]
        with open(path) as f:
            s = json.load(f)
        tr = s["translations"]
        rows.append((PATTERN.get(name, "?"), name, [
            millions(s["instructions"]), millions(tr), str(s["pages_h2d"]),
            ratio(s["l1_hits"], tr), ratio(s["walks"], tr), ratio(s["far_faults"], s["pages_h2d"]),
            ratio(s["faults_fetched"], s["fault_batches"], "%.1f"), str(s["evictions"]),
            str(s["integrity_errors"]), str(s.get("trace_buffer_peak", "-")), s.get("result", "?"),
            "%.0f s" % secs.get(name, s["wall_seconds"])]))
    print("| workload | pattern | instructions | translations | pages migrated | L1 hit rate "
          "| walks / translation | far-faults / page | faults / batch | evictions "
          "| integrity errors | read-ahead peak | result | wall |")
    print("|" + "---|" * 14)
    for pattern, name, cols in sorted(rows, key=lambda r: (r[0].split()[0] == "irregular", r[1])):
        print("| %s | %s | %s |" % (name, pattern, " | ".join(cols)))


if __name__ == "__main__":
    main()
