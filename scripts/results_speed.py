#!/usr/bin/env python3
"""results_speed.py - the C model's speed from a gmmu-sweep store (issue 23 item 6's report;
docs/sweep.md "Speed"): per run, the simulated time, gmmu-sim's wall and user CPU time (the
store's run_wall_s / run_user_s: the simulator alone, not the trace generator), the simulated
time per wall second and how many times slower than the simulated GPU the C model runs (wall
time / simulated time; the suite has no measurement of a real H100, so the simulated time stands
for it: the calibration keeps the model in the measured band on the probe's rows).

  results_speed.py --store results.sqlite [--table-name speed_suite264] [--table MD]
"""
import argparse
import os

from results_store import read_table, run_failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--table-name", default="speed_suite264")
    ap.add_argument("--table", help="write the Markdown table here too")
    a = ap.parse_args()
    rows = read_table(a.store, a.table_name, "results_speed",
                      f"gmmu-sweep run and collect studies/{a.table_name}.toml")
    lines = ["| workload | simulated cycles | simulated time | C model wall / user | simulated "
             "per wall second | slower than the simulated H100 (wall / user) |",
             "|---|---|---|---|---|---|"]
    tot = [0.0, 0.0, 0.0]
    bad = 0
    for r in sorted(rows, key=lambda r: r["workload"]):
        if run_failed(r):
            bad += 1
            lines.append(f"| {r['workload']} | run failed | | | | |")
            continue
        sim_s = r["sim_time_ns"] / 1e9
        wall, user = float(r["run_wall_s"]), float(r["run_user_s"])
        tot = [tot[0] + sim_s, tot[1] + wall, tot[2] + user]
        lines.append(f"| {r['workload']} | {r['cycles'] / 1e6:.2f} M | {sim_s * 1e3:.3g} ms | "
                     f"{wall:.1f} s / {user:.1f} s | {sim_s * 1e3 / wall:.3g} ms | "
                     f"{wall / sim_s:,.0f}x / {user / sim_s:,.0f}x |")
    if tot[0] > 0:
        lines.append(f"| **all {len(rows) - bad}** | | {tot[0] * 1e3:.3g} ms | {tot[1]:.1f} s / "
                     f"{tot[2]:.1f} s | {tot[0] * 1e3 / tot[1]:.3g} ms | "
                     f"{tot[1] / tot[0]:,.0f}x / {tot[2] / tot[0]:,.0f}x |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.table:
        os.makedirs(os.path.dirname(a.table) or ".", exist_ok=True)
        with open(a.table, "w") as f:
            f.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
