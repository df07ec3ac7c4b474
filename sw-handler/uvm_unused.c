/*
 * uvm_unused.c - pages evicted before use, and prefetched pages never used (count_unused,
 * docs/handler.md §6z, issue 20 item 3). A frame knows whether a prefetcher brought its page in
 * (uvm_migrate_set: a page of the set that did not fault) and whether the GPU used the page since
 * its migration: from the platform's access oracle (count_unused = oracle: every translation an
 * SM uses, uvm_handler_note_access; no driver sees hits) or from the walker's accessed bit
 * (count_unused = acc: the leaf's ACC read when the page is unmapped, uvm_pt_unmap, or seen set
 * by the clock policy, uvm_place_clear_accessed). A capacity eviction of a page without a use is
 * counted here; a page leaving for a CPU fault or a user call is no eviction for the count.
 */
#include "uvm_place.h"

void uvm_unused_evicted(uvm_handler_t *h, uint32_t f, bool large) {
    if (!h->cfg.count_unused || h->evict_cause != UVM_EVICT_CAPACITY)
        return;
    if (large && h->cfg.count_unused == UVM_UNUSED_ACC)
        return; /* a 2 MB page's leaves are not read at its unmap: not counted (§6z) */
    const uvm_frame_t *fr = &h->frames[f];
    if (fr->used)
        return;
    h->stats.unused_evicted++;
    h->stats.unused_evicted_prefetch += fr->prefetched ? 1u : 0u;
}

void uvm_unused_migrated(uvm_handler_t *h, uint32_t f, bool prefetched) {
    h->frames[f].prefetched = prefetched;
    h->frames[f].used = false;
}

void uvm_handler_unused_resident(const uvm_handler_t *h, uint64_t *prefetched, uint64_t *all) {
    uint64_t np = 0, na = 0;
    for (uint64_t f = 0; h && h->frames && f < h->cfg.gpu_data_pages; f++) {
        const uvm_frame_t *fr = &h->frames[f];
        if (!fr->resident || fr->used)
            continue;
        na++;
        np += fr->prefetched ? 1u : 0u;
    }
    *prefetched = np;
    *all = na;
}
