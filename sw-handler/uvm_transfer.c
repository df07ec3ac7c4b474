/*
 * uvm_transfer.c - migration sets outside the fault path (docs/handler.md §6d, §6m): Zheng's
 * transfer sets (allocation-wide prefetch pages chosen by the prefetch policy, migrated per 2 MB
 * block), which the service loop (batch mode) and the pipelined sets (uvm_prefetch_pipe.c) both
 * submit; and the per-block page-table room check they share with the service loop. Below the
 * service loop and the pipelined sets, above the migration layer.
 */
#include <inttypes.h>
#include <string.h>

#include "uvm_place.h"

/* Checks once per block that the PT pool holds the chain the block still needs. */
bool uvm_block_pt_room(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn) {
    if (!c->pt_checked) {
        /* every page of a 2 MB block shares one table chain: check the pool once */
        const uint32_t need = uvm_pt_missing(h, vpn);
        c->pt_ok = need <= uvm_pt_free_pages(h);
        c->pt_checked = true;
        if (!c->pt_ok)
            uvm_logf(h,
                     "uvm: page-table pool exhausted (%" PRIu64 " pages used, %" PRIu32
                     " more needed) for the 2 MB block at VA 0x%" PRIx64,
                     h->cfg.gpu_pt_pages - uvm_pt_free_pages(h), need,
                     (vpn >> UVM_BLOCK_SHIFT) << GMMU_LARGE_SHIFT);
    }
    return c->pt_ok;
}

/* Migrates the prefetch pages of one block (set, block-relative) outside any demand; pipe: the
 * pages join h->pending and their copies are submitted, not waited for (§6m). */
static uint32_t prefetch_block(uvm_handler_t *h, uint64_t blk_id, const uint64_t *set, bool pipe) {
    const uint64_t none[UVM_BLOCK_WORDS] = {0};
    const uint32_t first = uvm_bitmap_next(set, UVM_BLOCK_PAGES, 0);
    if (first >= UVM_BLOCK_PAGES)
        return 0;
    uvm_migrate_pin_block(h);
    if (!pipe)
        uvm_migrate_begin(h);
    uvm_blk_ctx_t c = {
        uvm_va_block_get(h, (blk_id << UVM_BLOCK_SHIFT) + first, true), false, true, false, {0}};
    uint32_t queued = 0;
    if (c.blk && uvm_block_pt_room(h, &c, (blk_id << UVM_BLOCK_SHIFT) + first))
        queued = uvm_migrate_set(h, blk_id, set, none);
    if (pipe)
        uvm_migrate_submit(h);
    else
        uvm_migrate_commit(h);
    return queued;
}

void uvm_batch_anchor(const uvm_handler_t *h, uint32_t m, uvm_alloc_hint_ctx_t *c) {
    uint64_t ts = 0;
    for (uint32_t i = 0; i < m; i++)
        if (uvm_find_alloc(h, h->batch[i].vpn) && (!c->any_fault || h->batch[i].timestamp >= ts)) {
            c->last_vpn = h->batch[i].vpn;
            ts = h->batch[i].timestamp;
            c->any_fault = true;
        }
}

uint32_t uvm_transfer_set(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint32_t max,
                          bool pipe) {
    /* at most the free frames; transfer_sets_full = evict in batch mode (§6p.5): at most half
     * the GPU frames, the rest evicted for it */
    const uint32_t room = h->cfg.ts_full && !pipe ? h->pmm.frames / 2u : h->pmm.nfree;
    if (max > room)
        max = room;
    if (max == 0)
        return 0;
    uint64_t vpns[UVM_BLOCK_PAGES];
    const uint32_t n =
        h->prefetch->alloc_hint(h, c, vpns, max < UVM_BLOCK_PAGES ? max : UVM_BLOCK_PAGES);
    uint64_t set[UVM_BLOCK_WORDS] = {0}, blk_id = 0;
    uint32_t queued = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!uvm_find_alloc(h, vpns[i]) || uvm_va_block_resident(h, vpns[i], NULL) ||
            uvm_remote_is(h, vpns[i]) || uvm_remote_wanted(h, vpns[i]))
            continue; /* resident, or remote (§6l.2) */
        if ((vpns[i] >> UVM_BLOCK_SHIFT) != blk_id) {
            queued += prefetch_block(h, blk_id, set, pipe);
            memset(set, 0, sizeof set);
            blk_id = vpns[i] >> UVM_BLOCK_SHIFT;
        }
        uvm_bitmap_set(set, uvm_block_page(vpns[i]));
    }
    queued += prefetch_block(h, blk_id, set, pipe);
    if (queued > 0) {
        h->stats.ts_sets++;
        h->stats.ts_pages += queued;
    }
    return queued;
}
