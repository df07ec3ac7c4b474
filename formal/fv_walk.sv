// Formal harness of the L2 TLB MSHRs and the page-table walkers: gmmu_l2_tlb + gmmu_ptw wired as
// in gmmu_top (tiny: 2 SMs, 4 sets x 2 ways, 2 large entries, 3 stages, 4 MSHRs, 2 walkers).
// Free inputs: the L1 requests of both SMs, the far-fault unit's `ready`, PT_BASE, the memory
// port (ready, response data), the command cycle and its flushes.
// Assumptions (documented in docs/verification.md):
//   - memory protocol (§2): a response only for a read that was transferred and not yet
//     answered (shadow `outst_q` per walker id); any order, any delay, any data
//   - command cycle (§2.1, §8): a flush only in a command cycle, page and full flush exclusive
// Properties (asserted here with hierarchical references into u_l2 / u_ptw):
//   walk_mshr_*      a walker that is not IDLE serves a WALKING MSHR; two busy walkers never
//                    serve the same MSHR; every WALKING MSHR has exactly one walker (no walk is
//                    lost or duplicated)
//   walk_cpl_walking a walk completes only into a WALKING MSHR (RTL SVA a_cpl_walking)
//   walk_key, walk_cpl_key  a busy walker holds its MSHR's VPN, so the completion's key (the
//                    L2's fill tag and set) is the MSHR's (RTL SVA a_cpl_key)
//   walk_rsp_ok      a memory response always finds its walker in WAIT_RSP (RTL SVA
//                    a_rsp_to_waiting_walker); a walker in WAIT_RSP has exactly one read in
//                    flight (in the request register or transferred)
//   mshr_mask        an MSHR that is not FREE serves at least one SM
//   l2_gnt           the grant is one-hot-or-zero and goes to a requesting SM (a_gnt_onehot)
//   walk_level       level <= 3, large_mode only at level 3
module fv_walk #(
  parameter int unsigned NumSm = 2,
  parameter int unsigned Mshr  = 4,
  parameter int unsigned Wk    = 2
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic [NumSm-1:0]              l1_req_valid,
  input logic [NumSm*gmmu_pkg::VPN_W-1:0] l1_req_vpn,
  input logic [NumSm-1:0]              l1_req_write,
  input logic                          ff_ready_in,
  input logic [gmmu_pkg::PPN_W-1:0]    pt_base,
  input logic                          mem_req_ready_i,
  input logic                          mem_rsp_valid_i,
  input logic [gmmu_pkg::MEM_ID_W-1:0] mem_rsp_id_i,
  input logic [63:0]                   mem_rsp_data_i,
  input logic                          cmd_cycle,
  input logic                          flush_all,
  input logic                          flush_page,
  input logic [gmmu_pkg::VPN_W-1:0]    cmd_vpn
);
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W;
  localparam int unsigned MIdxW = $clog2(Mshr);
  localparam logic [1:0] MFree = 2'd0, MNeedWalk = 2'd1, MWalking = 2'd2, MResp = 2'd3;
  localparam logic [1:0] WIdle = 2'd0, WIssue = 2'd1, WWaitRsp = 2'd2;

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  // ---------------------------------------------------------------- DUT
  logic [NumSm-1:0] l1_gnt, rsp_mask, ff_mask;
  logic rsp_valid;
  gmmu_tlb_pkg::tlb_rsp_t rsp;    // response record (spec/tlb.toml)
  logic walk_valid, walk_ready, cpl_valid;
  gmmu_tlb_pkg::tlb_req_t walk;   // walk request record (spec/tlb.toml)
  gmmu_tlb_pkg::walk_res_t cpl;   // walk completion record
  logic [MIdxW-1:0] walk_mshr, cpl_mshr;
  logic [gmmu_pkg::VPN_W-1:0] cpl_vpn;    // the completing walk's key (docs/microarch.md §6)
  logic [gmmu_pkg::ASID_W-1:0] cpl_asid;
  gmmu_tlb_pkg::fault_offer_t ff_offer;  // fault offer record (spec/tlb.toml)
  logic ff_valid, ev_hit, ev_miss, l2_busy;
  logic mem_req_valid, ev_walk, ev_restart, ptw_busy;
  logic [gmmu_pkg::PA_W-1:0] mem_req_addr;
  logic [gmmu_pkg::MEM_ID_W-1:0] mem_req_id;


  // the L1 requests as records (spec/tlb.toml tlb_req); one address space: every ASID is 0
  gmmu_tlb_pkg::tlb_req_t [NumSm-1:0] l1_req;
  always_comb begin : p_l1_req
    for (int unsigned s = 0; s < NumSm; s++) begin
      l1_req[s] = '{asid: '0, vpn: l1_req_vpn[s*VpnW +: VpnW], write: l1_req_write[s]};
    end
  end

  gmmu_l2_tlb #(.NumSm(NumSm), .L2Sets(4), .L2Ways(2), .L2LargeEntries(2), .L2Latency(3),
                .L2MshrEntries(Mshr)) u_l2 (
    .clk_i, .rst_ni, .l1_req_valid_i (l1_req_valid), .l1_req_i (l1_req),
    .l1_gnt_o (l1_gnt), .rsp_valid_o (rsp_valid),
    .rsp_mask_o (rsp_mask), .rsp_o (rsp), .walk_valid_o (walk_valid), .walk_o (walk),
    .walk_mshr_o (walk_mshr), .walk_ready_i (walk_ready),
    .cpl_valid_i (cpl_valid), .cpl_mshr_i (cpl_mshr), .cpl_i (cpl), .cpl_vpn_i (cpl_vpn),
    .cpl_asid_i (cpl_asid), .ff_valid_o (ff_valid),
    .ff_o (ff_offer), .ff_mask_o (ff_mask),
    .ff_ready_i (ff_ready_in), .cmd_cycle_i (cmd_cycle),
    // one address space (NumAsids = 1, docs/microarch.md §14.8): every ASID is 0, no scope
    .flush_i ('{all: flush_all, page: flush_page, scope: 1'b0, asid: '0, vpn: cmd_vpn}),
    .ev_hit_o (ev_hit), .ev_miss_o (ev_miss), .busy_o (l2_busy)
  );

  gmmu_ptw #(.NumWalkers(Wk), .L2MshrEntries(Mshr)) u_ptw (
    .clk_i, .rst_ni, .pt_base_i ('{pt_base}), .cmd_asid_i ('0),
    .cmd_scope_i (1'b0), .walk_valid_i (walk_valid), .walk_i (walk),
    .walk_mshr_i (walk_mshr), .walk_ready_o (walk_ready),
    .cpl_valid_o (cpl_valid), .cpl_mshr_o (cpl_mshr), .cpl_o (cpl), .cpl_vpn_o (cpl_vpn),
    .cpl_asid_o (cpl_asid), .mem_req_valid_o (mem_req_valid),
    .mem_req_ready_i, .mem_req_addr_o (mem_req_addr), .mem_req_id_o (mem_req_id),
    .mem_rsp_valid_i, .mem_rsp_id_i, .mem_rsp_data_i, .flush_all_i (flush_all),
    .flush_page_i (flush_page), .cmd_vpn_i (cmd_vpn), .ev_walk_o (ev_walk),
    .ev_restart_o (ev_restart), .busy_o (ptw_busy),
    // no coalesce unit here (docs/microarch.md §15): the walkers alone own the request register
    .mem_req_write_o (), .co_req_valid_i (1'b0), .co_req_addr_i ('0), .co_req_write_i (1'b0),
    .co_taken_o (), .ev_walk_large_o (), .ev_pte_write_o (), .ev_pwc_hit_o (),
    // AdBits = 0 here: no set-bits write (docs/microarch.md §18)
    .mem_req_wdata_o (), .mem_req_setbits_o (), .co_wdata_i ('0), .co_busy_i (1'b0)
  );

  // ---------------------------------------------------------------- environment
  logic [Wk-1:0] outst_q;  // transferred reads without a response, per walker id
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outst_q <= '0;
    end else begin
      for (int unsigned k = 0; k < Wk; k++) begin
        if (mem_rsp_valid_i && mem_rsp_id_i == gmmu_pkg::MEM_ID_W'(k)) outst_q[k] <= 1'b0;
        if (mem_req_valid && mem_req_ready_i && mem_req_id == gmmu_pkg::MEM_ID_W'(k))
          outst_q[k] <= 1'b1;
      end
    end
  end
  always_comb if (rst_ni) begin
    env_mem_rsp: assume (!mem_rsp_valid_i ||
                         (int'(mem_rsp_id_i) < Wk && outst_q[mem_rsp_id_i[$clog2(Wk)-1:0]]));
    env_flush_in_cmd: assume (!(flush_all || flush_page) || cmd_cycle);
    env_flush_one: assume (!(flush_all && flush_page));
  end

  // ---------------------------------------------------------------- properties
  logic [1:0] ms [Mshr];
  logic [1:0] ws [Wk];
  always_comb begin
    for (int unsigned i = 0; i < Mshr; i++) ms[i] = u_l2.m_state_q[i];
    for (int unsigned k = 0; k < Wk; k++) ws[k] = u_ptw.w_state_q[k];
  end

  // no coalesce unit: the request register never holds its request (docs/microarch.md §15.2)
  always_comb if (rst_ni) begin
    walk_no_co: assert (!u_ptw.mr_co_q && !u_ptw.mr_write_q);
  end

  for (genvar k = 0; k < Wk; k++) begin : g_w
    always_comb if (rst_ni) begin
      walk_state_legal: assert (ws[k] != 2'd3);
      walk_mshr_walking: assert (ws[k] == WIdle || ms[u_ptw.w_mshr_q[k]] == MWalking);
      // a busy walker holds its MSHR's key (the L2's fill takes the key from the walker)
      walk_key: assert (ws[k] == WIdle ||
                        u_l2.mshr_q[u_ptw.w_mshr_q[k]].req.vpn == u_ptw.w_vpn_q[k]);
      walk_level: assert (u_ptw.w_level_q[k] <= 2'd3 &&
                          (!u_ptw.w_lmode_q[k] || u_ptw.w_level_q[k] == 2'd3));
      // a walker in WAIT_RSP has exactly one read in flight: in the request register or
      // transferred (outst); no read in flight for any other walker
      walk_one_read: assert ((ws[k] == WWaitRsp) ==
                             ((u_ptw.mr_valid_q && u_ptw.mr_id_q == k) ^ outst_q[k]));
      walk_no_read_else: assert (ws[k] == WWaitRsp ||
                                 !(outst_q[k] || (u_ptw.mr_valid_q && u_ptw.mr_id_q == k)));
    end
    for (genvar l = k + 1; l < Wk; l++) begin : g_l
      always_comb if (rst_ni)
        walk_mshr_distinct: assert (ws[k] == WIdle || ws[l] == WIdle ||
                                    u_ptw.w_mshr_q[k] != u_ptw.w_mshr_q[l]);
    end
  end
  for (genvar i = 0; i < Mshr; i++) begin : g_m
    int unsigned n_walkers;
    always_comb begin
      n_walkers = 0;
      for (int unsigned k = 0; k < Wk; k++)
        if (ws[k] != WIdle && u_ptw.w_mshr_q[k] == MIdxW'(i)) n_walkers++;
    end
    always_comb if (rst_ni) begin
      walk_mshr_has_walker: assert ((ms[i] == MWalking) == (n_walkers == 1));
      mshr_mask: assert (ms[i] == MFree || u_l2.mshr_q[i].mask != '0);
    end
  end
  always_comb if (rst_ni) begin
    walk_cpl_walking: assert (!cpl_valid || ms[cpl_mshr] == MWalking);
    walk_cpl_key: assert (!cpl_valid || u_l2.mshr_q[cpl_mshr].req.vpn == cpl_vpn);
    walk_rsp_ok: assert (!mem_rsp_valid_i || u_ptw.rsp_ok);
    l2_gnt: assert ($onehot0(l1_gnt) && (l1_gnt & ~l1_req_valid) == '0);
    l2_rsp_mask: assert (!rsp_valid || rsp_mask != '0);
    l2_ff_mask: assert (!ff_valid || ff_mask != '0);
  end

  // ---------------------------------------------------------------- covers: every FSM state
  logic [3:0] m_seen;
  logic [2:0] w_seen;
  always_comb begin
    m_seen = '0;
    w_seen = '0;
    for (int unsigned i = 0; i < Mshr; i++) m_seen[ms[i]] = 1'b1;
    for (int unsigned k = 0; k < Wk; k++) w_seen[ws[k]] = 1'b1;
  end
  always_comb if (rst_ni) begin
    c_mshr_free: cover (m_seen[MFree]);
    c_mshr_need_walk: cover (m_seen[MNeedWalk]);
    c_mshr_walking: cover (m_seen[MWalking]);
    c_mshr_resp: cover (m_seen[MResp]);
    c_walk_idle: cover (w_seen[WIdle]);
    c_walk_issue: cover (w_seen[WIssue]);
    c_walk_wait_rsp: cover (w_seen[WWaitRsp]);
    c_walk_restart: cover (ev_restart);
    c_walk_fault: cover (cpl_valid && cpl.fault);
    c_walk_ok: cover (cpl_valid && !cpl.fault);
    c_l2_merge: cover (u_l2.miss && u_l2.merge_found);
    c_l2_stall: cover (u_l2.stall);
    c_l2_nack: cover (rsp_valid && rsp.nack);
  end
endmodule
