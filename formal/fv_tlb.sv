// Formal harness of the TLB arrays with the TINY geometry (configs/tiny.cfg) and the records of
// spec/tlb.toml: the L1 base array (8 entries, 2 lookup ports), the L1 large array (2 entries,
// 2 ports), the L2 large array (2 entries, 1 port) and the L2 base array (4 sets x 2 ways), the
// latter twice: with any tag in any set (every page flush compares every entry) and as the L2
// uses it (set = vpn[1:0], set-local page flushes, session 16).
// Every input is free (any fill, lookup, touch, flush sequence); the properties are bound
// (formal/gmmu_tlb_props.sv).
module fv_tlb
  import gmmu_tlb_pkg::*;
(
  input logic clk_i,
  input logic rst_ni,
  // L1 base (FA 8 x 2 ports)
  input logic [1:0] b_lk_valid, b_lk_write, b_touch,
  input base_tag_t [1:0] b_lk_tag,
  input logic b_fill, b_fill_w, b_flush_all, b_flush_page,
  input base_tag_t b_fill_tag, b_flush_tag,
  input base_data_t b_fill_data,
  // L1 large (FA 2 x 2 ports)
  input logic [1:0] l_lk_valid, l_lk_write, l_touch,
  input large_tag_t [1:0] l_lk_tag,
  input logic l_fill, l_fill_w, l_flush_all, l_flush_page,
  input large_tag_t l_fill_tag, l_flush_tag,
  input large_data_t l_fill_data,
  // L2 large (FA 2 x 1 port)
  input logic m_lk_valid, m_lk_write, m_touch,
  input large_tag_t m_lk_tag,
  input logic m_fill, m_fill_w, m_flush_all, m_flush_page,
  input large_tag_t m_fill_tag, m_flush_tag,
  input large_data_t m_fill_data,
  // L2 base (SA 4 x 2)
  input logic s_lk_valid, s_lk_write, s_touch,
  input logic [1:0] s_lk_set, s_rd_set, s_fill_set,
  input base_tag_t s_lk_tag,
  input logic s_fill, s_fill_w, s_flush_all, s_flush_page,
  input base_tag_t s_fill_tag, s_flush_tag,
  input base_data_t s_fill_data,
  // the L2 base array used as the L2 uses it (set = vpn[1:0], every page flush set-local): the
  // fill's set, the flush's set and the lookup's set come from the tags (docs/microarch.md §1.3)
  input logic t_lk_valid, t_lk_write, t_touch,
  input logic [1:0] t_rd_set,
  input base_tag_t t_lk_tag,
  input logic t_fill, t_fill_w, t_flush_all, t_flush_page,
  input base_tag_t t_fill_tag, t_flush_tag,
  input base_data_t t_fill_data
);
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);
  // the L2 base array's RAMs (tags and payloads) are read one cycle ahead (docs/microarch.md
  // §1.3): SA-1 looks up the set its RAMs read at the last edge (the L2 reads pvpn_d's set and
  // looks up pvpn_q's)
  logic [1:0] s_rd_prev;
  always_ff @(posedge clk_i) s_rd_prev <= s_rd_set;
  always_comb if (rst_ni) assume (s_lk_set == s_rd_prev);

  logic [1:0] b_hit, b_w, l_hit, l_w;
  logic [1:0][2:0] b_idx;
  logic [1:0][0:0] l_idx;
  base_data_t [1:0] b_data;
  large_data_t [1:0] l_data;
  gmmu_tlb_fa #(.N(8), .NumLookup(2), .tag_t(base_tag_t), .data_t(base_data_t)) u_l1_base (
    .clk_i, .rst_ni, .lk_valid_i (b_lk_valid), .lk_tag_i (b_lk_tag), .lk_write_i (b_lk_write),
    .lk_hit_o (b_hit), .lk_idx_o (b_idx), .lk_data_o (b_data), .lk_w_o (b_w),
    .fill_i (b_fill), .fill_tag_i (b_fill_tag), .fill_w_i (b_fill_w), .fill_data_i (b_fill_data),
    .touch_i (b_touch & b_hit), .flush_all_i (b_flush_all), .flush_page_i (b_flush_page),
    .flush_tag_i (b_flush_tag),
    .flush_mask_i ('1)  // the whole tag, as before §14.4
  );
  gmmu_tlb_fa #(.N(2), .NumLookup(2), .tag_t(large_tag_t), .data_t(large_data_t)) u_l1_large (
    .clk_i, .rst_ni, .lk_valid_i (l_lk_valid), .lk_tag_i (l_lk_tag), .lk_write_i (l_lk_write),
    .lk_hit_o (l_hit), .lk_idx_o (l_idx), .lk_data_o (l_data), .lk_w_o (l_w),
    .fill_i (l_fill), .fill_tag_i (l_fill_tag), .fill_w_i (l_fill_w), .fill_data_i (l_fill_data),
    .touch_i (l_touch & l_hit), .flush_all_i (l_flush_all), .flush_page_i (l_flush_page),
    .flush_tag_i (l_flush_tag),
    .flush_mask_i ('1)  // the whole tag, as before §14.4
  );
  logic m_hit, m_w;
  logic [0:0] m_idx;
  large_data_t m_data;
  gmmu_tlb_fa #(.N(2), .NumLookup(1), .tag_t(large_tag_t), .data_t(large_data_t)) u_l2_large (
    .clk_i, .rst_ni, .lk_valid_i (m_lk_valid), .lk_tag_i (m_lk_tag), .lk_write_i (m_lk_write),
    .lk_hit_o (m_hit), .lk_idx_o (m_idx), .lk_data_o (m_data), .lk_w_o (m_w),
    .fill_i (m_fill), .fill_tag_i (m_fill_tag), .fill_w_i (m_fill_w), .fill_data_i (m_fill_data),
    .touch_i (m_touch & m_hit), .flush_all_i (m_flush_all), .flush_page_i (m_flush_page),
    .flush_tag_i (m_flush_tag),
    .flush_mask_i ('1)  // the whole tag, as before §14.4
  );
  logic s_hit, s_w;
  logic [0:0] s_way, s_fill_way;
  logic [1:0] s_match, s_fill_same;
  base_data_t s_data;
  // SA-2's "same tag" (the L2 keeps it per MSHR, docs/microarch.md §5): here computed from the
  // stored tags of the fill's set (the RAM words, u_l2_base.ent_tag)
  for (genvar w = 0; w < 2; w++) begin : g_s_same
    assign s_fill_same[w] = u_l2_base.ent_tag[s_fill_set*2+w] == s_fill_tag;
  end
  gmmu_tlb_sa #(.Sets(4), .Ways(2), .tag_t(base_tag_t), .data_t(base_data_t)) u_l2_base (
    .clk_i, .rst_ni, .lk_valid_i (s_lk_valid), .lk_set_i (s_lk_set), .rd_set_i (s_rd_set),
    .lk_tag_i (s_lk_tag),
    .lk_write_i (s_lk_write), .lk_hit_o (s_hit), .lk_way_o (s_way), .lk_data_o (s_data),
    .lk_w_o (s_w), .lk_match_o (s_match), .fill_i (s_fill), .fill_set_i (s_fill_set),
    .fill_same_i (s_fill_same), .fill_way_o (s_fill_way), .fill_tag_i (s_fill_tag),
    .fill_w_i (s_fill_w), .fill_data_i (s_fill_data), .touch_i (s_touch & s_hit),
    .flush_all_i (s_flush_all), .flush_page_i (s_flush_page), .flush_tag_i (s_flush_tag),
    .flush_mask_i ('1),  // the whole tag, as before §14.4
    // every entry compared (the fills here put any tag in any set: no set-local flush)
    .flush_local_i (1'b0), .flush_set_i ('0)
  );
  // the L2 base array's tags are in the RAM words {tag, w, data} (SA-1, the set-local flush) and
  // its flip-flops keep the FlushKeep bits (here every bit: FlushKeep = '1, the harness flushes
  // every entry on the whole tag). Both agree on every valid entry, and the RAMs' output
  // registers hold the valid tags of the set read at the last edge (which makes
  // tlb_no_multi_hit of SA-1 inductive); SA-1's match vector is the compare of that set
  logic unused_s = ^{s_fill_way, s_match};
  localparam int unsigned STagW = $bits(base_tag_t);
  localparam int unsigned SPayW = STagW + 1 + $bits(base_data_t);
  for (genvar st = 0; st < 4; st++) begin : g_s_set
    for (genvar w = 0; w < 2; w++) begin : g_s_way
      always_comb if (rst_ni) begin
        tlb_sa_ram_tag: assert (!u_l2_base.u_store.valid_q[st*2+w] ||
          u_l2_base.g_way[w].u_ram.mem[st][SPayW-1 -: STagW] == u_l2_base.u_store.tag_q[st*2+w]);
      end
    end
  end
  for (genvar w = 0; w < 2; w++) begin : g_s_rd
    always_comb if (rst_ni && !init) begin
      tlb_sa_rd_tag: assert (!u_l2_base.u_store.valid_q[s_rd_prev*2+w] ||
        u_l2_base.g_way[w].u_ram.rdata_q[SPayW-1 -: STagW] ==
        u_l2_base.u_store.tag_q[s_rd_prev*2+w]);
    end
  end
  // the second L2 base array: fills in set vpn[1:0], lookups of the set read at the last edge,
  // page flushes set-local (their set read at the last edge, as the L2's command cycle does):
  // SA-5's local path, with a fill of the same cycle in the flushed set (tlb_flush_page_done, bound into it)
  logic [1:0] t_rd_prev, t_fill_set, t_flush_set;
  always_ff @(posedge clk_i) t_rd_prev <= t_rd_set;
  assign t_fill_set  = t_fill_tag.vpn[1:0];
  assign t_flush_set = t_flush_tag.vpn[1:0];
  always_comb if (rst_ni) assume (!t_flush_page || t_flush_set == t_rd_prev);
  logic t_hit, t_w;
  logic [0:0] t_way, t_fill_way;
  logic [1:0] t_match, t_fill_same;
  base_data_t t_data;
  for (genvar w = 0; w < 2; w++) begin : g_t_same
    assign t_fill_same[w] = u_l2_base_loc.ent_tag[t_fill_set*2+w] == t_fill_tag;
  end
  gmmu_tlb_sa #(.Sets(4), .Ways(2), .tag_t(base_tag_t), .data_t(base_data_t)) u_l2_base_loc (
    .clk_i, .rst_ni, .lk_valid_i (t_lk_valid), .lk_set_i (t_rd_prev), .rd_set_i (t_rd_set),
    .lk_tag_i (t_lk_tag),
    .lk_write_i (t_lk_write), .lk_hit_o (t_hit), .lk_way_o (t_way), .lk_data_o (t_data),
    .lk_w_o (t_w), .lk_match_o (t_match), .fill_i (t_fill), .fill_set_i (t_fill_set),
    .fill_same_i (t_fill_same), .fill_way_o (t_fill_way), .fill_tag_i (t_fill_tag),
    .fill_w_i (t_fill_w), .fill_data_i (t_fill_data), .touch_i (t_touch & t_hit),
    .flush_all_i (t_flush_all), .flush_page_i (t_flush_page), .flush_tag_i (t_flush_tag),
    .flush_mask_i ('1), .flush_local_i (1'b1), .flush_set_i (t_flush_set)
  );
  logic unused_t = ^{t_fill_way, t_match, t_w, t_data, t_way};
  for (genvar st = 0; st < 4; st++) begin : g_t_set
    for (genvar w = 0; w < 2; w++) begin : g_t_way
      always_comb if (rst_ni) begin
        tlb_sa_loc_ram_tag: assert (!u_l2_base_loc.u_store.valid_q[st*2+w] ||
          u_l2_base_loc.g_way[w].u_ram.mem[st][SPayW-1 -: STagW] ==
          u_l2_base_loc.u_store.tag_q[st*2+w]);
        // a valid entry sits in its tag's set (what makes a set-local flush complete)
        tlb_sa_loc_in_set: assert (!u_l2_base_loc.u_store.valid_q[st*2+w] ||
          u_l2_base_loc.u_store.tag_q[st*2+w].vpn[1:0] == 2'(st));
      end
    end
  end
  for (genvar w = 0; w < 2; w++) begin : g_t_rd
    always_comb if (rst_ni && !init) begin
      tlb_sa_loc_rd_tag: assert (!u_l2_base_loc.u_store.valid_q[t_rd_prev*2+w] ||
        u_l2_base_loc.g_way[w].u_ram.rdata_q[SPayW-1 -: STagW] ==
        u_l2_base_loc.u_store.tag_q[t_rd_prev*2+w]);
    end
  end
endmodule
