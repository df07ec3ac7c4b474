#!/usr/bin/env python3
"""calibrate.py - the C model with configs/h100.cfg against the measured H100 (make calibrate).

A study of gmmu-sweep (docs/sweep.md): --write-study writes it, every experiment row of
../shared/hw/h100-uvm.csv a grid point named by the row's id (row_id) and the run it needs
(gmmu-sim --engine cmodel on a trace of gmmu-gen's chase / stream / sparse, or a prefetch trace),
then the out-of-sample checks' runs; gmmu-sweep runs it (only what the store lacks) and collects
it; --store reads ONLY the collected store: prints model vs measured median/min/max with the
ratio, writes a plot and the table, evaluates the out-of-sample checks, and exits 1 when a
prediction is outside [min/1.25, max*1.25] or an out-of-sample expectation fails.
docs/calibration.md explains every figure and every constant below.

Rows the simulator cannot run (host-side copies) are predicted by the stated closed-form models
below, from the same configuration values; nothing is skipped. cudaMemPrefetchAsync
(um_prefetch) runs through a trace's prefetch record (issue 22).

  calibrate.py --csv H --config C --write-study TOML [--sim S --gen G --sweep-store DIR]
  calibrate.py --csv H --config C --only-regex [--quick | --rows REGEX [--oos]]
  calibrate.py --csv H --config C --store results.sqlite
               [--plot PNG] [--table MD] [--quick | --rows REGEX [--oos]] [--set K=V ...]
"""
import argparse
import csv
import json
import math
import os
import re
import sys
import time

BAND = 1.25  # a prediction passes inside [min / BAND, max * BAND]
MB = 1 << 20
PAGE = 4096
BLOCK = 2 * MB

# ---- workload-side physical figures (what the simulator does not model; docs/calibration.md) ----
# kernel launch + the two cudaEventRecords around it, added to every simulated kernel time (the
# probe times kernels with events); CUDA launch latency is ~5-10 us on Hopper with events
LAUNCH_NS = 10000
# the first kernel launch after new allocations (cudaMalloc / cudaMallocManaged since the last
# launch) costs the driver more CPU time: the new memory objects join the launch's submission.
# NVIDIA developer forum thread 196616 ("cudaMalloc affects the delay of cudaLaunchKernel"):
# 14 us instead of 5 us of cudaLaunchKernel after a cudaMalloc + cudaMemcpy, 5 us when the
# allocations were made earlier. Events time it: record(a) runs on the idle GPU before the
# launch arrives. Added to the probe's kernels that follow an allocation (um_demand, device,
# sparse), not to um_resident (the same buffer again) nor the chase (timed inside the kernel)
NEW_ALLOC_LAUNCH_NS = 9000
# the chase's data access after the translation: an L2 data hit (~240 cycles at 1.98 GHz;
# Hopper/Ada L2 hits are measured at 220-340 cycles)
CHASE_ACCESS_NS = 120
# HBM3 read bandwidth the stream's loads get when resident: 3.35 TB/s (datasheet) x 0.9; used
# only when the configuration has no hbm_gbps (configs/h100.cfg sets hbm_gbps = 3015, the same
# figure, and the platform then shares it among the loads: docs/calibration.md)
HBM_GBPS = 3015.0
# cudaMemcpy from pageable memory: the driver copies the buffer into pinned staging buffers with
# one CPU thread (a server core's memcpy: 6-10 GB/s) while the DMA of the previous chunk runs
HOST_STAGING_GBPS = 7.5
# stream scaling (tools/workloads/wl_calib.c): one model warp = 8 real warps
STREAM_WARP_SCALE = 8
# probe variants whose timed launch is the first after new allocations (NEW_ALLOC_LAUNCH_NS)
AFTER_ALLOC = {("stream", "um_demand"), ("stream", "device"), ("sparse_ascending", None)}


def launch_ns(exp, var=None):
    """What the probe's event timing adds to a simulated kernel of this experiment/variant."""
    first = (exp, var) in AFTER_ALLOC or (exp, None) in AFTER_ALLOC
    return LAUNCH_NS + (NEW_ALLOC_LAUNCH_NS if first else 0)
# Rows of the measurement file that are not prediction targets, with the documented reason
# (printed in the table's band column; the model's figure and ratio are still shown, the row
# does not count as in or out). docs/calibration.md ("sparse k=64 bytes") gives the evidence.
NOT_TARGETS = {
    ("sparse_ascending", "touch1of64", "bytes_h2d"):
        "not a prediction target: a CUPTI count the file marks as possibly incomplete (CUPTI "
        "drops records; only the isolated-fault counts are exact); the kernel faults 4096 "
        "distinct 64 KB big pages and the driver grows every fault to its big page, so at "
        "least 256 MB moved: the count (3078 big pages) is a lower bound",
}
# Rows a configuration value was derived from (docs/calibration.md names the derivation): their
# agreement is by construction. Every other predicted row is a prediction the parameters were
# not set from; the summary counts those separately. Keys: regular expressions on the label.
SOURCE_ROWS = {
    r"^stream memcpy_pinned (256|1024|4096)MB ": "pcie_peak_gbps (the 1 MB+ plateau)",
    r"^sparse_ascending touch1of512 kernel_time":
        "hdl_block_first_ns + hdl_block_ns; pcie_latency_ns (slope)",
    r"^sparse_ascending touch1of[1248] kernel_time":
        "hdl_block_ns (the revisit: the low end of 0..14.3 us these rows allow)",
    r"^sparse_ascending touch1of(128|64) kernel_time": "pcie_latency_ns (slope k=512->128->64)",
    r"^sparse_ascending touch1of16 kernel_time": "hdl_page_ns",
    r"^chase_2MB_stride pass[12] ": "l2_sets x l2_ways (sized to hit: 256 pages)",
}


