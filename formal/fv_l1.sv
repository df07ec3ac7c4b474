// Formal harness of one L1 TLB (gmmu_l1_tlb, tiny: 2 ports, 8 base + 2 large entries, 4-entry
// request table) with the L2 side free: any grant (only for a presented request), any response
// (OK/NACK, any vpn, ppn, large, w, nocache), replays, cancels, command cycles and flushes.
// The bound properties of the arrays and the request table apply too.
// Proved here: every ACCEPTED request (hit or miss) with a symbolic id X is answered exactly once
// -- by hit_valid on its port the next cycle, or later by miss_valid -- : pending <= 1, no
// answer without a pending request, never two answers in a cycle, and while pending, exactly one
// place holds X (a hit register or a request-table entry). Host protocol (assumed): X is
// presented on at most one port per cycle and not while a request with id X is outstanding.
module fv_l1 #(
  // 1: the fully associative base array (gmmu_tlb_fa); 4: 4 sets x 2 ways (gmmu_tlb_sa_async,
  // docs/microarch.md §1.4; l1.sby task prove_sa)
  parameter int unsigned L1Sets = 1
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [1:0]  req_valid_i,
  input logic [2*gmmu_pkg::VPN_W-1:0] req_vpn_i,
  input logic [1:0]  req_write_i,
  input logic [2*gmmu_pkg::REQ_ID_W-1:0] req_id_i,
  input logic        l2_gnt_in,
  input logic        rsp_valid_i,
  input logic        rsp_nack_i,
  input logic [gmmu_pkg::VPN_W-1:0] rsp_vpn_i,
  input logic        rsp_write_i,
  input logic [gmmu_pkg::PPN_W-1:0] rsp_ppn_i,
  input logic        rsp_large_i,
  input logic        rsp_w_i,
  input logic        rsp_nocache_i,
  input logic        rsp_sys_i,
  input logic        replay_i,
  input logic        cancel_valid_i,
  input logic [gmmu_pkg::VPN_W-1:0] cancel_vpn_i,
  input logic        cmd_cycle_i,
  input logic        flush_all_i,
  input logic        flush_page_i,
  input logic [gmmu_pkg::VPN_W-1:0] cmd_vpn_i
);
  localparam int unsigned IdW = gmmu_pkg::REQ_ID_W;
  localparam int unsigned P = 2, R = 4;

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  logic req_ready, miss_valid, miss_fatal, l2_req_valid, busy, l2_gnt;
  logic [1:0] hit_valid;
  logic [2*IdW-1:0] hit_id;
  logic [2*gmmu_pkg::PPN_W-1:0] hit_ppn;
  logic [IdW-1:0] miss_id;
  logic [gmmu_pkg::PPN_W-1:0] miss_ppn;
  logic [1:0] hit_sys;
  logic miss_sys;
  gmmu_tlb_pkg::tlb_req_t unused_l2_req;  // the request record (spec/tlb.toml); not checked here
  // the response and flush records (spec/tlb.toml) from the free inputs; one address space
  // (NumAsids = 1, docs/microarch.md §14.8): every ASID is 0, no scoped flush
  gmmu_tlb_pkg::tlb_rsp_t   rsp;
  gmmu_tlb_pkg::tlb_flush_t flush;
  assign rsp   = '{req: '{asid: '0, vpn: rsp_vpn_i, write: rsp_write_i}, nack: rsp_nack_i,
                   ppn: rsp_ppn_i, is_large: rsp_large_i, w: rsp_w_i, nocache: rsp_nocache_i,
                   sys: rsp_sys_i};
  assign flush = '{all: flush_all_i, page: flush_page_i, scope: 1'b0, asid: '0, vpn: cmd_vpn_i};

  assign l2_gnt = l2_gnt_in && l2_req_valid && !cmd_cycle_i;  // §2.1, §5.2

  gmmu_l1_tlb #(.NumPorts(2), .L1Entries(8), .L1Sets(L1Sets), .L1LargeEntries(2),
                .L1ReqEntries(4)) u_l1 (
    .clk_i, .rst_ni, .req_valid_i, .req_vpn_i, .req_write_i, .req_id_i,
    .req_ready_o (req_ready), .hit_valid_o (hit_valid), .hit_id_o (hit_id),
    .hit_ppn_o (hit_ppn), .miss_valid_o (miss_valid), .miss_id_o (miss_id),
    .miss_ppn_o (miss_ppn), .miss_fatal_o (miss_fatal), .hit_sys_o (hit_sys),
    .miss_sys_o (miss_sys), .l2_req_valid_o (l2_req_valid),
    .l2_req_o (unused_l2_req), .l2_gnt_i (l2_gnt),
    .rsp_valid_i, .rsp_i (rsp), .replay_i, .cancel_valid_i, .cancel_vpn_i, .cmd_cycle_i,
    .flush_i (flush), .busy_o (busy),
    // one address space (NumAsids = 1, docs/microarch.md §14.8): every ASID is 0
    .req_asid_i ('0), .cancel_asid_i ('0)
  );

  always_comb if (rst_ni) begin
    env_flush_in_cmd: assume (!(flush_all_i || flush_page_i) || cmd_cycle_i);
  end

  // symbolic id (arbitrary constant)
  logic [IdW-1:0] x;
  always_ff @(posedge clk_i) x <= x;

  logic [P-1:0] pres_x, acc_x, hit_x;
  always_comb
    for (int unsigned p = 0; p < P; p++) begin
      pres_x[p] = req_valid_i[p] && req_id_i[p*IdW +: IdW] == x;
      acc_x[p]  = pres_x[p] && req_ready;
      hit_x[p]  = hit_valid[p] && hit_id[p*IdW +: IdW] == x;
    end
  logic miss_x;
  assign miss_x = miss_valid && miss_id == x;

  logic [1:0] pending_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pending_q <= '0;
    else pending_q <= pending_q + 2'((acc_x != '0) ? 1 : 0)
                      - 2'((hit_x != '0 || miss_x) ? 1 : 0);
  end
  always_comb if (rst_ni) begin
    host_x_one_port: assume ($onehot0(pres_x));
    host_x_not_outstanding: assume (pres_x == '0 || pending_q == '0 || hit_x != '0 || miss_x);
  end

  int unsigned n_hold;
  always_comb begin
    n_hold = 0;
    for (int unsigned p = 0; p < P; p++)
      if (u_l1.hv_q[p] && u_l1.hid_q[p] == x) n_hold++;
    for (int unsigned i = 0; i < R; i++)
      if (u_l1.u_req.state_q[i] != 3'd0 && u_l1.u_req.ent_q[i].id == x) n_hold++;
  end
  always_comb if (rst_ni) begin
    l1_x_pending_le1: assert (pending_q <= 2'd1);
    l1_x_answer_pending: assert (!(hit_x != '0 || miss_x) || pending_q == 2'd1);
    l1_x_one_answer: assert ($onehot0({hit_x, miss_x}));
    l1_x_held_once: assert (n_hold == int'(pending_q));
  end
  // Aperture (docs/microarch.md §17.2 "Property"): the sys bit returned with a translation is the
  // one of the response that gave its PPN. The free responses are restricted to a page table in
  // which the aperture is a function of the frame (sys = ppn[9], the lowest bit a 2 MB frame
  // keeps), so "the same response" can be observed at the outputs: hit_sys / miss_sys must equal
  // bit 9 of hit_ppn / miss_ppn. (sys has no control influence, so the restriction does not
  // weaken the exactly-once proof above.) The helper invariants over the stored entries make it
  // k-inductive.
  localparam int unsigned PpnW = gmmu_pkg::PPN_W;
  always_comb if (rst_ni) begin
    env_sys_of_frame: assume (rsp_sys_i == rsp_ppn_i[9]);
  end
  for (genvar p = 0; p < P; p++) begin : g_sys_port
    always_comb if (rst_ni) begin
      l1_sys_hit: assert (hit_valid[p] ? hit_sys[p] == hit_ppn[p*PpnW + 9] : !hit_sys[p]);
      l1_sys_hreg: assert (u_l1.hsys_q[p] == u_l1.hppn_q[p][9]);
    end
  end
  always_comb if (rst_ni) begin
    l1_sys_miss: assert ((miss_valid && !miss_fatal) ? miss_sys == miss_ppn[9] : !miss_sys);
  end
  if (L1Sets == 1) begin : g_sys_base_fa
    for (genvar i = 0; i < 8; i++) begin : g_sys_base
      always_comb if (rst_ni) begin
        l1_sys_base: assert (!u_l1.g_base.u_base.u_store.valid_q[i] ||
                             u_l1.g_base.u_base.u_store.data_q[i].sys ==
                             u_l1.g_base.u_base.u_store.data_q[i].ppn[9]);
      end
    end
  end else begin : g_sys_base_sa
    // §1.4: entry (s, w) = index s*Ways + w; its {w, data} in g_way[w].pmem_q[s]
    localparam int unsigned Ways = 8 / L1Sets;
    localparam int unsigned DatW = $bits(gmmu_tlb_pkg::base_data_t);
    for (genvar s = 0; s < L1Sets; s++) begin : g_s
      for (genvar w = 0; w < Ways; w++) begin : g_w
        gmmu_tlb_pkg::base_data_t d;
        assign d = gmmu_tlb_pkg::base_data_t'(u_l1.g_base.u_base.g_way[w].pmem_q[s][DatW-1:0]);
        always_comb if (rst_ni) begin
          l1_sys_base_sa: assert (!u_l1.g_base.u_base.u_store.valid_q[s*Ways + w] ||
                                  d.sys == d.ppn[9]);
        end
      end
    end
  end
  for (genvar i = 0; i < 2; i++) begin : g_sys_large
    always_comb if (rst_ni) begin
      l1_sys_large: assert (!u_l1.u_large.u_store.valid_q[i] ||
                            u_l1.u_large.u_store.data_q[i].sys ==
                            u_l1.u_large.u_store.data_q[i].lppn[0]);
    end
  end
  for (genvar i = 0; i < R; i++) begin : g_sys_req
    always_comb if (rst_ni) begin
      l1_sys_req: assert (u_l1.u_req.state_q[i] == 3'd0 ||
                          (u_l1.u_req.ent_q[i].sys == u_l1.u_req.ent_q[i].ppn[9] &&
                           (!u_l1.u_req.ent_q[i].fatal || !u_l1.u_req.ent_q[i].sys)));
    end
  end
  always_comb if (rst_ni) begin
    c_l1_sys_hit: cover (hit_valid[0] && hit_sys[0]);
    c_l1_sys_miss: cover (miss_valid && miss_sys);
    c_l1_x_hit: cover (hit_x != '0);
    c_l1_x_miss: cover (miss_x);
    c_l1_both_ports_hit: cover (hit_valid == 2'b11);
  end
endmodule
