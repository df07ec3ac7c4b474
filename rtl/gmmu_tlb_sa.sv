// Set-associative TLB array of docs/microarch.md §1.3: Sets x Ways entries (valid, tag, w, data),
// entry (set, way) at index set*Ways + way, one tree PLRU (§1.1) per set. Used by the L2 base
// array. C model mirror: cmodel/tlb_sa.c (tlb_sa_*), same step numbers.
//
// Steps of one cycle (every choice on _q; later steps override the _d of earlier ones):
//   SA-1 lookup   (combinational from _q) in set lk_set_i: lowest way with a valid entry whose
//                 tag == lk_tag_i and (!lk_write_i || w) -> lk_hit_o, lk_way_o, lk_data_o, lk_w_o
//   SA-2 fill choice in set fill_set_i on _q (§1.1): same tag, else lowest invalid way, else the
//                 PLRU victim of that set's _q bits
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
// Storage: valid and tag of the entries are in u_store (gmmu_tlb_store, reset flip-flops read
// combinationally: the fill choice and the page flush compare tags in one cycle; SA-1 reads the
// valid bits from there and the tags from the RAM words below, issue 25);
// the per-set PLRU bits (plru_q) are here; the payload {w, data} of way w is in the synchronous-
// read RAM g_way[w].u_ram (gmmu_ram_1r1w, Sets words, block RAM on an FPGA): rd_set_i is the set
// that SA-1 will look up in the next cycle, the RAM's output register then holds that set's
// payloads after this cycle's fill (write-first), which is what SA-1 on _q would read
// (docs/microarch.md §1.3 "payload RAM"). The visible behaviour is that of flip-flops.
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
  // the set SA-1 looks up in the next cycle (the payload RAMs' registered read address)
  input  logic [SetW-1:0] rd_set_i,
  input  tag_t            lk_tag_i,
  input  logic            lk_write_i,
  output logic            lk_hit_o,
  output logic [WayW-1:0] lk_way_o,
  output data_t           lk_data_o,
  output logic            lk_w_o,
  // SA-2/SA-3 fill
  input  logic            fill_i,
  input  logic [SetW-1:0] fill_set_i,
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
  // entries: u_store (gmmu_tlb_store) does SA-3 fill and SA-5 flush of valid and tag; ent_* are
  // its _q values; the payloads are in g_way[w].u_ram, rd_w / rd_data = the words of set
  // lk_set_i (read in the previous cycle with rd_set_i)
  logic [N-1:0]   ent_valid;
  tag_t           ent_tag [N];
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

  always_comb begin : p_lookup
    logic [IdxW-1:0] e;
    e         = '0;
    lk_hit_o  = 1'b0;
    lk_way_o  = '0;
    tag_match = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      e            = idx(lk_set_i, WayW'(w));
      tag_match[w] = ent_valid[e] && (rd_tag[w] & TagKeep) == (lk_tag_i & TagKeep);
      if (!lk_hit_o && tag_match[w] && (!lk_write_i || rd_w[w])) begin
        lk_hit_o = 1'b1;
        lk_way_o = WayW'(w);
      end
    end
  end
  assign lk_data_o = rd_data[lk_way_o];
  assign lk_w_o    = rd_w[lk_way_o];

  // ---------------------------------------------------------------- SA-2 fill choice (on _q)
  logic [Ways-1:0] set_valid, set_same;
  logic [WayW-1:0] fill_way, victim;

  always_comb begin : p_fill_set
    for (int unsigned w = 0; w < Ways; w++) begin
      set_valid[w] = ent_valid[idx(fill_set_i, WayW'(w))];
      set_same[w]  = ((ent_tag[idx(fill_set_i, WayW'(w))] & TagKeep) ==
                      (fill_tag_i & TagKeep));
    end
  end

  gmmu_fill_pick #(.N(Ways)) u_fill_pick (
    .valid_i  (set_valid),
    .same_i   (set_same),
    .victim_i (victim),
    .idx_o    (fill_way)
  );

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
  // payload RAMs: way w's word of set s at address s, written by the fill of (s, w)
  // word = {tag, w, data}: SA-1 reads the tags of its set from here too (the stored bits,
  // TagKeep), as it reads the payload; the fill choice and the flush read the flip-flop tags
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

  // SA-5 on the _d tags: entry (s, w)'s tag after this cycle's fill (SA-3), and its page-flush
  // compare (used by the set-local flush and by its assertion)
  function automatic logic flush_hit_d(logic [SetW-1:0] s, logic [WayW-1:0] w);
    tag_t t;
    t = (fill_i && fill_set_i == s && fill_way == w) ? fill_tag_i : ent_tag[idx(s, w)];
    return (t & flush_mask_i & TagKeep) == (flush_tag_i & flush_mask_i & TagKeep);
  endfunction

  // SA-5 set-local page flush: the ways of set flush_set_i (as in gmmu_tlb_store, on _d)
  logic [N-1:0] flush_sel;
  always_comb begin : p_flush_local
    flush_sel = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      flush_sel[idx(flush_set_i, WayW'(w))] =
          flush_page_i && flush_local_i && flush_hit_d(flush_set_i, WayW'(w));
    end
  end

  logic [N-1:0] unused_ent_w;  // 0: the payload is not stored in u_store
  data_t        unused_ent_data [1];
  gmmu_tlb_store #(
    .N       (N),
    .tag_t   (tag_t),
    .data_t  (data_t),
    .TagKeep   (TagKeep),
    .FlushKeep (FlushKeep),
    .Payload   (1'b0)
  ) u_store (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .valid_o      (ent_valid),
    .tag_o        (ent_tag),
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
`ifndef SYNTHESIS
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
            flush_hit_d(SetW'(s), WayW'(w))) begin
          flush_outside = 1'b1;
        end
      end
    end
  end
  a_flush_nonlocal_mask: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && !flush_local_i) |-> (flush_mask_i & TagKeep & ~FlushKeep) == '0);
  a_flush_local_set: assert property (@(posedge clk_i) disable iff (!rst_ni)
    (flush_page_i && flush_local_i) |-> !flush_outside);
`else
  logic unused_lk_valid;
  assign unused_lk_valid = lk_valid_i;
`endif
endmodule
