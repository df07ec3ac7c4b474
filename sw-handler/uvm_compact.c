/*
 * uvm_compact.c - frees and Mosaic's Contiguity-Aware Compaction (docs/handler.md §6g).
 *
 * uvm_handler_free_alloc: the application frees an allocation; its resident pages are unmapped
 * and their frames released (no write-back: the data is dead). Then every CoCoA 2 MB frame of
 * the address space whose resident frames fell below cfg.compact_pct % of 512 is compacted: a
 * coalesced owner region is split, each resident page is moved (the placement's unmap and
 * writeback: PTE clear, INVAL_PAGE, D2H if writable; then H2D; the placement's map) into an
 * unused frame of the fullest other 2 MB frame of the same address space, or else into a frame
 * of the emergency free-frame list (cfg.emergency_frames, taken at initialization, used by
 * compaction only); when the last page leaves, the 2 MB frame returns to the allocator whole
 * (uvm_cocoa_unuse).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "uvm_lc.h"
#include "uvm_place.h"

int uvm_compact_init(uvm_handler_t *h) {
    uvm_cocoa_t *c = &h->cocoa;
    if (h->cfg.emergency_frames == 0)
        return 0;
    c->emerg = malloc((size_t)h->cfg.emergency_frames * sizeof *c->emerg);
    if (!c->emerg)
        return -1;
    /* the allocator's lowest frames: the 2 MB frame they split is no longer a CoCoA frame (the
     * price of the reserve; a multiple of 512 costs nothing more) */
    while (c->nemerg < h->cfg.emergency_frames && h->pmm.nfree > 0) {
        const uint32_t f = uvm_pmm_alloc(&h->pmm, UVM_CHUNK_4K);
        if (f == UVM_NONE)
            break;
        c->emerg[c->nemerg++] = f;
    }
    return 0;
}

/* The VA block of the region that owns 2 MB frame k of address space asid (NULL if none). */
static uvm_va_block_t *owner_block(uvm_handler_t *h, uint32_t asid, uint32_t k) {
    const uint64_t owner = h->cocoa.owner[k];
    const uint64_t region_va = (owner & ((UINT64_C(1) << 40) - 1u)) << GMMU_LARGE_SHIFT;
    return uvm_va_block_get(
        h, ((uint64_t)asid << UVM_ASID_VPN_SHIFT) | (region_va >> GMMU_PAGE_SHIFT), false);
}

/* A destination for a page leaving chunk `from`: an unused frame of the fullest other 2 MB frame
 * of address space asid, else an emergency frame; UVM_NONE if none. A coalesced destination
 * region is splintered first: its 2 MB PTE also maps the unused (bloat) frames, and a page
 * moved into one of them would be mapped twice. */
static uint32_t destination(uvm_handler_t *h, uint32_t asid, uint32_t from) {
    uvm_cocoa_t *c = &h->cocoa;
    uint32_t best = UVM_NONE;
    for (uint32_t k = 0; k < c->nchunks; k++)
        if (k != from && c->owner[k] != UVM_COCOA_NONE && (c->owner[k] >> 40) == asid &&
            c->used[k] < UVM_BLOCK_PAGES && (best == UVM_NONE || c->used[k] > c->used[best]))
            best = k;
    if (best != UVM_NONE) {
        uvm_va_block_t *blk = owner_block(h, asid, best);
        if (blk && blk->large && h->place->split)
            (void)h->place->split(h, blk);
        for (uint32_t i = 0; i < UVM_BLOCK_PAGES; i++)
            if (!h->frames[best * UVM_BLOCK_PAGES + i].resident)
                return best * UVM_BLOCK_PAGES + i;
    }
    return c->nemerg > 0 ? c->emerg[--c->nemerg] : UVM_NONE;
}

/* Moves the page of frame f to frame dst (unmap, shoot down, copy through the host, map). */
static void move_page(uvm_handler_t *h, uint32_t f, uint32_t dst) {
    const uint64_t vpn = h->frames[f].vpn;
    const bool w = h->frames[f].writable;
    h->place->unmap(h, vpn, 1);
    (void)h->place->writeback(h, vpn, f, 1);
    const uint64_t va = vpn << GMMU_PAGE_SHIFT;
    const uint64_t d =
        h->dev.dma_submit(h->dev.ctx, UVM_DMA_H2D, va, uvm_frame_pa(h, dst), UVM_PAGE_BYTES);
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE, UVM_DMA_H2D, vpn, dst, 1, d);
    h->dev.dma_wait(h->dev.ctx, d);
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE_DONE, UVM_DMA_H2D, vpn, dst, 1, d);
    uvm_mem_unmake_resident(h, f);          /* the last page of the 2 MB frame returns it */
    (void)uvm_frame_assign(h, dst, vpn, w); /* its block exists: cannot fail */
    if (h->place->map(h, vpn, dst, 1, w, true) != 0)
        uvm_logf(h, "uvm: compaction: cannot map VA 0x%" PRIx64 " again", va);
    h->stats.pages_compacted++;
}