def source_of(label):
    for rx, param in SOURCE_ROWS.items():
        if re.search(rx, label):
            return param
    return None


# make test's cheap check: the isolated far-fault and the resident load, a 64 MB stream
QUICK_ROWS = r"^chase_2MB_stride pass[01] |^stream \w+ 64MB "


def die(msg):
    sys.exit(f"calibrate: {msg}")


def read_cfg(path):
    cfg = {}
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "=" not in line:
                die(f"{path}:{ln}: expected key = value")
            k, v = (x.strip() for x in line.split("=", 1))
            cfg[k] = v
    return cfg


def read_csv(path):
    if not os.path.exists(path):
        die(f"{path} not found: the H100 measurements live in ../shared/hw beside the repository "
            "(as in CI); pass HW_DIR=<dir> to make calibrate")
    rows = []
    with open(path) as f:
        lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    for r in csv.DictReader(lines):
        for k in ("median", "min", "max"):
            r[k] = float(r[k])
        rows.append(r)
    if not rows:
        die(f"{path}: no experiment rows")
    return rows


# ---- the platform's PCIe model (cosim/pcie.c, pcie_model = table), for the stated models ----
TBL_KB = [4, 16, 64, 256, 1024]
TBL_GBPS = [3.22, 6.44, 8.48, 10.51, 11.22]


def pcie_gbps(cfg, nbytes):
    scale = float(cfg.get("pcie_peak_gbps", 16)) / 16.0
    if cfg.get("pcie_model", "table") != "table":
        die("the stated models implement pcie_model = table only")
    kb = max(nbytes, 1) / 1024.0
    if kb <= TBL_KB[0]:
        return TBL_GBPS[0] * scale
    if kb >= TBL_KB[-1]:
        return TBL_GBPS[-1] * scale
    i = 0
    while kb > TBL_KB[i + 1]:
        i += 1
    t = (math.log(kb) - math.log(TBL_KB[i])) / (math.log(TBL_KB[i + 1]) - math.log(TBL_KB[i]))
    return (TBL_GBPS[i] + t * (TBL_GBPS[i + 1] - TBL_GBPS[i])) * scale


def pcie_ns(cfg, nbytes):
    return float(cfg.get("pcie_latency_ns", 1000)) + nbytes / pcie_gbps(cfg, nbytes)


