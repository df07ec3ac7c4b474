#!/usr/bin/env python3
"""The explicit cover points of the RTL (make coverage; docs/verification.md "Coverage") and the
generator of their SystemVerilog bind file.

  cover_points.py --config configs/tiny.cfg -o build/coverage/gmmu_cover.sv
  cover_points.py --list             every point name (module:name)

Each RTL module gets a checker module <module>_cov, attached with `bind <module>` to every
instance (so the synthesis file set is untouched: the bind file is given to Verilator only by
the coverage build). The point expressions are evaluated in the bound module's scope (its
internal signals and enum names), passed to the checker as one bit each; each point is one
labelled `cover property` (Verilator --coverage-user counts it per instance). FSM points: the
state covers and the transition covers of an enum FSM held in an unpacked array (one FSM per
entry: walkers, MSHRs, request-table entries), unrolled for the configuration's array sizes: a
state is hit when any entry is in it, a transition when any entry makes it.
"""
import argparse
import os
import re
import subprocess
import sys

# (module, size parameter or None, array, [(state label, enum name)], [(from, to)])
FSMS = [
    ("gmmu_ptw", "NumWalkers", "w_state_q",
     [("IDLE", "WkIdle"), ("ISSUE", "WkIssue"), ("WAIT_RSP", "WkWaitRsp"), ("PWC", "WkPwc")],
     [("IDLE", "ISSUE"), ("ISSUE", "WAIT_RSP"), ("WAIT_RSP", "ISSUE"), ("WAIT_RSP", "IDLE"),
      ("IDLE", "PWC"), ("PWC", "ISSUE")]),
    ("gmmu_l2_tlb", "L2MshrEntries", "m_state_q",
     [("FREE", "MshrFree"), ("NEED_WALK", "MshrNeedWalk"), ("WALKING", "MshrWalking"),
      ("RESP", "MshrResp")],
     [("FREE", "NEED_WALK"), ("NEED_WALK", "WALKING"), ("WALKING", "RESP"), ("RESP", "FREE"),
      ("RESP", "NEED_WALK")]),
    ("gmmu_l1_req_table", "L1ReqEntries", "state_q",
     [("FREE", "ReqFree"), ("WAIT", "ReqWait"), ("INFL", "ReqInfl"), ("DONE", "ReqDone"),
      ("NACK", "ReqNack")],
     [("FREE", "WAIT"), ("WAIT", "INFL"), ("WAIT", "DONE"), ("WAIT", "NACK"), ("INFL", "DONE"),
      ("INFL", "NACK"), ("NACK", "WAIT"), ("NACK", "DONE"), ("DONE", "FREE"), ("DONE", "WAIT")]),
    # the coalesce unit (docs/microarch.md §15.3): one FSM (no size parameter), every transition
    # of §15.3 (formal/fv_co.sv proves there are no others)
    ("gmmu_co", None, "co_state_q",
     [("IDLE", "CoIdle"), ("PATH", "CoPath"), ("CHECK", "CoCheck"), ("ERD", "CoErd"),
      ("EWR", "CoEwr"), ("LRD", "CoLrd"), ("LWR", "CoLwr"), ("FLUSH", "CoFlush")],
     [("IDLE", "PATH"), ("PATH", "IDLE"), ("PATH", "CHECK"), ("PATH", "LRD"), ("CHECK", "IDLE"),
      ("CHECK", "ERD"), ("ERD", "EWR"), ("EWR", "ERD"), ("EWR", "LRD"), ("EWR", "IDLE"),
      ("LRD", "LWR"), ("LWR", "IDLE"), ("LWR", "FLUSH"), ("FLUSH", "ERD")]),
]

CSR_W = "csr_valid_i && csr_write_i && dec.mapped && !dec.ro"
CSR_NOT_BUSY = "!(csr_addr_i == gmmu_pkg::CSR_CMD && cmd_valid_q)"