static void compact_chunk(uvm_handler_t *h, uint32_t asid, uint32_t k) {
    uvm_cocoa_t *c = &h->cocoa;
    const uint64_t owner = c->owner[k];
    uvm_va_block_t *blk = owner_block(h, asid, k);
    if (blk && blk->large && h->place->split)
        (void)h->place->split(h, blk);
    for (uint32_t i = 0; i < UVM_BLOCK_PAGES && c->owner[k] == owner; i++) {
        const uint32_t f = k * UVM_BLOCK_PAGES + i;
        if (!h->frames[f].resident)
            continue;
        const uint32_t dst = destination(h, asid, k);
        if (dst == UVM_NONE) {
            uvm_logf(h, "uvm: compaction of the 2 MB frame at %" PRIu32 " stopped: no free frame",
                     k * UVM_BLOCK_PAGES);
            return;
        }
        move_page(h, f, dst);
    }
    if (c->owner[k] != owner)
        h->stats.compactions++;
}

void uvm_compact(uvm_handler_t *h, uint32_t asid) {
    uvm_cocoa_t *c = &h->cocoa;
    if (h->cfg.compact_pct == 0)
        return;
    const uint64_t limit = (uint64_t)h->cfg.compact_pct * UVM_BLOCK_PAGES / 100u;
    for (uint32_t k = 0; k < c->nchunks; k++)
        if (c->owner[k] != UVM_COCOA_NONE && (c->owner[k] >> 40) == asid && c->used[k] > 0 &&
            c->used[k] < limit)
            compact_chunk(h, asid, k);
}

/* Unmaps and releases the resident pages of [first, last] (VPNs), unmaps its remote ones. */
static void free_pages(uvm_handler_t *h, uint64_t first, uint64_t last) {
    for (uint64_t vpn = first; vpn <= last; vpn++) {
        uint32_t f = 0;
        if (!uvm_find_alloc(h, vpn) && uvm_remote_unmap(h, vpn, 1) != 0)
            continue; /* a remote page (§6l): its mapping goes, no frame to release */
        if (!uvm_va_block_resident(h, vpn, &f) || uvm_find_alloc(h, vpn))
            continue; /* not resident, or shared with another allocation */
        /* a large page: goes whole (2m: its other pages written back), or its region is
         * splintered first (cocoa) */
        if (uvm_mem_evict_large(h, uvm_va_block_get(h, vpn, false)))
            continue;
        h->place->unmap(h, vpn, 1); /* no write back: the data is dead */
        uvm_frame_release(h, f);
        h->stats.pages_freed++;
    }
}

static void free_index(uvm_handler_t *h, size_t i);

int uvm_handler_free_alloc(uvm_handler_t *h, const char *name, char *err, size_t errlen) {
    size_t i = 0;
    while (h && name && i < h->nallocs && strcmp(h->allocs[i].name, name) != 0)
        i++;
    if (!h || !name || i == h->nallocs) {
        err_setf(err, errlen, "uvm: free of '%s': no such allocation", name ? name : "(null)");
        return -1;
    }
    free_index(h, i);
    return 0;
}

int uvm_handler_free_alloc_at(uvm_handler_t *h, uint64_t base, char *err, size_t errlen) {
    size_t i = 0;
    while (h && i < h->nallocs && h->allocs[i].base != base)
        i++;
    if (!h || i == h->nallocs) {
        err_setf(err, errlen, "uvm: free of 0x%" PRIx64 ": no allocation starts there", base);
        return -1;
    }
    free_index(h, i);
    return 0;
}

/* Frees allocation i (its address space's: the extended base carries the ASID). */
static void free_index(uvm_handler_t *h, size_t i) {
    if (h->ts.n) /* pipelined transfer sets: the copies in flight land first */
        uvm_ts_pipe_drain(h);
    const uvm_alloc_t al = h->allocs[i];
    memmove(&h->allocs[i], &h->allocs[i + 1], (h->nallocs - i - 1u) * sizeof *h->allocs);
    h->nallocs--;
    free_pages(h, al.base >> GMMU_PAGE_SHIFT, (al.base + al.size - 1u) >> GMMU_PAGE_SHIFT);
    uvm_advise_forget(h, al.base >> GMMU_PAGE_SHIFT, (al.base + al.size - 1u) >> GMMU_PAGE_SHIFT);
    if (h->lc) /* object placement (§6s): the object leaves its book-keeping */
        uvm_lc_forget(h->lc, al.base);
    free(al.name);
    if (h->place->freed) /* cocoa: compaction */
        h->place->freed(h, uvm_vpn_asid(al.base >> GMMU_PAGE_SHIFT));
}
