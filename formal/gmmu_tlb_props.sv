// No-multi-hit properties of the TLB arrays (docs/microarch.md §1.2, §1.3, §11), bound into every
// gmmu_tlb_fa and gmmu_tlb_sa (formal/gmmu_tlb_bind.sv). Tags are passed flattened
// ({>>{ent_tag}}: entry 0 in the top bits). Proved for every input sequence (fills with any
// tag, data and set, lookups, touches, page and full flushes in any combination):
//   tlb_unique_tag     no two valid entries carry the same tag (FA: whole array; SA: per set);
//                      this state invariant makes the lookup property inductive
//   tlb_no_multi_hit   a lookup matches at most one valid entry (per port; SA: in its set)
//   tlb_flush_page_done (FA and SA, gmmu_tlb_flush_props) after a page flush no valid entry
//                      matches its tag in its mask bits (also the entry a fill of the same
//                      cycle wrote: FA-5 / SA-5 act on _d)
// the last cycle's page flush (its tag and mask), checked on the entries it left
module gmmu_tlb_flush_props #(
  parameter int unsigned N    = 2,
  parameter int unsigned TagW = 1,
  parameter logic [TagW-1:0] Keep = '1
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic [N-1:0]      ent_valid,
  input logic [N*TagW-1:0] tag_flat,
  input logic              flush_page_i,
  input logic [TagW-1:0]   flush_tag_i,
  input logic [TagW-1:0]   flush_mask_i
);
`include "fv_defs.svh"
  logic            fl_q;
  logic [TagW-1:0] fl_tag_q, fl_m_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fl_q     <= 1'b0;
      fl_tag_q <= '0;
      fl_m_q   <= '0;
    end else begin
      fl_q     <= flush_page_i;
      fl_tag_q <= flush_tag_i;
      fl_m_q   <= flush_mask_i & Keep;
    end
  end
  for (genvar i = 0; i < N; i++) begin : g_fl
    `FV_ASSERT(tlb_flush_page_done, !(fl_q && ent_valid[i] &&
               (tag_flat[TagW*(N-1-i) +: TagW] & fl_m_q) == (fl_tag_q & fl_m_q)))
  end
endmodule

module gmmu_tlb_fa_props #(
  parameter int unsigned N         = 2,
  parameter int unsigned NumLookup = 1,
  parameter int unsigned TagW      = 1,
  parameter logic [TagW-1:0] Keep  = '1  // the stored tag bits (TagKeep)
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic [N-1:0]                 ent_valid,
  input logic [N*TagW-1:0]            tag_flat,
  input logic [NumLookup-1:0][N-1:0]  tag_match,
  input logic                         fill_i,
  input logic                         flush_all_i,
  input logic                         flush_page_i,
  input logic [TagW-1:0]              flush_tag_i,
  input logic [TagW-1:0]              flush_mask_i
);
`include "fv_defs.svh"
  gmmu_tlb_flush_props #(.N(N), .TagW(TagW), .Keep(Keep)) u_flush_props (
    .clk_i, .rst_ni, .ent_valid, .tag_flat, .flush_page_i, .flush_tag_i, .flush_mask_i
  );
  for (genvar i = 0; i < N; i++) begin : g_i
    for (genvar j = i + 1; j < N; j++) begin : g_j
      `FV_ASSERT(tlb_unique_tag, !(ent_valid[i] && ent_valid[j] &&
                 tag_flat[TagW*(N-1-i) +: TagW] == tag_flat[TagW*(N-1-j) +: TagW]))
    end
  end
  for (genvar p = 0; p < NumLookup; p++) begin : g_p
    `FV_ASSERT(tlb_no_multi_hit, $onehot0(tag_match[p]))
  end
  always_comb if (rst_ni) begin
    c_tlb_full: cover (ent_valid == '1);
    c_tlb_fill_full: cover (fill_i && ent_valid == '1);
    c_tlb_flush_page: cover (flush_page_i && ent_valid != '0);
  end
endmodule

module gmmu_tlb_sa_props #(
  parameter int unsigned Sets = 4,
  parameter int unsigned Ways = 2,
  parameter int unsigned TagW = 1,
  parameter logic [TagW-1:0] Keep = '1,  // the stored tag bits (TagKeep)
  localparam int unsigned N   = Sets * Ways,
  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic [N-1:0]        ent_valid,
  input logic [N*TagW-1:0]   tag_flat,
  input logic [Ways-1:0]     tag_match,
  input logic                fill_i,
  input logic [SetW-1:0]     fill_set_i,
  input logic [TagW-1:0]     fill_tag_i,
  input logic [Ways-1:0]     fill_same_i,
  input logic                flush_page_i,
  input logic [TagW-1:0]     flush_tag_i,
  input logic [TagW-1:0]     flush_mask_i
);
`include "fv_defs.svh"
  // SA-5 on _d: a set-local flush compares the filled way's new tag (docs/fpga.md session 16)
  gmmu_tlb_flush_props #(.N(N), .TagW(TagW), .Keep(Keep)) u_flush_props (
    .clk_i, .rst_ni, .ent_valid, .tag_flat, .flush_page_i, .flush_tag_i, .flush_mask_i
  );
  for (genvar s = 0; s < Sets; s++) begin : g_s
    for (genvar i = 0; i < Ways; i++) begin : g_i
      for (genvar j = i + 1; j < Ways; j++) begin : g_j
        localparam int unsigned A = s * Ways + i, B = s * Ways + j;
        `FV_ASSERT(tlb_unique_tag, !(ent_valid[A] && ent_valid[B] &&
                   tag_flat[TagW*(N-1-A) +: TagW] == tag_flat[TagW*(N-1-B) +: TagW]))
      end
    end
  end
  `FV_ASSERT(tlb_no_multi_hit, $onehot0(tag_match))
  // SA-2's "same tag" from the owner (the L2's same-tag vectors, docs/microarch.md §5): on the
  // valid ways of the fill's set, exactly the ways whose stored tag is the fill's
  logic [Ways-1:0] same_ref, set_valid;
  always_comb begin : p_same_ref
    for (int unsigned w = 0; w < Ways; w++) begin
      set_valid[w] = ent_valid[int'(fill_set_i) * Ways + w];
      same_ref[w]  = tag_flat[TagW*(N-1-(int'(fill_set_i) * Ways + w)) +: TagW] ==
                     (fill_tag_i & Keep);
    end
  end
  `FV_ASSERT(tlb_sa_fill_same, !fill_i || (fill_same_i & set_valid) == (same_ref & set_valid))
  always_comb if (rst_ni) begin
    c_tlb_full: cover (ent_valid == '1);
    c_tlb_fill_full: cover (fill_i && ent_valid == '1);
  end
endmodule
