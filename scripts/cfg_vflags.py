#!/usr/bin/env python3
"""Print the Verilator -G parameter flags (or, with --defines, -DVSHIM_<Param> C defines) for the RTL keys of a configs/*.cfg file.

The C side parses the same file (cosim/config.c); only the RTL keys matter here.
"""
import sys

RTL_KEYS = {
    "num_sm": "NumSm", "num_ports": "NumPorts", "l1_entries": "L1Entries",
    "l1_large_entries": "L1LargeEntries", "l1_req_entries": "L1ReqEntries",
    "l2_sets": "L2Sets", "l2_ways": "L2Ways", "l2_large_entries": "L2LargeEntries",
    "l2_latency": "L2Latency", "l2_mshr_entries": "L2MshrEntries",
    "num_walkers": "NumWalkers", "ff_entries": "FfEntries", "ff_quota": "FfQuota",
}


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
            iv = int(v, 0)
        except ValueError:
            sys.exit(f"{path}:{n}: {key}: '{v}' is not an integer")
        flags.append(f"-DVSHIM_{param}={iv}" if defines else f"-G{param}={iv}")
    print(" ".join(flags))


if __name__ == "__main__":
    main()