# module -> [(name, expression in the module's scope, what it shows)]
EVENTS = {
    "gmmu_ptw": [
        ("walk_fault_pde", "rsp_fault && rsp_ft == FtW'(gmmu_pkg::FT_PDE)",
         "a walk ends in an invalid PDE (levels 0-2)"),
        ("walk_fault_pte", "rsp_fault && rsp_ft == FtW'(gmmu_pkg::FT_PTE)",
         "a walk ends in an invalid PTE"),
        ("walk_fault_ro", "rsp_fault && rsp_ft == FtW'(gmmu_pkg::FT_RO_VIOLATION)",
         "the walker's read-only violation: a write walk finds a valid PTE without W"),
        ("walk_done_base", "rsp_done && !rk_lmode && !pte[gmmu_pkg::PTE_D]",
         "a 4 KB walk completes OK"),
        ("walk_done_nocache", "cpl_o.nocache", "a walk completes with a disabled (nocache) PTE"),
        ("walk_enter_large", "rsp_down && int'(rk_level) == Levels - 2 && pte[gmmu_pkg::PTE_L]",
         "a PDE with the large bit switches the walk to the large-page level"),
        ("walk_done_large", "rsp_done && rk_lmode", "a 2 MB walk completes OK"),
        ("inval_poisons_walk", "|(w_poison_d & ~w_poison_q)",
         "an invalidate hits a walker waiting for its PTE read (invalidate during a walk)"),
        ("walk_restart", "rsp_poison", "the poisoned response is dropped, the walk restarts"),
        ("inval_restarts_issue",
         "(flush_all_i || flush_page_i) && (" + "{ISSUE_ANY}" + ")",
         "an invalidate while a walker waits to issue its read (restart from level 0)"),
        ("all_walkers_busy", "walk_valid_i && !idle_found",
         "a walk waits: every walker is busy"),
        ("mem_req_backpressure", "mr_valid_q && !mem_req_ready_i",
         "the memory refuses the walker's read"),
        # page-walk cache (docs/microarch.md §16; configs/pwc.cfg, make coverage-pwc)
        ("pwc_hit_l0", "ev_pwc_hit_o && pwc_lvl == 2'd0",
         "a walk starts from a level-0 page-walk-cache hit (reads levels 1-3)"),
        ("pwc_hit_l1", "ev_pwc_hit_o && pwc_lvl == 2'd1",
         "a walk starts from a level-1 hit (reads levels 2-3)"),
        ("pwc_hit_l2", "ev_pwc_hit_o && pwc_lvl == 2'd2 && !pwc_l",
         "a walk starts from a level-2 hit (reads the leaf only)"),
        ("pwc_hit_large", "ev_pwc_hit_o && pwc_lvl == 2'd2 && pwc_l",
         "a walk starts from a cached large-page (L) entry (reads entry 0 of its table)"),
        ("pwc_fill", "pwc_fill", "a level 0-2 response fills the page-walk cache"),
        ("pwc_nofill_set", "|(w_nofill_d & ~w_nofill_q)",
         "an invalidation covers the path of a read in flight (its response must not fill)"),
        ("pwc_nofill_drop", "rsp_down && w_nofill_q[rk]",
         "a response on an invalidated path goes on without filling"),
        ("pwc_flush_in_latency", "(flush_all_i || flush_page_i) && (" + "{PWC_ANY}" + ")",
         "an invalidation while a walker is in its hit latency (restart if it matches)"),
        # accessed/dirty bits (docs/microarch.md §18; configs/ad.cfg, make coverage-ad)
        ("ad_update", "rsp_adw", "a leaf response needs ACC (or DRT for a write): set-bits write "
         "next"),
        ("ad_update_drt_only", "rsp_adw && w_write_q[rk] && pte[gmmu_pkg::PTE_ACC]",
         "a write walk finds an accessed clean page: the update sets DRT"),
        ("ad_setbits_write", "mr_valid_q && mem_req_ready_i && ad_wr && !mr_drt_q",
         "a walker's set-bits write of ACC is transferred"),
        ("ad_setbits_write_drt", "mr_valid_q && mem_req_ready_i && ad_wr && mr_drt_q",
         "a walker's set-bits write of ACC|DRT is transferred"),
        ("ad_reread", "mr_valid_q && mem_req_ready_i && ad_wr && iss_found && iss_idx == mr_id_q "
         "&& !w_adw_q[iss_idx]",
         "the re-read of the leaf is issued as its write is transferred"),
        ("ad_wait_co", "co_busy_i && |w_adw_q",
         "a set-bits write waits while the coalesce unit is busy"),
        ("ad_flush_pending", "(flush_all_i || flush_page_i) && |w_adw_q",
         "an invalidation while a walker's set-bits write is pending (restart from level 0)"),
        ("ad_flush_write_held", "(flush_all_i || flush_page_i) && mr_valid_q && ad_wr",
         "an invalidation while a set-bits write is held in the request register"),
    ],
    # access counters (docs/microarch.md §19; configs/acc.cfg, lock-step test acc_count)
    "gmmu_acc": [
        ("acc_count_local", "counted && !obs_remote_i", "a local translation counted"),
        ("acc_count_remote", "counted && obs_remote_i", "a remote translation counted"),
        ("acc_alloc", "counted && !hit_found && free_found", "a region takes a free entry"),
        ("acc_replace", "o_repl", "a region replaces a valid entry (its count lost)"),
        ("acc_notify", "o_notify", "a threshold crossing loads a notification"),
        ("acc_overflow_full", "o_ovf && !ring_off", "a crossing finds the ring full"),
        ("acc_overflow_off", "o_ovf && ring_off", "a crossing with the ring off (ACC_SIZE 0)"),
        ("acc_wrap", "o_notify && put_inc == '0", "a notification wraps PUT to 0"),
        ("acc_stall", "obs_valid_i && !nw_free", "an observation not counted: the write register "
         "is stalled"),
        ("acc_clear_all_race", "clear_all_i && counted", "ACC_CLEAR_ALL or a GRAN change in a "
         "cycle that counts"),
        ("acc_clear_race", "clear_i && counted", "a targeted ACC_CLEAR in a cycle that counts"),
        ("acc_ovf_clr_race", "ovf_clr_i && o_ovf", "OVERFLOW cleared (W1C) in the cycle the unit "
         "sets it"),
    ],
    # referenced-line bitmaps (docs/microarch.md §20.6; configs/bitmap.cfg, make coverage-bmp):
    # the write-back queue and scanner (no gmmu_bmp instance in tiny)
    "gmmu_bmp": [
        ("bmp_scan_push", "scan_take_o && scan_bmp_i != '0",
         "the BMP_FLUSH scanner pushes an entry's bitmap"),
        ("bmp_scan_wait", "bs_busy_q && bs_idx_q < SIdxW'(NumScan) && cnt_q == CntW'(Q)",
         "the scanner waits for a free queue slot"),
        ("bmp_scan_done", "done_o", "a BMP_FLUSH ends (queue and request register empty)"),
        ("bmp_dep_lost_full", "cnt_q == CntW'(Q) && |dep_bmp_i",
         "a departure finds the queue full (lost, counted)"),
        ("bmp_out_of_table", "lost_o != '0 && cnt_q != CntW'(Q)",
         "a departure outside the table's window (lost, counted)"),
        ("bmp_wb_behind_walk", "head_valid_o && !load_ok_i",
         "the queue's head waits: a walker or the coalesce unit has the request register"),
        ("bmp_wb_upper", "load_o && head_hi_o", "a write of a table word's upper half"),
    ],
    "gmmu_pwc": [
        ("pwc_fill_same", "fill_valid_i && same_found", "a fill updates its own tag in place"),
        ("pwc_fill_victim", "fill_valid_i && !same_found && !inv_found",
         "a fill into a full cache replaces the round-robin victim"),
        ("pwc_flush_page", "flush_page_i && |(pv_q & ~pv_d)",
         "a page invalidation removes entries on its path"),
        ("pwc_flush_asid", "flush_all_i && cmd_scope_i && |(pv_q & ~pv_d) && |pv_d",
         "an invalidation by address space removes some entries and keeps others"),
        ("pwc_hit_3_levels", "&hit_l", "one lookup hits all three levels (the deepest wins)"),
    ],
    "gmmu_l2_tlb": [
        ("l2_hit_base", "hit && bhit", "L2 base-array hit"),
        ("l2_hit_large", "hit && !bhit && lhit", "L2 large-array hit"),
        ("l2_miss_alloc", "miss && !merge_found && free_found", "L2 miss allocates an MSHR"),
        ("l2_merge", "miss && merge_found", "L2 miss merges into a pending MSHR (L2 merge)"),
        ("l2_mshr_full_stall", "stall", "L2 miss with every MSHR busy: the pipeline stalls "
         "(MSHR full)"),
        ("l2_fault_offer", "ff_valid_o", "a fault result offered to the far-fault unit"),
        ("l2_fault_waits", "fault_waits && !cmd_cycle_i",
         "a fault result waits: the far-fault unit's write register is full (ff_ready = 0)"),
        ("l2_ok_passes_fault", "fault_waits && resp_sel",
         "an OK result is answered while a fault result below it waits"),
        ("l2_rsp_nack", "rsp_valid_q && rsp_q.nack", "a Nack on the response bus"),
        ("l2_rsp_multi_sm", "rsp_valid_q && ((rsp_mask_q & (rsp_mask_q - 1'b1)) != '0)",
         "one response answers several SMs (merged across SMs)"),
        ("l2_rsp_large", "rsp_valid_q && !rsp_q.nack && rsp_q.is_large", "a 2 MB translation"),
        ("l2_rsp_nocache", "rsp_valid_q && rsp_q.nocache",
         "a translation that must not be cached (disabled PTE)"),
        ("l2_fill_base", "fill_b", "L2 base-array fill"),
        ("l2_fill_large", "fill_l", "L2 large-array fill"),
        ("l2_hit_holds", "lk_hit && resp_sel",
         "a last-stage hit holds: a finished MSHR takes the response bus (§5.1)"),
        ("l2_bubble", "ls_valid && !advance && !hold",
         "the pipeline holds and the last stage completes (a bubble, §5.2)"),
        ("l2_cmd_holds_pipe", "cmd_cycle_i && pv_q[Lat-1]",
         "a command cycle holds the last pipeline stage"),
    ],
    "gmmu_l1_req_table": [
        ("req_table_full", "free_cnt == '0", "every request-table entry busy"),
        ("req_not_ready", "!ready_o && !cmd_cycle_i && !(|flt_q)",
         "the table refuses requests (fewer free entries than ports)"),
        ("req_alloc_all_ports", "&alloc_i", "misses on every port in one cycle"),
        ("req_out_fatal", "out_valid_o && out_fatal_o", "a cancelled request answered FATAL"),
        ("req_replay", "replay_i", "a replay reaches the table"),
        ("req_cancel", "cancel_valid_i", "a cancel reaches the table"),
        ("req_blocking_fault", "|flt_q", "blocking fault mode: a faulted entry holds the table"),
    ],
    "gmmu_l1_tlb": [
        ("l1_hit_base", "|(acc & bhit)", "L1 base-array hit"),
        # referenced-line bitmaps (docs/microarch.md §20.3, §20.4; 0 in tiny: make coverage-bmp)
        ("bmp_hit_acc", "cov_bmp_hit_new", "a hit sets a new line bit of its entry's bitmap"),
        ("bmp_fill_keep", "cov_bmp_fill_keep", "a same-tag fill keeps a non-zero bitmap"),
        ("bmp_evict_push", "ev_bmp_o != '0", "a fill evicts an entry with a non-zero bitmap"),
        ("bmp_inval_push", "|fl_bmp_o", "an invalidation makes a non-zero bitmap depart"),
        ("l1_hit_large", "|(acc & ~bhit & lhit)", "L1 large-array hit"),
        ("l1_hit_both_ports", "&hv_q", "hits on every port in one cycle"),
        ("l1_fill_base", "fill_b", "L1 base-array fill"),
        ("l1_fill_large", "fill_l", "L1 large-array fill"),
        ("l1_rsp_nocache", "rsp_valid_i && !rsp_i.nack && rsp_i.nocache",
         "a nocache translation is used but not cached"),
        ("l1_flush_page", "flush_i.page", "page invalidate"),
        ("l1_flush_all", "flush_i.all", "full invalidate"),
    ],
    "gmmu_tlb_fa": [
        ("fa_perm_miss", "lk_valid_i[0] && lk_write_i[0] && (|tag_match[0]) && !lk_hit_o[0]",
         "a write finds its page cached read-only: permission miss on a hit (port 0)"),
        ("fa_fill_full", "fill_i && (&ent_valid)", "a fill into a full array (PLRU victim)"),
        ("fa_flush_page_valid", "flush_page_i && (|ent_valid)", "a page flush of a non-empty array"),
    ],
    "gmmu_tlb_sa": [
        ("sa_perm_miss", "lk_valid_i && lk_write_i && (|tag_match) && !lk_hit_o",
         "a write finds its page cached read-only: permission miss on a hit"),
        ("sa_fill", "fill_i", "a fill"),
        ("sa_flush_page_valid", "flush_page_i && (|ent_valid)", "a page flush of a non-empty array"),
    ],
    "gmmu_ff": [
        ("ff_post", "o_post", "a far-fault posted to the ring"),
        ("ff_merge", "o_merge", "a far-fault merged into the entry of its page"),
        ("ff_drop_quota", "offer_valid_i && !merge_found && avail == '0",
         "far-fault dropped: every offering SM over its quota (quota exceeded)"),
        ("ff_post_partial_quota", "o_post && ((offer_mask_i & ~avail) != '0)",
         "a post for some SMs, the others over quota dropped"),
        ("ff_drop_no_entry", "offer_valid_i && !merge_found && avail != '0 && !free_found",
         "far-fault dropped: every far-fault entry busy"),
        ("ff_entries_full", "&e_valid_q", "every far-fault entry valid"),
        ("ff_drop_ring_full", "o_ovf && !ring_off", "far-fault dropped at a full ring (overflow)"),
        ("ff_drop_ring_off", "o_ovf && ring_off", "far-fault dropped: ring disabled"),
        ("ff_put_wrap", "o_post && put_inc == '0", "PUT wraps around the ring"),
        ("ff_fault_write_stall", "fw_valid_q && !fb_wr_ready_i", "the memory holds the fault write"),
        ("ff_ovf_clear", "ovf_clr_i && overflow_q && !o_ovf", "the host clears OVERFLOW (W1C)"),
        ("ff_ovf_set_and_clear", "o_ovf && ovf_clr_i",
         "OVERFLOW set and W1C-cleared in the same cycle (the set wins)"),
        ("ff_fb_size_write", "fb_size_wr_i", "the host writes FB_SIZE (PUT, OVERFLOW reset)"),
        ("ff_replay_page", "replay_page_i", "replay of one page"),
        ("ff_replay_page_dropped", "replay_page_i && dropped_q != '0",
         "a page replay also replays SMs whose faults were dropped"),
        ("ff_replay_all", "replay_all_i", "replay of everything"),
        ("ff_cancel_page", "cancel_page_i", "cancel of one page (fatal fault)"),
    ],
    # the coalesce unit: its FSM points (FSMS) and the outcome of a command
    "gmmu_co": [
        ("co_done_ok", "ev_done_o && co_err_d == 2'(gmmu_pkg::CO_OK)",
         "a COALESCE / SPLINTER completes"),
        ("co_refused_not_mapped", "ev_done_o && co_err_d == 2'(gmmu_pkg::CO_NOT_MAPPED)",
         "a COALESCE refused: the region is not fully mapped"),
    ],
    "gmmu_csr": [
        ("csr_err_bad_addr_read", "csr_valid_i && !csr_write_i && !rd_mapped",
         "CSR error BAD_ADDR on a read"),
        ("csr_err_bad_addr_write", "csr_valid_i && csr_write_i && !dec.mapped",
         "CSR error BAD_ADDR on a write"),
        ("csr_err_ro_write", "csr_valid_i && csr_write_i && dec.mapped && dec.ro",
         "CSR error RO_WRITE"),
        ("csr_err_cmd_busy", CSR_W + " && csr_addr_i == gmmu_pkg::CSR_CMD && cmd_valid_q",
         "CSR error CMD_BUSY (a command written while one executes)"),
        ("csr_err_mbz", CSR_W + " && " + CSR_NOT_BUSY + " && (wd & dec.mbz) != '0",
         "CSR error BAD_VALUE: a must-be-zero bit set"),
        ("csr_err_illegal_value", CSR_W + " && " + CSR_NOT_BUSY + " && (wd & dec.mbz) == '0 && "
         "!legal_ok && int'(dec.legal_err) == gmmu_pkg::ERR_BAD_VALUE",
         "CSR error BAD_VALUE: an illegal value (e.g. FB_SIZE not a power of two)"),
        ("csr_err_bad_opcode", CSR_W + " && " + CSR_NOT_BUSY + " && (wd & dec.mbz) == '0 && "
         "!legal_ok && int'(dec.legal_err) == gmmu_pkg::ERR_BAD_OPCODE",
         "CSR error BAD_OPCODE"),
        ("csr_err_clear", CSR_W + " && csr_addr_i == gmmu_pkg::CSR_ERR_STATUS && err_q != '0 && "
         "(wd[ErrW-1:0] & err_q) != '0", "the host clears an error bit"),
        ("cmd_inval_all", "flush_all_o", "command INVAL_ALL"),
        ("cmd_inval_page", "flush_page_o", "command INVAL_PAGE"),
        ("cmd_replay_page", "replay_page_o", "command REPLAY_PAGE"),
        ("cmd_replay_all", "replay_all_o", "command REPLAY_ALL"),
        ("cmd_cancel_page", "cancel_page_o", "command CANCEL_PAGE"),
        ("fault_ctrl_blocking", "blocking_q", "blocking fault mode enabled"),
        ("irq", "irq_o", "interrupt raised"),
    ],
}


