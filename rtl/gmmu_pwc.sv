// Page-walk cache (docs/microarch.md §16): upper-level PTEs (levels 0..2) of the walk paths,
// tagged {asid, level, virtual prefix}, shared by the walkers. Tags and valid bits in flip-flops
// (looked up and flushed in one cycle), payload {next table base, L} in a LUT RAM (one write
// port, one asynchronous read port at the deepest hit). Round-robin victim. Instantiated by
// gmmu_ptw only when PwcEntries > 0. C model mirror: cmodel/pwc.c.
module gmmu_pwc #(
  parameter int unsigned NumEntries = 4,
  parameter int unsigned NumAsids   = 1
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // lookup (combinational from _q; §16.2)
  input  logic [gmmu_pkg::ASID_W-1:0]      lk_asid_i,
  input  logic [gmmu_pkg::VPN_W-1:0]       lk_vpn_i,
  output logic                             lk_hit_o,
  output logic [1:0]                       lk_lvl_o,   // the deepest hit level h (0..2)
  output logic [gmmu_pkg::PPN_W-1:0]       lk_next_o,  // its next table base pte[47:12]
  output logic                             lk_l_o,     // level-2 entry with PTE_L
  // fill (§16.3)
  input  logic                             fill_valid_i,
  input  logic [gmmu_pkg::ASID_W-1:0]      fill_asid_i,
  input  logic [1:0]                       fill_lvl_i,
  input  logic [gmmu_pkg::VPN_W-1:0]       fill_vpn_i,
  input  logic [gmmu_pkg::PPN_W-1:0]       fill_next_i,
  input  logic                             fill_l_i,
  // invalidation (command cycle; §16.4)
  input  logic                             flush_all_i,
  input  logic                             flush_page_i,
  input  logic [gmmu_pkg::VPN_W-1:0]       cmd_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]      cmd_asid_i,
  input  logic                             cmd_scope_i
);
  localparam int unsigned N     = NumEntries;
  localparam int unsigned IdxW  = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;
  localparam int unsigned PfxW  = gmmu_pkg::LVPN_W;    // region bits vpn[35:9]
  localparam int unsigned LvlBits = gmmu_pkg::PT_IDX_W;
  localparam int unsigned PayW  = gmmu_pkg::PPN_W + 1;  // {next, l}
  localparam logic [AsidW-1:0] AsidMask = AsidW'(NumAsids - 1);

  // pfx_l(vpn): vpn[35:9] with the low 9 * (2 - l) bits zero
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [PfxW-1:0] pfx(logic [gmmu_pkg::VPN_W-1:0] vpn, logic [1:0] l);
    logic [PfxW-1:0] r;
    r = vpn[gmmu_pkg::VPN_W-1:LvlBits];
    if (l == 2'd0) r[2*LvlBits-1:0] = '0;
    else if (l == 2'd1) r[LvlBits-1:0] = '0;
    return r;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- state
  logic [N-1:0]     pv_q, pv_d;
  logic [AsidW-1:0] pasid_q [N];
  logic [AsidW-1:0] pasid_d [N];
  logic [1:0]       plvl_q [N];
  logic [1:0]       plvl_d [N];
  logic [PfxW-1:0]  ppfx_q [N];
  logic [PfxW-1:0]  ppfx_d [N];
  logic [IdxW-1:0]  prr_q, prr_d;
  logic [PayW-1:0]  pl_ram [N];  // LUT RAM, not reset

  // ---------------------------------------------------------------- lookup
  logic [2:0]       hit_l;
  logic [IdxW-1:0]  hit_idx [3];
  logic [PfxW-1:0]  lk_pfx [3];
  always_comb begin : p_lookup
    hit_l = '0;
    for (int unsigned l = 0; l < 3; l++) begin
      hit_idx[l] = '0;
      lk_pfx[l]  = pfx(lk_vpn_i, 2'(l));
      for (int unsigned e = 0; e < N; e++) begin
        if (!hit_l[l] && pv_q[e] && pasid_q[e] == lk_asid_i && plvl_q[e] == 2'(l) &&
            ppfx_q[e] == lk_pfx[l]) begin
          hit_l[l]   = 1'b1;
          hit_idx[l] = IdxW'(e);
        end
      end
    end
  end

  logic [IdxW-1:0] rd_idx;
  logic [PayW-1:0] rd_pay;
  assign lk_hit_o = |hit_l;
  assign lk_lvl_o = hit_l[2] ? 2'd2 : (hit_l[1] ? 2'd1 : 2'd0);
  assign rd_idx   = hit_l[2] ? hit_idx[2] : (hit_l[1] ? hit_idx[1] : hit_idx[0]);
  assign rd_pay   = pl_ram[rd_idx];
  assign lk_next_o = rd_pay[PayW-1:1];
  assign lk_l_o    = rd_pay[0];

  // ---------------------------------------------------------------- fill choice (on _q)
  logic [PfxW-1:0] fill_pfx;
  logic            same_found, inv_found;
  logic [IdxW-1:0] same_idx, inv_idx, fill_idx;
  assign fill_pfx = pfx(fill_vpn_i, fill_lvl_i);
  always_comb begin : p_fill_choice
    same_found = 1'b0;
    same_idx   = '0;
    inv_found  = 1'b0;
    inv_idx    = '0;
    for (int unsigned e = 0; e < N; e++) begin
      if (!same_found && pv_q[e] && pasid_q[e] == fill_asid_i && plvl_q[e] == fill_lvl_i &&
          ppfx_q[e] == fill_pfx) begin
        same_found = 1'b1;
        same_idx   = IdxW'(e);
      end
      if (!inv_found && !pv_q[e]) begin
        inv_found = 1'b1;
        inv_idx   = IdxW'(e);
      end
    end
    fill_idx = same_found ? same_idx : (inv_found ? inv_idx : prr_q);
  end

  // ---------------------------------------------------------------- next state
  always_comb begin : p_next_state
    pv_d    = pv_q;
    pasid_d = pasid_q;
    plvl_d  = plvl_q;
    ppfx_d  = ppfx_q;
    prr_d   = prr_q;
    if (fill_valid_i) begin
      pv_d[fill_idx]    = 1'b1;
      pasid_d[fill_idx] = fill_asid_i;
      plvl_d[fill_idx]  = fill_lvl_i;
      ppfx_d[fill_idx]  = fill_pfx;
      if (!same_found && !inv_found) begin
        prr_d = (int'(prr_q) == N - 1) ? '0 : prr_q + 1'b1;
      end
    end
    // invalidation, applied last (to _d)
    if (flush_all_i || flush_page_i) begin
      for (int unsigned e = 0; e < N; e++) begin
        if ((!cmd_scope_i || pasid_d[e] == cmd_asid_i) &&
            (flush_all_i || ppfx_d[e] == pfx(cmd_vpn_i, plvl_d[e]))) begin
          pv_d[e] = 1'b0;
        end
      end
    end
  end

  // ---------------------------------------------------------------- registers
  logic [AsidW-1:0] pasid_k [N];
  always_comb begin : p_asid_keep
    for (int unsigned e = 0; e < N; e++) pasid_k[e] = pasid_d[e] & AsidMask;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      pv_q    <= '0;
      prr_q   <= '0;
      pasid_q <= '{default: '0};
      plvl_q  <= '{default: '0};
      ppfx_q  <= '{default: '0};
    end else begin
      pv_q    <= pv_d;
      prr_q   <= prr_d;
      pasid_q <= pasid_k;
      plvl_q  <= plvl_d;
      ppfx_q  <= ppfx_d;
    end
  end

  // payload LUT RAM: one write port (the fill), no reset
  always_ff @(posedge clk_i) begin : p_ram
    if (fill_valid_i) pl_ram[fill_idx] <= {fill_next_i, fill_l_i};
  end

  // no multi-hit: at most one valid entry per tag (the fill updates a same-tag entry in place;
  // also read by formal/fv_pwc.sv)
  logic dup_tag;
  always_comb begin : p_dup_tag
    dup_tag = 1'b0;
    for (int unsigned a = 0; a < N; a++) begin
      for (int unsigned b = a + 1; b < N; b++) begin
        if (pv_q[a] && pv_q[b] && pasid_q[a] == pasid_q[b] && plvl_q[a] == plvl_q[b] &&
            ppfx_q[a] == ppfx_q[b]) dup_tag = 1'b1;
      end
    end
  end
`ifndef SYNTHESIS
  a_pwc_unique: assert property (@(posedge clk_i) disable iff (!rst_ni) !dup_tag);
  // a hit is of the looked-up address space (§16.5)
  logic [AsidW-1:0] rd_asid;
  assign rd_asid = pasid_q[rd_idx];
  a_pwc_hit_asid: assert property (@(posedge clk_i) disable iff (!rst_ni)
    lk_hit_o |-> rd_asid == lk_asid_i);
`endif
endmodule
