#!/usr/bin/env python3
"""Coverage report of make coverage (docs/verification.md "Coverage").

  report.py MERGED.dat --points "$(cover_points.py --list)" [--waivers FILE] -o report.md

Reads a Verilator coverage file (merged over every run by verilator_coverage --write) and writes:
the line, branch and toggle totals of the RTL (rtl/*.sv; the generated cover file itself is not
counted) per file, and every explicit cover point (tb/coverage/cover_points.py: Verilator
--coverage-user counts of the SV `cover property` statements, summed over the instances of
its module) with its count and its status. A point is `hit` (count > 0), `waived` (listed in
the waiver file with a reason) or `UNHIT`. A listed point absent from the data (not compiled
in) is an error. Exit status 1 if any point is UNHIT or absent, else 0.

Waiver file: one `module:point  reason` per line (the point may use shell wildcards; # comments);
a waiver without a reason, or one that matches no point, is an error; a waived point that is
hit is reported (the waiver can go).
"""
import argparse
import collections
import fnmatch
import os
import re
import sys


def parse_dat(path):
    """[(fields dict, count)] of a Verilator coverage file."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            fields = {}
            for part in m.group(1).split("\x01")[1:]:
                k, _, v = part.partition("\x02")
                fields[k] = v
            out.append((fields, int(m.group(2))))
    return out


def read_waivers(path, names):
    waivers = []
    errors = []
    if not path or not os.path.exists(path):
        return waivers, errors
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            pat, _, reason = line.partition(" ")
            reason = reason.strip()
            if not reason:
                errors.append("%s:%d: waiver %s has no reason" % (path, n, pat))
                continue
            if not any(fnmatch.fnmatchcase(p, pat) for p in names):
                errors.append("%s:%d: waiver %s matches no cover point" % (path, n, pat))
                continue
            waivers.append((pat, reason))
    return waivers, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dat")
    ap.add_argument("--points", required=True, help="output of cover_points.py --list")
    ap.add_argument("--waivers")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()

    listed = []  # (id, description)
    for line in a.points.splitlines():
        if line.strip():
            pid, _, desc = line.partition("  ")
            listed.append((pid.strip(), desc.strip()))
    names = [p for p, _ in listed]

    recs = parse_dat(a.dat)
    kinds = collections.defaultdict(lambda: [0, 0])            # kind -> [hit, total]
    per_file = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    counts = collections.Counter()
    seen = set()
    inst = collections.defaultdict(list)
    for fields, count in recs:
        page = fields.get("page", "")
        kind, _, mod = page.partition("/")
        if kind == "v_user":
            pid = "%s:%s" % (re.sub(r"_cov$", "", mod), fields.get("o", ""))
            counts[pid] += count
            seen.add(pid)
            inst[pid].append((fields.get("h", ""), count))
            continue
        fname = os.path.basename(fields.get("f", ""))
        if fname == "gmmu_cover.sv" or not fname.endswith(".sv"):
            continue
        kinds[kind][1] += 1
        per_file[fname][kind][1] += 1
        if count > 0:
            kinds[kind][0] += 1
            per_file[fname][kind][0] += 1

    waivers, errors = read_waivers(a.waivers, names)
    rows = []
    unhit, waived_hit = [], []
    for pid, desc in listed:
        w = next((r for p, r in waivers if fnmatch.fnmatchcase(pid, p)), None)
        if pid not in seen:
            status = "ABSENT"
            errors.append("cover point %s is not in the coverage data (not compiled in?)" % pid)
        elif counts[pid] > 0:
            status = "hit"
            if w:
                waived_hit.append(pid)
        elif w:
            status = "waived: " + w
        else:
            status = "UNHIT"
            unhit.append(pid)
        rows.append((pid, counts.get(pid, 0), status, desc))

    def pct(h, t):
        return "%d/%d (%.1f%%)" % (h, t, 100.0 * h / t) if t else "-"

    hit_n = sum(1 for r in rows if r[2] == "hit")
    waived_n = sum(1 for r in rows if r[2].startswith("waived"))
    with open(a.output, "w") as f:
        f.write("# RTL coverage (make coverage)\n\n")
        f.write("Data: `%s` (%d coverage records).\n\n" % (a.dat, len(recs)))
        f.write("| kind | covered |\n|---|---|\n")
        for k in ("v_line", "v_branch", "v_toggle"):
            if k in kinds:
                f.write("| %s | %s |\n" % (k[2:], pct(*kinds[k])))
        f.write("| cover points | %d/%d hit, %d waived, %d unhit |\n\n" % (
            hit_n, len(rows), waived_n, len(unhit)))
        f.write("## Per file\n\n| file | line | branch | toggle |\n|---|---|---|---|\n")
        for fname in sorted(per_file):
            d = per_file[fname]
            f.write("| %s | %s | %s | %s |\n" % (fname, pct(*d["v_line"]), pct(*d["v_branch"]),
                                                pct(*d["v_toggle"])))
        f.write("\n## Cover points\n\n| point | count | status | what |\n|---|---|---|---|\n")
        for pid, c, st, desc in rows:
            f.write("| `%s` | %d | %s | %s |\n" % (pid, c, st, desc))
        f.write("\n## Never hit\n\n")
        nh = [r for r in rows if r[1] == 0]
        f.write("".join("- `%s` (%s)\n" % (r[0], r[2]) for r in nh) or "none\n")
        if waived_hit:
            f.write("\nWaived but hit (the waiver can go): %s\n" % ", ".join(waived_hit))
        f.write("\n## Per instance\n\n")
        for pid, _ in listed:
            f.write("- `%s`: %s\n" % (pid, ", ".join(
                "%s %d" % (re.sub(r"^TOP\.gmmu_top\.|\.u_cov\..*$", "", h), c)
                for h, c in sorted(inst.get(pid, [])))))
    print("coverage: line %s, branch %s, toggle %s; cover points %d/%d hit, %d waived, "
          "%d unhit; report %s" % (pct(*kinds["v_line"]), pct(*kinds["v_branch"]),
                                   pct(*kinds["v_toggle"]), hit_n, len(rows), waived_n,
                                   len(unhit), a.output))
    for e in errors:
        print("coverage: error: " + e, file=sys.stderr)
    for p in unhit:
        print("coverage: UNHIT %s" % p, file=sys.stderr)
    return 1 if unhit or errors else 0


if __name__ == "__main__":
    sys.exit(main())
