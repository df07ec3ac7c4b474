#!/usr/bin/env python3
"""Random co-simulation trace: a pure function of the seed (docs/trace-format.md, text).

  gen_random_trace.py --seed N [-o out.trc] [--scale S]

1-4 allocations (some read-only), 1-3 kernels, random CTAs/warps, strided and scattered lane
addresses, reads/writes/atomics (never a write to a read-only allocation, never an address
outside an allocation), random masks and compute gaps. Sized for configs/tiny.cfg.
"""
import argparse
import random
import sys

PAGE = 4096


def gen(seed, scale=1.0):
    r = random.Random(seed)
    out = [f"# random trace, seed {seed} (scripts/gen_random_trace.py)"]
    allocs = []
    base = 0x100000000 + r.randrange(16) * 0x200000
    for i in range(r.randint(1, 4)):
        pages = r.randint(2, 40)
        ro = i > 0 and r.random() < 0.3
        off = r.randrange(0, 4) * PAGE if r.random() < 0.5 else 0
        b = base + off
        out.append(f"alloc r{i} {b:#x} {pages * PAGE:#x}" + (" ro" if ro else ""))
        allocs.append((b, pages * PAGE, ro))
        base = (b + pages * PAGE + 0x200000) & ~0x1FFFFF
        if r.random() < 0.3:
            base += 0x200000 * r.randint(1, 20)
    writable = [a for a in allocs if not a[2]] or None
    for k in range(r.randint(1, 3)):
        out.append(f"kernel k{k}")
        ctas, warps = r.randint(1, 8), r.randint(1, 4)
        n = max(1, int(r.randint(2, 12) * scale))
        for it in range(n):
            for cta in range(ctas):
                for w in range(warps):
                    if r.random() < 0.15:
                        continue  # this warp has fewer instructions
                    op = r.choice("RRRWA")
                    cands = allocs if op == "R" or not writable else writable
                    b, size, _ = r.choice(cands)
                    gap = r.choice([0, 0, 1, 2, 5, 10, 30])
                    mask = r.choice([0xFFFFFFFF, 0xFFFF, 0xFF, 0x1, 0x80000001,
                                     r.randrange(1, 1 << 32)])
                    lanes = [i for i in range(32) if mask >> i & 1]
                    if r.random() < 0.6:
                        stride = r.choice([4, 8, 16, 128, 512, PAGE, 2 * PAGE, -4, -PAGE])
                        span = abs(stride) * 31
                        if span >= size:
                            stride = 4 if stride > 0 else -4
                            span = 124
                        lo = span if stride < 0 else 0
                        start = r.randrange(lo, size - (0 if stride < 0 else span) - 3) & ~3
                        out.append(f"s {cta} {w} {op} {gap} {mask:#x} {b + start:#x} {stride}")
                    else:
                        addrs = [b + (r.randrange(size) & ~3) for _ in lanes]
                        out.append(f"m {cta} {w} {op} {gap} {mask:#x} " +
                                   " ".join(f"{a:#x}" for a in addrs))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--scale", type=float, default=1.0, help="instructions per warp factor")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = gen(a.seed, a.scale)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
