#!/usr/bin/env python3
"""gen_filelist.py - write the Verilator/Yosys file list (rtl/files.f) from the rtl fileset of the
FuseSoC core file (gmmu.core), the one list of the RTL's files.

  gen_filelist.py gmmu.core -o rtl/files.f

Include files (is_include_file) become +incdir+<their folder>; the other files are listed in the
core's order (packages first).
"""
import argparse
import os
import sys

import yaml


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("core")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    try:
        with open(a.core) as f:
            text = f.read()
        core = yaml.safe_load(text)
        files = core["filesets"]["rtl"]["files"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as e:
        sys.exit(f"gen_filelist: {a.core}: no readable filesets.rtl.files ({e})")
    incdirs, srcs = [], []
    for n, entry in enumerate(files, 1):
        if isinstance(entry, str):
            path, attrs = entry, {}
        elif isinstance(entry, dict) and len(entry) == 1:
            path, attrs = next(iter(entry.items()))
            attrs = attrs or {}
        else:
            sys.exit(f"gen_filelist: {a.core}: filesets.rtl.files[{n}]: expected a path or "
                     "'path: {{...}}'")
        if attrs.get("is_include_file"):
            d = os.path.dirname(path)
            if d not in incdirs:
                incdirs.append(d)
        else:
            srcs.append(path)
    with open(a.out, "w") as f:
        f.write("// generated from gmmu.core by scripts/gen_filelist.py (make gen); do not edit\n")
        f.writelines(f"+incdir+{d}\n" for d in incdirs)
        f.writelines(f"{s}\n" for s in srcs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
