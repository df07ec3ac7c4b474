/*
 * uvm_evict_lfu.c - eviction policy "lfu" (UVMSmart's least frequently used, docs/handler.md
 * §6p): the victim is the resident page not pinned in the current block with the fewest GPU
 * accesses since its migration (ties: the older migration). The accesses are the platform's
 * ORACLE, as for lru_oracle (uvm_handler_note_access, asked for by
 * UVM_POLICY_PROP_ACCESS_ORACLE: the GMMU reports faults, not hits); a page's count starts at 0
 * when it gets a frame. pick(gran): the aligned group of gran frames of the first such page that
 * uvm_evict_group_ok accepts. No list, no event: the frames hold the counts.
 */
#include "uvm_priv.h"

static bool fewer(const uvm_frame_t *a, const uvm_frame_t *b) {
    return a->accesses < b->accesses || (a->accesses == b->accesses && a->mig_seq < b->mig_seq);
}

static uint32_t lfu_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    (void)priv;
    return uvm_evict_scan_pick(h, gran_pages, fewer);
}

const uvm_evict_ops_t uvm_evict_lfu_ops = {
    "lfu", uvm_evict_stateless_init, uvm_evict_stateless_fini, 0, NULL, lfu_pick, false, NULL};
