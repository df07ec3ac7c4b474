// Set-associative TLB array of docs/microarch.md §1.3: Sets x Ways entries (valid, tag, w, data),
// entry (set, way) at index set*Ways + way, one tree PLRU (§1.1) per set. Used by the L2 base
// array. C model mirror: cmodel/tlb_sa.c (tlb_sa_*), same step numbers.
//
// Steps of one cycle (every choice on _q; later steps override the _d of earlier ones):
//   SA-1 lookup   (combinational from _q) in set lk_set_i: lowest way with a valid entry whose
//                 tag == lk_tag_i and (!lk_write_i || w) -> lk_hit_o, lk_way_o, lk_data_o, lk_w_o;
//                 lk_match_o = the ways whose valid entry has the tag (whatever w)
//   SA-2 fill choice in set fill_set_i on _q (§1.1): same tag, else lowest invalid way, else the
//                 PLRU victim of that set's _q bits. "Same tag" comes from the owner
//                 (fill_same_i: the ways of the set holding the fill's tag, wherever valid; the
//                 L2 keeps it per MSHR, docs/microarch.md §5 "same-tag vector"); fill_way_o
//   SA-3 fill     (fill_i): entry (fill_set_i, SA-2) <- valid, fill_tag_i, fill_w_i, fill_data_i
//   SA-4 PLRU     the hit touch (touch_i, at (lk_set_i, lk_way_o)), then the fill touch; when both
//                 are in one set the fill touch applies to the result of the hit touch
//   SA-5 flush    on the _d values of SA-3: all entries (flush_all_i) or those whose tag equals
//                 flush_tag_i in the bits of flush_mask_i (flush_page_i); PLRU bits are not
//                 changed. Set-local page flush (docs/microarch.md §1.3): with flush_local_i (the
//                 mask covers the set-index bits of the tag, so only set flush_set_i can hold a
//                 match) the Ways entries of that set are compared on the whole tag; otherwise
//                 every entry is compared on the FlushKeep bits only (the ASID: a flush by ASID,
//                 §14.4, whose mask has no other bits). The same entries become invalid as with
//                 a compare of every entry on every bit.
//
// Storage (docs/microarch.md §1.3 "payload RAM", "tags in block RAM"): the valid bits and the
// FlushKeep bits of the tags (the ASID: the flush by ASID compares every entry) are in u_store
// (gmmu_tlb_store, reset flip-flops); the per-set PLRU bits (plru_q) are here; the word
// {tag, w, data} of way w is in the synchronous-read RAM g_way[w].u_ram (gmmu_ram_1r1w, Sets
// words, block RAM on an FPGA, not reset). rd_set_i is the set read at this edge: the set that
// SA-1 looks up in the next cycle, or, when the next cycle is a command cycle (no lookup), the
// set of its page flush. The RAM's output register then holds that set's words after this
// cycle's fill (write-first), which is what SA-1 and SA-5 on _q would read. No tag is compared
// in a Sets-to-1 multiplexer: SA-1 and SA-5 read rd_tag, SA-2 takes fill_same_i. The visible
// behaviour is that of flip-flops.
module gmmu_tlb_sa #(
  parameter int unsigned Sets   = 4,
  parameter int unsigned Ways   = 2,
  parameter type         tag_t  = logic,
  parameter type         data_t = logic,
  parameter tag_t        TagKeep = '1,  // stored tag bits (gmmu_tlb_store); compares use only these
  parameter tag_t        FlushKeep = '1, // bits a non-local page flush compares (all others 0 in its mask)
  localparam int unsigned SetW  = (Sets > 1) ? $clog2(Sets) : 1,
  localparam int unsigned WayW  = (Ways > 1) ? $clog2(Ways) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // SA-1 lookup (lk_valid_i only qualifies the no-multi-hit assertion)
  input  logic            lk_valid_i,
  input  logic [SetW-1:0] lk_set_i,
  // the set read at this edge (the RAMs' registered read address): SA-1's set of the next cycle,
  // or the page flush's set when the next cycle is a command cycle
  input  logic [SetW-1:0] rd_set_i,
  input  tag_t            lk_tag_i,
  input  logic            lk_write_i,
  output logic            lk_hit_o,
  output logic [WayW-1:0] lk_way_o,
  output data_t           lk_data_o,
  output logic            lk_w_o,
  output logic [Ways-1:0] lk_match_o,  // ways of lk_set_i whose valid entry has lk_tag_i
  // SA-2/SA-3 fill
  input  logic            fill_i,
  input  logic [SetW-1:0] fill_set_i,
  input  logic [Ways-1:0] fill_same_i,  // ways of fill_set_i whose tag is fill_tag_i (_q)
  output logic [WayW-1:0] fill_way_o,
  input  tag_t            fill_tag_i,
  input  logic            fill_w_i,
  input  data_t           fill_data_i,
  // SA-4 PLRU: touch the hit entry
  input  logic            touch_i,
  // SA-5 flush
  input  logic            flush_all_i,
  input  logic            flush_page_i,
  input  tag_t            flush_tag_i,
  input  tag_t            flush_mask_i,
  input  logic            flush_local_i,  // flush_page_i's matches can only be in flush_set_i
  input  logic [SetW-1:0] flush_set_i
);
  localparam int unsigned N    = Sets * Ways;
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned PlW  = (Ways > 1) ? Ways - 1 : 1;

  // ---------------------------------------------------------------- state
  // entries: u_store (gmmu_tlb_store) does SA-3 fill and SA-5 flush of valid and of the FlushKeep
  // tag bits (ent_valid: its _q values); the words {tag, w, data} are in g_way[w].u_ram,
  // rd_tag / rd_w / rd_data = the words of the set read at the last edge (rd_set_i)
  logic [N-1:0]   ent_valid;
  logic [Ways-1:0] rd_w;
  data_t          rd_data [Ways];
  tag_t           rd_tag [Ways];
  logic [PlW-1:0] plru_q [Sets];
  logic [PlW-1:0] plru_d [Sets];

  function automatic logic [IdxW-1:0] idx(logic [SetW-1:0] set, logic [WayW-1:0] way);
    return IdxW'(int'(set) * Ways + int'(way));
  endfunction

  // ---------------------------------------------------------------- SA-1 lookup (from _q)
  logic [Ways-1:0] tag_match;  // also the assertion's input

  // at most one way of the set carries the tag (a_no_multi_hit), so the hit ways are one-hot and
  // the hit's payload is their AND-OR: no priority encoder and way multiplexer in series after
  // the RAM's tag compare (cycle-neutral, docs/fpga.md session 16)
  logic [Ways-1:0] hit_way;
  always_comb begin : p_lookup
    logic [IdxW-1:0] e;
    e         = '0;
    tag_match = '0;
    lk_way_o  = '0;
    lk_data_o = '0;
    lk_w_o    = 1'b0;
    for (int unsigned w = 0; w < Ways; w++) begin
      e            = idx(lk_set_i, WayW'(w));
      tag_match[w] = ent_valid[e] && (rd_tag[w] & TagKeep) == (lk_tag_i & TagKeep);
      hit_way[w]   = tag_match[w] && (!lk_write_i || rd_w[w]);
      lk_way_o    |= WayW'(w) & {WayW{hit_way[w]}};
      lk_data_o   |= rd_data[w] & {$bits(data_t){hit_way[w]}};
      lk_w_o      |= rd_w[w] && hit_way[w];
    end
    lk_hit_o = |hit_way;
  end
  assign lk_match_o = tag_match;

  // ---------------------------------------------------------------- SA-2 fill choice (on _q)
  // the valid bits of the fill's set; "same tag" is fill_same_i (only its valid ways count)
  logic [Ways-1:0] set_valid;
  logic [WayW-1:0] fill_way, victim;

  always_comb begin : p_fill_set
    for (int unsigned w = 0; w < Ways; w++) set_valid[w] = ent_valid[idx(fill_set_i, WayW'(w))];
  end

  gmmu_fill_pick #(.N(Ways)) u_fill_pick (
    .valid_i  (set_valid),
    .same_i   (fill_same_i),
    .victim_i (victim),
    .idx_o    (fill_way)
  );
  assign fill_way_o = fill_way;

  // ---------------------------------------------------------------- SA-4 PLRU
  logic [PlW-1:0]  hit_pl, fill_pl_in, fill_pl, unused_pl;
  logic [WayW-1:0] unused_v0, unused_v1;

  gmmu_plru #(.N(Ways)) u_hit_plru (
    .state_i  (plru_q[lk_set_i]),
    .touch_i  (touch_i),
    .way_i    (lk_way_o),
    .victim_o (unused_v0),
    .state_o  (hit_pl)
  );
  assign fill_pl_in = (touch_i && lk_set_i == fill_set_i) ? hit_pl : plru_q[fill_set_i];
  gmmu_plru #(.N(Ways)) u_fill_plru (
    .state_i  (fill_pl_in),
    .touch_i  (fill_i),
    .way_i    (fill_way),
    .victim_o (unused_v1),
    .state_o  (fill_pl)
  );
  gmmu_plru #(.N(Ways)) u_victim_plru (
    .state_i  (plru_q[fill_set_i]),
    .touch_i  (1'b0),
    .way_i    ('0),
    .victim_o (victim),
    .state_o  (unused_pl)
  );

  always_comb begin : p_plru_next
    plru_d = plru_q;
    if (touch_i) plru_d[lk_set_i] = hit_pl;
    if (fill_i) plru_d[fill_set_i] = fill_pl;
  end

  // ---------------------------------------------------------------- SA-3 fill, SA-5 flush
  // RAMs: way w's word {tag (the stored bits, TagKeep), w, data} of set s at address s, written
  // by the fill of (s, w); SA-1 and the set-local flush read the tags of their set here
  localparam int unsigned DatW = $bits(data_t);
  localparam int unsigned TagW = $bits(tag_t);
  localparam int unsigned PayW = TagW + 1 + DatW;
  for (genvar w = 0; w < Ways; w++) begin : g_way
    logic [PayW-1:0] rdata;
    gmmu_ram_1r1w #(
      .Depth (Sets),
      .Width (PayW)
    ) u_ram (
      .clk_i   (clk_i),
      .we_i    (fill_i && fill_way == WayW'(w)),
      .waddr_i (fill_set_i),
      .wdata_i ({fill_tag_i & TagKeep, fill_w_i, fill_data_i}),
      .raddr_i (rd_set_i),
      .rdata_o (rdata)
    );
    assign rd_tag[w]  = tag_t'(rdata[PayW-1 -: TagW]);
    assign rd_w[w]    = rdata[DatW];
    assign rd_data[w] = data_t'(rdata[DatW-1:0]);
  end

  // SA-5's compare of tag t (entry (s, w)'s _q tag) on the _d tag: the fill of this cycle
  // (SA-3) replaces the tag of its entry
  function automatic logic flush_hit_d(tag_t t, logic [SetW-1:0] s, logic [WayW-1:0] w);
    tag_t td;
    td = (fill_i && fill_set_i == s && fill_way == w) ? fill_tag_i : t;
    return (td & flush_mask_i & TagKeep) == (flush_tag_i & flush_mask_i & TagKeep);
  endfunction

  // SA-5 set-local page flush: the ways of set flush_set_i (as in gmmu_tlb_store, on _d), their
  // _q tags from the RAMs' output registers (the owner read flush_set_i at the last edge). The
  // compares of the way's _q tag and of the fill's tag are made side by side and the fill choice
  // (SA-2) only selects between them: flush_hit_d's result, without the fill choice in front of
  // a tag compare (cycle-neutral, docs/fpga.md session 16)
  logic [N-1:0]    flush_sel;
  logic [Ways-1:0] fl_hit_way;  // way w's _q tag matches the flush
  logic            fl_hit_fill, fill_in_flush_set;
  always_comb begin : p_flush_local
    fl_hit_fill = (fill_tag_i & flush_mask_i & TagKeep) ==
                  (flush_tag_i & flush_mask_i & TagKeep);
    fill_in_flush_set = fill_i && fill_set_i == flush_set_i;
    flush_sel   = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      fl_hit_way[w] = (rd_tag[w] & flush_mask_i & TagKeep) ==
                      (flush_tag_i & flush_mask_i & TagKeep);
      flush_sel[idx(flush_set_i, WayW'(w))] =
          flush_page_i && flush_local_i &&
          ((fill_in_flush_set && fill_way == WayW'(w)) ? fl_hit_fill : fl_hit_way[w]);
    end
  end

  logic [N-1:0] unused_ent_w;  // 0: the payload is not stored in u_store
  data_t        unused_ent_data [1];
  tag_t         st_tag [N];    // the FlushKeep bits only (the others are 0)
  gmmu_tlb_store #(
    .N       (N),
    .tag_t   (tag_t),
    .data_t  (data_t),
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
    .fill_idx_i   (idx(fill_set_i, fill_way)),
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
  // every entry's stored tag, read from the RAM words (simulation and formal only, FORMAL: the
  // formal flows define it, read_slang defines SYNTHESIS): the assertions below and the bound
  // properties (formal/gmmu_tlb_bind.sv) compare on them
`ifdef FORMAL
`define GMMU_TLB_SA_ENT_TAG
`elsif SYNTHESIS
`else
`define GMMU_TLB_SA_ENT_TAG
`endif
`ifdef GMMU_TLB_SA_ENT_TAG
  tag_t ent_tag [N];
  for (genvar gs = 0; gs < Sets; gs++) begin : g_ent_set
    for (genvar gw = 0; gw < Ways; gw++) begin : g_ent_way
      assign ent_tag[gs*Ways + gw] = tag_t'(g_way[gw].u_ram.mem[gs][PayW-1 -: TagW]);
    end
  end
`undef GMMU_TLB_SA_ENT_TAG
`endif
`ifndef SYNTHESIS
  logic unused_st_tag;  // its bits are those of ent_tag
  always_comb begin : p_unused_st_tag
    unused_st_tag = 1'b0;
    for (int unsigned i = 0; i < N; i++) unused_st_tag ^= ^st_tag[i];
  end
  // the set read at the last edge: SA-1 and a set-local flush use its words
  logic [SetW-1:0] rd_set_q;
  always_ff @(posedge clk_i) rd_set_q <= rd_set_i;
  a_rd_set_lookup: assert property (@(posedge clk_i) disable iff (!rst_ni)
    lk_valid_i |-> lk_set_i == rd_set_q);
  a_rd_set_flush: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && flush_local_i) |-> flush_set_i == rd_set_q);
  // the owner's same-tag vector: on the valid ways of the fill's set, the ways whose tag is the
  // fill's
  logic [Ways-1:0] same_ref;
  always_comb begin : p_same_ref
    for (int unsigned w = 0; w < Ways; w++) begin
      same_ref[w] = (ent_tag[idx(fill_set_i, WayW'(w))] & TagKeep) == (fill_tag_i & TagKeep);
    end
  end
  a_fill_same: assert property (@(posedge clk_i) disable iff (!rst_ni)
    fill_i |-> (fill_same_i & set_valid) == (same_ref & set_valid));
  // no multi-hit: at most one way of the looked-up set carries the tag
  a_no_multi_hit: assert property (@(posedge clk_i) disable iff (!rst_ni)
    lk_valid_i |-> $onehot0(tag_match));
  // the set-local page flush invalidates what a compare of every entry would: a non-local one
  // has a mask of FlushKeep bits only, and a local one matches no entry outside its set
  logic flush_outside;
  always_comb begin : p_flush_outside
    flush_outside = 1'b0;
    for (int unsigned s = 0; s < Sets; s++) begin
      for (int unsigned w = 0; w < Ways; w++) begin
        if (SetW'(s) != flush_set_i && ent_valid[idx(SetW'(s), WayW'(w))] &&
            flush_hit_d(ent_tag[idx(SetW'(s), WayW'(w))], SetW'(s), WayW'(w))) begin
          flush_outside = 1'b1;
        end
      end
    end
  end
  a_flush_nonlocal_mask: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && !flush_local_i) |-> (flush_mask_i & TagKeep & ~FlushKeep) == '0);
  a_flush_local_set: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && flush_local_i) |-> !flush_outside);
  // the side-by-side compares select what a compare of the _d tag gives (p_flush_local)
  logic [Ways-1:0] flush_sel_ref;
  always_comb begin : p_flush_sel_ref
    for (int unsigned w = 0; w < Ways; w++) begin
      flush_sel_ref[w] = flush_page_i && flush_local_i &&
                         flush_hit_d(rd_tag[w], flush_set_i, WayW'(w));
    end
  end
  a_flush_sel_d: assert property (@(posedge clk_i) disable iff (!rst_ni)
    flush_sel[idx(flush_set_i, '0) +: Ways] == flush_sel_ref);
`else
  logic unused_sa;
  always_comb begin : p_unused_sa
    unused_sa = lk_valid_i;
    for (int unsigned i = 0; i < N; i++) unused_sa ^= ^st_tag[i];
  end
`endif
endmodule
