// Formal harness of the walkers' accessed/dirty update (gmmu_ptw, docs/microarch.md §18): the
// walker block alone (2 walkers, 4 MSHR indices, no page-walk cache), every input free: walk
// requests (any VPN, read or write, any MSHR index), PT_BASE, the memory port (ready, response
// data: any PTE, so the host may set or clear any bit between a walker's read, its set-bits
// write and its re-read), the coalesce unit's request and `co_busy`, the flushes.
// Parameter AdBits: 1 (task prove / cover) or 0 (task prove0), set by the .sby file.
// Assumptions: a memory response only for a walker read that was transferred and not yet
// answered (shadow `outst_q` per walker id; a write has no response, §18.3); a page flush and a
// full flush never in the same cycle.
// Properties (issue 21: "A/D only ever set by hardware, never cleared"):
//   ad_wr_setbits   every write the port carries for a walker (id != CO_MEM_ID) is a set-bits
//                   write (mem_req_setbits) whose data is ACC or ACC|DRT
//   ad_wr_effect    for ANY word `old_word` the memory holds when the write lands, the word the
//                   memory makes of it (old | wdata for a set-bits write, wdata otherwise) keeps
//                   every bit of `old_word` and differs from it only in ACC/DRT: a walker write
//                   never clears a bit and never changes another bit
//   ad_drt_write    a set-bits write with DRT is issued for a write walk only
//   ad_wr_leaf      while a walker's write is in the request register the walker is in ISSUE
//                   (its re-read not yet issued) at level 3, its address the write's, unless a
//                   flush restarted it meanwhile (shadow `fl_q`)
//   ad_adw_leaf     a walker with a pending set-bits write (w_adw_q) is in ISSUE at level 3
//   ad_wait_co      a walker's write is never loaded while the coalesce unit is busy
//   ad_none         (AdBits = 0) the walkers never write: no walker write, no set-bits output
module fv_ad #(
  parameter int unsigned AdBits = 1
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic                          walk_valid_i,
  input logic [gmmu_pkg::VPN_W-1:0]    walk_vpn_i,
  input logic                          walk_write_i,
  input logic [1:0]                    walk_mshr_i,
  input logic [gmmu_pkg::PPN_W-1:0]    pt_base_i,
  input logic                          mem_req_ready_i,
  input logic                          mem_rsp_valid_i,
  input logic [gmmu_pkg::MEM_ID_W-1:0] mem_rsp_id_i,
  input logic [63:0]                   mem_rsp_data_i,
  input logic                          co_req_valid_i,
  input logic [gmmu_pkg::PA_W-4:0]     co_req_addr_i,
  input logic                          co_req_write_i,
  input logic [63:0]                   co_wdata_i,
  input logic                          co_busy_i,
  input logic                          flush_all_i,
  input logic                          flush_page_i,
  input logic [gmmu_pkg::VPN_W-1:0]    cmd_vpn_i,
  input logic [63:0]                   old_word_i
);
  localparam int unsigned Wk = 2;
  localparam logic [1:0] WIssue = 2'd1, WWaitRsp = 2'd2;
  localparam logic [63:0] AdMask = (64'd1 << gmmu_pkg::PTE_ACC) | (64'd1 << gmmu_pkg::PTE_DRT);
  localparam logic [63:0] AccBit = 64'd1 << gmmu_pkg::PTE_ACC;

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  // ---------------------------------------------------------------- DUT
  logic walk_ready, cpl_valid, co_taken;
  logic [1:0] cpl_mshr;
  gmmu_tlb_pkg::walk_res_t cpl;
  logic mem_req_valid, mem_req_write, mem_req_setbits;
  logic [gmmu_pkg::PA_W-1:0] mem_req_addr;
  logic [gmmu_pkg::MEM_ID_W-1:0] mem_req_id;
  logic [63:0] mem_req_wdata;
  logic ev_walk, ev_restart, ev_walk_large, ev_pte_write, ev_pwc_hit, busy;

  gmmu_ptw #(.NumWalkers(Wk), .L2MshrEntries(4), .AdBits(AdBits)) u_ptw (
    .clk_i, .rst_ni, .pt_base_i ('{pt_base_i}), .walk_valid_i,
    // one address space (NumAsids = 1): every ASID is 0
    .walk_i ('{asid: '0, vpn: walk_vpn_i, write: walk_write_i}), .walk_mshr_i,
    .walk_ready_o (walk_ready), .cpl_valid_o (cpl_valid), .cpl_mshr_o (cpl_mshr), .cpl_o (cpl),
    .cpl_vpn_o (), .cpl_asid_o (),
    .mem_req_valid_o (mem_req_valid), .mem_req_ready_i, .mem_req_addr_o (mem_req_addr),
    .mem_req_id_o (mem_req_id), .mem_req_write_o (mem_req_write),
    .mem_req_wdata_o (mem_req_wdata), .mem_req_setbits_o (mem_req_setbits),
    .mem_rsp_valid_i, .mem_rsp_id_i, .mem_rsp_data_i,
    .co_req_valid_i, .co_req_addr_i, .co_req_write_i, .co_taken_o (co_taken), .co_wdata_i,
    .co_busy_i, .flush_all_i, .flush_page_i, .cmd_vpn_i, .cmd_asid_i ('0), .cmd_scope_i (1'b0),
    .ev_walk_o (ev_walk), .ev_restart_o (ev_restart), .ev_walk_large_o (ev_walk_large),
    .ev_pte_write_o (ev_pte_write), .ev_pwc_hit_o (ev_pwc_hit), .busy_o (busy)
  );

  // ---------------------------------------------------------------- environment
  logic [Wk-1:0] outst_q;  // transferred walker reads without a response, per walker id
  logic wk_req;            // the port carries a walker's request (not the coalesce unit's)
  assign wk_req = mem_req_valid && mem_req_id != gmmu_pkg::MEM_ID_W'(gmmu_pkg::CO_MEM_ID);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outst_q <= '0;
    end else begin
      for (int unsigned k = 0; k < Wk; k++) begin
        if (mem_rsp_valid_i && mem_rsp_id_i == gmmu_pkg::MEM_ID_W'(k)) outst_q[k] <= 1'b0;
        if (wk_req && !mem_req_write && mem_req_ready_i && mem_req_id == gmmu_pkg::MEM_ID_W'(k))
          outst_q[k] <= 1'b1;
      end
    end
  end
  always_comb if (rst_ni) begin
    env_mem_rsp: assume (!mem_rsp_valid_i ||
                         (int'(mem_rsp_id_i) < Wk && outst_q[mem_rsp_id_i[0]]));
    env_flush_one: assume (!(flush_all_i && flush_page_i));
  end

  // ---------------------------------------------------------------- properties
  logic wk_wr;  // a walker's write on the port (in the request register)
  assign wk_wr = wk_req && mem_req_write;
  logic [63:0] new_word;  // what the memory makes of old_word (§18.3)
  assign new_word = mem_req_setbits ? (old_word_i | mem_req_wdata) : mem_req_wdata;
  logic id;  // the walker of the request register
  assign id = mem_req_id[0];
  // a flush since (and including the cycle in which) the request register was loaded: a flush
  // in the loading cycle restarts the walker while its write is still performed (§18.2)
  logic fl_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fl_q <= 1'b0;
    else if (!mem_req_valid || mem_req_ready_i) fl_q <= flush_all_i || flush_page_i;
    else if (flush_all_i || flush_page_i) fl_q <= 1'b1;
  end
  logic wr_load;  // a walker's set-bits write is loaded into the request register this cycle
  assign wr_load = ev_pte_write && !co_taken;

  always_comb if (rst_ni) begin
    if (AdBits != 0) begin
      ad_wr_setbits: assert (!wk_wr || (mem_req_setbits &&
                                        (mem_req_wdata == AccBit || mem_req_wdata == AdMask)));
      ad_wr_effect: assert (!wk_wr || ((new_word & old_word_i) == old_word_i &&
                                       ((new_word ^ old_word_i) & ~AdMask) == '0 &&
                                       new_word[gmmu_pkg::PTE_ACC]));
      ad_drt_write: assert (!wk_wr || !mem_req_wdata[gmmu_pkg::PTE_DRT] ||
                            u_ptw.w_write_q[id]);
      ad_wr_leaf: assert (!wk_wr || (u_ptw.w_state_q[id] == WIssue && !u_ptw.w_adw_q[id] &&
                                     (fl_q || (u_ptw.w_level_q[id] == 2'd3 &&
                                               {u_ptw.w_addr_q[id], 3'b000} == mem_req_addr))));
      ad_wait_co: assert (!(wr_load && co_busy_i));
    end else begin
      ad_none: assert (!wk_wr && !mem_req_setbits);
    end
  end
  for (genvar k = 0; k < Wk; k++) begin : g_w
    always_comb if (rst_ni && AdBits != 0) begin
      ad_adw_leaf: assert (!u_ptw.w_adw_q[k] ||
                           (u_ptw.w_state_q[k] == WIssue && u_ptw.w_level_q[k] == 2'd3));
    end
  end

  // ---------------------------------------------------------------- covers (§18.2-18.4)
  logic rd_after_wr_q;  // the previous cycle transferred a walker's write
  logic [0:0] wr_id_q;
  logic [Wk-1:0] wrote_q;  // the walker's current walk has transferred a set-bits write
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_after_wr_q <= 1'b0;
      wr_id_q       <= '0;
      wrote_q       <= '0;
    end else begin
      rd_after_wr_q <= wk_wr && mem_req_ready_i;
      wr_id_q       <= id;
      if (wk_wr && mem_req_ready_i) wrote_q[id] <= 1'b1;
      if (ev_walk) wrote_q[u_ptw.idle_idx] <= 1'b0;
    end
  end
  always_comb if (rst_ni && AdBits != 0) begin
    c_ad_wr_acc: cover (wk_wr && mem_req_ready_i && mem_req_wdata == AccBit);
    c_ad_wr_drt: cover (wk_wr && mem_req_ready_i && mem_req_wdata == AdMask);
    // the re-read of the same leaf follows the write in the next request
    c_ad_reread: cover (rd_after_wr_q && wk_req && !mem_req_write && id == wr_id_q);
    c_ad_wait_co: cover (|u_ptw.w_adw_q && co_busy_i);
    c_ad_flush_pending: cover ((flush_all_i || flush_page_i) && |u_ptw.w_adw_q);
    c_ad_flush_wr_held: cover ((flush_all_i || flush_page_i) && wk_wr && !mem_req_ready_i);
    // the re-read finds a bit cleared by the host: the update repeats
    c_ad_repeat: cover (u_ptw.rsp_adw && wrote_q[u_ptw.rk]);
    c_ad_done_w: cover (cpl_valid && cpl.w);
  end
endmodule
