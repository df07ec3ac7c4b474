#!/usr/bin/env python3
"""Print the Verilator -G parameter flags (or, with --defines, -DVSHIM_<Param> C defines) for the RTL keys of a configs/*.cfg file.

The C side parses the same file (cosim/config.c); only the RTL keys matter here. The keys and
their SV names come from spec/params.toml (scripts/spec_params.py).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_params  # noqa: E402

try:
    RTL_KEYS = spec_params.rtl_keys()
    HIDDEN_DEFAULTS = spec_params.hidden_defaults()
except spec_params.SpecError as e:
    sys.exit(str(e))


NUM_RE = re.compile(r"0[xX][0-9a-fA-F]+|[0-9]+")


def cfg_int(v):
    """A configuration integer as the C side reads it (common/num.c): decimal or 0x hex, a leading
    0 is not octal; no sign, no 0o/0b, no '_'. ValueError otherwise."""
    if not NUM_RE.fullmatch(v):
        raise ValueError(f"'{v}' is not a decimal or 0x hex number")
    return int(v, 16) if v[:2] in ("0x", "0X") else int(v, 10)


def parse(path):
    vals = {}
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" not in line:
                sys.exit(f"{path}:{n}: expected 'key = value'")
            k, v = (x.strip() for x in line.split("=", 1))
            vals[k] = (v, n)
    for k, d in HIDDEN_DEFAULTS.items():  # hide_default keys may be left out: the default
        vals.setdefault(k, (str(d), 0))
    return vals


def main():
    args = sys.argv[1:]
    defines = "--defines" in args
    args = [a for a in args if a != "--defines"]
    if len(args) != 1:
        sys.exit("usage: cfg_vflags.py [--defines] CONFIG.cfg")
    path = args[0]
    vals = parse(path)
    flags = []
    for key, param in RTL_KEYS.items():
        if key not in vals:
            sys.exit(f"{path}: missing RTL key '{key}'")
        v, n = vals[key]
        try:
            iv = cfg_int(v)
        except ValueError:
            sys.exit(f"{path}:{n}: {key}: '{v}' is not an integer")
        flags.append(f"-DVSHIM_{param}={iv}" if defines else f"-G{param}={iv}")
    print(" ".join(flags))


if __name__ == "__main__":
    main()
