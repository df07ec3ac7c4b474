#!/usr/bin/env python3
"""make check-config-doc: the checks of scripts/spec_config.py on broken copies of
spec/config.toml.

Each case edits one entry of the real spec in a temporary copy and expects spec_config.py to
refuse it (exit 1) with a message naming the key or member and the reason:
  a default out of range, an enum default not among its values, a map of the wrong length, a
  member of uvm_cfg_t declared twice, with two defaults (its own and a key's) or with none, a
  key setting an unknown member, a policy key without a kind, a duplicate key, an unknown field;
and the real spec itself is accepted, its docs/config.md tables reproduced unchanged.
Exits non-zero (naming the case) if any outcome differs.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "scripts", "spec_config.py")
SPEC = os.path.join(ROOT, "spec", "config.toml")

CLOCK = 'name = "clock_mhz"\nowner = "platform"\ntype = "u32"\nmin = 1\nmax = 100000\ndefault = 1000'
CASES = [
    ("default out of range", CLOCK, CLOCK.replace("default = 1000", "default = 0"),
     "clock_mhz): default 0 is not in [1, 100000]"),
    ("enum default", 'default = "table"', 'default = "fast"',
     "(pcie_model): default 'fast' is not one of"),
    ("map length", "map = [1, 16]", "map = [1]", "(migrate_grow): map has one u32 per value"),
    ("duplicate member", 'name = "compact_pct"', 'name = "batch_size"',
     "(batch_size): duplicate field"),
    ("no default", "default = 25\n", "\n", "field compact_pct: needs exactly one default"),
    ("own default beside a key's", 'ctype = "uint32_t"\ndoc = "faults fetched per batch"',
     'ctype = "uint32_t"\ndefault = 3\ndoc = "faults fetched per batch"',
     "key batch_size: field 'batch_size' has a default of its own"),
    ("unknown member", 'field = "batch_size"', 'field = "batch"',
     "key batch_size: field 'batch' is not a [[field]] of uvm_cfg_t"),
    ("policy kind", 'kind = "EVICT"\n', "", "(evict_policy): a policy key has kind"),
    ("duplicate key", 'name = "warps_per_sm"', 'name = "clock_mhz"',
     "(clock_mhz): duplicate or malformed name"),
    ("unknown field", CLOCK, CLOCK + '\ncolour = "red"', "(clock_mhz): unknown field 'colour'"),
]


def run(spec, *args):
    return subprocess.run([sys.executable, GEN, "--spec", spec, *args], capture_output=True,
                          text=True)


def main():
    with open(SPEC) as f:
        real = f.read()
    bad = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "config.toml")
        for name, old, new, want in CASES:
            if old not in real:
                bad.append(f"{name}: the spec no longer contains {old!r} (update the case)")
                continue
            with open(path, "w") as f:
                f.write(real.replace(old, new, 1))
            r = run(path)
            if r.returncode != 1 or want not in r.stderr:
                bad.append(f"{name}: exit {r.returncode}, '{r.stderr.strip()}' (want '{want}')")
    r = run(SPEC, "--check-doc", os.path.join(ROOT, "docs", "config.md"))
    if r.returncode != 0:
        bad.append(f"the real spec: {r.stderr.strip()}")
    for b in bad:
        print("spec_config_test: " + b)
    if bad:
        sys.exit(1)
    print(f"spec_config_test: {len(CASES)} broken specs refused with their reason, the real one "
          "accepted")


if __name__ == "__main__":
    main()
