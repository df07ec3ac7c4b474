#!/usr/bin/env python3
"""Random co-simulation trace: a pure function of the seed (docs/trace-format.md, text).

  gen_random_trace.py --seed N [-o out.trc] [--scale S] [--mix]

1-4 allocations (some read-only), 1-3 kernels, random CTAs/warps, strided and scattered lane
addresses, reads/writes/atomics (never a write to a read-only allocation, never an address
outside an allocation), random masks and compute gaps. Sized for configs/tiny.cfg.

--mix (issue 11, the stronger random lock-step of scripts/random_lockstep.py): a different trace
of the same seed, plus the run's knobs (mix_knobs): a few hot pages read and written by every
warp (reads and writes to the same pages, across SMs), writes and atomics to read-only
allocations (RO violations on cached translations: the run expects program faults), and, when
the knobs say so, an allocation the platform maps with 2 MB pages or nocache PTEs, or remotely
(4 KB or 2 MB host pages with the system aperture, issue 21)
(gmmu-sim --preload) in a page-table root slot of its own; mix_csr gives a few illegal CSR
accesses at random cycles (gmmu-sim --csr). The plain mode is unchanged (the
random_N tests' statistics are in tb/golden/stats.json).
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


MIX_PRELOAD_BASE = {"large": 0x8000000000, "nocache": 0x10000000000,  # root slots 1 and 2
                    "remote": 0x18000000000, "remote_large": 0x20000000000}  # 3 and 4 (issue 21)


def mix_knobs(seed):
    """The configuration of a --mix run: gmmu-sim --set / --preload options (pure in the seed)."""
    r = random.Random(seed * 7919 + 17)
    sets = [f"fb_entries={r.choice([2, 4, 4, 64])}",
            f"replay_policy={r.choice(['block', 'batch', 'batch_flush', 'once'])}",
            f"chaos_inval={r.choice([0, 0, 300, 1000, 3000])}",
            f"gpu_mem_pages={r.choice([4096, 4096, 64, 40])}",
            f"mem_jitter={r.choice([0, 10, 40])}",
            f"mem_ready_pct={r.choice([100, 100, 50])}",
            f"fb_ready_pct={r.choice([100, 100, 40])}",
            f"fault_mode={r.choice(['replayable', 'replayable', 'blocking'])}"]
    preload = r.choice([None, None, "large", "nocache"])
    # issue 21: half the seeds without a preload map one allocation remotely (host pages with the
    # system aperture, docs/microarch.md §17); drawn last, so every other seed is unchanged
    if preload is None and r.random() < 0.5:
        preload = r.choice(["remote", "remote_large"])
    return sets, preload


# CSR accesses that are illegal at any time and change no state but ERR_STATUS / ERR_ADDR
# (never CMD, FB_STATUS or a legal ring write: the handler's own accesses must keep working)
MIX_BAD_CSR = ["w:0xffc:1", "r:0x100", "w:ID:1", "w:FB_PUT:3", "w:INT_STATUS:1",
               "w:PT_BASE_LO:0x1", "w:FB_BASE_LO:0x8", "w:CMD_ARG_HI:0x30", "w:FB_SIZE:3",
               "w:FB_SIZE:0x20000", "w:FB_GET:0x10000", "r:0x7fc"]


def steps_at_random_cycles(rng_seed, lo, hi, count, make):
    """CSR steps at random cycles: random.Random(rng_seed) draws n in count = (min, max) cycles in
    [lo, hi), sorted; make(r, cycle) gives the steps of one cycle (r: the same generator)."""
    r = random.Random(rng_seed)
    steps = []
    for c in sorted(r.randrange(lo, hi) for _ in range(r.randint(*count))):
        steps += make(r, c)
    return steps


def mix_csr(seed):
    """Scripted CSR steps of a --mix run (gmmu-sim --csr): a few illegal accesses at random cycles
    in the first 20000 (gen_mix keeps one warp waiting until the last), each followed by
    ERR_STATUS and ERR_ADDR read back (compared in lock-step) and cleared."""
    return steps_at_random_cycles(
        seed * 31337 + 5, 100, 20000, (0, 6),
        lambda r, c: [f"{c}:{r.choice(MIX_BAD_CSR)}", f"{c}:r:ERR_STATUS", f"{c}:r:ERR_ADDR",
                      f"{c}:w:ERR_STATUS:0x1f"])


def gen_mix(seed, scale=1.0):
    """The --mix trace of a seed (see the module doc)."""
    r = random.Random(seed * 104729 + 3)
    _, preload = mix_knobs(seed)
    out = [f"# random mix trace, seed {seed} (scripts/gen_random_trace.py --mix)"]
    allocs = []
    base = 0x100000000 + r.randrange(16) * 0x200000
    for i in range(r.randint(1, 4)):
        pages = r.randint(2, 40)
        ro = r.random() < 0.35
        out.append(f"alloc r{i} {base:#x} {pages * PAGE:#x}" + (" ro" if ro else ""))
        allocs.append((base, pages * PAGE, ro))
        base = (base + pages * PAGE + 0x200000) & ~0x1FFFFF
    if preload:
        pages = 1024 if preload in ("large", "remote_large") else r.randint(2, 16)
        ro = r.random() < 0.3
        b = MIX_PRELOAD_BASE[preload]
        out.append(f"alloc pre {b:#x} {pages * PAGE:#x}" + (" ro" if ro else ""))
        allocs.append((b, pages * PAGE, ro))
    hot = [(b + r.randrange(size // PAGE) * PAGE, ro) for b, size, ro in
           (r.choice(allocs) for _ in range(r.randint(2, 6)))]
    for k in range(r.randint(1, 3)):
        out.append(f"kernel k{k}")
        ctas, warps = r.randint(1, 8), r.randint(1, 4)
        n = max(1, int(r.randint(2, 12) * scale))
        for _ in range(n):
            for cta in range(ctas):
                for w in range(warps):
                    if r.random() < 0.15:
                        continue
                    op = r.choice("RRWWA")
                    gap = r.choice([0, 0, 1, 5, 30, 300])
                    if r.random() < 0.5:  # a hot page, read and written by every warp
                        page, ro = r.choice(hot)
                        if ro and op != "R" and r.random() < 0.7:
                            op = "R"  # a write to a read-only page now and then only
                        mask = r.choice([0x1, 0xF, 0xFFFFFFFF])
                        off = r.randrange(0, PAGE - 128) & ~3
                        out.append(f"s {cta} {w} {op} {gap} {mask:#x} {page + off:#x} 4")
                        continue
                    b, size, ro = r.choice(allocs)
                    if ro and op != "R" and r.random() < 0.8:
                        op = "R"
                    mask = r.choice([0xFFFFFFFF, 0xFF, 0x1, 0x80000001, r.randrange(1, 1 << 32)])
                    stride = r.choice([4, 128, PAGE, 2 * PAGE, -PAGE])
                    span = abs(stride) * 31
                    if span >= size:
                        stride, span = 4, 124
                    lo = span if stride < 0 else 0
                    start = r.randrange(lo, size - (0 if stride < 0 else span) - 3) & ~3
                    out.append(f"s {cta} {w} {op} {gap} {mask:#x} {b + start:#x} {stride}")
    # mix_csr's steps (up to cycle 20000) must come before the run ends, or the harness fails its
    # own run ("csr script: N of M steps not done"; issue 26: a kernel whose warps all skipped,
    # accesses only to the preloaded allocation, or a single far-fault served by cycle ~19600).
    # A warp of its own (cta 0, warp 4: the others are 0..3) waits until the last step's cycle
    # (its gap, compute cycles) and then reads r0.
    steps = mix_csr(seed)
    if steps:
        last = max(int(st.split(":")[0]) for st in steps)
        out.insert(out.index("kernel k0") + 1, f"s 0 4 R {last} 0x1 {allocs[0][0]:#x} 4")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--scale", type=float, default=1.0, help="instructions per warp factor")
    ap.add_argument("--mix", action="store_true",
                    help="the stronger random mix (scripts/random_lockstep.py)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = gen_mix(a.seed, a.scale) if a.mix else gen(a.seed, a.scale)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
