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
    if (!uvm_evict_gran_valid(gran_pages))
        return UVM_NONE;
    uint32_t best = UVM_NONE;
    for (uint32_t f = 0; f < h->cfg.gpu_data_pages; f++) {
        const uvm_frame_t *fr = &h->frames[f];
        if (!fr->resident || (best != UVM_NONE && !fewer(fr, &h->frames[best])))
            continue;
        if (gran_pages == 1u ? !uvm_frame_pinned(h, f)
                             : uvm_evict_group_ok(h, f & ~(gran_pages - 1u), gran_pages))
            best = f;
    }
    return best == UVM_NONE ? UVM_NONE : best & ~(gran_pages - 1u);
}

static int lfu_init(uvm_handler_t *h, void **priv) {
    (void)h;
    *priv = NULL;
    return 0;
}

static void lfu_fini(void *priv) {
    (void)priv;
}

const uvm_evict_ops_t uvm_evict_lfu_ops = {"lfu", lfu_init, lfu_fini, 0, NULL, lfu_pick, false};