def params_of(cfg, root):
    out = subprocess.run([sys.executable, os.path.join(root, "scripts", "cfg_vflags.py"), cfg],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    p = dict(re.findall(r"-G(\w+)=(\d+)", out))
    # module-local names of the sizes
    p["NumWalkers"] = p.get("NumWalkers")
    return {k: int(v) for k, v in p.items() if v is not None}


def points():
    """[(module, name, description)] of every cover point."""
    pts = []
    for mod, _, _, states, trans in FSMS:
        fsm = mod.replace("gmmu_", "")
        for s, _ in states:
            pts.append((mod, "%s_state_%s" % (fsm, s), "an entry in state %s" % s))
        for a, b in trans:
            pts.append((mod, "%s_%s_to_%s" % (fsm, a, b), "transition %s -> %s" % (a, b)))
    for mod, evs in EVENTS.items():
        for name, _, desc in evs:
            pts.append((mod, name, desc))
    return pts


def generate(params):
    fsm_of = {f[0]: f for f in FSMS}
    out = ["// Generated by tb/coverage/cover_points.py (make coverage): cover points bound into",
           "// the RTL. Not part of the synthesis or normal simulation file set.", ""]
    binds = []
    for mod in EVENTS:
        evs = list(EVENTS[mod])
        conn = []  # expressions, bit i of ev
        covers = []
        fsm = fsm_of.get(mod)
        if fsm:
            _, size_par, arr, states, trans = fsm
            n = params[size_par] if size_par else 1
            idx = {}
            for k in range(n):
                for s, enum in states:
                    idx[(k, s)] = len(conn)
                    conn.append("%s == %s" % ("%s[%d]" % (arr, k) if size_par else arr, enum))
            nfs = len(conn)
            short = mod.replace("gmmu_", "")
            for s, _ in states:
                covers.append(("%s_state_%s" % (short, s),
                               " || ".join("fs[%d]" % idx[(k, s)] for k in range(n))))
            for a, b in trans:
                covers.append(("%s_%s_to_%s" % (short, a, b),
                               " || ".join("(fs_q[%d] && fs[%d])" % (idx[(k, a)], idx[(k, b)])
                                           for k in range(n))))
        else:
            nfs = 0
        ev_base = len(conn)
        for i, (name, expr, _) in enumerate(evs):
            for key, enum in (("{ISSUE_ANY}", "WkIssue"), ("{PWC_ANY}", "WkPwc")):
                if key in expr:
                    n = params["NumWalkers"]
                    expr = expr.replace(key, " || ".join(
                        "w_state_q[%d] == %s" % (k, enum) for k in range(n)))
            conn.append(expr)
            covers.append((name, "ev[%d]" % (ev_base + i)))
        width = len(conn)
        lines = ["module %s_cov (" % mod, "  input logic clk_i,", "  input logic rst_ni,",
                 "  input logic [%d:0] ev" % (width - 1), ");"]
        lines.append("  logic [%d:0] fs, fs_q;" % max(nfs - 1, 0))
        if nfs:
            lines.append("  assign fs = ev[%d:0];" % (nfs - 1))
        else:
            lines.append("  assign fs = '0;")
        lines += ["  always_ff @(posedge clk_i or negedge rst_ni) begin",
                  "    if (!rst_ni) fs_q <= '0;", "    else fs_q <= fs;", "  end"]
        for name, e in covers:
            lines.append("  %s: cover property (@(posedge clk_i) disable iff (!rst_ni) %s);"
                         % (name, e))
        lines.append("endmodule")
        out += lines + [""]
        binds.append("bind %s %s_cov u_cov (\n  .clk_i (clk_i),\n  .rst_ni(rst_ni),\n  .ev    ({%s})\n);"
                      % (mod, mod, ",\n          ".join("(%s)" % c for c in reversed(conn))))
    return "\n".join(out + binds) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default="configs/tiny.cfg")
    ap.add_argument("-o", "--output")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if a.list:
        for mod, name, desc in points():
            print("%s:%s  %s" % (mod, name, desc))
        return 0
    text = generate(params_of(a.config, root))
    with open(a.output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
