// Per-SM L1 TLB (docs/microarch.md §4): base + large (2 MB) fully associative arrays with tree
// PLRU, per-port registered hit responses, and the request table (miss MSHRs).
// C model mirror: cmodel/l1_tlb.c.
module gmmu_l1_tlb #(
  parameter int unsigned NumPorts       = 2,
  parameter int unsigned L1Entries      = 8,
  parameter int unsigned L1LargeEntries = 2,
  parameter int unsigned L1ReqEntries   = 4
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // SM request ports
  input  logic [NumPorts-1:0]                       req_valid_i,
  input  logic [NumPorts*gmmu_pkg::VPN_W-1:0]       req_vpn_i,
  input  logic [NumPorts-1:0]                       req_write_i,
  input  logic [NumPorts*gmmu_pkg::REQ_ID_W-1:0]    req_id_i,
  output logic                                      req_ready_o,
  output logic [NumPorts-1:0]                       hit_valid_o,
  output logic [NumPorts*gmmu_pkg::REQ_ID_W-1:0]    hit_id_o,
  output logic [NumPorts*gmmu_pkg::PPN_W-1:0]       hit_ppn_o,
  output logic                                      miss_valid_o,
  output logic [gmmu_pkg::REQ_ID_W-1:0]             miss_id_o,
  output logic [gmmu_pkg::PPN_W-1:0]                miss_ppn_o,
  output logic                                      miss_fatal_o,
  // request to the L2 (combinational from _q) and grant
  output logic                                      l2_req_valid_o,
  output logic [gmmu_pkg::VPN_W-1:0]                l2_req_vpn_o,
  output logic                                      l2_req_write_o,
  input  logic                                      l2_gnt_i,
  // registered L2 response (rsp_q), already qualified with mask[s]
  input  logic                                      rsp_valid_i,
  input  logic                                      rsp_nack_i,
  input  logic [gmmu_pkg::VPN_W-1:0]                rsp_vpn_i,
  input  logic                                      rsp_write_i,
  input  logic [gmmu_pkg::PPN_W-1:0]                rsp_ppn_i,
  input  logic                                      rsp_large_i,
  input  logic                                      rsp_w_i,
  input  logic                                      rsp_nocache_i,
  // far-fault unit outputs (replay_q[s], cancel_*_q)
  input  logic                                      replay_i,
  input  logic                                      cancel_valid_i,
  input  logic [gmmu_pkg::VPN_W-1:0]                cancel_vpn_i,
  // command cycle
  input  logic                                      cmd_cycle_i,
  input  logic                                      flush_all_i,
  input  logic                                      flush_page_i,
  input  logic [gmmu_pkg::VPN_W-1:0]                cmd_vpn_i,
  // idle contribution (§9)
  output logic                                      busy_o
);
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW  = gmmu_pkg::PPN_W;
  localparam int unsigned RegW  = gmmu_pkg::LVPN_W;   // region / large ppn width
  localparam int unsigned OffW  = gmmu_pkg::PT_IDX_W; // vpn[8:0] inside a 2 MB region
  localparam int unsigned IdW   = gmmu_pkg::REQ_ID_W;
  localparam int unsigned BIdxW = (L1Entries > 1) ? $clog2(L1Entries) : 1;
  localparam int unsigned LIdxW = (L1LargeEntries > 1) ? $clog2(L1LargeEntries) : 1;
  localparam int unsigned RIdxW = (L1ReqEntries > 1) ? $clog2(L1ReqEntries) : 1;
  localparam int unsigned BPlW  = (L1Entries > 1) ? L1Entries - 1 : 1;
  localparam int unsigned LPlW  = (L1LargeEntries > 1) ? L1LargeEntries - 1 : 1;
  localparam int unsigned CntW  = $clog2(L1ReqEntries + 1);

  typedef enum logic [2:0] {
    ReqFree = 3'd0,
    ReqWait = 3'd1,
    ReqInfl = 3'd2,
    ReqDone = 3'd3,
    ReqNack = 3'd4
  } req_state_e;

  // ---------------------------------------------------------------- state
  // base array
  logic [L1Entries-1:0]      b_valid_q, b_valid_d;
  logic [VpnW-1:0]           b_vpn_q [L1Entries];
  logic [VpnW-1:0]           b_vpn_d [L1Entries];
  logic [PpnW-1:0]           b_ppn_q [L1Entries];
  logic [PpnW-1:0]           b_ppn_d [L1Entries];
  logic [L1Entries-1:0]      b_w_q, b_w_d;
  logic [BPlW-1:0]           b_plru_q, b_plru_d;
  // large array
  logic [L1LargeEntries-1:0] l_valid_q, l_valid_d;
  logic [RegW-1:0]           l_region_q [L1LargeEntries];
  logic [RegW-1:0]           l_region_d [L1LargeEntries];
  logic [RegW-1:0]           l_lppn_q [L1LargeEntries];
  logic [RegW-1:0]           l_lppn_d [L1LargeEntries];
  logic [L1LargeEntries-1:0] l_w_q, l_w_d;
  logic [LPlW-1:0]           l_plru_q, l_plru_d;
  // hit response registers
  logic [NumPorts-1:0]       hv_q, hv_d;
  logic [IdW-1:0]            hid_q [NumPorts];
  logic [IdW-1:0]            hid_d [NumPorts];
  logic [PpnW-1:0]           hppn_q [NumPorts];
  logic [PpnW-1:0]           hppn_d [NumPorts];
  // request table
  req_state_e                t_state_q [L1ReqEntries];
  req_state_e                t_state_d [L1ReqEntries];
  logic [VpnW-1:0]           t_vpn_q [L1ReqEntries];
  logic [VpnW-1:0]           t_vpn_d [L1ReqEntries];
  logic [L1ReqEntries-1:0]   t_write_q, t_write_d;
  logic [IdW-1:0]            t_id_q [L1ReqEntries];
  logic [IdW-1:0]            t_id_d [L1ReqEntries];
  logic [PpnW-1:0]           t_ppn_q [L1ReqEntries];
  logic [PpnW-1:0]           t_ppn_d [L1ReqEntries];
  logic [L1ReqEntries-1:0]   t_fatal_q, t_fatal_d;

  // ---------------------------------------------------------------- request table (from _q)
  logic             out_found, send_found;
  logic [RIdxW-1:0] out_idx, send_idx;
  logic [CntW-1:0]  free_cnt;
  logic             busy_tab;

  always_comb begin
    logic blocked;
    blocked    = 1'b0;
    out_found  = 1'b0;
    out_idx    = '0;
    send_found = 1'b0;
    send_idx   = '0;
    free_cnt   = '0;
    busy_tab   = 1'b0;
    for (int unsigned i = 0; i < L1ReqEntries; i++) begin
      if (t_state_q[i] == ReqFree) free_cnt = free_cnt + 1'b1;
      if (t_state_q[i] inside {ReqWait, ReqInfl, ReqDone}) busy_tab = 1'b1;
      if (!out_found && t_state_q[i] == ReqDone) begin
        out_found = 1'b1;
        out_idx   = RIdxW'(i);
      end
      if (!send_found && t_state_q[i] == ReqWait) begin
        blocked = 1'b0;
        for (int unsigned j = 0; j < L1ReqEntries; j++) begin
          if (t_state_q[j] == ReqInfl && t_vpn_q[j] == t_vpn_q[i] && t_write_q[j] == t_write_q[i]) begin
            blocked = 1'b1;
          end
        end
        if (!blocked) begin
          send_found = 1'b1;
          send_idx   = RIdxW'(i);
        end
      end
    end
  end

  assign req_ready_o    = (free_cnt >= CntW'(NumPorts)) && !cmd_cycle_i;
  assign miss_valid_o   = out_found;
  assign miss_id_o      = out_found ? t_id_q[out_idx] : '0;
  assign miss_ppn_o     = out_found ? t_ppn_q[out_idx] : '0;
  assign miss_fatal_o   = out_found && t_fatal_q[out_idx];
  assign l2_req_valid_o = send_found;
  assign l2_req_vpn_o   = send_found ? t_vpn_q[send_idx] : '0;
  assign l2_req_write_o = send_found && t_write_q[send_idx];
  assign busy_o         = busy_tab || (|hv_q);

  for (genvar p = 0; p < NumPorts; p++) begin : g_hit_out
    assign hit_id_o[p*IdW +: IdW]    = hid_q[p];
    assign hit_ppn_o[p*PpnW +: PpnW] = hppn_q[p];
  end
  assign hit_valid_o = hv_q;

  // ---------------------------------------------------------------- lookup (from _q)
  logic [NumPorts-1:0] acc;          // request accepted on port p
  logic [NumPorts-1:0] bhit, lhit;   // base / large hit (with write permission)
  logic [BIdxW-1:0]    bway [NumPorts];
  logic [LIdxW-1:0]    lway [NumPorts];
  logic [PpnW-1:0]     hit_ppn [NumPorts];
  logic [L1Entries-1:0]      btag_match [NumPorts];  // assertion only
  logic [L1LargeEntries-1:0] ltag_match [NumPorts];  // assertion only

  always_comb begin
    logic [VpnW-1:0] vpn;
    vpn = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      vpn           = req_vpn_i[p*VpnW +: VpnW];
      acc[p]        = req_valid_i[p] && req_ready_o;
      bhit[p]       = 1'b0;
      bway[p]       = '0;
      lhit[p]       = 1'b0;
      lway[p]       = '0;
      btag_match[p] = '0;
      ltag_match[p] = '0;
      for (int unsigned i = 0; i < L1Entries; i++) begin
        btag_match[p][i] = b_valid_q[i] && (b_vpn_q[i] == vpn);
        if (!bhit[p] && btag_match[p][i] && (!req_write_i[p] || b_w_q[i])) begin
          bhit[p] = 1'b1;
          bway[p] = BIdxW'(i);
        end
      end
      for (int unsigned i = 0; i < L1LargeEntries; i++) begin
        ltag_match[p][i] = l_valid_q[i] && (l_region_q[i] == vpn[VpnW-1:OffW]);
        if (!lhit[p] && ltag_match[p][i] && (!req_write_i[p] || l_w_q[i])) begin
          lhit[p] = 1'b1;
          lway[p] = LIdxW'(i);
        end
      end
      hit_ppn[p] = bhit[p] ? b_ppn_q[bway[p]] : {l_lppn_q[lway[p]], vpn[OffW-1:0]};
    end
  end

  // ---------------------------------------------------------------- fill choice (§1.1, on _q)
  logic             fill_b, fill_l;  // step (c) fills the base / large array
  logic [BIdxW-1:0] b_fill_idx, b_victim;
  logic [LIdxW-1:0] l_fill_idx, l_victim;

  logic [L1Entries-1:0]      b_same;
  logic [L1LargeEntries-1:0] l_same;
  always_comb begin
    for (int unsigned i = 0; i < L1Entries; i++) b_same[i] = (b_vpn_q[i] == rsp_vpn_i);
    for (int unsigned i = 0; i < L1LargeEntries; i++) begin
      l_same[i] = (l_region_q[i] == rsp_vpn_i[VpnW-1:OffW]);
    end
  end

  gmmu_fill_pick #(.N(L1Entries)) u_b_fill (
    .valid_i  (b_valid_q),
    .same_i   (b_same),
    .victim_i (b_victim),
    .idx_o    (b_fill_idx)
  );

  gmmu_fill_pick #(.N(L1LargeEntries)) u_l_fill (
    .valid_i  (l_valid_q),
    .same_i   (l_same),
    .victim_i (l_victim),
    .idx_o    (l_fill_idx)
  );

  assign fill_b = rsp_valid_i && !rsp_nack_i && !rsp_nocache_i && !rsp_large_i;
  assign fill_l = rsp_valid_i && !rsp_nack_i && !rsp_nocache_i && rsp_large_i;

  // ---------------------------------------------------------------- PLRU (step 7)
  // chain: hit touches in port order, then the fill touch; victims from _q
  logic [BPlW-1:0]  b_pl [NumPorts+2];
  logic [LPlW-1:0]  l_pl [NumPorts+2];
  logic [NumPorts:0] b_t_en, l_t_en;
  logic [BIdxW-1:0] b_t_way [NumPorts+1];
  logic [LIdxW-1:0] l_t_way [NumPorts+1];

  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      b_t_en[p]  = acc[p] && bhit[p];
      b_t_way[p] = bway[p];
      l_t_en[p]  = acc[p] && !bhit[p] && lhit[p];  // base hit wins
      l_t_way[p] = lway[p];
    end
    b_t_en[NumPorts]  = fill_b;
    b_t_way[NumPorts] = b_fill_idx;
    l_t_en[NumPorts]  = fill_l;
    l_t_way[NumPorts] = l_fill_idx;
  end

  assign b_pl[0] = b_plru_q;
  assign l_pl[0] = l_plru_q;
  for (genvar p = 0; p <= NumPorts; p++) begin : g_plru
    logic [BIdxW-1:0] bv;
    logic [LIdxW-1:0] lv;
    gmmu_plru #(.N(L1Entries)) u_b (
      .state_i  (b_pl[p]),
      .touch_i  (b_t_en[p]),
      .way_i    (b_t_way[p]),
      .victim_o (bv),
      .state_o  (b_pl[p+1])
    );
    gmmu_plru #(.N(L1LargeEntries)) u_l (
      .state_i  (l_pl[p]),
      .touch_i  (l_t_en[p]),
      .way_i    (l_t_way[p]),
      .victim_o (lv),
      .state_o  (l_pl[p+1])
    );
    if (p == 0) begin : g_victim
      assign b_victim = bv;
      assign l_victim = lv;
    end else begin : g_unused
      logic unused_victim;
      assign unused_victim = ^{bv, lv};
    end
  end
  assign b_plru_d = b_pl[NumPorts+1];
  assign l_plru_d = l_pl[NumPorts+1];

  // ---------------------------------------------------------------- next state (§4, in order)
  logic alloc_fail;  // assertion only

  always_comb begin
    logic [L1ReqEntries-1:0] taken;
    logic found;
    found      = 1'b0;
    b_valid_d  = b_valid_q;
    b_vpn_d    = b_vpn_q;
    b_ppn_d    = b_ppn_q;
    b_w_d      = b_w_q;
    l_valid_d  = l_valid_q;
    l_region_d = l_region_q;
    l_lppn_d   = l_lppn_q;
    l_w_d      = l_w_q;
    hv_d       = '0;
    t_state_d  = t_state_q;
    t_vpn_d    = t_vpn_q;
    t_write_d  = t_write_q;
    t_id_d     = t_id_q;
    t_ppn_d    = t_ppn_q;
    t_fatal_d  = t_fatal_q;
    taken      = '0;
    alloc_fail = 1'b0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      hid_d[p]  = '0;
      hppn_d[p] = '0;
    end

    // (a) output
    if (out_found) t_state_d[out_idx] = ReqFree;
    // (b) send
    if (l2_gnt_i) t_state_d[send_idx] = ReqInfl;
    // (c) response
    if (rsp_valid_i) begin
      for (int unsigned i = 0; i < L1ReqEntries; i++) begin
        if (t_state_d[i] inside {ReqWait, ReqInfl} &&
            t_vpn_q[i] == rsp_vpn_i && t_write_q[i] == rsp_write_i) begin
          if (rsp_nack_i) begin
            t_state_d[i] = ReqNack;
          end else begin
            t_state_d[i] = ReqDone;
            t_ppn_d[i]   = rsp_large_i ? {rsp_ppn_i[PpnW-1:OffW], t_vpn_q[i][OffW-1:0]}
                                       : rsp_ppn_i;
            t_fatal_d[i] = 1'b0;
          end
        end
      end
    end
    if (fill_b) begin
      b_valid_d[b_fill_idx] = 1'b1;
      b_vpn_d[b_fill_idx]   = rsp_vpn_i;
      b_ppn_d[b_fill_idx]   = rsp_ppn_i;
      b_w_d[b_fill_idx]     = rsp_w_i;
    end
    if (fill_l) begin
      l_valid_d[l_fill_idx]  = 1'b1;
      l_region_d[l_fill_idx] = rsp_vpn_i[VpnW-1:OffW];
      l_lppn_d[l_fill_idx]   = rsp_ppn_i[PpnW-1:OffW];
      l_w_d[l_fill_idx]      = rsp_w_i;
    end
    // (d) replay
    if (replay_i) begin
      for (int unsigned i = 0; i < L1ReqEntries; i++) begin
        if (t_state_d[i] == ReqNack) t_state_d[i] = ReqWait;
      end
    end
    // (e) cancel
    if (cancel_valid_i) begin
      for (int unsigned i = 0; i < L1ReqEntries; i++) begin
        if (t_state_d[i] == ReqNack && t_vpn_q[i] == cancel_vpn_i) begin
          t_state_d[i] = ReqDone;
          t_fatal_d[i] = 1'b1;
          t_ppn_d[i]   = '0;
        end
      end
    end
    // (f) allocate misses (k-th miss -> k-th lowest entry FREE in _q); register hits
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (acc[p]) begin
        if (bhit[p] || lhit[p]) begin
          hv_d[p]   = 1'b1;
          hid_d[p]  = req_id_i[p*IdW +: IdW];
          hppn_d[p] = hit_ppn[p];
        end else begin
          found = 1'b0;
          for (int unsigned i = 0; i < L1ReqEntries; i++) begin
            if (!found && !taken[i] && t_state_q[i] == ReqFree) begin
              found        = 1'b1;
              taken[i]     = 1'b1;
              t_state_d[i] = ReqWait;
              t_vpn_d[i]   = req_vpn_i[p*VpnW +: VpnW];
              t_write_d[i] = req_write_i[p];
              t_id_d[i]    = req_id_i[p*IdW +: IdW];
              t_ppn_d[i]   = '0;
              t_fatal_d[i] = 1'b0;
            end
          end
          if (!found) alloc_fail = 1'b1;
        end
      end
    end
    // (g) flush, applied to the _d values above
    if (flush_all_i || flush_page_i) begin
      for (int unsigned i = 0; i < L1Entries; i++) begin
        if (flush_all_i || b_vpn_d[i] == cmd_vpn_i) b_valid_d[i] = 1'b0;
      end
      for (int unsigned i = 0; i < L1LargeEntries; i++) begin
        if (flush_all_i || l_region_d[i] == cmd_vpn_i[VpnW-1:OffW]) l_valid_d[i] = 1'b0;
      end
      for (int unsigned i = 0; i < L1ReqEntries; i++) begin
        if (t_state_d[i] == ReqDone &&
            (flush_all_i || t_vpn_d[i][VpnW-1:OffW] == cmd_vpn_i[VpnW-1:OffW])) begin
          t_state_d[i] = ReqWait;
        end
      end
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_valid_q  <= '0;
      b_w_q      <= '0;
      b_plru_q   <= '0;
      l_valid_q  <= '0;
      l_w_q      <= '0;
      l_plru_q   <= '0;
      hv_q       <= '0;
      t_write_q  <= '0;
      t_fatal_q  <= '0;
      b_vpn_q    <= '{default: '0};
      b_ppn_q    <= '{default: '0};
      l_region_q <= '{default: '0};
      l_lppn_q   <= '{default: '0};
      hid_q      <= '{default: '0};
      hppn_q     <= '{default: '0};
      t_state_q  <= '{default: ReqFree};
      t_vpn_q    <= '{default: '0};
      t_id_q     <= '{default: '0};
      t_ppn_q    <= '{default: '0};
    end else begin
      b_valid_q  <= b_valid_d;
      b_vpn_q    <= b_vpn_d;
      b_ppn_q    <= b_ppn_d;
      b_w_q      <= b_w_d;
      b_plru_q   <= b_plru_d;
      l_valid_q  <= l_valid_d;
      l_region_q <= l_region_d;
      l_lppn_q   <= l_lppn_d;
      l_w_q      <= l_w_d;
      l_plru_q   <= l_plru_d;
      hv_q       <= hv_d;
      hid_q      <= hid_d;
      hppn_q     <= hppn_d;
      t_state_q  <= t_state_d;
      t_vpn_q    <= t_vpn_d;
      t_write_q  <= t_write_d;
      t_id_q     <= t_id_d;
      t_ppn_q    <= t_ppn_d;
      t_fatal_q  <= t_fatal_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  // no multi-hit: at most one base and one large entry carry the looked-up tag
  logic [NumPorts-1:0] multi_hit;
  always_comb begin
    for (int unsigned p = 0; p < NumPorts; p++) begin
      multi_hit[p] = acc[p] && (((btag_match[p] & (btag_match[p] - 1'b1)) != '0) ||
                                ((ltag_match[p] & (ltag_match[p] - 1'b1)) != '0));
    end
  end
  a_no_multi_hit: assert property (@(posedge clk_i) disable iff (!rst_ni) multi_hit == '0);
  // the request table never overflows on accepted misses
  a_no_table_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni) !alloc_fail);
  // a grant only goes to an SM that presents a request
  a_gnt_has_req: assert property (@(posedge clk_i) disable iff (!rst_ni)
    l2_gnt_i |-> send_found);
`endif
endmodule
