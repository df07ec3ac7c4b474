// Page-table walkers (docs/microarch.md §6): NumWalkers independent walkers sharing one memory
// request register. 4-level radix walk (5 reads for a large page, Mosaic), poison/restart on a
// flush; optional page-walk cache (§16, gmmu_pwc); optional accessed/dirty update (§18,
// AdBits). C model mirror: cmodel/ptw.c.
module gmmu_ptw #(
  parameter int unsigned NumWalkers    = 2,
  parameter int unsigned L2MshrEntries = 4,
  parameter int unsigned NumAsids      = 1,
  parameter int unsigned PwcEntries    = 0,
  parameter int unsigned PwcLatency    = 1,
  parameter int unsigned AdBits        = 0,
  parameter int unsigned LineBitmap    = 0,  // §20.5: the bitmap write-back queue's head
  localparam int unsigned MIdxW = (L2MshrEntries > 1) ? $clog2(L2MshrEntries) : 1,
  localparam int unsigned FtW   = gmmu_pkg::FB_FAULT_TYPE_W
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // page-table root of each address space (PT_BASE[47:12]; PT_BASE[11:0] is 0 by construction,
  // see gmmu_csr; docs/microarch.md §14.2)
  input  logic [gmmu_pkg::PPN_W-1:0]         pt_base_i [NumAsids],
  // walk request from the L2 MSHRs (record tlb_req_t)
  input  logic                               walk_valid_i,
  input  gmmu_tlb_pkg::tlb_req_t             walk_i,
  input  logic [MIdxW-1:0]                   walk_mshr_i,
  output logic                               walk_ready_o,
  // completion to the L2 MSHRs (record walk_res_t)
  output logic                               cpl_valid_o,
  output logic [MIdxW-1:0]                   cpl_mshr_o,
  output gmmu_tlb_pkg::walk_res_t            cpl_o,
  // the completing walk's key (vpn, reduced asid): the key of MSHR cpl_mshr_o, which does not
  // change while it is WALKING; the L2's fill reads it here instead of through an M:1
  // multiplexer of its MSHRs (docs/fpga.md session 16)
  output logic [gmmu_pkg::VPN_W-1:0]         cpl_vpn_o,
  output logic [gmmu_pkg::ASID_W-1:0]        cpl_asid_o,
  // PTE memory port
  output logic                               mem_req_valid_o,
  input  logic                               mem_req_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]          mem_req_addr_o,
  output logic [gmmu_pkg::MEM_ID_W-1:0]      mem_req_id_o,
  output logic                               mem_req_write_o,
  output logic [63:0]                        mem_req_wdata_o,
  output logic                               mem_req_setbits_o,  // §18.3 atomic OR
  input  logic                               mem_rsp_valid_i,
  input  logic [gmmu_pkg::MEM_ID_W-1:0]      mem_rsp_id_i,
  input  logic [63:0]                        mem_rsp_data_i,
  // the coalesce unit's request (§15.2): taken when no walker issues
  input  logic                               co_req_valid_i,
  input  logic [gmmu_pkg::PA_W-4:0]          co_req_addr_i,  // PA[47:3]
  input  logic                               co_req_write_i,
  output logic                               co_taken_o,
  input  logic [63:0]                        co_wdata_i,   // the unit's data register
  input  logic                               co_busy_i,    // §18.2 walker writes wait
  // the referenced-line bitmap queue's head (§20.5): taken at the lowest priority, after the
  // walkers and the coalesce unit; a set-bits write of half of the 8-byte table word
  input  logic                               bmp_valid_i,
  input  logic [gmmu_pkg::PA_W-4:0]          bmp_addr_i,   // PA[47:3]
  input  logic                               bmp_hi_i,
  input  logic [31:0]                        bmp_dat_i,
  output logic                               bmp_taken_o,
  output logic                               mr_bmp_o,     // mr_valid_q && mr_bmp_q
  // flush (command cycle)
  input  logic                               flush_all_i,
  input  logic                               flush_page_i,
  input  logic [gmmu_pkg::VPN_W-1:0]         cmd_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]        cmd_asid_i,
  input  logic                               cmd_scope_i,
  // events and idle contribution
  output logic                               ev_walk_o,
  output logic                               ev_restart_o,
  output logic                               ev_walk_large_o,
  output logic                               ev_pte_write_o,
  output logic                               ev_pwc_hit_o,
  output logic                               busy_o
);
  localparam int unsigned VpnW   = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW   = gmmu_pkg::PPN_W;
  localparam int unsigned IdxW   = gmmu_pkg::PT_IDX_W;
  localparam int unsigned OffW   = gmmu_pkg::PT_IDX_W;
  localparam int unsigned Levels = gmmu_pkg::PT_LEVELS;
  localparam int unsigned LvlW   = $clog2(gmmu_pkg::PT_LEVELS);
  // PTE addresses are 8-byte aligned (pte_addr = base + 8*idx): bits [2:0] are not stored
  localparam int unsigned PteOffW = 3;
  localparam int unsigned AddrW   = gmmu_pkg::PA_W - PteOffW;
  localparam int unsigned WIdxW   = (NumWalkers > 1) ? $clog2(NumWalkers) : 1;
  localparam int unsigned PpnLsb  = gmmu_pkg::PTE_PPN_LSB;
  localparam int unsigned PpnMsb  = gmmu_pkg::PTE_PPN_MSB;
  localparam int unsigned AsidW   = gmmu_pkg::ASID_W;
  localparam int unsigned AIdxW   = (NumAsids > 1) ? $clog2(NumAsids) : 1;
  // stored ASIDs keep only their log2(NumAsids) low bits (docs/microarch.md §14.1): every ASID
  // here is already reduced, the registers take x_d & AsidMask so that synthesis removes the
  // constant-0 flip-flops (none with one address space)
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);

  typedef enum logic [1:0] {
    WkIdle    = 2'd0,
    WkIssue   = 2'd1,
    WkWaitRsp = 2'd2,
    WkPwc     = 2'd3   // page-walk cache hit latency (§16.2)
  } walker_state_e;
  localparam bit HasPwc = PwcEntries > 0;
  localparam bit HasAd  = AdBits > 0;
  localparam int unsigned PcntW = 6;

  // pte_addr(base, idx) = base + 8*idx: base is 4 KB aligned and 8*idx < 4 KB, so no carry
  function automatic logic [AddrW-1:0] pte_addr(logic [PpnW-1:0] base, logic [IdxW-1:0] idx);
    return {base, idx};
  endfunction
  // the root of an address space: pt_base_i[asid] (asid < NumAsids: reduced by the L1, so the
  // bits above the table index are 0)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [PpnW-1:0] root(logic [AsidW-1:0] asid);
    return pt_base_i[(NumAsids > 1) ? AIdxW'(asid) : '0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  // table index of level l: vpn[35-9l -: 9]; a multiplexer of the Levels constant slices (a
  // shift by IdxW * (Levels - 1 - l) made synth_ecp5 infer a MULT18X18D for the shift amount)
  function automatic logic [IdxW-1:0] lvl_idx(logic [VpnW-1:0] vpn, logic [LvlW-1:0] l);
    logic [IdxW-1:0] idx;
    idx = '0;
    for (int unsigned k = 0; k < Levels; k++) begin
      if (l == LvlW'(k)) idx = vpn[IdxW*(Levels-1-k)+:IdxW];
    end
    return idx;
  endfunction

  // pfx_l(a) == pfx_l(b) (§16.1): vpn[35:9] compared above the low 9 * (2 - l) bits
  function automatic logic pfx_match(logic [VpnW-1:0] a, logic [VpnW-1:0] b, logic [LvlW-1:0] l);
    logic [VpnW-1:0] m;
    m = {VpnW{1'b1}} << (IdxW * ((l == '0) ? 3 : (l == LvlW'(1)) ? 2 : 1));
    return (a & m) == (b & m);
  endfunction

  // ---------------------------------------------------------------- state
  walker_state_e          w_state_q [NumWalkers];
  walker_state_e          w_state_d [NumWalkers];
  logic [VpnW-1:0]        w_vpn_q [NumWalkers];
  logic [VpnW-1:0]        w_vpn_d [NumWalkers];
  logic [NumWalkers-1:0]  w_write_q, w_write_d;
  logic [AsidW-1:0]       w_asid_q [NumWalkers];
  logic [AsidW-1:0]       w_asid_d [NumWalkers];
  logic [MIdxW-1:0]       w_mshr_q [NumWalkers];
  logic [MIdxW-1:0]       w_mshr_d [NumWalkers];
  logic [LvlW-1:0]        w_level_q [NumWalkers];
  logic [LvlW-1:0]        w_level_d [NumWalkers];
  logic [NumWalkers-1:0]  w_lmode_q, w_lmode_d;   // large_mode
  logic [AddrW-1:0]       w_addr_q [NumWalkers];
  logic [AddrW-1:0]       w_addr_d [NumWalkers];
  logic [NumWalkers-1:0]  w_poison_q, w_poison_d;
  logic [PcntW-1:0]       w_pcnt_q [NumWalkers];   // §16.2 hit latency count
  logic [PcntW-1:0]       w_pcnt_d [NumWalkers];
  logic [NumWalkers-1:0]  w_nofill_q, w_nofill_d;  // §16.4 the response must not fill
  logic                   mr_valid_q, mr_valid_d;
  logic [AddrW-1:0]       mr_addr_q, mr_addr_d;
  logic [WIdxW-1:0]       mr_id_q, mr_id_d;
  logic                   mr_write_q, mr_write_d;  // a PTE write (§15.2)
  logic                   mr_co_q, mr_co_d;        // the coalesce unit's request
  logic [NumWalkers-1:0]  w_adw_q, w_adw_d;        // §18.2 the next request is a set-bits write
  logic                   mr_drt_q, mr_drt_d;      // §18.3 the set-bits write sets DRT
  logic                   mr_bmp_q, mr_bmp_d;      // §20.5 a bitmap write (LineBitmap)
  logic                   mr_bhi_q, mr_bhi_d;      //   the upper half of the table word
  logic [31:0]            mr_bdat_q, mr_bdat_d;    //   the bitmap
  localparam bit HasBmp = LineBitmap > 0;

  assign mem_req_valid_o = mr_valid_q;
  assign mem_req_addr_o  = {mr_addr_q, PteOffW'(0)};
  assign mem_req_id_o    = (mr_co_q || mr_bmp_q) ? gmmu_pkg::MEM_ID_W'(gmmu_pkg::CO_MEM_ID) :
                                                 gmmu_pkg::MEM_ID_W'(mr_id_q);
  assign mem_req_write_o = mr_write_q;
  // §18.3: a walker's write sets ACC (and DRT for a write walk); the unit's writes carry its data
  logic ad_wr;
  assign ad_wr             = HasAd && mr_write_q && !mr_co_q && !mr_bmp_q;
  assign mem_req_setbits_o = ad_wr || mr_bmp_q;  // §20.5: a bitmap write is a set-bits write
  assign mr_bmp_o          = mr_valid_q && mr_bmp_q;
  always_comb begin : p_wdata
    mem_req_wdata_o = co_wdata_i;
    if (mr_bmp_q) begin
      mem_req_wdata_o = mr_bhi_q ? {mr_bdat_q, 32'b0} : {32'b0, mr_bdat_q};
    end else if (ad_wr) begin
      mem_req_wdata_o = '0;
      mem_req_wdata_o[gmmu_pkg::PTE_ACC] = 1'b1;
      mem_req_wdata_o[gmmu_pkg::PTE_DRT] = mr_drt_q;
    end
  end

  // ---------------------------------------------------------------- selections (from _q)
  logic             iss_found, idle_found, busy_w;
  logic [WIdxW-1:0] iss_idx, idle_idx;

  always_comb begin : p_walker_sel
    iss_found  = 1'b0;
    iss_idx    = '0;
    idle_found = 1'b0;
    idle_idx   = '0;
    busy_w     = 1'b0;
    for (int unsigned k = 0; k < NumWalkers; k++) begin
      if (w_state_q[k] != WkIdle) busy_w = 1'b1;
      // §18.2: a pending set-bits write waits while the coalesce unit is busy
      if (!iss_found && w_state_q[k] == WkIssue && !(w_adw_q[k] && co_busy_i)) begin
        iss_found = 1'b1;
        iss_idx   = WIdxW'(k);
      end
      if (!idle_found && w_state_q[k] == WkIdle) begin
        idle_found = 1'b1;
        idle_idx   = WIdxW'(k);
      end
    end
  end

  assign walk_ready_o = idle_found;
  assign busy_o       = busy_w || mr_valid_q;

  // ---------------------------------------------------------------- response decode (step 2)
  logic             rsp_ok;     // response addressed to a walker in WAIT_RSP
  logic [WIdxW-1:0] rk;
  logic [63:0]      pte;
  logic [PpnW-1:0]  pte_next;   // next table base / frame: pte[47:12]
  logic             rsp_poison, rsp_fault, rsp_down, rsp_done, rsp_adw;
  logic [FtW-1:0]   rsp_ft;
  logic [LvlW-1:0]  rk_level;
  logic             rk_lmode;

  assign rk       = WIdxW'(mem_rsp_id_i);
  assign rsp_ok   = mem_rsp_valid_i && (int'(mem_rsp_id_i) < NumWalkers) &&
                    (w_state_q[rk] == WkWaitRsp);
  assign pte      = mem_rsp_data_i;
  assign pte_next = pte[PpnMsb:PpnLsb];
  assign rk_level = w_level_q[rk];
  assign rk_lmode = w_lmode_q[rk];

  always_comb begin : p_pte_rsp
    rsp_poison = 1'b0;
    rsp_fault  = 1'b0;
    rsp_down   = 1'b0;  // go one level down (or into the large-page level 3)
    rsp_done   = 1'b0;  // complete OK
    rsp_adw    = 1'b0;  // §18.2: set ACC/DRT first, then re-read
    rsp_ft     = '0;
    if (rsp_ok) begin
      if (w_poison_q[rk]) begin
        rsp_poison = 1'b1;
      end else if (int'(rk_level) < Levels - 1) begin
        if (!pte[gmmu_pkg::PTE_V]) begin
          rsp_fault = 1'b1;
          rsp_ft    = FtW'(gmmu_pkg::FT_PDE);
        end else begin
          rsp_down = 1'b1;
        end
      end else if (!pte[gmmu_pkg::PTE_V]) begin
        rsp_fault = 1'b1;
        rsp_ft    = FtW'(gmmu_pkg::FT_PTE);
      end else if (w_write_q[rk] && !pte[gmmu_pkg::PTE_W]) begin
        rsp_fault = 1'b1;
        rsp_ft    = FtW'(gmmu_pkg::FT_RO_VIOLATION);
      end else if (HasAd && (!pte[gmmu_pkg::PTE_ACC] ||
                             (w_write_q[rk] && !pte[gmmu_pkg::PTE_DRT]))) begin
        rsp_adw = 1'b1;
      end else begin
        rsp_done = 1'b1;
      end
    end
  end

  assign cpl_valid_o = rsp_fault || rsp_done;
  assign cpl_mshr_o  = w_mshr_q[rk];
  assign cpl_vpn_o   = w_vpn_q[rk];
  assign cpl_asid_o  = w_asid_q[rk];
  assign cpl_o.fault      = rsp_fault;
  assign cpl_o.fault_type = rsp_ft;
  assign cpl_o.is_large   = rsp_done && rk_lmode;
  assign cpl_o.ppn        = !rsp_done ? '0 :
                            rk_lmode ? {pte[PpnMsb:PpnLsb+OffW], OffW'(0)} : pte_next;
  // §18.4: writable only if W and (with A/D) DRT: a write to a clean page re-walks
  assign cpl_o.w          = rsp_done && pte[gmmu_pkg::PTE_W] &&
                            (!HasAd || pte[gmmu_pkg::PTE_DRT]);
  assign cpl_o.nocache    = rsp_done && !rk_lmode && pte[gmmu_pkg::PTE_D];
  assign cpl_o.sys        = rsp_done && pte[gmmu_pkg::PTE_APER];  // aperture (§17)
  // ---------------------------------------------------------------- page-walk cache (§16)
  logic                  pwc_hit, pwc_l, pwc_fill;
  logic [1:0]            pwc_lvl;
  logic [PpnW-1:0]       pwc_next;
  assign pwc_fill = HasPwc && rsp_down && !w_nofill_q[rk];
  if (HasPwc) begin : g_pwc
    gmmu_pwc #(
      .NumEntries (PwcEntries),
      .NumAsids   (NumAsids)
    ) u_pwc (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .lk_asid_i    (walk_i.asid),
      .lk_vpn_i     (walk_i.vpn),
      .lk_hit_o     (pwc_hit),
      .lk_lvl_o     (pwc_lvl),
      .lk_next_o    (pwc_next),
      .lk_l_o       (pwc_l),
      .fill_valid_i (pwc_fill),
      .fill_asid_i  (w_asid_q[rk]),
      .fill_lvl_i   (2'(rk_level)),
      .fill_vpn_i   (w_vpn_q[rk]),
      .fill_next_i  (pte_next),
      .fill_l_i     (int'(rk_level) == Levels - 2 && pte[gmmu_pkg::PTE_L]),
      .flush_all_i  (flush_all_i),
      .flush_page_i (flush_page_i),
      .cmd_vpn_i    (cmd_vpn_i),
      .cmd_asid_i   (cmd_asid_i),
      .cmd_scope_i  (cmd_scope_i)
    );
  end else begin : g_no_pwc
    assign pwc_hit  = 1'b0;
    assign pwc_lvl  = '0;
    assign pwc_next = '0;
    assign pwc_l    = 1'b0;
    logic unused_fill;
    assign unused_fill = pwc_fill;
  end
  assign ev_pwc_hit_o = walk_valid_i && idle_found && pwc_hit;

  assign ev_restart_o  = rsp_poison;
  assign ev_walk_o     = walk_valid_i && idle_found;
  assign ev_walk_large_o = rsp_done && rk_lmode;
  // step 1 with the coalesce unit (§15.2): walkers first
  logic mr_free;
  assign mr_free        = !mr_valid_q || mem_req_ready_i;
  assign co_taken_o     = mr_free && !iss_found && co_req_valid_i;
  assign bmp_taken_o    = HasBmp && mr_free && !iss_found && !co_req_valid_i && bmp_valid_i;
  assign ev_pte_write_o = (co_taken_o && co_req_write_i) ||
                          (HasAd && mr_free && iss_found && w_adw_q[iss_idx]);

  // ---------------------------------------------------------------- next state (§6, in order)
  // step 4's key compare of each walker, on its _d key (region and ASID): the assignment (step 3)
  // is the only step that changes a key, so the compare is made on the _q key and on the assigned
  // request, and the assignment selects (cycle-neutral: no path from the L2's walk request
  // through the assignment's multiplexer into the comparators, docs/fpga.md session 15)
  logic [NumWalkers-1:0] fl_key;
  logic                  fl_key_new;
  // Without a page-walk cache, step 4's restart of the walker assigned in this cycle writes what
  // the assignment wrote (ISSUE, level 0, not large, no set-bits write, the root address of its
  // key): its compare is left out, and the L2's walk request reaches no comparator (cycle-neutral,
  // docs/fpga.md session 16; with a cache the assignment may start below the root, §16.2)
  always_comb begin : p_flush_key
    fl_key_new = HasPwc &&
                 (flush_all_i || walk_i.vpn[VpnW-1:OffW] == cmd_vpn_i[VpnW-1:OffW]) &&
                 (!cmd_scope_i || walk_i.asid == cmd_asid_i);
    for (int unsigned k = 0; k < NumWalkers; k++) begin
      fl_key[k] = (walk_valid_i && idle_found && idle_idx == WIdxW'(k)) ? fl_key_new :
                  (flush_all_i || w_vpn_q[k][VpnW-1:OffW] == cmd_vpn_i[VpnW-1:OffW]) &&
                  (!cmd_scope_i || w_asid_q[k] == cmd_asid_i);
    end
  end

  always_comb begin : p_next_state
    w_state_d  = w_state_q;
    w_vpn_d    = w_vpn_q;
    w_write_d  = w_write_q;
    w_asid_d   = w_asid_q;
    w_mshr_d   = w_mshr_q;
    w_level_d  = w_level_q;
    w_lmode_d  = w_lmode_q;
    w_addr_d   = w_addr_q;
    w_poison_d = w_poison_q;
    w_pcnt_d   = w_pcnt_q;
    w_nofill_d = w_nofill_q;
    mr_valid_d = mr_valid_q;
    mr_addr_d  = mr_addr_q;
    mr_id_d    = mr_id_q;
    mr_write_d = mr_write_q;
    mr_co_d    = mr_co_q;
    w_adw_d    = w_adw_q;
    mr_drt_d   = mr_drt_q;
    mr_bmp_d   = mr_bmp_q;
    mr_bhi_d   = mr_bhi_q;
    mr_bdat_d  = mr_bdat_q;

    // 1. memory request
    if (mr_free && iss_found) begin
      w_state_d[iss_idx] = WkWaitRsp;
      mr_valid_d         = 1'b1;
      mr_addr_d          = w_addr_q[iss_idx];
      mr_id_d            = iss_idx;
      mr_write_d         = 1'b0;
      mr_co_d            = 1'b0;
      mr_drt_d           = 1'b0;
      mr_bmp_d           = 1'b0;
      if (HasAd && w_adw_q[iss_idx]) begin  // §18.2: the set-bits write, then the re-read
        w_state_d[iss_idx] = WkIssue;
        w_adw_d[iss_idx]   = 1'b0;
        mr_write_d         = 1'b1;
        mr_drt_d           = w_write_q[iss_idx];
      end
    end else if (co_taken_o) begin
      mr_valid_d = 1'b1;
      mr_addr_d  = co_req_addr_i;
      mr_id_d    = '0;
      mr_write_d = co_req_write_i;
      mr_co_d    = 1'b1;
      mr_drt_d   = 1'b0;
      mr_bmp_d   = 1'b0;
    end else if (bmp_taken_o) begin  // §20.5: when neither a walker nor the unit loads
      mr_valid_d = 1'b1;
      mr_addr_d  = bmp_addr_i;
      mr_id_d    = '0;
      mr_write_d = 1'b1;
      mr_co_d    = 1'b0;
      mr_drt_d   = 1'b0;
      mr_bmp_d   = 1'b1;
      mr_bhi_d   = bmp_hi_i;
      mr_bdat_d  = bmp_dat_i;
    end else if (mr_valid_q && mem_req_ready_i) begin
      mr_valid_d = 1'b0;  // mr_bmp_q, like mr_co_q, holds until the next load
    end
    // 1b. page-walk cache hit latency (§16.2)
    for (int unsigned k = 0; k < NumWalkers; k++) begin
      if (w_state_q[k] == WkPwc) begin
        if (w_pcnt_q[k] == '0) w_state_d[k] = WkIssue;
        else w_pcnt_d[k] = w_pcnt_q[k] - 1'b1;
      end
    end
    // 2. response
    if (rsp_ok) w_nofill_d[rk] = 1'b0;
    if (rsp_poison) begin
      w_state_d[rk]  = WkIssue;
      w_level_d[rk]  = '0;
      w_lmode_d[rk]  = 1'b0;
      w_poison_d[rk] = 1'b0;
      w_addr_d[rk]   = pte_addr(root(w_asid_q[rk]), lvl_idx(w_vpn_q[rk], '0));
    end
    if (rsp_fault || rsp_done) begin
      w_state_d[rk] = WkIdle;
    end
    if (rsp_adw) begin
      w_state_d[rk] = WkIssue;
      w_adw_d[rk]   = 1'b1;
    end
    if (rsp_down) begin
      w_state_d[rk] = WkIssue;
      w_level_d[rk] = rk_level + 1'b1;
      if (int'(rk_level) == Levels - 2 && pte[gmmu_pkg::PTE_L]) begin
        w_lmode_d[rk] = 1'b1;
        w_addr_d[rk]  = pte_addr(pte_next, '0);
      end else begin
        w_addr_d[rk]  = pte_addr(pte_next, lvl_idx(w_vpn_q[rk], rk_level + 1'b1));
      end
    end
    // 3. assignment
    if (walk_valid_i && idle_found) begin
      w_state_d[idle_idx]  = WkIssue;
      w_level_d[idle_idx]  = '0;
      w_lmode_d[idle_idx]  = 1'b0;
      w_poison_d[idle_idx] = 1'b0;
      w_vpn_d[idle_idx]    = walk_i.vpn;
      w_write_d[idle_idx]  = walk_i.write;
      w_asid_d[idle_idx]   = walk_i.asid;
      w_mshr_d[idle_idx]   = walk_mshr_i;
      w_addr_d[idle_idx]   = pte_addr(root(walk_i.asid), lvl_idx(walk_i.vpn, '0));
      w_nofill_d[idle_idx] = 1'b0;
      w_adw_d[idle_idx]    = 1'b0;
      if (pwc_hit) begin  // §16.2: start below the deepest cached level
        w_state_d[idle_idx] = WkPwc;
        w_pcnt_d[idle_idx]  = PcntW'(PwcLatency - 1);
        w_level_d[idle_idx] = LvlW'(pwc_lvl) + 1'b1;
        if (pwc_lvl == 2'd2 && pwc_l) begin
          w_lmode_d[idle_idx] = 1'b1;
          w_addr_d[idle_idx]  = pte_addr(pwc_next, '0);
        end else begin
          w_addr_d[idle_idx]  = pte_addr(pwc_next, lvl_idx(walk_i.vpn, LvlW'(pwc_lvl) + 1'b1));
        end
      end
    end
    // 4. flush, applied to the _d values above
    if (flush_all_i || flush_page_i) begin
      for (int unsigned k = 0; k < NumWalkers; k++) begin
        if (fl_key[k]) begin
          if (w_state_d[k] == WkWaitRsp) begin
            w_poison_d[k] = 1'b1;
          end else if (w_state_d[k] == WkIssue || w_state_d[k] == WkPwc) begin
            w_state_d[k] = WkIssue;
            w_level_d[k] = '0;
            w_lmode_d[k] = 1'b0;
            w_adw_d[k]   = 1'b0;
            w_addr_d[k]  = pte_addr(root(w_asid_d[k]), lvl_idx(w_vpn_d[k], '0));
          end
        end
        // §16.4: a read in flight on the flushed path must not fill the cache
        if (HasPwc && w_state_d[k] == WkWaitRsp && int'(w_level_d[k]) < Levels - 1 &&
            (!cmd_scope_i || w_asid_d[k] == cmd_asid_i) &&
            (flush_all_i || pfx_match(w_vpn_d[k], cmd_vpn_i, w_level_d[k]))) begin
          w_nofill_d[k] = 1'b1;
        end
      end
    end
  end

  // only the 2 MB region of the command vpn matters to a walker
  logic unused_cmd_vpn;
  assign unused_cmd_vpn = ^cmd_vpn_i[OffW-1:0];
  // PTE bits no walker looks at
  logic unused_pte;
  assign unused_pte = ^{pte[63:PpnMsb+1], pte[PpnLsb-1:gmmu_pkg::PTE_D+1]};

  // ---------------------------------------------------------------- registers
  // the register's D input: the stored bits only (AsidMask)
  logic [AsidW-1:0] w_asid_k [NumWalkers];
  always_comb begin : p_asid_keep
    for (int unsigned k = 0; k < NumWalkers; k++) w_asid_k[k] = w_asid_d[k] & AsidMask;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      w_write_q  <= '0;
      w_lmode_q  <= '0;
      w_poison_q <= '0;
      mr_valid_q <= 1'b0;
      mr_addr_q  <= '0;
      mr_id_q    <= '0;
      mr_write_q <= 1'b0;
      mr_co_q    <= 1'b0;
      w_state_q  <= '{default: WkIdle};
      w_vpn_q    <= '{default: '0};
      w_asid_q   <= '{default: '0};
      w_mshr_q   <= '{default: '0};
      w_level_q  <= '{default: '0};
      w_addr_q   <= '{default: '0};
    end else begin
      w_state_q  <= w_state_d;
      w_vpn_q    <= w_vpn_d;
      w_write_q  <= w_write_d;
      w_asid_q   <= w_asid_k;
      w_mshr_q   <= w_mshr_d;
      w_level_q  <= w_level_d;
      w_lmode_q  <= w_lmode_d;
      w_addr_q   <= w_addr_d;
      w_poison_q <= w_poison_d;
      mr_valid_q <= mr_valid_d;
      mr_addr_q  <= mr_addr_d;
      mr_id_q    <= mr_id_d;
      mr_write_q <= mr_write_d;
      mr_co_q    <= mr_co_d;
    end
  end

  // the page-walk cache's walker registers (§16.1) exist only with a cache: without one they are
  // constant 0 (no flip-flop, also for the Yosys prep of the formal elaboration)
  if (HasPwc) begin : g_pwc_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_pwc_regs
      if (!rst_ni) begin
        w_nofill_q <= '0;
        w_pcnt_q   <= '{default: '0};
      end else begin
        w_nofill_q <= w_nofill_d;
        w_pcnt_q   <= w_pcnt_d;
      end
    end
  end else begin : g_no_pwc_regs
    assign w_nofill_q = '0;
    assign w_pcnt_q   = '{default: '0};
    logic unused_pwc_d;
    always_comb begin : p_unused_pwc_d
      unused_pwc_d = ^w_nofill_d;
      for (int unsigned k = 0; k < NumWalkers; k++) unused_pwc_d ^= ^w_pcnt_d[k];
    end
  end

  // the accessed/dirty registers (§18.5) exist only with AdBits
  if (HasAd) begin : g_ad_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_ad_regs
      if (!rst_ni) begin
        w_adw_q  <= '0;
        mr_drt_q <= 1'b0;
      end else begin
        w_adw_q  <= w_adw_d;
        mr_drt_q <= mr_drt_d;
      end
    end
  end else begin : g_no_ad_regs
    assign w_adw_q  = '0;
    assign mr_drt_q = 1'b0;
    logic unused_ad_d;
    assign unused_ad_d = ^{w_adw_d, mr_drt_d, co_busy_i};
  end

  // the bitmap write's registers (§20.5) exist only with LineBitmap
  if (HasBmp) begin : g_bmp_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_bmp_regs
      if (!rst_ni) begin
        mr_bmp_q  <= 1'b0;
        mr_bhi_q  <= 1'b0;
        mr_bdat_q <= '0;
      end else begin
        mr_bmp_q  <= mr_bmp_d;
        mr_bhi_q  <= mr_bhi_d;
        mr_bdat_q <= mr_bdat_d;
      end
    end
  end else begin : g_no_bmp_regs
    assign mr_bmp_q  = 1'b0;
    assign mr_bhi_q  = 1'b0;
    assign mr_bdat_q = '0;
    logic unused_bmp_d;
    assign unused_bmp_d = ^{mr_bmp_d, mr_bhi_d, mr_bdat_d, bmp_valid_i, bmp_addr_i, bmp_hi_i,
                            bmp_dat_i};
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  // no lost / spurious memory response: only to a walker in WAIT_RSP
  a_rsp_to_waiting_walker: assert property (@(posedge clk_i) disable iff (!rst_ni)
    mem_rsp_valid_i && mem_rsp_id_i != gmmu_pkg::MEM_ID_W'(gmmu_pkg::CO_MEM_ID) |-> rsp_ok);
  // §18.3: a walker's write only sets ACC and/or DRT (never clears a bit, never another bit)
  a_ad_write_sets_only: assert property (@(posedge clk_i) disable iff (!rst_ni)
    mem_req_valid_o && mem_req_write_o && !mr_co_q && !mr_bmp_q |->
      mem_req_setbits_o && mem_req_wdata_o[gmmu_pkg::PTE_ACC] &&
      (mem_req_wdata_o & ~((64'd1 << gmmu_pkg::PTE_ACC) | (64'd1 << gmmu_pkg::PTE_DRT))) == '0);
`endif
endmodule
