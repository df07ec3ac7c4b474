/*
 * uvm_evict_oracle.c - eviction policy "lru_oracle": the seeds' LRU (Zheng fig. 9, UVMSmart), by
 * the time of the last GPU access (docs/handler.md §6.1). The GMMU reports faults, not hits, so
 * no handler can know that time from the hardware today (issue 21 adds accessed bits and access
 * counters): the platform gives it as an ORACLE, every translation used by an SM
 * (uvm_handler_note_access in uvm_evict_optimal.c, asked for by UVM_POLICY_PROP_ACCESS_ORACLE). A
 * page not accessed since its migration counts from its migration. The victim is the resident page
 * not pinned in the current block with the oldest access (ties: the older migration); pick(gran)
 * the group of gran frames of the oldest such page that uvm_evict_group_ok accepts. It keeps no
 * list (a scan of the frames per eviction) and observes no event: the frames hold the times.
 */
#include "uvm_priv.h"

static bool older(const uvm_frame_t *a, const uvm_frame_t *b) {
    return a->access_ns < b->access_ns || (a->access_ns == b->access_ns && a->mig_seq < b->mig_seq);
}

uint32_t uvm_evict_scan_pick(uvm_handler_t *h, uint32_t gran_pages, uvm_frame_less_fn less) {
    if (!uvm_evict_gran_valid(gran_pages))
        return UVM_NONE;
    uint32_t best = UVM_NONE;
    for (uint32_t f = 0; f < h->cfg.gpu_data_pages; f++) {
        const uvm_frame_t *fr = &h->frames[f];
        if (!fr->resident || (best != UVM_NONE && !less(fr, &h->frames[best])))
            continue;
        if (gran_pages == 1u ? !uvm_frame_pinned(h, f)
                             : uvm_evict_group_ok(h, f & ~(gran_pages - 1u), gran_pages))
            best = f;
    }
    return best == UVM_NONE ? UVM_NONE : best & ~(gran_pages - 1u);
}

int uvm_evict_stateless_init(uvm_handler_t *h, void **priv) {
    (void)h;
    *priv = NULL;
    return 0;
}

void uvm_evict_stateless_fini(void *priv) {
    (void)priv;
}

static uint32_t oracle_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    (void)priv;
    return uvm_evict_scan_pick(h, gran_pages, older);
}

const uvm_evict_ops_t uvm_evict_lru_oracle_ops = {
    "lru_oracle", uvm_evict_stateless_init, uvm_evict_stateless_fini, 0, NULL, oracle_pick, false,
    NULL};
