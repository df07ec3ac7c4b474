#!/usr/bin/env python3
"""Stronger random lock-step (issue 11 hole 5): many seeds of scripts/gen_random_trace.py --mix,
each run in lock-step (C model and RTL compared every cycle) on configs/tiny.cfg with the knobs
of its seed (gen_random_trace.mix_knobs: ring size 2..4 or 64, every replay policy, chaos
invalidations, eviction, memory back-pressure and jitter, blocking fault mode, 2 MB / nocache
preloaded allocations, illegal CSR accesses at random cycles). Every run has a time limit (--max-cycles and a wall-clock timeout).
--config pwc runs the same mix on configs/pwc.cfg (tiny with a 6-entry page-walk cache, 3-cycle
hits, docs/microarch.md §16): the chaos invalidations then race with page-walk-cache fills and
hits. --config ad runs it on configs/ad.cfg (tiny with the walkers setting accessed/dirty bits,
docs/microarch.md §18): the invalidations and the memory back-pressure then race with the walkers'
set-bits writes (make test-random-ad, in make test-full). --config acc runs it on configs/acc.cfg
(tiny with 8 access-counter entries) with remote_policy = lazy_grp_hw and a seeded threshold
(2, 4, 16, 256): first-touch remote mappings, the unit's notifications serviced by the handler
racing with faults, evictions, chaos invalidations and back-pressure (make test-random-acc).
--config bitmap runs it on configs/bitmap.cfg (tiny with the referenced-line bitmaps, docs/microarch.md
§20; the handler's table, docs/handler.md §6x.2) with 1-4 BMP_FLUSH commands at random cycles:
the L1 bitmaps' departures (evictions, the handler's shootdowns, chaos invalidations, the flush
scanner) and their table writes behind walks and back-pressure; the platform's end check fails a
run whose table has a line no request referenced (make test-random-bmp).

  random_lockstep.py [--seeds N] [--first S] [--seed S] [--jobs J] [--build build] [--config C]

A run passes when gmmu-sim exits 0 (program faults are expected: the mix writes read-only
allocations) with no mismatch, integrity or platform error. A failure prints the seed and a
one-line reproducer (the gmmu-sim command line). Exit 1 if any seed failed.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_random_trace  # noqa: E402

MAX_CYCLES = 50_000_000  # simulated cycles (a run takes well below 10 M)
TIMEOUT_S = 600          # wall clock per run
# --config acc: lazy_grp_hw's threshold per seed (low ones make the ring wrap and overflow)
ACC_THRESHOLDS = (2, 4, 16, 256)
# --config bitmap: the BMP_FLUSH opcode (spec/gmmu.toml, the one source of truth)
with open(os.path.join(ROOT, "spec", "gmmu.toml"), "rb") as _f:
    BMP_FLUSH = tomllib.load(_f)["cmd"]["BMP_FLUSH"]["value"]


def command(seed, build, outdir, config="tiny"):
    sets, preload = gen_random_trace.mix_knobs(seed)
    tag = "" if config == "tiny" else f"{config}_"
    trc = os.path.join(outdir, f"mix_{tag}{seed}.trc")
    cmd = [os.path.join(build, config, "gmmu-sim"), "--config", f"configs/{config}.cfg",
           "--trace", trc, "--seed", str(seed), "--engine", "cosim", "--quiet",
           "--expect-fault", "--max-cycles", str(MAX_CYCLES),
           "--stats", os.path.join(outdir, f"mix_{tag}{seed}.json")]
    if config == "acc":  # the handler's service of the access counters (docs/handler.md §6w)
        sets = list(sets) + ["remote_policy=lazy_grp_hw",
                             f"acc_threshold={ACC_THRESHOLDS[seed % len(ACC_THRESHOLDS)]}"]
    for s in sets:
        cmd += ["--set", s]
    if preload:
        cmd += ["--preload", f"pre:{preload}"]
    steps = gen_random_trace.mix_csr(seed) + (bmp_flush_steps(seed) if config == "bitmap" else [])
    for step in sorted(steps, key=lambda x: int(x.split(":", 1)[0])):  # stable: in cycle order
        cmd += ["--csr", step]
    return trc, cmd


def bmp_flush_steps(seed):
    """--config bitmap: 1-4 BMP_FLUSH commands at random cycles of the first 40000 (racing with
    the handler's shootdowns and the chaos invalidations; one written while a command is BUSY is
    refused: ERR_STATUS.CMD_BUSY, read back in lock-step and cleared)."""
    return gen_random_trace.steps_at_random_cycles(
        seed * 7919 + 11, 100, 40000, (1, 4),
        lambda r, c: [f"{c}:w:CMD:{BMP_FLUSH}", f"{c + 1}:r:CMD_STATUS", f"{c + 1}:r:ERR_STATUS",
                      f"{c + 1}:w:ERR_STATUS:0x1f"])


def run(seed, build, outdir, config="tiny"):
    trc, cmd = command(seed, build, outdir, config)
    with open(trc, "w") as f:
        f.write(gen_random_trace.gen_mix(seed))
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S)
        rc, log = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, log = -1, f"timeout after {TIMEOUT_S} s"
    st = {}
    try:
        with open(cmd[cmd.index("--stats") + 1]) as f:
            st = json.load(f)
    except (OSError, ValueError):
        pass
    ok = rc == 0 and all(st.get(k, 1) == 0 for k in
                         ("mismatches", "integrity_errors", "platform_errors"))
    return seed, ok, rc, st, log, time.time() - t0, cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20, help="number of seeds (default 20)")
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--seed", type=int, help="run this one seed only")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--config", default="tiny",
                    help="configuration (configs/C.cfg, gmmu-sim of build/C; default tiny)")
    a = ap.parse_args()
    seeds = [a.seed] if a.seed is not None else list(range(a.first, a.first + a.seeds))
    outdir = os.path.join(a.build, "random")
    os.makedirs(outdir, exist_ok=True)
    failed, cycles, t0 = [], 0, time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for seed, ok, rc, st, log, dt, cmd in ex.map(lambda s: run(s, a.build, outdir, a.config), seeds):
            cycles += st.get("clocked_cycles", 0)
            sets, preload = gen_random_trace.mix_knobs(seed)
            line = (f"random {'' if a.config == 'tiny' else a.config + ' '}seed {seed}: {'PASS' if ok else 'FAIL'} ({dt:.1f} s, exit {rc}, "
                    f"{st.get('result', '?')}) cycles={st.get('cycles', '?')} "
                    f"far_faults={st.get('far_faults', '?')} "
                    f"program_faults={st.get('program_faults', '?')} "
                    f"chaos={st.get('chaos_cmds', '?')} walks={st.get('walks', '?')} "
                    + (f"bmp_wb={st.get('bmp_wb', '?')} bmp_lost={st.get('bmp_lost', '?')} "
                       f"bmp_missing_lines={st.get('bmp_missing_lines', '?')} "
                       if a.config == "bitmap" else "")
                    + f"[{' '.join(sets)}{' preload=' + preload if preload else ''}]")
            print(line, flush=True)
            if not ok:
                failed.append(seed)
                mism = [x for x in log.splitlines() if "MISMATCH at cycle" in x]
                if mism:
                    print("    " + mism[0])
                print("\n".join("    " + x for x in log.strip().splitlines()[-15:]))
                print(f"  reproduce: python3 scripts/random_lockstep.py --seed {seed} "
                      f"--config {a.config}   # or:")
                print("  cd " + shlex.quote(ROOT) + " && python3 scripts/gen_random_trace.py "
                      f"--mix --seed {seed} -o {shlex.quote(cmd[cmd.index('--trace') + 1])} && "
                      + " ".join(shlex.quote(c) for c in cmd), flush=True)
    print(f"random lock-step ({a.config}): {len(seeds) - len(failed)} of {len(seeds)} seeds passed, "
          f"{cycles} clocked cycles in lock-step, {time.time() - t0:.0f} s"
          + (f"; failed seeds: {' '.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
