// Fully associative TLB array of docs/microarch.md §1.2: N entries (valid, tag, w, data) with a
// tree PLRU (§1.1). Used by the L1 base and large arrays (NumLookup = NumPorts) and the L2 large
// array (NumLookup = 1). C model mirror: cmodel/tlb_fa.c (tlb_fa_*), same step numbers.
//
// Steps of one cycle (every choice on _q; later steps override the _d of earlier ones):
//   FA-1 lookup   (combinational from _q) per port: lowest valid entry with tag == lk_tag_i and
//                 (!lk_write_i || w) -> lk_hit_o, lk_idx_o, lk_data_o, lk_w_o
//   FA-2 fill choice on _q (§1.1): same tag, else lowest invalid, else the PLRU victim of _q
//   FA-3 fill     (fill_i): entry FA-2 <- valid, fill_tag_i, fill_w_i, fill_data_i
//   FA-4 PLRU     touches in port order (touch_i[p] at lk_idx_o[p]), then the fill touch
//   FA-5 flush    on the _d values of FA-3: all entries (flush_all_i) or those whose tag equals
//                 flush_tag_i in the bits of flush_mask_i (flush_page_i: a page, an ASID or a
//                 page of an ASID, docs/microarch.md §14.4) become invalid; PLRU bits unchanged
//
// Storage: the entries are in u_store (gmmu_tlb_store: the CAM part valid/tag/w in flip-flops,
// data in a RAM with one asynchronous read port per lookup port, LUT RAM on an FPGA); the PLRU
// bits (plru_q) are here.
module gmmu_tlb_fa #(
  parameter int unsigned N         = 2,
  parameter int unsigned NumLookup = 1,
  parameter type         tag_t     = logic,
  parameter type         data_t    = logic,
  parameter tag_t        TagKeep   = '1,  // stored tag bits (gmmu_tlb_store); compares use only these
  localparam int unsigned IdxW     = (N > 1) ? $clog2(N) : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // FA-1 lookup ports (lk_valid_i only qualifies the no-multi-hit assertion)
  input  logic  [NumLookup-1:0]           lk_valid_i,
  input  tag_t  [NumLookup-1:0]           lk_tag_i,
  input  logic  [NumLookup-1:0]           lk_write_i,
  output logic  [NumLookup-1:0]           lk_hit_o,
  output logic  [NumLookup-1:0][IdxW-1:0] lk_idx_o,
  output data_t [NumLookup-1:0]           lk_data_o,
  output logic  [NumLookup-1:0]           lk_w_o,
  // FA-2/FA-3 fill
  input  logic                            fill_i,
  input  tag_t                            fill_tag_i,
  input  logic                            fill_w_i,
  input  data_t                           fill_data_i,
  // FA-4 PLRU: touch the hit entry of port p
  input  logic  [NumLookup-1:0]           touch_i,
  // FA-5 flush
  input  logic                            flush_all_i,
  input  logic                            flush_page_i,
  input  tag_t                            flush_tag_i,
  input  tag_t                            flush_mask_i,
  // the entries (_q) and FA-2's choice, for an owner that keeps per-entry state beside them
  // (the L1's referenced-line bitmaps, docs/microarch.md §20.3/§20.4)
  output logic  [N-1:0]                   ent_valid_o,
  output tag_t                            ent_tag_o [N],
  output logic  [IdxW-1:0]                fill_idx_o
);
  localparam int unsigned PlW = (N > 1) ? N - 1 : 1;

  // ---------------------------------------------------------------- state
  // entries: u_store (gmmu_tlb_store) does FA-3 fill and FA-5 flush; ent_* are its _q values
  logic [N-1:0]   ent_valid, ent_w;
  tag_t           ent_tag [N];
  logic [IdxW-1:0] rd_idx [NumLookup];   // FA-1's data reads: the hit entry (entry 0 at a miss)
  data_t           rd_data [NumLookup];
  logic [PlW-1:0] plru_q, plru_d;

  // ---------------------------------------------------------------- FA-1 lookup (from _q)
  logic [NumLookup-1:0][N-1:0] tag_match;  // also the assertion's input

  always_comb begin : p_lookup
    for (int unsigned p = 0; p < NumLookup; p++) begin
      lk_hit_o[p]  = 1'b0;
      lk_idx_o[p]  = '0;
      tag_match[p] = '0;
      for (int unsigned i = 0; i < N; i++) begin
        tag_match[p][i] = ent_valid[i] && ((ent_tag[i] & TagKeep) == (lk_tag_i[p] & TagKeep));
        if (!lk_hit_o[p] && tag_match[p][i] && (!lk_write_i[p] || ent_w[i])) begin
          lk_hit_o[p] = 1'b1;
          lk_idx_o[p] = IdxW'(i);
        end
      end
      rd_idx[p]    = lk_idx_o[p];
      lk_w_o[p]    = ent_w[lk_idx_o[p]];
    end
  end
  for (genvar p = 0; p < NumLookup; p++) begin : g_lk_data
    assign lk_data_o[p] = rd_data[p];
  end

  // ---------------------------------------------------------------- FA-2 fill choice (on _q)
  logic [N-1:0]    fill_same;
  logic [IdxW-1:0] fill_idx, victim;

  always_comb begin : p_fill_same
    for (int unsigned i = 0; i < N; i++) fill_same[i] = ((ent_tag[i] & TagKeep) == (fill_tag_i & TagKeep));
  end

  gmmu_fill_pick #(.N(N)) u_fill_pick (
    .valid_i  (ent_valid),
    .same_i   (fill_same),
    .victim_i (victim),
    .idx_o    (fill_idx)
  );

  assign ent_valid_o = ent_valid;
  assign ent_tag_o   = ent_tag;
  assign fill_idx_o  = fill_idx;

  // ---------------------------------------------------------------- FA-4 PLRU chain
  // hit touches in port order, then the fill touch; the victim is that of _q
  logic [PlW-1:0]    pl [NumLookup+2];
  logic [NumLookup:0] t_en;
  logic [IdxW-1:0]   t_way [NumLookup+1];

  always_comb begin : p_touch_chain
    for (int unsigned p = 0; p < NumLookup; p++) begin
      t_en[p]  = touch_i[p];
      t_way[p] = lk_idx_o[p];
    end
    t_en[NumLookup]  = fill_i;
    t_way[NumLookup] = fill_idx;
  end

  assign pl[0] = plru_q;
  for (genvar p = 0; p <= NumLookup; p++) begin : g_plru
    logic [IdxW-1:0] v;
    gmmu_plru #(.N(N)) u_plru (
      .state_i  (pl[p]),
      .touch_i  (t_en[p]),
      .way_i    (t_way[p]),
      .victim_o (v),
      .state_o  (pl[p+1])
    );
    if (p == 0) begin : g_victim
      assign victim = v;
    end else begin : g_unused
      logic unused_victim;
      assign unused_victim = ^v;
    end
  end
  assign plru_d = pl[NumLookup+1];

  // ---------------------------------------------------------------- FA-3 fill, FA-5 flush
  gmmu_tlb_store #(
    .N      (N),
    .tag_t   (tag_t),
    .data_t  (data_t),
    .TagKeep (TagKeep),
    .NumRd   (NumLookup)
  ) u_store (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .valid_o      (ent_valid),
    .tag_o        (ent_tag),
    .w_o          (ent_w),
    .rd_idx_i     (rd_idx),
    .rd_data_o    (rd_data),
    .fill_i       (fill_i),
    .fill_idx_i   (fill_idx),
    .fill_tag_i   (fill_tag_i),
    .fill_w_i     (fill_w_i),
    .fill_data_i  (fill_data_i),
    .flush_all_i  (flush_all_i),
    .flush_page_i (flush_page_i),
    .flush_tag_i  (flush_tag_i),
    .flush_mask_i (flush_mask_i),
    .flush_sel_i  ('0)
  );

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      plru_q <= '0;
    end else begin
      plru_q <= plru_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  // no multi-hit: at most one entry carries the looked-up tag on a valid lookup port
  logic [NumLookup-1:0] multi_hit;
  always_comb begin : p_multi_hit
    for (int unsigned p = 0; p < NumLookup; p++) begin
      multi_hit[p] = lk_valid_i[p] && ((tag_match[p] & (tag_match[p] - 1'b1)) != '0);
    end
  end
  a_no_multi_hit: assert property (@(posedge clk_i) disable iff (!rst_ni) multi_hit == '0);
`else
  logic unused_lk_valid;
  assign unused_lk_valid = ^lk_valid_i;
`endif
endmodule
