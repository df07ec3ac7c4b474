// binds the no-multi-hit properties into every TLB array
bind gmmu_tlb_fa gmmu_tlb_fa_props #(.N(N), .NumLookup(NumLookup), .TagW($bits(tag_t)),
                                    .Keep(TagKeep)) u_fa_props (
  .clk_i, .rst_ni, .ent_valid, .tag_flat ({>>{ent_tag}}), .tag_match, .fill_i, .flush_all_i,
  .flush_page_i, .flush_tag_i, .flush_mask_i
);
// (gmmu_tlb_sa's ent_tag: the RAM words' tags, declared for FORMAL)
bind gmmu_tlb_sa gmmu_tlb_sa_props #(.Sets(Sets), .Ways(Ways), .TagW($bits(tag_t)),
                                    .Keep(TagKeep)) u_sa_props (
  .clk_i, .rst_ni, .ent_valid, .tag_flat ({>>{ent_tag}}), .tag_match, .fill_i, .fill_set_i,
  .fill_tag_i, .fill_same_i, .flush_page_i, .flush_tag_i, .flush_mask_i
);