class Model:
    """Generates traces and runs the C model; results cached per run key."""

    def __init__(self, a, cfg):
        self.a, self.cfg = a, cfg
        self.clock_ghz = float(cfg["clock_mhz"]) / 1000.0
        self.runs = {}
        self.wall = 0.0

    def cycles(self, ns):
        return int(round(ns * self.clock_ghz))

    def stream_sets(self):
        w = max(1, int(cfg_int(self.cfg, "warps_per_sm") // STREAM_WARP_SCALE))
        return [f"warps_per_sm={w}"]

    def hbm_gbps(self):
        """The configuration's shared HBM bandwidth (hbm_gbps, the platform's model), else the
        script's HBM_GBPS (then applied through the stream's fixed gap)."""
        v = float(self.cfg.get("hbm_gbps", "0") or 0)
        return v if v > 0 else HBM_GBPS

    def stream_gap(self):
        """Per model instruction (4 KB of loads by 8 real warps). With hbm_gbps in the
        configuration the platform charges each load's 32 lines to the GPU's shared HBM (the
        warps resident at the moment divide the bandwidth): no fixed gap. Without it: the HBM
        time of every resident model warp's load, so that a full wave runs at HBM_GBPS (a wave
        with fewer warps does not run faster: docs/calibration.md, item 4)."""
        if float(self.cfg.get("hbm_gbps", "0") or 0) > 0:
            return 0
        resident = cfg_int(self.cfg, "num_sm") * int(self.stream_sets()[0].split("=")[1])
        return self.cycles(resident * PAGE / HBM_GBPS)

    def spec(self, wl, size_mb, iters, params=(), sets=(), tag=""):
        name = f"{wl}-{size_mb}mb-i{iters}" + "".join("-" + p.replace("=", "") for p in params)
        name += f"-{tag}" if tag else ""
        return (name, wl, size_mb, iters, tuple(params), tuple(sets))

    def st(self, spec):
        if spec[0] not in self.runs:
            die(f"the store has no result for run {spec[0]} (gmmu-sweep run "
                f"{self.a.study or 'build/calibrate/calibrate.toml'} runs what is missing)")
        return self.runs[spec[0]]

    def load_store(self, path):
        """Every stored run of the calibration study (the one place results come from): the
        statistics of each run, by its spec name (the part of the workload name after '+')."""
        import results_store
        rows = results_store.read_table(path, "calibrate", "calibrate",
                                        "make calibrate runs the study and collects it")
        for r in rows:
            if r.get("run_status", "done") != "done":
                continue
            name = r["workload"].split("+", 1)[1]
            if r.get("result") != "PASS" or r.get("integrity_errors") or r.get("fatal_faults"):
                die(f"{name} ({r['run_key']}): result {r.get('result')}, integrity errors "
                    f"{r.get('integrity_errors')}, fatal faults {r.get('fatal_faults')}")
            if name not in self.runs:
                self.wall += float(r.get("run_wall_s") or 0)
            self.runs[name] = r
        return rows


def cfg_int(cfg, k):
    if k not in cfg:
        die(f"{k} missing from the configuration")
    return int(cfg[k], 0)


# ---- the experiments ---------------------------------------------------------------------------
def chase_specs(m, passes, stride_kb=2048, size_mb=512):
    gap = m.cycles(CHASE_ACCESS_NS)
    p = (f"stride_kb={stride_kb}", f"gap={gap}")
    return [m.spec("chase", size_mb, i, p) for i in range(1, passes + 1)]


def stream_specs(m, size_mb):
    p = (f"gap={m.stream_gap()}",)
    return [m.spec("stream", size_mb, i, p, m.stream_sets()) for i in (1, 2)]


def device_spec(m, size_mb):
    """The probe's `device` kernel: a cudaMalloc buffer filled by cudaMemcpy, then one stream
    pass. run_mode = memcpy copies every allocation before the kernel (mapped as page_size
    maps it: 2 MB pages with cocoa), so the kernel takes no fault and starts with cold TLBs."""
    p = (f"gap={m.stream_gap()}",)
    return m.spec("stream", size_mb, 1, p, m.stream_sets() + ["run_mode=memcpy"], tag="memcpy")


PREFETCH_BASE = 0x100000000  # 2 MB aligned, as a cudaMallocManaged buffer of this size is


def prefetch_trace(size_mb):
    """The probe's um_prefetch: cudaMemPrefetchAsync of the whole managed buffer to the GPU (a
    trace's prefetch record, performed before the kernel), then one load of it; the row is the
    prefetch's time (host_prefetch_gpu_ns)."""
    size = size_mb * MB
    return (f"alloc a {PREFETCH_BASE:#x} {size:#x}\nprefetch {PREFETCH_BASE:#x} {size:#x} gpu\n"
            f"kernel k\ns 0 0 R 1 0x1 {PREFETCH_BASE:#x} 4\n")


def prefetch_spec(m, size_mb):
    return m.spec("prefetch", size_mb, 1)


def sparse_spec(m, k, shuffle=0, size_mb=1024):
    p = (f"k={k}",) + (("shuffle=1",) if shuffle else ())
    return m.spec("sparse", size_mb, 1, p)


def memcpy_simulated(m):
    """The pinned cudaMemcpy rows run through the memcpy run mode when a programmer-directed
    copy is one DMA (memcpy_dma_pages covers the largest buffer, 4 GB) as the probe's one copy."""
    return int(m.cfg.get("memcpy_dma_pages", "512"), 0) >= 4096 * MB // PAGE


def row_specs(m, r):
    """The simulator runs a row needs (none for the stated models)."""
    exp, var = r["experiment"], r["variant"]
    if exp == "chase_2MB_stride":
        return chase_specs(m, int(var[4:]) + 1, size_mb=int(r["size_mb"]))
    if exp == "stream" and (var == "device" or (var == "memcpy_pinned" and memcpy_simulated(m))):
        return [device_spec(m, int(r["size_mb"]))]
    if exp == "stream" and var in ("um_demand", "um_resident"):
        return stream_specs(m, int(r["size_mb"]))
    if exp == "stream" and var == "um_prefetch":
        return [prefetch_spec(m, int(r["size_mb"]))]
    if exp == "sparse_ascending":
        return [sparse_spec(m, int(r["k"]), size_mb=int(r["size_mb"]))]
    return []


def predict(m, r):
    """(value in the row's unit, how) or (None, reason)."""
    cfg = m.cfg
    exp, var, metric = r["experiment"], r["variant"], r["metric"]
    size = int(float(r["size_mb"] or 0)) * MB
    if exp == "chase_2MB_stride":
        specs = row_specs(m, r)
        n, p = size // BLOCK, int(var[4:])
        if metric == "bytes_h2d":
            return m.st(specs[p])["bytes_h2d"], "simulated (bytes_h2d of pass 0)"
        prev = m.st(specs[p - 1])["sim_time_ns"] if p else 0
        lat = (m.st(specs[p])["sim_time_ns"] - prev) / n
        how = "simulated: pass time / loads"
        if metric != "mean_latency":
            how += " (the model's loads of a pass are alike: p50 = mean)"
        return lat, how
    if exp == "stream":
        if var in ("um_demand", "um_resident", "device"):
            launch = launch_ns(exp, var)
            if var == "um_demand":
                s1 = m.st(row_specs(m, r)[0])
                return ((s1["sim_time_ns"] + launch) / 1e6,
                        "simulated + launch (first after an allocation)")
            if var == "device":
                t = (m.st(row_specs(m, r)[0])["kernel_ns"] + launch) / 1e6
            else:
                s1, s2 = (m.st(s) for s in row_specs(m, r))
                t = (s2["sim_time_ns"] - s1["sim_time_ns"] + launch) / 1e6
            hbm = (size / m.hbm_gbps() + launch) / 1e6
            shared = ("; loads share hbm_gbps in the platform" if m.stream_gap() == 0 else
                      "; fixed gap per load (HBM time of a full wave)")
            if cfg.get("page_size", "4k") == "cocoa":
                note = (f"; fully resident 2 MB blocks mapped by one 2 MB PTE (page_size cocoa); "
                        f"HBM-bound figure {hbm:.3g} ms")
            else:
                note = (f"; 4 KB mappings: one walk per page (HBM-bound with 2 MB mappings: "
                        f"{hbm:.3g} ms)")
            note += shared
            if var == "um_resident":
                return t, "simulated (2nd pass) + launch" + note
            return t, ("simulated: run_mode memcpy (the buffer copied and mapped before the "
                       "kernel: no fault, cold TLBs), kernel_ns + launch (first after an "
                       "allocation)" + note)
        if var == "memcpy_pinned" and memcpy_simulated(m):
            # the device row's run: its copy before the kernel, one DMA of the whole buffer
            # (memcpy_dma_pages), less the mapping the run does inside the copy (the CoCoA
            # coalescing of every 2 MB block: 513 PTE writes each), which the driver does at
            # cudaMalloc, before the probe's timed cudaMemcpy
            st = m.st(row_specs(m, r)[0])
            if st["copy_bytes"] != size:
                die(f"{label_of(r)}: the memcpy run copied {st['copy_bytes']} B, not {size}")
            mapping = st["coalesces"] * 513 * float(cfg.get("hdl_pte_ns", 0))
            return ((st["copy_ns"] - mapping) / 1e6,
                    f"simulated: the device row's run_mode memcpy copy (copy_ns, {st['dma_h2d']} "
                    f"DMA) less its mapping ({mapping / 1e6:.3g} ms of coalescing, done by the "
                    "driver at cudaMalloc) (source of pcie_peak_gbps)")
        if var == "memcpy_pinned":
            return (pcie_ns(cfg, size) / 1e6,
                    "stated: one DMA, pcie_transfer(size) (source of pcie_peak_gbps)")
        if var == "memcpy_pageable":
            t = size / HOST_STAGING_GBPS + pcie_ns(cfg, BLOCK)
            return (t / 1e6, f"stated: host staging copy at {HOST_STAGING_GBPS} GB/s + the last "
                    "2 MB DMA")
        if var == "um_prefetch":
            st = m.st(row_specs(m, r)[0])
            return (st["host_prefetch_gpu_ns"] / 1e6,
                    "simulated: a trace's prefetch record (uvm_handler_prefetch: one DMA per 2 MB "
                    "block on the copy channel, mapped, coalesced), host_prefetch_gpu_ns")
    if exp == "sparse_ascending":
        st = m.st(row_specs(m, r)[0])
        if metric == "bytes_h2d":
            return st["bytes_h2d"], "simulated"
        return ((st["sim_time_ns"] + launch_ns(exp)) / 1e6,
                "simulated + launch (first after an allocation)")
    return None, f"no model for {exp}/{var}/{metric}"


def label_of(r):
    size = f" {r['size_mb']}MB" if r["experiment"] == "stream" else ""
    return f"{r['experiment']} {r['variant']}{size} {r['metric']}"


# ---- out-of-sample checks: patterns not in the file, with a physically argued expectation ----
OOS_MB = 256  # the k=32 shuffled-order check runs on 256 MB (k=1 runs at 1 GB: ~25 s)
OOS_STREAM_MB = 128  # a demand stream of a size the probe did not measure (between 64 and 256 MB)


def oos_specs(m):
    return [sparse_spec(m, 1), sparse_spec(m, 1, shuffle=1),
            sparse_spec(m, 32, size_mb=OOS_MB), sparse_spec(m, 32, shuffle=1, size_mb=OOS_MB),
            sparse_spec(m, 256), *chase_specs(m, 1, stride_kb=64, size_mb=32), *chase_specs(m, 1),
            stream_specs(m, OOS_STREAM_MB)[0], *first_touch_specs(m)]


def first_touch_specs(m):
    """Two dependent isolated faults in one VA block (1 MB apart) and in two (2 MB apart)."""
    return [chase_specs(m, 1, stride_kb=1024, size_mb=2)[0],
            chase_specs(m, 1, stride_kb=2048, size_mb=4)[0]]


def oos_checks(m, rows):
    meas = {(r["experiment"], r["variant"], r["metric"]): r for r in rows}
    out = []
    # k=1 in shuffled order, at the measured size (1 GB; the ascending run is the k=1 row's).
    # The expectation follows from the driver's tree rule and from what the H100 rows show the
    # time follows (docs/calibration.md, "shuffled order"): a subtree is prefetched when more than
    # 51% of it is resident or faulted; faults arriving in address order complete each subtree
    # by faulting it page after page (the rule fires late, on the little that is left), scattered
    # faults push many subtrees past 51% while most of their pages are still missing, so the tree
    # moves more pages by prefetch, in fewer and larger copies. The measured rows show the H100's
    # time follows the number of copies (~10.5 us per extra copy of a block: k=512 -> 64; k=32,
    # 16 isolated 64 KB copies per block, 146 ms vs k=16, one 2 MB copy per block, 92 ms), so the
    # shuffled order is not slower although it visits more VA blocks per batch.
    asc1 = m.st(sparse_spec(m, 1))
    rnd1 = m.st(sparse_spec(m, 1, shuffle=1))
    out.append(("sparse k=1, shuffled order (1 GB)",
                f"{rnd1['sim_time_ns'] / 1e6:.1f} ms, {rnd1['bytes_h2d'] / MB:.0f} MB, "
                f"{rnd1['pages_prefetched']} pages prefetched, {rnd1['dma_h2d']} copies",
                "same bytes as ascending (every page is touched); the tree prefetches at least as "
                f"many pages ({asc1['pages_prefetched']}) in fewer copies ({asc1['dma_h2d']}) "
                "(scattered faults pass the 51% rule earlier); not slower than ascending "
                f"({asc1['sim_time_ns'] / 1e6:.1f} ms: the time follows the copies)",
                rnd1["bytes_h2d"] == asc1["bytes_h2d"]
                and rnd1["pages_prefetched"] >= asc1["pages_prefetched"]
                and rnd1["dma_h2d"] < asc1["dma_h2d"]
                and rnd1["sim_time_ns"] <= asc1["sim_time_ns"]))
    asc = m.st(sparse_spec(m, 32, size_mb=OOS_MB))
    rnd = m.st(sparse_spec(m, 32, shuffle=1, size_mb=OOS_MB))
    out.append((f"sparse k=32, shuffled order ({OOS_MB} MB)",
                f"{rnd['sim_time_ns'] / 1e6:.1f} ms, {rnd['bytes_h2d'] / MB:.0f} MB",
                "the same 2048 touched pages as ascending; each grows to its own 64 KB big page "
                "and no subtree passes 51% in either order, so the same bytes "
                f"({asc['bytes_h2d'] / MB:.0f} MB); at least the ascending time "
                f"({asc['sim_time_ns'] / 1e6:.1f} ms)",
                rnd["bytes_h2d"] == asc["bytes_h2d"]
                and rnd["sim_time_ns"] >= 0.95 * asc["sim_time_ns"]))
    s256 = m.st(sparse_spec(m, 256))
    lo = meas[("sparse_ascending", "touch1of512", "kernel_time")]["median"]
    hi = meas[("sparse_ascending", "touch1of128", "kernel_time")]["median"]
    t = (s256["sim_time_ns"] + launch_ns("sparse_ascending")) / 1e6
    out.append(("sparse k=256 (1 GB, between two measured rows)",
                f"{t:.1f} ms, {s256['bytes_h2d'] / MB:.0f} MB",
                "1024 isolated faults, 2 per VA block: between the measured k=512 and k=128 "
                f"medians ({lo:.1f}..{hi:.1f} ms, widened by {BAND}) and 64 KB per fault (64 MB)",
                lo / BAND <= t <= hi * BAND and s256["bytes_h2d"] == 1024 * 65536))
    c64 = m.st(chase_specs(m, 1, stride_kb=64, size_mb=32)[0])
    c2m = m.st(chase_specs(m, 1)[0])
    lat64, lat2m = c64["sim_time_ns"] / 512, c2m["sim_time_ns"] / 256
    out.append(("chase, 64 KB stride, 32 MB (512 loads in 16 VA blocks)",
                f"pass 0 {lat64 / 1e3:.1f} us/load, {c64['bytes_h2d'] / MB:.1f} MB",
                "every 64 KB big page at most once (<= 32 MB moved), and a lower mean latency "
                f"than the 2 MB stride ({lat2m / 1e3:.1f} us): once a block's tree passes 51% "
                "the rest of the block arrives with the same fault",
                c64["bytes_h2d"] <= 32 * MB and lat64 < lat2m))
    # first touch (issue 24 item 5, expectation written before the run): two dependent isolated
    # faults, each alone in its batch, each grown to its own 64 KB big page (no subtree passes
    # 51%), in one VA block or in two. Everything else equal, the two-block pass pays the second
    # block's first GPU touch (hdl_block_first_ns: GPU state, page-table range, first chunk)
    # and one more PDE write (hdl_pte_ns); the one-block pass pays a revisit (hdl_block_ns)
    one, two = (m.st(s) for s in first_touch_specs(m))
    first = float(m.cfg.get("hdl_block_first_ns", 0))
    want = first + float(m.cfg.get("hdl_pte_ns", 0))
    diff = two["sim_time_ns"] - one["sim_time_ns"]
    out.append(("first touch: 2 isolated faults in 2 VA blocks vs in 1 (2 and 4 MB chases)",
                f"{diff / 1e3:.2f} us slower, {one['bytes_h2d'] // 65536} / "
                f"{two['bytes_h2d'] // 65536} big pages moved",
                f"the second block's first touch: hdl_block_first_ns + one PDE write = "
                f"{want / 1e3:.2f} us (+-1 us); 64 KB per fault in both (2 big pages)",
                abs(diff - want) <= 1000 and one["bytes_h2d"] == two["bytes_h2d"] == 2 * 65536))
    # a demand stream of a size the probe did not run: the measured demand streams cost the same
    # per MB within their spread (64 MB .. 1 GB: 95..144 us/MB), so 128 MB must cost what the
    # two measured neighbours cost per MB, in the band rule: [least min/MB of 64 and 256 MB,
    # largest max/MB] x 128 MB, widened by BAND
    nb = [r for r in rows if r["experiment"] == "stream" and r["variant"] == "um_demand"
          and int(r["size_mb"]) in (64, 256)]
    if len(nb) == 2:
        lo = min(r["min"] / int(r["size_mb"]) for r in nb) * OOS_STREAM_MB / BAND
        hi = max(r["max"] / int(r["size_mb"]) for r in nb) * OOS_STREAM_MB * BAND
        st = m.st(stream_specs(m, OOS_STREAM_MB)[0])
        t = (st["sim_time_ns"] + launch_ns("stream", "um_demand")) / 1e6
        out.append((f"stream um_demand {OOS_STREAM_MB} MB (a size the probe did not run)",
                    f"{t:.2f} ms, {st['bytes_h2d'] / MB:.0f} MB",
                    f"the measured 64 MB and 256 MB demand streams' cost per MB in the band rule: "
                    f"{lo:.2f}..{hi:.2f} ms; every page moved once ({OOS_STREAM_MB} MB)",
                    lo <= t <= hi and st["bytes_h2d"] == OOS_STREAM_MB * MB))
    return out


# ---- the study: every row a grid point of gmmu-sweep (docs/calibration.md "How it runs") ---------
def row_id(r):
    """A row's id in the study (the workload name's first part): experiment.variant[.SIZEmb]
    [.kK].metric, as gmmu-sweep names allow."""
    size = f".{r['size_mb']}mb" if r["size_mb"] else ""
    k = f".k{r['k']}" if r.get("k") else ""
    return re.sub(r"[^A-Za-z0-9_.-]", "_",
                  f"{r['experiment']}.{r['variant']}{size}{k}.{r['metric']}")


OOS_ID = "oos"  # the workload-name prefix of the out-of-sample checks' runs


def study_points(m, rows, with_oos):
    """(workload name, spec) per grid point: each run a row needs, named row_id+spec name (two
    rows that need the same run are two grid points of one run key: it runs once), then the
    out-of-sample checks' runs."""
    pts, ids = [], set()
    for r in rows:
        rid = row_id(r)
        if rid in ids:
            die(f"two rows of the measurement file have the id {rid}")
        ids.add(rid)
        pts += [(f"{rid}+{sp[0]}", sp) for sp in row_specs(m, r)]
    if with_oos:
        pts += [(f"{OOS_ID}+{sp[0]}", sp) for sp in dict.fromkeys(oos_specs(m))]
    return pts


def toml_str(v):
    return json.dumps(str(v))


def write_study(m, a, rows, path):
    """The study file of every row (and the out-of-sample checks), the prefetch traces it
    names; paths relative to the repository root (the current directory)."""
    tdir = os.path.join(os.path.dirname(path) or ".", "traces")
    os.makedirs(tdir, exist_ok=True)
    out = ["# generated by scripts/calibrate.py --write-study from "
           f"{a.csv} and {a.config}: do not edit", "# (docs/calibration.md \"How it runs\")",
           "[study]", 'name = "calibrate"',
           'description = "configs/h100.cfg (C model) vs the measured H100 rows"',
           f"sim = {toml_str(a.sim)}", f"gen = {toml_str(a.gen)}",
           f"store = {toml_str(a.sweep_store)}", "keep_traces = false", "",
           "[[config]]", 'name = "h100"', f"file = {toml_str(a.config)}",
           "set = [" + ", ".join(toml_str(x) for x in a.set) + "]", ""]
    for wname, (name, wl, size_mb, iters, params, sets) in study_points(m, rows, True):
        out += ["[[workload]]", f"name = {toml_str(wname)}"]
        if wl == "prefetch":
            trc = os.path.join(tdir, name + ".trc")
            text = prefetch_trace(size_mb)
            if not os.path.exists(trc) or open(trc).read() != text:
                with open(trc, "w") as f:
                    f.write(text)
            out.append(f"trace = {toml_str(trc)}")
        else:
            out += [f"gen = {toml_str(wl)}", f"size_mb = {size_mb}", f"iters = {iters}"]
            if params:
                out.append("params = { " + ", ".join(
                    f"{k} = {toml_str(v)}" for k, v in (p.split("=", 1) for p in params)) + " }")
        if sets:
            out.append("set = [" + ", ".join(toml_str(x) for x in sets) + "]")
        out.append("")
    cmd = ["{python}", "scripts/calibrate.py", "--csv", a.csv, "--config", a.config,
           "--store", "{store}", "--plot", "docs/img/calibration.png", "--table",
           os.path.join(os.path.dirname(path) or ".", "table.md"), "--speed",
           os.path.join(os.path.dirname(path) or ".", "speed.md")]
    for x in a.set:
        cmd += ["--set", x]
    out += ["[[figure]]", 'name = "calibration"',
            "command = [" + ", ".join(toml_str(c) for c in cmd) + "]", ""]
    text = "\n".join(out)
    if not os.path.exists(path) or open(path).read() != text:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    print(f"calibrate: study {path} ({len(study_points(m, rows, True))} grid points)")


def only_regex(m, chosen, with_oos):
    """gmmu-sweep --only for the selected rows (and the out-of-sample checks)."""
    names = [w for w, _ in study_points(m, chosen, with_oos)]
    if not names:
        return "^$"  # closed-form rows only: nothing to run
    return "workload=(" + "|".join(re.escape(w) for w in names) + "),"


# ---- speed: the C model's simulated time per wall second against the real H100 (issue 23 item 6) -
def speed_rows(m, rows):
    """(what, the real H100's time in ms, the stored run) for every row whose run simulates
    exactly what the probe timed: a chase's pass 0 (its loads x the measured mean latency), a
    demand stream's first pass, a pinned copy + the device kernel (the memcpy run), a prefetch,
    a sparse kernel."""
    meas = {(r["experiment"], r["variant"], r["size_mb"], r["k"], r["metric"]): r["median"]
            for r in rows}
    out = []
    for r in rows:
        exp, var, size, metric = r["experiment"], r["variant"], r["size_mb"], r["metric"]
        specs = row_specs(m, r)
        if exp == "chase_2MB_stride" and var == "pass0" and metric == "mean_latency":
            n = int(size) * MB // BLOCK
            out.append((f"chase 2 MB stride {size} MB, pass 0 ({n} isolated faults)",
                        r["median"] * n / 1e6, specs[0]))
        elif exp == "stream" and var == "um_demand":
            out.append((f"stream um_demand {size} MB (first pass)", r["median"], specs[0]))
        elif exp == "stream" and var == "device":
            copy = meas.get(("stream", "memcpy_pinned", size, r["k"], "kernel_time"))
            if copy is not None:
                out.append((f"stream {size} MB: pinned cudaMemcpy + device kernel",
                            r["median"] + copy, specs[0]))
        elif exp == "stream" and var == "um_prefetch":
            out.append((f"cudaMemPrefetchAsync {size} MB", r["median"], specs[0]))
        elif exp == "sparse_ascending" and metric == "kernel_time":
            out.append((f"sparse 1 of {r['k']} pages, {size} MB", r["median"], specs[0]))
    return out


def speed_table(m, rows):
    """Markdown lines: per run, the real time, the simulated time, the C model's wall and user
    time (gmmu-sim alone, from the store), simulated time per wall second, x slower than the
    real GPU (wall / measured, and user CPU time / measured: the machine may be shared)."""
    lines = ["| probe row | H100 (measured median) | model (simulated) | C model wall / user | "
             "simulated per wall second | slower than the H100 (wall / user) |",
             "|---|---|---|---|---|---|"]
    for what, real_ms, spec in speed_rows(m, rows):
        st = m.runs.get(spec[0])
        if st is None:
            continue
        wall, user = float(st["run_wall_s"]), float(st["run_user_s"])
        sim_ms = st["sim_time_ns"] / 1e6
        lines.append(f"| {what} | {real_ms:.3g} ms | {sim_ms:.3g} ms | {wall:.1f} s / {user:.1f} s "
                     f"| {sim_ms / wall:.3g} ms | {wall * 1e3 / real_ms:,.0f}x / "
                     f"{user * 1e3 / real_ms:,.0f}x |")
    return lines


# ---- output ------------------------------------------------------------------------------------
def fmt(v, unit):
    if unit == "B":
        return f"{v / MB:.1f} MB"
    return f"{v:.4g} {unit}"


def plot(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        die("matplotlib is missing (make deps installs it)")
    res = [x for x in results if x["model"] is not None]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(max(10, 0.33 * len(res)), 10), sharex=True)
    xs = range(len(res))
    for i, x in zip(xs, res):
        r = x["row"]
        col = "tab:green" if x["ok"] else "tab:red"
        if x.get("target") is False and x["ok"] is None:
            col = "tab:grey"  # not a prediction target (NOT_TARGETS)
        for a_, k in ((ax, 1.0), (ax2, r["median"])):  # absolute, then relative to the median
            a_.plot([i, i], [r["min"] / k, r["max"] / k], color="tab:blue", lw=6, alpha=0.45,
                    solid_capstyle="butt")
            a_.plot([i, i], [r["min"] / BAND / k, r["max"] * BAND / k], color="tab:blue", lw=1,
                    alpha=0.6)
            a_.plot(i, r["median"] / k, "_", color="tab:blue", ms=10)
            # a diamond: a closed-form row (no simulator run behind it)
            a_.plot(i, x["model"] / k, "D" if x["how"].startswith("stated") else "o", color=col,
                    ms=6)
    for a_ in (ax, ax2):
        a_.set_yscale("log")
    ax.set_ylabel("value in the row's unit (ns, ms or bytes)")
    ax2.set_ylabel("relative to the measured median")
    ax2.axhline(1.0, color="grey", lw=0.5)
    ax2.set_xticks(list(xs))
    ax2.set_xticklabels([x["label"] for x in res], rotation=75, ha="right", fontsize=7)
    ax.set_title("configs/h100.cfg (C model) vs H100: thick bar = measured min..max, thin = band "
                 "(min/1.25 .. max*1.25), dash = median, dot = model (red: outside, grey: not a\n"
                 "prediction target; diamond: closed-form, not simulated)", fontsize=9)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"calibrate: plot {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", required=True)
    ap.add_argument("--config", required=True)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write-study", metavar="TOML",
                      help="write the gmmu-sweep study of every row and out-of-sample check")
    mode.add_argument("--only-regex", action="store_true",
                      help="print gmmu-sweep's --only for the selected rows (--quick, --rows)")
    mode.add_argument("--store", metavar="SQLITE",
                      help="the collected study (results.sqlite): table, plot, checks")
    ap.add_argument("--sim", default="build/tiny/gmmu-sim", help="the study's simulator")
    ap.add_argument("--gen", default="build/bin/gmmu-gen", help="the study's generator")
    ap.add_argument("--sweep-store", default="build/sweep/calibrate",
                    help="the study's store directory")
    ap.add_argument("--study", help="the study file (named in messages)")
    ap.add_argument("--plot")
    ap.add_argument("--table")
    ap.add_argument("--speed", metavar="MD", help="with --store: the speed table (simulated time "
                    "per wall second of the stored runs against the H100's measured time)")
    ap.add_argument("--quick", action="store_true",
                    help="the isolated far-fault (chase passes 0-1) and the 64 MB stream only "
                    "(make test)")
    ap.add_argument("--rows", help="only the rows whose label matches this regular expression "
                    "(no out-of-sample checks)")
    ap.add_argument("--oos", action="store_true",
                    help="with --rows: run the out-of-sample checks too")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a configuration key in every run and in the stated models")
    a = ap.parse_args()
    rows = read_csv(a.csv)
    if not os.path.exists(a.config):
        die(f"{a.config} not found")
    cfg = read_cfg(a.config)
    for kv in a.set:
        if "=" not in kv:
            die(f"--set {kv}: expected key=value")
        k, v = kv.split("=", 1)
        cfg[k] = v
    m = Model(a, cfg)
    sel = QUICK_ROWS if a.quick else (a.rows or ".")
    chosen = [r for r in rows if re.search(sel, label_of(r))]
    if not chosen:
        die(f"no row matches '{sel}'")
    run_oos = not a.quick and (not a.rows or a.oos)
    if a.write_study:
        write_study(m, a, rows, a.write_study)
        return 0
    if a.only_regex:
        print(only_regex(m, chosen, run_oos))
        return 0
    m.load_store(a.store)
    t0 = time.time()
    results, bad = [], 0
    for r in rows:
        if r not in chosen:
            results.append({"row": r, "label": label_of(r), "model": None, "ok": None,
                            "how": "not run (--rows)"})
            continue
        v, how = predict(m, r)
        if v is None:
            results.append({"row": r, "label": label_of(r), "model": None, "how": how, "ok": None})
            continue
        ratio = v / r["median"]
        reason = NOT_TARGETS.get((r["experiment"], r["variant"], r["metric"]))
        if reason:
            # still printed (model, ratio) and checked against the lower bound it states
            lower_ok = v >= r["min"] / BAND
            bad += not lower_ok
            results.append({"row": r, "label": label_of(r), "model": v, "ratio": ratio,
                            "ok": None if lower_ok else False, "target": False,
                            "how": f"{how}; {reason}"
                            + ("" if lower_ok else "; **BELOW the lower bound**")})
            continue
        ok = r["min"] / BAND <= v <= r["max"] * BAND
        bad += not ok
        results.append({"row": r, "label": label_of(r), "model": v, "how": how, "ok": ok,
                        "ratio": ratio})
    lines = ["| experiment | model | measured median [min, max] | ratio | band | role | how |",
             "|---|---|---|---|---|---|---|"]
    for x in results:
        r, u = x["row"], x["row"]["unit"]
        if r not in chosen and a.quick:
            continue
        meas = f"{fmt(r['median'], u)} [{fmt(r['min'], u)}, {fmt(r['max'], u)}]"
        if x["model"] is None:
            how = x["how"].replace("|", "\\|")
            lines.append(f"| {x['label']} | - | {meas} | - | not predicted | - | {how} |")
            continue
        band = "in" if x["ok"] else "**OUT**"
        if x.get("target") is False:
            band = "not a target" if x["ok"] is None else "**OUT**"
        src = source_of(x["label"])
        role = f"source of {src}" if src else "prediction"
        if x["how"].startswith("stated"):
            role = "**closed-form** (not simulated), " + role
        lines.append(f"| {x['label']} | {fmt(x['model'], u)} | {meas} | {x['ratio']:.2f} | "
                     f"{band} | {role} | {x['how']} |")
    oos = oos_checks(m, rows) if run_oos else []
    if oos:
        lines += ["", "Out-of-sample checks (patterns not in the file):", "",
                  "| pattern | model | expectation | result |", "|---|---|---|---|"]
        for name, val, expect, ok in oos:
            lines.append(f"| {name} | {val} | {expect} | {'pass' if ok else '**FAIL**'} |")
    print("\n".join(lines))
    if a.table:
        os.makedirs(os.path.dirname(a.table) or ".", exist_ok=True)
        with open(a.table, "w") as f:
            f.write("\n".join(lines) + "\n")
    if a.plot:
        plot(results, a.plot)
    if a.speed:
        with open(a.speed, "w") as f:
            f.write("\n".join(speed_table(m, rows)) + "\n")
        print(f"calibrate: speed table {a.speed}")
    oos_bad = sum(1 for o in oos if not o[3])
    npred = sum(1 for x in results if x["model"] is not None)
    ntarget = sum(1 for x in results if x.get("target") is False)
    preds = [x for x in results if x["model"] is not None and x.get("target") is not False
             and not source_of(x["label"])]
    print(f"calibrate: {len(preds)} predicted rows are not a source of any parameter "
          f"(SOURCE_ROWS): {sum(1 for x in preds if x['ok'])} of them inside the band")
    print(f"calibrate: {npred} of {len(rows)} rows predicted ({ntarget} of them not a prediction "
          f"target, see NOT_TARGETS), {bad} outside [min/{BAND}, "
          f"max*{BAND}], {len(chosen) - npred} not predicted, {len(rows) - len(chosen)} not "
          f"selected (--rows '{sel}'); {len(oos)} out-of-sample checks, {oos_bad} "
          f"failed; {time.time() - t0:.0f} s (the store's runs took {m.wall:.0f} s)")
    return 1 if bad or oos_bad else 0


if __name__ == "__main__":
    sys.exit(main())
