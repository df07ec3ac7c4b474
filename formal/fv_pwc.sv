// Formal harness of the page-walk cache (gmmu_pwc, docs/microarch.md §16): 3 entries (not a power
// of two: the round-robin wrap), 2 address spaces, every input free (any lookup, fill, flush
// sequence; a fill and a flush in the same cycle included). A symbolic key (constant ASID K, level
// L, prefix P) is tracked by a shadow: the payload last filled for exactly that key, and whether an
// invalidation that covers the key (§16.4: full flush, by ASID, or page flush on the key's path)
// came after that fill.
// Properties:
//   pwc_asid      a hit is an entry of the looked-up address space (never another's)
//   pwc_inval     a lookup never hits the key after its invalidation, unless filled again since
//   pwc_data      a hit on the key returns the payload last filled for the key (so also never an
//                 entry filled for another address space or level)
//   pwc_unique    at most one valid entry per tag (the RTL's a_pwc_unique)
// Covers: a hit at each level, a hit after a flush of another key, the victim wrap.
module fv_pwc (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic [gmmu_pkg::ASID_W-1:0]   lk_asid_i,
  input logic [gmmu_pkg::VPN_W-1:0]    lk_vpn_i,
  input logic                          fill_valid_i,
  input logic [gmmu_pkg::ASID_W-1:0]   fill_asid_i,
  input logic [1:0]                    fill_lvl_i,
  input logic [gmmu_pkg::VPN_W-1:0]    fill_vpn_i,
  input logic [gmmu_pkg::PPN_W-1:0]    fill_next_i,
  input logic                          fill_l_i,
  input logic                          flush_all_i,
  input logic                          flush_page_i,
  input logic [gmmu_pkg::VPN_W-1:0]    cmd_vpn_i,
  input logic [gmmu_pkg::ASID_W-1:0]   cmd_asid_i,
  input logic                          cmd_scope_i
);
  localparam int unsigned N = 3;
  localparam int unsigned PfxW = gmmu_pkg::LVPN_W;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);
  // the ptw's environment: reduced ASIDs (§14.1, 2 address spaces), levels 0..2, exclusive
  // flushes
  always_comb begin
    assume (lk_asid_i < 2 && fill_asid_i < 2 && cmd_asid_i < 2);
    assume (fill_lvl_i != 2'd3);
    assume (!(flush_all_i && flush_page_i));
  end

  logic lk_hit, lk_l;
  logic [1:0] lk_lvl;
  logic [gmmu_pkg::PPN_W-1:0] lk_next;
  gmmu_pwc #(.NumEntries (N), .NumAsids (2)) u_pwc (
    .clk_i, .rst_ni, .lk_asid_i, .lk_vpn_i, .lk_hit_o (lk_hit), .lk_lvl_o (lk_lvl),
    .lk_next_o (lk_next), .lk_l_o (lk_l), .fill_valid_i, .fill_asid_i, .fill_lvl_i,
    .fill_vpn_i, .fill_next_i, .fill_l_i, .flush_all_i, .flush_page_i, .cmd_vpn_i, .cmd_asid_i,
    .cmd_scope_i
  );

  function automatic logic [PfxW-1:0] pfx(logic [gmmu_pkg::VPN_W-1:0] vpn, logic [1:0] l);
    logic [PfxW-1:0] r;
    r = vpn[gmmu_pkg::VPN_W-1:gmmu_pkg::PT_IDX_W];
    if (l == 2'd0) r[17:0] = '0;
    else if (l == 2'd1) r[8:0] = '0;
    return r;
  endfunction

  // ---------------------------------------------------------------- the tracked key
  // symbolic key: registers without reset and without next-state logic are arbitrary constants
  // for the solver (yosys-slang does not honour the anyconst attribute)
  logic [AsidW-1:0] k_asid;
  logic [1:0] k_lvl;
  logic [PfxW-1:0] k_pfx;
  always_ff @(posedge clk_i) begin
    k_asid <= k_asid;
    k_lvl  <= k_lvl;
    k_pfx  <= k_pfx;
  end
  always_comb assume (k_asid < 2 && k_lvl != 2'd3 && k_pfx == pfx({k_pfx, 9'b0}, k_lvl));

  logic sh_valid_q, sh_inv_q, sh_l_q, seen_inv_q;
  logic [gmmu_pkg::PPN_W-1:0] sh_next_q;
  logic fill_k, flush_k;
  assign fill_k  = fill_valid_i && fill_asid_i == k_asid && fill_lvl_i == k_lvl &&
                   pfx(fill_vpn_i, fill_lvl_i) == k_pfx;
  assign flush_k = (flush_all_i || flush_page_i) && (!cmd_scope_i || cmd_asid_i == k_asid) &&
                   (flush_all_i || pfx(cmd_vpn_i, k_lvl) == k_pfx);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_valid_q <= 1'b0;
      sh_inv_q   <= 1'b0;
      sh_next_q  <= '0;
      sh_l_q     <= 1'b0;
      seen_inv_q <= 1'b0;
    end else begin
      if (flush_k) seen_inv_q <= 1'b1;
      if (fill_k) begin
        sh_valid_q <= 1'b1;
        sh_next_q  <= fill_next_i;
        sh_l_q     <= fill_l_i;
        sh_inv_q   <= 1'b0;
      end
      if (flush_k) sh_inv_q <= 1'b1;  // the flush is applied after the fill of its cycle
    end
  end

  logic lk_k;  // the lookup hits the tracked key
  assign lk_k = lk_hit && lk_asid_i == k_asid && lk_lvl == k_lvl && pfx(lk_vpn_i, k_lvl) == k_pfx;

  // the hit entry's tag (the read index of the payload RAM)
  logic [AsidW-1:0] hit_asid;
  logic [1:0] hit_lvl;
  logic [PfxW-1:0] hit_pfx;
  assign hit_asid = u_pwc.pasid_q[u_pwc.rd_idx];
  assign hit_lvl  = u_pwc.plvl_q[u_pwc.rd_idx];
  assign hit_pfx  = u_pwc.ppfx_q[u_pwc.rd_idx];

  // inductive strength: every valid entry holding the key agrees with the shadow
  logic ent_bad;
  always_comb begin
    ent_bad = 1'b0;
    for (int unsigned e = 0; e < N; e++) begin
      if (u_pwc.pv_q[e] && u_pwc.pasid_q[e] == k_asid && u_pwc.plvl_q[e] == k_lvl &&
          u_pwc.ppfx_q[e] == k_pfx &&
          (!sh_valid_q || sh_inv_q || u_pwc.pl_ram[e] != {sh_next_q, sh_l_q}))
        ent_bad = 1'b1;
    end
  end

  always_comb begin
    if (rst_ni) begin
      pwc_asid: assert (!lk_hit || (hit_asid == lk_asid_i && hit_lvl == lk_lvl &&
                                    hit_pfx == pfx(lk_vpn_i, lk_lvl)));
      pwc_inval: assert (!lk_k || !sh_inv_q);
      pwc_data: assert (!lk_k || (sh_valid_q && lk_next == sh_next_q && lk_l == sh_l_q));
      pwc_entries: assert (!ent_bad);
      pwc_unique: assert (!u_pwc.dup_tag);
      pwc_asid_bits: assert (u_pwc.pasid_q[0] < 2 && u_pwc.pasid_q[1] < 2 && u_pwc.pasid_q[2] < 2);
      pwc_lvl_ok: assert (u_pwc.plvl_q[0] != 2'd3 && u_pwc.plvl_q[1] != 2'd3 &&
                          u_pwc.plvl_q[2] != 2'd3);
      pwc_rr_ok: assert (u_pwc.prr_q < N);
    end
  end

  // ---------------------------------------------------------------- covers
  always_comb begin
    if (rst_ni) begin
      c_hit_l0: cover (lk_hit && lk_lvl == 2'd0);
      c_hit_l1: cover (lk_hit && lk_lvl == 2'd1);
      c_hit_l2_large: cover (lk_hit && lk_lvl == 2'd2 && lk_l);
      c_hit_after_inval: cover (lk_k && seen_inv_q);
      c_rr_wrap: cover (u_pwc.prr_q == 2'd2 && fill_valid_i && !u_pwc.same_found &&
                        !u_pwc.inv_found);
    end
  end
endmodule
