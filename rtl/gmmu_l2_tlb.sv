// Shared L2 TLB (docs/microarch.md §5): round-robin arbiter over the L1s, Lat-stage lookup
// pipeline, set-associative base array + fully associative large array (tree PLRU), MSHRs that
// hand walks to the PTW and faults to the far-fault unit, and the registered response bus rsp_q.
// C model mirror: cmodel/l2_tlb.c.
module gmmu_l2_tlb #(
  parameter int unsigned NumSm          = 2,
  parameter int unsigned L2Sets         = 4,
  parameter int unsigned L2Ways         = 2,
  parameter int unsigned L2LargeEntries = 2,
  parameter int unsigned L2Latency      = 3,
  parameter int unsigned L2MshrEntries  = 4,
  parameter int unsigned NumAsids       = 1,
  localparam int unsigned MIdxW = (L2MshrEntries > 1) ? $clog2(L2MshrEntries) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // L1 requests (combinational from the L1s' _q) and one-hot grant
  input  logic [NumSm-1:0]                  l1_req_valid_i,
  input  gmmu_tlb_pkg::tlb_req_t [NumSm-1:0] l1_req_i,  // record (asid, vpn, write) per SM
  output logic [NumSm-1:0]                  l1_gnt_o,
  // response register rsp_q (record tlb_rsp_t: req, nack, ppn, is_large, w, nocache), its valid
  // and SM mask beside it
  output logic                              rsp_valid_o,
  output logic [NumSm-1:0]                  rsp_mask_o,
  output gmmu_tlb_pkg::tlb_rsp_t            rsp_o,
  // walk request to the PTW (lowest NEED_WALK entry, record tlb_req_t) and whether a walker
  // takes it
  output logic                              walk_valid_o,
  output gmmu_tlb_pkg::tlb_req_t            walk_o,
  output logic [MIdxW-1:0]                  walk_mshr_o,
  input  logic                              walk_ready_i,
  // walk completion from the PTW (record walk_res_t)
  input  logic                              cpl_valid_i,
  input  logic [MIdxW-1:0]                  cpl_mshr_i,
  input  gmmu_tlb_pkg::walk_res_t           cpl_i,
  // the completing walk's key from the walker (= MSHR cpl_mshr_i's key, a_cpl_key): the fill's
  // tag and set
  input  logic [gmmu_pkg::VPN_W-1:0]        cpl_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]       cpl_asid_i,
  // fault offer to the far-fault unit
  output logic                              ff_valid_o,
  output gmmu_tlb_pkg::fault_offer_t       ff_o,  // record (req, fault_type)
  output logic [NumSm-1:0]                  ff_mask_o,
  input  logic                              ff_ready_i,  // registered (gmmu_ff ready_o)
  // command cycle and its invalidation (record tlb_flush_t: all, page, scope, asid, vpn)
  input  logic                              cmd_cycle_i,
  input  gmmu_tlb_pkg::tlb_flush_t          flush_i,
  // the CSR block's next values (cmd_valid_d, cmd_vpn_d): the next cycle is a command cycle,
  // and its VPN (the base array reads that set's words for a page flush, §1.3)
  input  logic                              cmd_next_i,
  input  logic [gmmu_pkg::VPN_W-1:0]        cmd_vpn_next_i,
  // events and idle contribution
  output logic                              ev_hit_o,
  output logic                              ev_miss_o,
  output logic                              ev_large_hit_o,  // EV_L2_LARGE_HIT (§15.6)
  output logic                              busy_o
);
  localparam int unsigned VpnW   = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW   = gmmu_pkg::PPN_W;
  localparam int unsigned OffW   = gmmu_pkg::PT_IDX_W;
  localparam int unsigned AsidW  = gmmu_pkg::ASID_W;
  localparam int unsigned Lat    = L2Latency;
  // stored ASIDs keep only their log2(NumAsids) low bits (docs/microarch.md §14.1): every ASID
  // here is already reduced, the registers take x_d & AsidMask so that synthesis removes the
  // constant-0 flip-flops (none with one address space)
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);
  localparam gmmu_tlb_pkg::base_tag_t  BKeep = '{asid: AsidMask, vpn: '1};
  // the base array's per-entry flush compare: the ASID (a flush by ASID, §14.4); a page flush is
  // set-local (docs/microarch.md §1.3)
  localparam gmmu_tlb_pkg::base_tag_t  BFlushKeep = '{asid: '1, vpn: '0};
  localparam gmmu_tlb_pkg::large_tag_t LKeep = '{asid: AsidMask, region: '1};
  // MSHR record (spec/tlb.toml [l2_mshr]): the SM mask field holds FB_SM_MASK_W bits, NumSm of
  // them stored (the others are constant 0, removed by synthesis as the unstored ASID bits)
  localparam int unsigned MaskW  = gmmu_pkg::FB_SM_MASK_W;
  localparam logic [MaskW-1:0] SmKeep = MaskW'({NumSm{1'b1}});
  localparam gmmu_tlb_pkg::l2_mshr_t MKeep = '{req: '{asid: AsidMask, vpn: '1, write: 1'b1},
                                               mask: SmKeep, res: '1};
  // response record: the ASID bits above log2(NumAsids) are not stored (AsidMask)
  localparam gmmu_tlb_pkg::tlb_rsp_t RKeep = '{req: '{asid: AsidMask, vpn: '1, write: 1'b1},
                                               default: '1};
  localparam int unsigned SmW    = (NumSm > 1) ? $clog2(NumSm) : 1;
  localparam int unsigned SetW   = (L2Sets > 1) ? $clog2(L2Sets) : 1;
  localparam int unsigned WayW   = (L2Ways > 1) ? $clog2(L2Ways) : 1;
  localparam int unsigned LIdxW  = (L2LargeEntries > 1) ? $clog2(L2LargeEntries) : 1;

  typedef enum logic [1:0] {
    MshrFree     = 2'd0,
    MshrNeedWalk = 2'd1,
    MshrWalking  = 2'd2,
    MshrResp     = 2'd3
  } mshr_state_e;

  // ---------------------------------------------------------------- state
  // the base array is u_base (gmmu_tlb_sa), the large array u_large (gmmu_tlb_fa)
  // pipeline, index k-1 = stage k (index Lat-1 = last stage)
  logic [Lat-1:0]            pv_q, pv_d;
  logic [SmW-1:0]            psm_q [Lat];
  logic [SmW-1:0]            psm_d [Lat];
  logic [VpnW-1:0]           pvpn_q [Lat];
  logic [VpnW-1:0]           pvpn_d [Lat];
  logic [Lat-1:0]            pwrite_q, pwrite_d;
  logic [AsidW-1:0]          pasid_q [Lat];
  logic [AsidW-1:0]          pasid_d [Lat];
  logic [SmW-1:0]            rr_q, rr_d;
  // MSHRs: the entry state (an enum FSM) and the entry record (key req: asid, vpn, write; SM
  // mask; walk result res: fault, ppn, is_large, w, nocache, fault_type)
  mshr_state_e               m_state_q [L2MshrEntries];
  mshr_state_e               m_state_d [L2MshrEntries];
  gmmu_tlb_pkg::l2_mshr_t    mshr_q [L2MshrEntries];
  gmmu_tlb_pkg::l2_mshr_t    mshr_d [L2MshrEntries];
  // same-tag vectors (§5 "same-tag vector"): per MSHR, the ways of its key's set in the base
  // array that hold its key's tag (valid where that way is valid); SA-2's "same tag" of a fill
  logic [L2Ways-1:0]         msame_q [L2MshrEntries];
  logic [L2Ways-1:0]         msame_d [L2MshrEntries];
  // response register: valid, SM mask and the record tlb_rsp_t
  logic                      rsp_valid_q, rsp_valid_d;
  logic [NumSm-1:0]          rsp_mask_q, rsp_mask_d;
  gmmu_tlb_pkg::tlb_rsp_t    rsp_q, rsp_d;

  assign rsp_valid_o = rsp_valid_q;
  assign rsp_mask_o  = rsp_mask_q;
  assign rsp_o       = rsp_q;

  // ---------------------------------------------------------------- last stage lookup (§5.1)
  logic             ls_valid;
  logic [VpnW-1:0]  ls_vpn;
  logic             ls_write;
  logic [AsidW-1:0] ls_asid;
  logic [SmW-1:0]   ls_sm;
  logic [SetW-1:0]  ls_set;
  logic             bhit, lhit, lk_hit, hit, miss, hold;
  logic             resp_sel;  // §5.3 step 1 chooses an MSHR entry this cycle
  logic [LIdxW-1:0] unused_lway;  // the large hit index is only used inside u_large
  logic [L2LargeEntries-1:0] unused_l_valid;
  gmmu_tlb_pkg::large_tag_t  unused_l_tag [L2LargeEntries];
  logic [LIdxW-1:0]          unused_l_fidx;

  assign ls_valid = pv_q[Lat-1] && !cmd_cycle_i;
  assign ls_vpn   = pvpn_q[Lat-1];
  assign ls_write = pwrite_q[Lat-1];
  assign ls_asid  = pasid_q[Lat-1];
  assign ls_sm    = psm_q[Lat-1];
  assign ls_set   = (L2Sets > 1) ? ls_vpn[SetW-1:0] : '0;

  // lk_hit: the last stage hits; hit: ... and answers (the response bus is free: an MSHR response
  // has priority, §5.1); a hit while an MSHR responds holds the stage
  assign lk_hit = ls_valid && (bhit || lhit);
  assign hit    = lk_hit && !resp_sel;
  assign miss = ls_valid && !bhit && !lhit;

  // ---------------------------------------------------------------- MSHR selection (from _q)
  logic             merge_found, free_found, resp_found, nw_found, stall;
  logic             fault_waits;  // a FAULT result passed over (assertion, coverage)
  logic [MIdxW-1:0] merge_idx, free_idx, resp_idx, nw_idx;
  // the response candidate and the walk request as one-hot picks (the lowest candidate) and
  // their entries by AND-OR: no priority encoder and
  // index multiplexer in series between the MSHR registers and the far-fault unit / walkers
  // (docs/fpga.md session 15); the indices are encoded from the one-hot picks
  logic [L2MshrEntries-1:0] resp_cand, resp_oh, nw_cand, nw_oh;
  gmmu_tlb_pkg::l2_mshr_t   resp_e, nw_e;  // the picked entries ('0 if none)

  always_comb begin : p_mshr_sel
    merge_found = 1'b0;
    merge_idx   = '0;
    free_found  = 1'b0;
    free_idx    = '0;
    fault_waits = 1'b0;
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      if (!merge_found && m_state_q[i] inside {MshrNeedWalk, MshrWalking} &&
          mshr_q[i].req.vpn == ls_vpn && mshr_q[i].req.write == ls_write &&
          mshr_q[i].req.asid == ls_asid) begin
        merge_found = 1'b1;
        merge_idx   = MIdxW'(i);
      end
      if (!free_found && m_state_q[i] == MshrFree) begin
        free_found = 1'b1;
        free_idx   = MIdxW'(i);
      end
      if (m_state_q[i] == MshrResp && mshr_q[i].res.fault && !ff_ready_i) fault_waits = 1'b1;
    end
  end

  always_comb begin : p_pick
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      // a FAULT result waits while the far-fault unit is not ready (§5.3 step 1)
      resp_cand[i] = m_state_q[i] == MshrResp && (!mshr_q[i].res.fault || ff_ready_i);
      nw_cand[i]   = m_state_q[i] == MshrNeedWalk;
    end
    resp_e   = '0;
    nw_e     = '0;
    resp_idx = '0;
    nw_idx   = '0;
    // the lowest set bit, x & -x: the increment is a carry chain (ECP5 CCU2C), which the LUT
    // mapper cannot turn into a chain of LUTs sharing the "no candidate below" terms (it did:
    // 13 LUTs in series for entry 15, docs/fpga.md session 16)
    resp_oh = resp_cand & (~resp_cand + 1'b1);
    nw_oh   = nw_cand & (~nw_cand + 1'b1);
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      resp_e   |= mshr_q[i] & {$bits(gmmu_tlb_pkg::l2_mshr_t){resp_oh[i]}};
      nw_e     |= mshr_q[i] & {$bits(gmmu_tlb_pkg::l2_mshr_t){nw_oh[i]}};
      resp_idx |= MIdxW'(i) & {MIdxW{resp_oh[i]}};
      nw_idx   |= MIdxW'(i) & {MIdxW{nw_oh[i]}};
    end
  end
  assign resp_found = |resp_cand;
  assign nw_found   = |nw_cand;

  assign stall     = miss && !merge_found && !free_found;
  assign ev_hit_o  = hit;
  assign ev_miss_o = miss && !stall;
  assign ev_large_hit_o = hit && !bhit;

  assign walk_valid_o = nw_found;
  assign walk_o       = nw_e.req;
  assign walk_mshr_o  = nw_idx;

  // response selection (§5.3 step 1): registers only (the lookup does not take part)
  assign resp_sel   = !cmd_cycle_i && resp_found;
  assign ff_valid_o = resp_sel && resp_e.res.fault;
  assign ff_o       = ff_valid_o ? '{req: resp_e.req, fault_type: resp_e.res.fault_type} : '0;
  assign ff_mask_o  = ff_valid_o ? resp_e.mask[NumSm-1:0] : '0;

  // ---------------------------------------------------------------- arbitration (§5.2)
  logic             advance, gnt_found;
  logic [SmW-1:0]   gnt_idx;
  logic [NumSm-1:0] gnt_oh;   // the granted SM, one-hot ('0 if none)
  gmmu_tlb_pkg::tlb_req_t gnt_req;  // its request ('0 if none)

  // a function of registers only (§5.2): the last stage's lookup never reaches the grant (the
  // L1s' request tables) nor the base RAM's read address; with every MSHR busy, or an MSHR
  // response going out, the pipeline holds and the last stage is still looked up (a hit that
  // answers, a merge or an allocation leaves a bubble; a stall or a hit without the bus holds)
  assign advance = !cmd_cycle_i && !(pv_q[Lat-1] && (!free_found || resp_sel));
  assign hold    = stall || (lk_hit && resp_sel);

  // round robin from rr_q: the lowest requesting SM at or above rr_q, else the lowest requesting
  // SM; each as a one-hot pick (the lowest set bit, x & -x, a carry chain) and the request as an
  // AND-OR: no rotation loop with a priority chain between the L1s' request tables and the grant
  // (cycle-neutral, docs/fpga.md sessions 15 and 16)
  always_comb begin : p_arbiter
    logic [NumSm-1:0] hi, pick_hi, pick_all;
    for (int unsigned s = 0; s < NumSm; s++) hi[s] = l1_req_valid_i[s] && SmW'(s) >= rr_q;
    pick_hi  = hi & (~hi + 1'b1);
    pick_all = l1_req_valid_i & (~l1_req_valid_i + 1'b1);
    gnt_found = |l1_req_valid_i;
    gnt_oh    = (hi != '0) ? pick_hi : pick_all;
    gnt_idx   = '0;
    gnt_req   = '0;
    for (int unsigned s = 0; s < NumSm; s++) begin
      gnt_idx |= SmW'(s) & {SmW{gnt_oh[s]}};
      gnt_req |= l1_req_i[s] & {$bits(gmmu_tlb_pkg::tlb_req_t){gnt_oh[s]}};
    end
    l1_gnt_o = advance ? gnt_oh : '0;
  end

  // ---------------------------------------------------------------- fill (step 2)
  logic             fill_b, fill_l;
  logic [VpnW-1:0]  fill_vpn;
  logic [AsidW-1:0] fill_asid;
  logic [SetW-1:0]  fill_set;

  // the walker's copy of the MSHR's key (a_cpl_key): no M:1 multiplexer of the MSHRs between
  // the walker's completion and the fill's set (cycle-neutral, docs/fpga.md session 16)
  assign fill_vpn  = cpl_vpn_i;
  assign fill_asid = cpl_asid_i & AsidMask;
  assign fill_set = (L2Sets > 1) ? fill_vpn[SetW-1:0] : '0;
  assign fill_b   = cpl_valid_i && !cpl_i.fault && !cpl_i.nocache && !cpl_i.is_large;
  assign fill_l   = cpl_valid_i && !cpl_i.fault && !cpl_i.nocache && cpl_i.is_large;

  // ---------------------------------------------------------------- base array (§1.3)
  // tag vpn (full VPN), data ppn, set vpn & (L2Sets-1); lookup at the last stage, fill at step 2,
  // hit touch of step 5 (then the fill touch), flush of step 6
  // records of spec/tlb.toml
  gmmu_tlb_pkg::base_tag_t  b_lk_tag, b_fill_tag, b_flush_tag, b_flush_mask;
  gmmu_tlb_pkg::base_data_t b_lk_data, b_fill_data;
  logic                     b_lk_w;

  // flushes with the masks of §14.4 (an unscoped INVAL_ALL is the full flush)
  logic arr_flush_all, arr_flush_sel;
  assign arr_flush_all = flush_i.all && !flush_i.scope;
  assign arr_flush_sel = flush_i.page || (flush_i.all && flush_i.scope);

  assign b_lk_tag.asid     = ls_asid;
  assign b_lk_tag.vpn      = ls_vpn;
  assign b_fill_tag.asid   = fill_asid;
  assign b_fill_tag.vpn    = fill_vpn;
  assign b_fill_data.ppn   = cpl_i.ppn;
  assign b_fill_data.sys   = cpl_i.sys;
  assign b_flush_tag.asid  = flush_i.asid;
  assign b_flush_tag.vpn   = flush_i.vpn;
  assign b_flush_mask.asid = flush_i.scope ? '1 : '0;
  assign b_flush_mask.vpn  = flush_i.page ? '1 : '0;
  logic [WayW-1:0]   unused_bway;  // the base hit way is only used inside u_base
  logic [L2Ways-1:0] b_lk_match;   // SA-1: the ways of the set holding the lookup's tag
  logic [WayW-1:0]   b_fill_way;   // SA-2's choice
  // the set u_base's RAMs read at this edge (§1.3 "payload RAM"): the set the last stage looks up
  // in the next cycle, that of pvpn_d[Lat-1] (= pvpn_q[Lat-1] when the pipeline holds), or, when
  // the next cycle is a command cycle (which looks nothing up), the set of its page flush
  logic [SetW-1:0] rd_set;
  assign rd_set = (L2Sets == 1) ? '0 :
                  cmd_next_i ? cmd_vpn_next_i[SetW-1:0] : pvpn_d[Lat-1][SetW-1:0];
  logic unused_cmd_vpn_next;  // only its set bits are read
  assign unused_cmd_vpn_next = ^cmd_vpn_next_i;

  gmmu_tlb_sa #(
    .Sets   (L2Sets),
    .Ways   (L2Ways),
    .tag_t   (gmmu_tlb_pkg::base_tag_t),
    .data_t  (gmmu_tlb_pkg::base_data_t),
    .TagKeep   (BKeep),
    .FlushKeep (BFlushKeep)
  ) u_base (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .lk_valid_i   (ls_valid),
    .lk_set_i     (ls_set),
    .rd_set_i     (rd_set),
    .lk_tag_i     (b_lk_tag),
    .lk_write_i   (ls_write),
    .lk_hit_o     (bhit),
    .lk_way_o     (unused_bway),
    .lk_data_o    (b_lk_data),
    .lk_w_o       (b_lk_w),
    .lk_match_o   (b_lk_match),
    .fill_i       (fill_b),
    .fill_set_i   (fill_set),
    .fill_same_i  (msame_q[cpl_mshr_i]),
    .fill_way_o   (b_fill_way),
    .fill_tag_i   (b_fill_tag),
    .fill_w_i     (cpl_i.w),
    .fill_data_i  (b_fill_data),
    .touch_i      (hit && bhit),
    .flush_all_i  (arr_flush_all),
    .flush_page_i (arr_flush_sel),
    .flush_tag_i  (b_flush_tag),
    .flush_mask_i (b_flush_mask),
    .flush_local_i(flush_i.page),  // the mask covers the VPN, hence the set index
    .flush_set_i  ((L2Sets > 1) ? flush_i.vpn[SetW-1:0] : '0)
  );

  // ---------------------------------------------------------------- large array (§1.2)
  // tag region vpn[35:9], data lppn; lookup at the last stage, fill at step 2, touches of step 5
  gmmu_tlb_pkg::large_tag_t  l_lk_tag, l_fill_tag, l_flush_tag, l_flush_mask;
  gmmu_tlb_pkg::large_data_t l_lk_data, l_fill_data;
  logic                      l_lk_w;

  assign l_lk_tag.asid       = ls_asid;
  assign l_lk_tag.region     = ls_vpn[VpnW-1:OffW];
  assign l_fill_tag.asid     = fill_asid;
  assign l_fill_tag.region   = fill_vpn[VpnW-1:OffW];
  assign l_fill_data.lppn    = cpl_i.ppn[PpnW-1:OffW];
  assign l_fill_data.sys     = cpl_i.sys;
  assign l_flush_tag.asid    = flush_i.asid;
  assign l_flush_tag.region  = flush_i.vpn[VpnW-1:OffW];
  assign l_flush_mask.asid   = flush_i.scope ? '1 : '0;
  assign l_flush_mask.region = flush_i.page ? '1 : '0;

  gmmu_tlb_fa #(
    .N         (L2LargeEntries),
    .NumLookup (1),
    .tag_t     (gmmu_tlb_pkg::large_tag_t),
    .data_t    (gmmu_tlb_pkg::large_data_t),
    .TagKeep   (LKeep)
  ) u_large (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .lk_valid_i   (ls_valid),
    .lk_tag_i     (l_lk_tag),
    .lk_write_i   (ls_write),
    .lk_hit_o     (lhit),
    .lk_idx_o     (unused_lway),
    .lk_data_o    (l_lk_data),
    .lk_w_o       (l_lk_w),
    .fill_i       (fill_l),
    .fill_tag_i   (l_fill_tag),
    .fill_w_i     (cpl_i.w),
    .fill_data_i  (l_fill_data),
    .touch_i      (hit && !bhit && lhit),
    .flush_all_i  (arr_flush_all),
    .flush_page_i (arr_flush_sel),
    .flush_tag_i  (l_flush_tag),
    .flush_mask_i (l_flush_mask),
    .ent_valid_o  (unused_l_valid),
    .ent_tag_o    (unused_l_tag),
    .fill_idx_o   (unused_l_fidx)
  );
  logic unused_l_view;  // the entries' view (the L1's bitmaps use it, §20): nothing here
  always_comb begin : p_unused_l_view
    unused_l_view = ^{unused_l_valid, unused_l_fidx};
    for (int unsigned i = 0; i < L2LargeEntries; i++) unused_l_view ^= ^unused_l_tag[i];
  end

  // ---------------------------------------------------------------- next state (§5.3, in order)
  always_comb begin : p_next_state
    m_state_d     = m_state_q;
    mshr_d        = mshr_q;
    rsp_valid_d   = 1'b0;
    rsp_mask_d    = '0;
    rsp_d         = '0;

    // last-stage hit response (only when no MSHR response goes out: hit excludes resp_sel)
    if (hit) begin
      rsp_valid_d = 1'b1;
      rsp_mask_d  = NumSm'(1) << ls_sm;
      rsp_d.req   = '{asid: ls_asid, vpn: ls_vpn, write: ls_write};
      if (bhit) begin
        rsp_d.ppn = b_lk_data.ppn;
        rsp_d.w   = b_lk_w;
        rsp_d.sys = b_lk_data.sys;
      end else begin
        rsp_d.ppn      = {l_lk_data.lppn, OffW'(0)};
        rsp_d.is_large = 1'b1;
        rsp_d.w        = l_lk_w;
        rsp_d.sys      = l_lk_data.sys;
      end
    end
    // 1. response selection
    if (resp_sel) begin
      rsp_valid_d = 1'b1;
      rsp_mask_d  = resp_e.mask[NumSm-1:0];
      rsp_d.req   = resp_e.req;
      if (resp_e.res.fault) begin
        rsp_d.nack = 1'b1;
      end else begin
        rsp_d.ppn      = resp_e.res.ppn;
        rsp_d.is_large = resp_e.res.is_large;
        rsp_d.w        = resp_e.res.w;
        rsp_d.nocache  = resp_e.res.nocache;
        rsp_d.sys      = resp_e.res.sys;
      end
      for (int unsigned i = 0; i < L2MshrEntries; i++) begin
        if (resp_oh[i]) m_state_d[i] = MshrFree;
      end
    end
    // 2. walker completion (+ fill)
    if (cpl_valid_i) begin
      m_state_d[cpl_mshr_i]  = MshrResp;
      mshr_d[cpl_mshr_i].res = cpl_i;
    end
    // (the fill of u_base / u_large happens inside the arrays, SA-3 / FA-3)
    // 3. walker assignment
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      if (nw_oh[i] && walk_ready_i) m_state_d[i] = MshrWalking;
    end
    // 4. merge / allocate
    if (miss) begin
      if (merge_found) begin
        mshr_d[merge_idx].mask = mshr_d[merge_idx].mask | (MaskW'(1) << ls_sm);
      end else if (free_found) begin
        m_state_d[free_idx]        = MshrNeedWalk;
        mshr_d[free_idx].req.vpn   = ls_vpn;
        mshr_d[free_idx].req.write = ls_write;
        mshr_d[free_idx].req.asid  = ls_asid;
        mshr_d[free_idx].mask      = MaskW'(1) << ls_sm;
      end
    end
    // 6. flush, applied to the _d values above. The key of an entry changes in this cycle only
    // when step 4 allocates it, and that entry is NEED_WALK, not RESP: so comparing mshr_q's key
    // is comparing mshr_d's (no path from the lookup's RAMs through the allocation into the
    // comparators, docs/fpga.md session 14)
    if (flush_i.all || flush_i.page) begin
      for (int unsigned i = 0; i < L2MshrEntries; i++) begin
        if (m_state_d[i] == MshrResp && !mshr_d[i].res.fault &&
            (flush_i.all || mshr_q[i].req.vpn[VpnW-1:OffW] == flush_i.vpn[VpnW-1:OffW]) &&
            (!flush_i.scope || mshr_q[i].req.asid == flush_i.asid)) begin
          m_state_d[i] = MshrNeedWalk;
        end
      end
    end
  end

  // ---------------------------------------------------------------- same-tag vectors (§5)
  // an allocated entry takes SA-1's match of its key (the lookup of this cycle); then the base
  // fill of this cycle (step 2, way b_fill_way of set fill_set) sets bit b_fill_way of every
  // entry whose key (of _d) is in that set to "the filled tag is the key's"
  // An entry's key of _d is the last stage's key for the entry allocated in this cycle, else
  // its _q key: the fill's compare is made on both, and the allocation only selects (no path
  // from the lookup's RAMs through the allocation into the comparators)
  always_comb begin : p_same_next
    gmmu_tlb_pkg::base_tag_t k, kl;
    logic alloc_i, in_set_m, in_set_l, same_m, same_l;
    kl.asid  = ls_asid;
    kl.vpn   = ls_vpn;
    in_set_l = L2Sets == 1 || kl.vpn[SetW-1:0] == fill_set;
    same_l   = (kl & BKeep) == (b_fill_tag & BKeep);
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      alloc_i    = miss && !merge_found && free_found && free_idx == MIdxW'(i);
      msame_d[i] = alloc_i ? b_lk_match : msame_q[i];
      k.asid   = mshr_q[i].req.asid;
      k.vpn    = mshr_q[i].req.vpn;
      in_set_m = L2Sets == 1 || k.vpn[SetW-1:0] == fill_set;
      same_m   = (k & BKeep) == (b_fill_tag & BKeep);
      if (fill_b && (alloc_i ? in_set_l : in_set_m)) begin
        msame_d[i][b_fill_way] = alloc_i ? same_l : same_m;
      end
    end
  end

  // ---------------------------------------------------------------- pipeline advance (§5.2)
  always_comb begin : p_pipeline
    pv_d     = pv_q;
    psm_d    = psm_q;
    pvpn_d   = pvpn_q;
    pwrite_d = pwrite_q;
    pasid_d  = pasid_q;
    rr_d     = rr_q;
    if (advance) begin
      for (int unsigned k = Lat - 1; k >= 1; k--) begin
        pv_d[k]     = pv_q[k-1];
        psm_d[k]    = psm_q[k-1];
        pvpn_d[k]   = pvpn_q[k-1];
        pwrite_d[k] = pwrite_q[k-1];
        pasid_d[k]  = pasid_q[k-1];
      end
      // stage 1 takes the granted request, or becomes invalid (fields 0)
      pv_d[0]     = gnt_found;
      psm_d[0]    = gnt_idx;
      pvpn_d[0]   = gnt_req.vpn;
      pwrite_d[0] = gnt_req.write;
      pasid_d[0]  = gnt_req.asid;
      if (gnt_found) rr_d = (int'(gnt_idx) == NumSm - 1) ? '0 : gnt_idx + 1'b1;
    end else if (ls_valid && !hold) begin
      // no advance: the last stage answered, merged or allocated; it is done (stages 1..Lat-1
      // hold)
      pv_d[Lat-1] = 1'b0;
    end
  end

  logic busy_mshr;
  always_comb begin : p_busy_mshr
    busy_mshr = 1'b0;
    for (int unsigned i = 0; i < L2MshrEntries; i++) begin
      if (m_state_q[i] != MshrFree) busy_mshr = 1'b1;
    end
  end
  assign busy_o = busy_mshr || rsp_valid_q || (|pv_q);

  // ---------------------------------------------------------------- registers
  // the register's D input: the stored bits only (AsidMask)
  logic [AsidW-1:0] pasid_k [Lat];
  always_comb begin : p_pasid_keep
    for (int unsigned k = 0; k < Lat; k++) pasid_k[k] = pasid_d[k] & AsidMask;
  end

  // the register's D input: the stored bits only (MKeep: AsidMask, SmKeep)
  gmmu_tlb_pkg::l2_mshr_t mshr_k [L2MshrEntries];
  always_comb begin : p_mshr_keep
    for (int unsigned i = 0; i < L2MshrEntries; i++) mshr_k[i] = mshr_d[i] & MKeep;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      pv_q          <= '0;
      pwrite_q      <= '0;
      rr_q          <= '0;
      rsp_valid_q   <= 1'b0;
      rsp_mask_q    <= '0;
      rsp_q         <= '0;
      psm_q         <= '{default: '0};
      pvpn_q        <= '{default: '0};
      pasid_q       <= '{default: '0};
      m_state_q     <= '{default: MshrFree};
      mshr_q        <= '{default: '0};
      msame_q       <= '{default: '0};
    end else begin
      pv_q          <= pv_d;
      psm_q         <= psm_d;
      pvpn_q        <= pvpn_d;
      pwrite_q      <= pwrite_d;
      pasid_q       <= pasid_k;
      rr_q          <= rr_d;
      m_state_q     <= m_state_d;
      mshr_q        <= mshr_k;
      msame_q       <= msame_d;
      rsp_valid_q   <= rsp_valid_d;
      rsp_mask_q    <= rsp_mask_d;
      rsp_q         <= rsp_d & RKeep;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  a_gnt_onehot: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(l1_gnt_o));
  // with advance a miss always finds a FREE MSHR entry and a hit the response bus: a hold never
  // meets an advance (§5.2)
  a_hold_no_advance: assert property (@(posedge clk_i) disable iff (!rst_ni) !(hold && advance));
  // a fault is offered only while the far-fault unit is ready (§5.3 step 1); while a fault
  // result waits, nothing is offered
  a_offer_ready: assert property (@(posedge clk_i) disable iff (!rst_ni) ff_valid_o |-> ff_ready_i);
  a_fault_waits: assert property (@(posedge clk_i) disable iff (!rst_ni)
    fault_waits |-> !ff_valid_o);
  // no multi-hit: in u_base (gmmu_tlb_sa) and u_large (gmmu_tlb_fa)
  // a walk completes only into an MSHR entry in WALKING
  logic cpl_bad;
  assign cpl_bad = cpl_valid_i && (m_state_q[cpl_mshr_i] != MshrWalking);
  a_cpl_walking: assert property (@(posedge clk_i) disable iff (!rst_ni) !cpl_bad);
  // the walker's key of a completion is its MSHR entry's key
  logic cpl_key_bad;
  gmmu_tlb_pkg::tlb_req_t cpl_key;  // the MSHR's key (its write bit is not compared)
  assign cpl_key     = mshr_q[cpl_mshr_i].req;
  assign cpl_key_bad = cpl_valid_i && (cpl_key.vpn != cpl_vpn_i ||
                                       cpl_key.asid != (cpl_asid_i & AsidMask));
  logic unused_cpl_key_write;
  assign unused_cpl_key_write = cpl_key.write;
  a_cpl_key: assert property (@(posedge clk_i) disable iff (!rst_ni) !cpl_key_bad);
`endif
endmodule
