/*
 * uvm_mem.c - GPU data frames: residency (through the VA blocks) and the eviction of one page
 * (the placement's unmap: PTE clear -> INVAL_PAGE -> wait; its writeback: D2H; the frame back to
 * the placement or to the caller). Where a frame comes from and goes back to, how a page is
 * mapped and written back, is the placement's (uvm_place.h); the victim comes from the eviction
 * policy (uvm_evict.c), which observes the RESIDENT / NONRESIDENT events emitted here, through the
 * one evict-and-retry loop (uvm_migrate_backing).
 */
#include <stdlib.h>

#include "uvm_place.h"

uint64_t uvm_frame_pa(const uvm_handler_t *h, uint32_t frame) {
    return h->cfg.gpu_data_base_pa + ((uint64_t)frame << GMMU_PAGE_SHIFT);
}

int uvm_mem_init(uvm_handler_t *h) {
    const uint32_t n = (uint32_t)h->cfg.gpu_data_pages;
    h->frames = calloc(n, sizeof *h->frames);
    if (!h->frames)
        return -1;
    if (uvm_cocoa_init(&h->cocoa, n) != 0)
        return -1;
    return uvm_pmm_init(&h->pmm, n); /* 4 KB order: frame 0 first, then last freed first */
}

void uvm_mem_free(uvm_handler_t *h) {
    free(h->frames);
    h->frames = NULL;
    uvm_pmm_fini(&h->pmm);
    uvm_cocoa_fini(&h->cocoa);
}

/* pinned for a reason other than a thrashing PIN: the batch in service, an eviction round's
 * spared pages, the pin floor */
bool uvm_frame_pinned_not_thrash(const uvm_handler_t *h, uint32_t f) {
    return h->frames[f].pin_block == h->block_gen || uvm_evict_spared(h, h->frames[f].vpn) ||
           (h->pin_floor && h->frames[f].pin_block >= h->pin_floor);
}

bool uvm_frame_pinned(const uvm_handler_t *h, uint32_t f) {
    return uvm_frame_pinned_not_thrash(h, f) || uvm_thrash_pinned(h, h->frames[f].vpn);
}

/* Drops the residency of frame f's page (block bitmap, eviction policy); then the placement
 * decides where the frame goes (frame_unuse). */
bool uvm_mem_unmake_resident(uvm_handler_t *h, uint32_t f) {
    uvm_frame_t *fr = &h->frames[f];
    uvm_va_block_t *blk = uvm_va_block_get(h, fr->vpn, false);
    if (blk)
        uvm_bitmap_clear(blk->resident, uvm_block_page(fr->vpn));
    uvm_emit_page(h, UVM_EVENT_NONRESIDENT, fr->vpn, f, 1, fr->writable);
    fr->resident = false;
    h->stats.data_pages_resident--;
    return h->place->frame_unuse(h, f);
}

bool uvm_mem_evict_large(uvm_handler_t *h, uvm_va_block_t *blk) {
    if (!blk || !blk->large)
        return false;
    if (h->place->evict_large) {
        h->place->evict_large(h, blk);
        return true;
    }
    if (h->place->split)
        (void)h->place->split(h, blk);
    return false;
}

uint32_t uvm_mem_evict(uvm_handler_t *h, uint32_t f) {
    const uint64_t vpn = h->frames[f].vpn;
    /* a large page: evicted whole (2m), or its region split first (cocoa, §6f) */
    if (uvm_mem_evict_large(h, uvm_va_block_get(h, vpn, false)))
        return UVM_NONE;
    /* 1. unmap and shoot down the GPU TLBs (waited for), 2. write back, 3. reuse */
    h->place->unmap(h, vpn, 1);
    const bool wb = h->place->writeback(h, vpn, f, 1);
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_evict_ns);
    uvm_unused_evicted(h, f, false);
    const bool back = uvm_mem_unmake_resident(h, f);
    uvm_emit_evict(h, vpn, f, 1, wb);
    uvm_va_block_t *blk = uvm_va_block_get(h, vpn, false);
    if (blk && uvm_bitmap_test(blk->accessed_by, uvm_block_page(vpn)))
        (void)uvm_remote_map(h, vpn, 1, true); /* accessed_by: re-mapped remotely (§6o) */
    return back ? UVM_NONE : f;
}

int uvm_frame_assign(uvm_handler_t *h, uint32_t f, uint64_t vpn, bool writable) {
    uvm_va_block_t *blk = uvm_va_block_get(h, vpn, true);
    if (!blk)
        return -1;
    const uint32_t page = uvm_block_page(vpn);
    uvm_remote_leave(h, blk, vpn); /* a remote page migrating: its remote mapping goes (§6l) */
    uvm_bitmap_set(blk->resident, page);
    blk->frame[page] = f;
    uvm_frame_t *fr = &h->frames[f];
    fr->vpn = vpn;
    fr->resident = true;
    fr->writable = writable;
    fr->dirty = true; /* unknown until an unmap reads the leaf's DRT (writeback = dirty, §6r) */
    fr->mig_seq = ++h->mig_seq;
    fr->mig_ns = h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
    fr->access_ns = fr->mig_ns;
    fr->accesses = 0;
    uvm_unused_migrated(h, f, false); /* uvm_migrate_set marks a prefetcher's page */
    fr->pin_block = h->block_gen;
    uvm_emit_page(h, UVM_EVENT_RESIDENT, vpn, f, 1, writable);
    h->stats.data_pages_resident++;
    if (!writable && uvm_read_mostly(h, vpn)) { /* a read duplicate (§6o), not a read-only page */
        const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
        h->stats.read_dup_pages += al && !al->readonly ? 1u : 0u;
    }
    if (h->place->frame_use)
        h->place->frame_use(h, f);
    return 0;
}

void uvm_frame_release(uvm_handler_t *h, uint32_t f) {
    if (h->frames[f].resident && uvm_mem_unmake_resident(h, f))
        return; /* the placement took the frame back */
    h->place->frame_free(h, f);
}
