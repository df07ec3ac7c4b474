#!/usr/bin/env python3
"""Write tb/traces/coalesce.trc: a 2 MB allocation mapped page by page in order (kernel k1: one
warp reads its 512 pages, 32 per instruction, so the handler's 4 KB allocator gives them frames
in ascending order), then kernels k2 and k3 where the warps of 4 CTAs walk the region again page
by page (distinct pages per SM, so the small L1/L2 TLBs miss and walk). The coalesce test hook
(docs/cosim.md) issues COALESCE / SPLINTER of the region while k2 / k3 run.
A second allocation (b) is only half touched: its region is not fully mapped.
Usage: gen_coalesce_trace.py OUT"""
import sys

BASE = 0x10000000
B2 = 0x10200000
PAGE = 0x1000


def main():
    out = [f"# coalesce: {sys.argv[0]} - do not edit",
           f"alloc a {BASE:#x} 0x200000", f"alloc b {B2:#x} 0x200000", "kernel k1"]
    for i in range(16):
        out.append(f"s 0 0 R 2 0xffffffff {BASE + 32 * i * PAGE:#x} {PAGE:#x}")
    for i in range(4):
        out.append(f"s 0 0 R 2 0xffffffff {B2 + 32 * i * PAGE:#x} {PAGE:#x}")
    for k in ("k2", "k3"):
        out.append(f"kernel {k}")
        for rep in range(4):
            for cta in range(4):
                for j in range(8):  # 8 instructions x 16 pages per CTA and pass
                    first = (cta * 128 + j * 16 + rep * 37) % 512
                    out.append(f"s {cta} 0 R 20 0xffff {BASE + first * PAGE:#x} {PAGE:#x}")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
