/*
 * uvm_cocoa.c - the CoCoA frame allocator on top of the chunked allocator (uvm_pmm.c), after
 * Mosaic's Contiguity-Conserving Allocation (docs/handler.md §6f): a 2 MB VA region of one address
 * space reserves one free 2 MB chunk, and its pages go to the frames at their offsets in it. The
 * reservation lasts while a page is resident in the chunk (its own, or one borrowed by another
 * region of the same address space as a fallback); the last one to go returns the chunk.
 * A pure allocator: it never evicts (the placement, uvm_place_cocoa.c, picks the frame; the one
 * evict-and-retry loop, uvm_migrate_backing, evicts).
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
