/*
 * uvm_cocoa.c - the CoCoA frame allocator on top of the chunked allocator (uvm_pmm.c), after
 * Mosaic's Contiguity-Conserving Allocation (docs/handler.md §6f): a 2 MB VA region of one address
 * space reserves one free 2 MB chunk, and its pages go to the frames at their offsets in it. The
 * reservation lasts while a page is resident in the chunk (its own, or one borrowed by another
 * region of the same address space as a fallback); the last one to go returns the chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "uvm_priv.h"

int uvm_cocoa_init(uvm_cocoa_t *c, uint32_t frames) {
    memset(c, 0, sizeof *c);
    c->nchunks = frames / UVM_BLOCK_PAGES;
    c->owner = malloc(((size_t)c->nchunks + 1u) * sizeof *c->owner);
    c->used = calloc((size_t)c->nchunks + 1u, sizeof *c->used);
    if (!c->owner || !c->used || u64map_init(&c->chunk_of, 16) != 0)
        return -1;
    for (uint32_t i = 0; i < c->nchunks; i++)
        c->owner[i] = UVM_COCOA_NONE;
    return 0;
}

void uvm_cocoa_fini(uvm_cocoa_t *c) {
    free(c->owner);
    free(c->used);
    free(c->emerg);
    u64map_free(&c->chunk_of);
    memset(c, 0, sizeof *c);
}

uint32_t uvm_cocoa_lookup(const uvm_cocoa_t *c, uint64_t key) {
    uint64_t k = 0;
    return u64map_get(&c->chunk_of, key, &k) ? (uint32_t)k * UVM_BLOCK_PAGES : UVM_NONE;
}

uint32_t uvm_cocoa_chunk(uvm_cocoa_t *c, uvm_pmm_t *p, uint64_t key) {
    const uint32_t have = uvm_cocoa_lookup(c, key);
    if (have != UVM_NONE)
        return have;
    uint64_t k = 0;
    const uint32_t first = uvm_pmm_alloc(p, UVM_CHUNK_2M);
    if (first == UVM_NONE)
        return UVM_NONE;
    k = first / UVM_BLOCK_PAGES;
    if (u64map_put(&c->chunk_of, key, k) != 0) {
        (void)uvm_pmm_free(p, first, UVM_CHUNK_2M);
        return UVM_NONE;
    }
    c->owner[k] = key;
    c->used[k] = 0;
    return first;
}

bool uvm_cocoa_reserved(const uvm_cocoa_t *c, uint32_t f) {
    const uint32_t k = f / UVM_BLOCK_PAGES;
    return k < c->nchunks && c->owner[k] != UVM_COCOA_NONE;
}

void uvm_cocoa_use(uvm_cocoa_t *c, uint32_t f) {
    if (uvm_cocoa_reserved(c, f))
        c->used[f / UVM_BLOCK_PAGES]++;
}

void uvm_cocoa_unuse(uvm_cocoa_t *c, uvm_pmm_t *p, uint32_t f) {
    if (!uvm_cocoa_reserved(c, f))
        return;
    const uint32_t k = f / UVM_BLOCK_PAGES;
    if (c->used[k] > 0)
        c->used[k]--;
    if (c->used[k] > 0)
        return;
    (void)u64map_del(&c->chunk_of, c->owner[k]);
    c->owner[k] = UVM_COCOA_NONE;
    (void)uvm_pmm_free(p, k * UVM_BLOCK_PAGES, UVM_CHUNK_2M);
}

/* CoCoA fallback: an unused frame of a 2 MB frame owned by the same address space (the lowest).
 * The borrowed page keeps that region from coalescing until it leaves. Never a frame of a
 * coalesced region: its 2 MB page (and its D-marked base entries) map every frame of the chunk,
 * the unused ones as the region's bloat, so a borrowed one would be reachable through two VAs. */
static uint32_t cocoa_borrow(uvm_handler_t *h, uint32_t asid) {
    const uvm_cocoa_t *c = &h->cocoa;
    for (uint32_t k = 0; k < c->nchunks; k++) {
        if (c->owner[k] == UVM_COCOA_NONE || (c->owner[k] >> 40) != asid ||
            c->used[k] >= UVM_BLOCK_PAGES)
            continue;
        const uint64_t region = c->owner[k] & ((UINT64_C(1) << 40) - 1u);
        const uvm_va_block_t *blk = uvm_va_block_get(
            h, (uint64_t)asid << UVM_ASID_VPN_SHIFT | region << UVM_BLOCK_SHIFT, false);
        if (blk && blk->large)
            continue;
        for (uint32_t i = 0; i < UVM_BLOCK_PAGES; i++)
            if (!h->frames[k * UVM_BLOCK_PAGES + i].resident)
                return k * UVM_BLOCK_PAGES + i;
    }
    return UVM_NONE;
}

/* CoCoA placement of vpn (address space 0): the frame at its offset in its region's 2 MB frame
 * (reserving a free one); else (no free 2 MB frame, or the offset is taken by a borrowed page)
 * an unused frame of another 2 MB frame of the address space, else any free 4 KB frame, else
 * an eviction and a new try. */
uint32_t uvm_cocoa_frame_get(uvm_handler_t *h, uint64_t vpn) {
    for (uint64_t tries = 0; tries <= h->cfg.gpu_data_pages; tries++) {
        const uint32_t first = uvm_cocoa_chunk(&h->cocoa, &h->pmm, uvm_cocoa_xkey(vpn));
        if (first != UVM_NONE && !h->frames[first + uvm_block_page(vpn)].resident)
            return first + uvm_block_page(vpn);
        uint32_t f = cocoa_borrow(h, uvm_vpn_asid(vpn));
        if (f == UVM_NONE)
            f = uvm_pmm_alloc(&h->pmm, UVM_CHUNK_4K);
        if (f != UVM_NONE) {
            h->stats.cocoa_fallbacks++;
            return f;
        }
        if (h->ts.n) /* pipelined transfer sets: no frame with a copy in flight is a victim */
            uvm_ts_pipe_drain(h);
        const uint32_t v = h->evict->pick(h, h->evict_priv, 1u);
        if (v == UVM_NONE)
            return UVM_NONE;
        uvm_mem_evict(h, v); /* its frame returns to its 2 MB frame or the allocator: try again */
    }
    return UVM_NONE;
}
