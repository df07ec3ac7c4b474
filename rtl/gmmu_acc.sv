// Access-counter unit (docs/microarch.md §19): a tracker of AccEntries regions with a count and a
// sub-region mask each, one observation per cycle, one notification (C365 layout) per threshold
// crossing into a ring in host memory, or an overflow. C model mirror: cmodel/acc.c.
module gmmu_acc #(
  parameter int unsigned AccEntries = 4,
  parameter int unsigned NumAsids   = 1,
  localparam int unsigned OffW      = $clog2(gmmu_pkg::FB_ENTRY_BYTES),
  localparam int unsigned AddrW     = gmmu_pkg::PA_W - OffW
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // observation (§19.3): one translation returned by the MMU
  input  logic                            obs_valid_i,
  input  logic                            obs_remote_i,
  input  logic [gmmu_pkg::ASID_W-1:0]     obs_asid_i,
  input  logic [gmmu_pkg::VPN_W-1:0]      obs_vpn_i,
  // configuration (gmmu_csr, §19.2)
  input  logic                            en_local_i,
  input  logic                            en_remote_i,
  input  logic [1:0]                      gran_i,
  input  logic [gmmu_pkg::ACC_CNT_W-1:0]  thresh_i,
  input  logic [AddrW-1:0]                base_i,
  input  logic [gmmu_pkg::FB_IDX_W:0]     size_i,
  input  logic [gmmu_pkg::FB_IDX_W-1:0]   get_i,
  input  logic                            size_wr_i,  // legal ACC_SIZE write: PUT, OVERFLOW <- 0
  input  logic                            ovf_clr_i,  // ACC_STATUS W1C of OVERFLOW
  // clears (§19.5), applied last
  input  logic                            clear_all_i,  // ACC_CLEAR_ALL or a GRAN change
  input  logic                            clear_i,      // ACC_CLEAR (targeted)
  input  logic [gmmu_pkg::VPN_W-1:0]      cmd_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]     cmd_asid_i,
  output logic [gmmu_pkg::FB_IDX_W-1:0]   put_o,
  output logic                            overflow_o,
  // notification write port
  output logic                            wr_valid_o,
  input  logic                            wr_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]       wr_addr_o,
  output logic [255:0]                    wr_data_o,
  // events and idle contribution
  output logic                            ev_notify_o,
  output logic                            ev_ovf_o,
  output logic                            ev_count_o,
  output logic                            ev_repl_o,
  output logic                            busy_o
);
  localparam int unsigned IdxW  = gmmu_pkg::FB_IDX_W;
  localparam int unsigned CntW  = gmmu_pkg::ACC_CNT_W;
  localparam int unsigned RgnW  = gmmu_pkg::ACC_RGN_W;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;
  localparam int unsigned EIdxW = (AccEntries > 1) ? $clog2(AccEntries) : 1;
  // stored ASIDs keep only their log2(NumAsids) low bits (§14.1)
  localparam logic [AsidW-1:0] AsidMask = AsidW'(NumAsids - 1);

  // ---------------------------------------------------------------- state
  logic [AccEntries-1:0] e_valid_q, e_valid_d;
  logic                  e_cls_q  [AccEntries];
  logic                  e_cls_d  [AccEntries];
  logic [AsidW-1:0]      e_asid_q [AccEntries];
  logic [AsidW-1:0]      e_asid_d [AccEntries];
  logic [RgnW-1:0]       e_rgn_q  [AccEntries];
  logic [RgnW-1:0]       e_rgn_d  [AccEntries];
  logic [CntW-1:0]       e_cnt_q  [AccEntries];
  logic [CntW-1:0]       e_cnt_d  [AccEntries];
  logic [31:0]           e_mask_q [AccEntries];
  logic [31:0]           e_mask_d [AccEntries];
  logic [EIdxW-1:0]      arr_q, arr_d;
  logic [IdxW-1:0]       put_q, put_d;
  logic                  ovf_q, ovf_d;
  // notification write register (its variable fields)
  logic                  nw_valid_q, nw_valid_d;
  logic [AddrW-1:0]      nw_addr_q, nw_addr_d;
  logic                  nw_cls_q, nw_cls_d;
  logic [AsidW-1:0]      nw_asid_q, nw_asid_d;
  logic [47:0]           nw_va_q, nw_va_d;
  logic [CntW-1:0]       nw_cnt_q, nw_cnt_d;
  logic [31:0]           nw_mask_q, nw_mask_d;

  assign put_o      = put_q;
  assign overflow_o = ovf_q;
  assign wr_valid_o = nw_valid_q;
  assign wr_addr_o  = {nw_addr_q, OffW'(0)};
  assign busy_o     = nw_valid_q;

  // notification entry (§19.4)
  always_comb begin : p_entry
    wr_data_o = '0;
    wr_data_o[gmmu_pkg::ACC_APER_LSB +: 2] = nw_cls_q ? 2'(gmmu_pkg::ACC_APER_SYS) : 2'd0;
    wr_data_o[32 +: AsidW]   = nw_asid_q;
    wr_data_o[64 +: 32]      = nw_va_q[31:0];
    wr_data_o[96 +: 16]      = nw_va_q[47:32];
    wr_data_o[128 +: 32]     = nw_mask_q;
    wr_data_o[192 +: CntW]   = nw_cnt_q;
    wr_data_o[255]           = nw_valid_q;
  end

  // ---------------------------------------------------------------- observation decode (_q)
  logic [3:0]       gsh;     // G: the region shift in pages
  logic [RgnW-1:0]  o_rgn, c_rgn;
  logic [31:0]      o_sub;
  logic             counted, nw_free;
  always_comb begin : p_region
    unique case (gran_i)
      2'(gmmu_pkg::ACC_GRAN_2M):  gsh = 4'd9;
      2'(gmmu_pkg::ACC_GRAN_16M): gsh = 4'd12;
      default:                    gsh = 4'd4;
    endcase
    o_rgn = RgnW'(obs_vpn_i >> gsh);
    c_rgn = RgnW'(cmd_vpn_i >> gsh);
    if (gsh == 4'd4) o_sub = 32'h3 << {obs_vpn_i[3:0], 1'b0};
    else             o_sub = 32'h1 << 5'(obs_vpn_i >> (gsh - 4'd5));
  end
  assign nw_free = !nw_valid_q || wr_ready_i;
  assign counted = obs_valid_i && (obs_remote_i ? en_remote_i : en_local_i) && nw_free;

  logic             hit_found, free_found;
  logic [EIdxW-1:0] hit_idx, free_idx, sel;
  logic [AccEntries-1:0] tag_match;
  always_comb begin : p_lookup
    hit_found  = 1'b0;
    hit_idx    = '0;
    free_found = 1'b0;
    free_idx   = '0;
    for (int unsigned i = 0; i < AccEntries; i++) begin
      tag_match[i] = e_valid_q[i] && e_cls_q[i] == obs_remote_i &&
                     e_asid_q[i] == (obs_asid_i & AsidMask) && e_rgn_q[i] == o_rgn;
      if (!hit_found && tag_match[i]) begin
        hit_found = 1'b1;
        hit_idx   = EIdxW'(i);
      end
      if (!free_found && !e_valid_q[i]) begin
        free_found = 1'b1;
        free_idx   = EIdxW'(i);
      end
    end
    sel = hit_found ? hit_idx : free_found ? free_idx : arr_q;
  end

  logic [CntW:0]   c_new;
  logic [31:0]     m_new;
  logic            o_cross, ring_off, ring_full, o_notify, o_ovf, o_repl;
  logic [IdxW:0]   put_inc;
  assign c_new     = hit_found ? {1'b0, e_cnt_q[hit_idx]} + 1'b1 : (CntW+1)'(1);
  assign m_new     = hit_found ? (e_mask_q[hit_idx] | o_sub) : o_sub;
  assign o_cross     = counted && c_new >= {1'b0, thresh_i};
  assign put_inc   = ({1'b0, put_q} + 1'b1) & (size_i - 1'b1);
  assign ring_off  = (size_i == '0);
  assign ring_full = (put_inc == {1'b0, get_i});
  assign o_ovf     = o_cross && (ring_off || ring_full);
  assign o_notify  = o_cross && !o_ovf;
  assign o_repl    = counted && !hit_found && !free_found && e_valid_q[arr_q];

  assign ev_notify_o = o_notify;
  assign ev_ovf_o    = o_ovf;
  assign ev_count_o  = counted;
  assign ev_repl_o   = o_repl;

  // ---------------------------------------------------------------- next state (§19.3, §19.5)
  always_comb begin : p_next_state
    e_valid_d  = e_valid_q;
    e_cls_d    = e_cls_q;
    e_asid_d   = e_asid_q;
    e_rgn_d    = e_rgn_q;
    e_cnt_d    = e_cnt_q;
    e_mask_d   = e_mask_q;
    arr_d      = arr_q;
    put_d      = put_q;
    ovf_d      = ovf_q;
    nw_valid_d = nw_valid_q && !wr_ready_i;
    nw_addr_d  = nw_addr_q;
    nw_cls_d   = nw_cls_q;
    nw_asid_d  = nw_asid_q;
    nw_va_d    = nw_va_q;
    nw_cnt_d   = nw_cnt_q;
    nw_mask_d  = nw_mask_q;

    if (counted) begin
      if (!hit_found && !free_found) begin
        arr_d = (32'(arr_q) + 1 >= AccEntries) ? '0 : arr_q + 1'b1;
      end
      e_valid_d[sel] = !o_cross;
      e_cls_d[sel]   = obs_remote_i;
      e_asid_d[sel]  = obs_asid_i;
      e_rgn_d[sel]   = o_rgn;
      e_cnt_d[sel]   = c_new[CntW-1:0];
      e_mask_d[sel]  = m_new;
    end
    if (o_ovf) ovf_d = 1'b1;
    if (o_notify) begin
      nw_valid_d = 1'b1;
      nw_addr_d  = base_i + AddrW'(put_q);
      nw_cls_d   = obs_remote_i;
      nw_asid_d  = obs_asid_i;
      nw_va_d    = 48'(o_rgn) << (5'(gsh) + 5'd12);
      nw_cnt_d   = c_new[CntW-1:0];
      nw_mask_d  = m_new;
      put_d      = put_inc[IdxW-1:0];
    end
    // clears, last
    if (clear_all_i) e_valid_d = '0;
    if (clear_i) begin
      for (int unsigned i = 0; i < AccEntries; i++) begin
        if ((e_asid_d[i] & AsidMask) == (cmd_asid_i & AsidMask) && e_rgn_d[i] == c_rgn) e_valid_d[i] = 1'b0;
      end
    end
    // host ring writes, after the unit's own update
    if (size_wr_i) begin
      put_d = '0;
      ovf_d = 1'b0;
    end
    if (ovf_clr_i && !o_ovf) ovf_d = 1'b0;
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      e_valid_q  <= '0;
      e_cls_q    <= '{default: '0};
      e_asid_q   <= '{default: '0};
      e_rgn_q    <= '{default: '0};
      e_cnt_q    <= '{default: '0};
      e_mask_q   <= '{default: '0};
      arr_q      <= '0;
      put_q      <= '0;
      ovf_q      <= 1'b0;
      nw_valid_q <= 1'b0;
      nw_addr_q  <= '0;
      nw_cls_q   <= 1'b0;
      nw_asid_q  <= '0;
      nw_va_q    <= '0;
      nw_cnt_q   <= '0;
      nw_mask_q  <= '0;
    end else begin
      e_valid_q  <= e_valid_d;
      e_cls_q    <= e_cls_d;
      for (int unsigned i = 0; i < AccEntries; i++) e_asid_q[i] <= e_asid_d[i] & AsidMask;
      e_rgn_q    <= e_rgn_d;
      e_cnt_q    <= e_cnt_d;
      e_mask_q   <= e_mask_d;
      arr_q      <= arr_d;
      put_q      <= put_d;
      ovf_q      <= ovf_d;
      nw_valid_q <= nw_valid_d;
      nw_addr_q  <= nw_addr_d;
      nw_cls_q   <= nw_cls_d;
      nw_asid_q  <= nw_asid_d & AsidMask;
      nw_va_q    <= nw_va_d;
      nw_cnt_q   <= nw_cnt_d;
      nw_mask_q  <= nw_mask_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§19.6)
`ifndef SYNTHESIS
  a_one_entry_per_tag: assert property (@(posedge clk_i) disable iff (!rst_ni)
    obs_valid_i |-> $onehot0(tag_match));
  a_notify_xor_ovf: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !(o_notify && o_ovf) && (o_cross == (o_notify || o_ovf)));
`endif
endmodule
