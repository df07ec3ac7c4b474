// Set-associative TLB array with asynchronous reads, docs/microarch.md §1.4: Sets x Ways entries
// (valid, tag, w, data), entry (set, way) at index set*Ways + way, one tree PLRU (§1.1) per set,
// NumLookup lookup ports. Used by the L1 base array when L1Sets > 1. C model mirror: the set
// views of cmodel/tlb_sa.c (tlb_fa_* per set), same step numbers.
//
// Steps of one cycle (every choice on _q; later steps override the _d of earlier ones):
//   AS-1 lookup   (combinational from _q) per port p in set lk_set_i[p]: lowest way with a valid
//                 entry whose tag == lk_tag_i[p] and (!lk_write_i[p] || w) -> lk_hit_o,
//                 lk_idx_o (set*Ways + way), lk_data_o, lk_w_o
//   AS-2 fill choice in set fill_set_i on _q (§1.1): same tag, else the lowest invalid way, else
//                 the PLRU victim of that set's _q bits; fill_idx_o (set*Ways + way)
//   AS-3 fill     (fill_i): entry (fill_set_i, AS-2) <- valid, fill_tag_i, fill_w_i, fill_data_i
//   AS-4 PLRU     touches in port order (touch_i[p] at (lk_set_i[p], the hit way)), then the fill
//                 touch, each on its own set's bits (two touches of one set apply in that order)
//   AS-5 flush    on the _d values of AS-3: all entries (flush_all_i) or those whose tag equals
//                 flush_tag_i in the bits of flush_mask_i (flush_page_i). Set-local with
//                 flush_local_i (the mask covers the set bits: only set flush_set_i can match;
//                 its Ways tags are read through lookup port 0's tag RAM read port, a flush cycle
//                 looks nothing up); otherwise every entry's FlushKeep bits (the ASID) are
//                 compared (a flush by ASID). PLRU bits unchanged.
//
// Storage (§1.4): valid bits, the FlushKeep bits of the tags and the PLRU bits in reset
// flip-flops (u_store, plru_q); per way two RAMs of Sets words, written by the fill, read
// asynchronously (LUT RAM on an FPGA, one copy per read port, not reset): g_way[w].tmem_q (the
// tag's RamKeep bits: without the set bits, which every entry of a set shares) with a read port
// per lookup port and one at the fill's set, g_way[w].pmem_q ({w, data}) with a read port per
// lookup port. Every compare is on the RamKeep bits (within one set the set bits are equal).
module gmmu_tlb_sa_async #(
  parameter int unsigned Sets      = 2,
  parameter int unsigned Ways      = 2,
  parameter int unsigned NumLookup = 1,
  parameter type         tag_t     = logic,
  parameter type         data_t    = logic,
  parameter tag_t        TagKeep   = '1,  // stored tag bits (the others are 0 in every tag)
  parameter tag_t        FlushKeep = '1,  // bits a non-local page flush compares (the ASID)
  parameter tag_t        RamKeep   = '1,  // TagKeep without the set bits: the tag RAMs' bits
  localparam int unsigned N    = Sets * Ways,
  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1,
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // AS-1 lookup ports (lk_valid_i qualifies the assertions only)
  input  logic  [NumLookup-1:0]           lk_valid_i,
  input  logic  [NumLookup-1:0][SetW-1:0] lk_set_i,
  input  tag_t  [NumLookup-1:0]           lk_tag_i,
  input  logic  [NumLookup-1:0]           lk_write_i,
  output logic  [NumLookup-1:0]           lk_hit_o,
  output logic  [NumLookup-1:0][IdxW-1:0] lk_idx_o,
  output data_t [NumLookup-1:0]           lk_data_o,
  output logic  [NumLookup-1:0]           lk_w_o,
  // AS-2/AS-3 fill
  input  logic                            fill_i,
  input  logic  [SetW-1:0]                fill_set_i,
  input  tag_t                            fill_tag_i,
  input  logic                            fill_w_i,
  input  data_t                           fill_data_i,
  output logic  [IdxW-1:0]                fill_idx_o,
  // AS-4 PLRU: touch the hit entry of port p
  input  logic  [NumLookup-1:0]           touch_i,
  // AS-5 flush
  input  logic                            flush_all_i,
  input  logic                            flush_page_i,
  input  tag_t                            flush_tag_i,
  input  tag_t                            flush_mask_i,
  input  logic                            flush_local_i,
  input  logic  [SetW-1:0]                flush_set_i
);
  localparam int unsigned PlW  = (Ways > 1) ? Ways - 1 : 1;
  localparam int unsigned DatW = $bits(data_t);

  initial begin : p_param_check
    if (Sets < 2 || (Sets & (Sets - 1)) != 0) $fatal(1, "gmmu_tlb_sa_async: Sets %0d", Sets);
    if (Ways < 1 || (Ways & (Ways - 1)) != 0) $fatal(1, "gmmu_tlb_sa_async: Ways %0d", Ways);
  end

  function automatic logic [IdxW-1:0] idx(logic [SetW-1:0] set, logic [WayW-1:0] way);
    return IdxW'(int'(set) * Ways + int'(way));
  endfunction

  // ---------------------------------------------------------------- state
  logic [N-1:0]   ent_valid;             // u_store's valid_q
  logic [PlW-1:0] plru_q [Sets];
  logic [PlW-1:0] plru_d [Sets];

  // per way: the tags (RamKeep bits) and {w, data} read at the lookup ports' sets, the tags at
  // the fill's set; port 0's tag read address is the flush's set in a local flush (§1.4)
  tag_t            lk_rtag [NumLookup][Ways];
  logic [Ways-1:0] lk_rw   [NumLookup];
  data_t           lk_rdat [NumLookup][Ways];
  tag_t            fl_rtag [Ways];
  logic [SetW-1:0] tag_raddr [NumLookup];
  logic            flush_loc;

  assign flush_loc = flush_page_i && flush_local_i;
  always_comb begin : p_tag_raddr
    for (int unsigned p = 0; p < NumLookup; p++) tag_raddr[p] = lk_set_i[p];
    if (flush_loc) tag_raddr[0] = flush_set_i;
  end

  // ---------------------------------------------------------------- AS-2 fill choice (on _q)
  logic [Ways-1:0] set_valid, fill_same;
  logic [WayW-1:0] fill_way, victim;

  always_comb begin : p_fill_set
    for (int unsigned w = 0; w < Ways; w++) begin
      set_valid[w] = ent_valid[idx(fill_set_i, WayW'(w))];
      fill_same[w] = (fl_rtag[w] & RamKeep) == (fill_tag_i & RamKeep);
    end
  end

  gmmu_fill_pick #(.N(Ways)) u_fill_pick (
    .valid_i  (set_valid),
    .same_i   (fill_same),
    .victim_i (victim),
    .idx_o    (fill_way)
  );
  assign fill_idx_o = idx(fill_set_i, fill_way);

  // ---------------------------------------------------------------- the RAMs (AS-3 writes)
  for (genvar w = 0; w < Ways; w++) begin : g_way
    tag_t                     tmem_q [Sets];  // RamKeep bits of the tags (LUT RAM, not reset)
    logic [DatW:0]            pmem_q [Sets];  // {w, data} (LUT RAM, not reset)
    logic                     we;
    assign we = fill_i && fill_way == WayW'(w);
    always_ff @(posedge clk_i) begin : p_ram
      if (we) begin
        tmem_q[fill_set_i] <= fill_tag_i & RamKeep;
        pmem_q[fill_set_i] <= {fill_w_i, fill_data_i};
      end
    end
    for (genvar p = 0; p < NumLookup; p++) begin : g_rd
      assign lk_rtag[p][w] = tmem_q[tag_raddr[p]];
      assign lk_rw[p][w]   = pmem_q[lk_set_i[p]][DatW];
      assign lk_rdat[p][w] = data_t'(pmem_q[lk_set_i[p]][DatW-1:0]);
    end
    assign fl_rtag[w] = tmem_q[fill_set_i];
  end

  // ---------------------------------------------------------------- AS-1 lookup (from _q)
  logic [NumLookup-1:0][Ways-1:0] tag_match;  // also the assertion's input
  logic [WayW-1:0]                hit_way [NumLookup];

  always_comb begin : p_lookup
    for (int unsigned p = 0; p < NumLookup; p++) begin
      lk_hit_o[p]  = 1'b0;
      hit_way[p]   = '0;
      tag_match[p] = '0;
      for (int unsigned w = 0; w < Ways; w++) begin
        tag_match[p][w] = ent_valid[idx(lk_set_i[p], WayW'(w))] &&
                          ((lk_rtag[p][w] & RamKeep) == (lk_tag_i[p] & RamKeep));
        if (!lk_hit_o[p] && tag_match[p][w] && (!lk_write_i[p] || lk_rw[p][w])) begin
          lk_hit_o[p] = 1'b1;
          hit_way[p]  = WayW'(w);
        end
      end
      lk_idx_o[p]  = idx(lk_set_i[p], hit_way[p]);
      lk_w_o[p]    = lk_rw[p][hit_way[p]];
      lk_data_o[p] = lk_rdat[p][hit_way[p]];
    end
  end

  // ---------------------------------------------------------------- AS-4 PLRU
  // per set s, a chain of the touches in port order and then the fill's, each enabled when its
  // set is s; the victim is that of the fill set's _q bits
  logic [NumLookup:0]  t_en;
  logic [SetW-1:0]     t_set [NumLookup+1];
  logic [WayW-1:0]     t_way [NumLookup+1];

  always_comb begin : p_touch_list
    for (int unsigned p = 0; p < NumLookup; p++) begin
      t_en[p]  = touch_i[p];
      t_set[p] = lk_set_i[p];
      t_way[p] = hit_way[p];
    end
    t_en[NumLookup]  = fill_i;
    t_set[NumLookup] = fill_set_i;
    t_way[NumLookup] = fill_way;
  end

  for (genvar s = 0; s < Sets; s++) begin : g_plru_set
    logic [PlW-1:0] pl [NumLookup+2];
    assign pl[0] = plru_q[s];
    for (genvar p = 0; p <= NumLookup; p++) begin : g_t
      logic [WayW-1:0] unused_v;
      gmmu_plru #(.N(Ways)) u_plru (
        .state_i  (pl[p]),
        .touch_i  (t_en[p] && t_set[p] == SetW'(s)),
        .way_i    (t_way[p]),
        .victim_o (unused_v),
        .state_o  (pl[p+1])
      );
    end
    assign plru_d[s] = pl[NumLookup+1];
  end

  logic [PlW-1:0] unused_vpl;
  gmmu_plru #(.N(Ways)) u_victim_plru (
    .state_i  (plru_q[fill_set_i]),
    .touch_i  (1'b0),
    .way_i    ('0),
    .victim_o (victim),
    .state_o  (unused_vpl)
  );

  // ---------------------------------------------------------------- AS-3 fill, AS-5 flush
  // the set-local page flush: the Ways tags of flush_set_i read through port 0, on _d (the fill
  // of this cycle replaces its way's tag)
  logic [N-1:0] flush_sel;
  always_comb begin : p_flush_local
    tag_t td;
    flush_sel = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      td = (fill_i && fill_set_i == flush_set_i && fill_way == WayW'(w)) ? fill_tag_i
                                                                           : lk_rtag[0][w];
      flush_sel[idx(flush_set_i, WayW'(w))] =
          flush_loc && ((td & flush_mask_i & RamKeep) == (flush_tag_i & flush_mask_i & RamKeep));
    end
  end

  logic [N-1:0] unused_ent_w;  // 0: the payload is not stored in u_store
  data_t        unused_ent_data [1];
  tag_t         st_tag [N];    // the FlushKeep bits only (the others are 0)
  gmmu_tlb_store #(
    .N         (N),
    .tag_t     (tag_t),
    .data_t    (data_t),
    .TagKeep   (TagKeep & FlushKeep),
    .FlushKeep (FlushKeep),
    .Payload   (1'b0)
  ) u_store (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .valid_o      (ent_valid),
    .tag_o        (st_tag),
    .w_o          (unused_ent_w),
    .rd_idx_i     ('{default: '0}),
    .rd_data_o    (unused_ent_data),
    .fill_i       (fill_i),
    .fill_idx_i   (fill_idx_o),
    .fill_tag_i   (fill_tag_i),
    .fill_w_i     (fill_w_i),
    .fill_data_i  (fill_data_i),
    .flush_all_i  (flush_all_i),
    .flush_page_i (flush_page_i && !flush_local_i),
    .flush_tag_i  (flush_tag_i),
    .flush_mask_i (flush_mask_i),
    .flush_sel_i  (flush_sel)
  );

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      plru_q <= '{default: '0};
    end else begin
      plru_q <= plru_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  logic unused_st_tag;  // its bits are in the assertions' ent_tag
  always_comb begin : p_unused_st_tag
    unused_st_tag = 1'b0;
    for (int unsigned i = 0; i < N; i++) unused_st_tag ^= ^st_tag[i];
  end
  // no multi-hit: at most one way of a looked-up set carries the tag
  logic [NumLookup-1:0] multi_hit;
  always_comb begin : p_multi_hit
    for (int unsigned p = 0; p < NumLookup; p++) begin
      multi_hit[p] = lk_valid_i[p] && !$onehot0(tag_match[p]);
    end
  end
  a_no_multi_hit: assert property (@(posedge clk_i) disable iff (!rst_ni) multi_hit == '0);
  // a local flush borrows port 0's tag read: no lookup on port 0 then (a command cycle)
  a_flush_no_lookup: assert property (@(posedge clk_i) disable iff (!rst_ni)
    flush_loc |-> !lk_valid_i[0]);
  // the set-local page flush invalidates what a compare of every entry would: a non-local one
  // has a mask of FlushKeep bits only, and a local one matches no valid entry outside its set
  // (every entry of set s holds a tag of set s: the owner's sets are the tags' set bits)
  a_flush_nonlocal_mask: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && !flush_local_i) |-> (flush_mask_i & TagKeep & ~FlushKeep) == '0);
  a_flush_local_mask: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && flush_local_i) |-> (flush_mask_i & TagKeep & ~RamKeep) ==
                                        (TagKeep & ~RamKeep));
`else
  logic unused_as;
  always_comb begin : p_unused_as
    unused_as = ^lk_valid_i;
    for (int unsigned i = 0; i < N; i++) unused_as ^= ^st_tag[i];
  end
`endif
endmodule
