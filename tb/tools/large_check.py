#!/usr/bin/env python3
"""large_check.py - checks the statistics of a large-page run of the workload suite
(make traces-check-large / test-traces-large, docs/cosim.md "Large pages").

usage: large_check.py CHECK_DIR MODE      (MODE: 2m, cocoa, cocoa-gmmu, cocoa-oversub,
                                            cocoa-gmmu-oversub)

Every run: zero mismatches, integrity errors, platform errors and model invariant violations.
Over the runs: large pages formed (2m: large_maps; cocoa: coalesces; cocoa-oversub: coalesces,
splinters and evictions), walks ended on a large entry (walks_large), translations hit large
entries in the L1 (l1_large_hit_cycles) and in the L2 (l2_large_hits). These three are the GMMU's
own events (ev_o: EV_WALK_LARGE, EV_L1_LARGE_HIT, EV_L2_LARGE_HIT), counted by the platform.
Prints one line per run. Exit status 1 if a check fails.
"""
import glob
import json
import os
import sys

RUN_ZERO = ("mismatches", "integrity_errors", "platform_errors", "model_violations", "co_errors")
SUM_POSITIVE = {
    "2m": ("large_maps", "walks_large", "l1_large_hit_cycles", "l2_large_hits"),
    "cocoa": ("coalesces", "walks_large", "l1_large_hit_cycles", "l2_large_hits"),
    "cocoa-oversub": ("coalesces", "splinters", "evictions", "walks_large",
                      "l1_large_hit_cycles"),
    # coalesce_by = gmmu: the GMMU's COALESCE / SPLINTER commands did the page-table writes
    "cocoa-gmmu": ("coalesces", "co_done", "gmmu_pte_writes", "walks_large",
                   "l1_large_hit_cycles", "l2_large_hits"),
    "cocoa-gmmu-oversub": ("coalesces", "splinters", "evictions", "co_done", "gmmu_pte_writes",
                           "walks_large", "l1_large_hit_cycles"),
}
COLS = ("cycles", "large_maps", "coalesces", "splinters", "large_evictions", "evictions",
        "walks", "walks_large", "l1_hits", "l1_large_hit_cycles", "l2_hits", "l2_large_hits",
        "pages_h2d", "cocoa_fallbacks")


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in SUM_POSITIVE:
        sys.exit(__doc__)
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.cosim.json")))
    if not files:
        sys.exit("large_check: no *.cosim.json under %s" % sys.argv[1])
    bad = []
    keys = set(COLS) | set(SUM_POSITIVE[sys.argv[2]])
    total = dict.fromkeys(keys, 0)
    print("%-28s " % "run" + " ".join("%9s" % c[:9] for c in COLS))
    for p in files:
        name = os.path.basename(p)[:-len(".cosim.json")]
        with open(p) as f:
            st = json.load(f)
        for k in RUN_ZERO:
            if st.get(k, 1) != 0:
                bad.append("%s: %s = %s" % (name, k, st.get(k)))
        for c in keys:
            total[c] += st.get(c, 0)
        print("%-28s " % name + " ".join("%9d" % st.get(c, 0) for c in COLS))
    print("%-28s " % "total" + " ".join("%9d" % total[c] for c in COLS))
    for k in SUM_POSITIVE[sys.argv[2]]:
        if total.get(k, 0) <= 0:
            bad.append("no run has %s > 0" % k)
    for b in bad:
        print("large_check: FAIL " + b)
    print("large_check: %s, %d runs, %s" % (sys.argv[2], len(files), "FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
