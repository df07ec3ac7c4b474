/*
 * uvm_va_block.c - per-2 MB VA blocks (what uvm_va_block_t is to nvidia-uvm): resident and
 * faulted page bitmaps, the frame of each resident page, per-page fault counts and last-fault
 * times, and one private-state slot per policy kind. Blocks are created on first use and live
 * until the handler is freed; the index is a hash map block id -> block.
 */
#include <stdlib.h>

#include "uvm_priv.h"

uint32_t uvm_bitmap_count(const uint64_t *bm, uint32_t words) {
    uint32_t n = 0;
    for (uint32_t w = 0; w < words; w++)
        n += (uint32_t)__builtin_popcountll(bm[w]);
    return n;
}

uint32_t uvm_bitmap_next(const uint64_t *bm, uint32_t nbits, uint32_t from) {
    for (uint32_t i = from; i < nbits;) {
        const uint64_t w = bm[i / 64u] >> (i % 64u);
        if (w != 0) {
            const uint32_t at = i + (uint32_t)__builtin_ctzll(w);
            return at < nbits ? at : nbits;
        }
        i = (i / 64u + 1u) * 64u;
    }
    return nbits;
}

int uvm_va_blocks_init(uvm_handler_t *h) {
    return u64map_init(&h->blocks, 64);
}

void uvm_va_blocks_free(uvm_handler_t *h) {
    size_t pos = 0;
    uint64_t v = 0;
    while (u64map_next(&h->blocks, &pos, NULL, &v)) {
        uvm_va_block_t *blk = (uvm_va_block_t *)(uintptr_t)v;
        for (uint32_t k = 0; k < UVM_POLICY_KINDS; k++)
            free(blk->policy_priv[k]);
        free(blk);
    }
    u64map_free(&h->blocks);
}

uvm_va_block_t *uvm_va_block_get(uvm_handler_t *h, uint64_t vpn, bool create) {
    const uint64_t id = vpn >> UVM_BLOCK_SHIFT;
    uint64_t v = 0;
    if (u64map_get(&h->blocks, id, &v))
        return (uvm_va_block_t *)(uintptr_t)v;
    if (!create)
        return NULL;
    uvm_va_block_t *blk = calloc(1, sizeof *blk);
    if (!blk)
        return NULL;
    blk->id = id;
    if (u64map_put(&h->blocks, id, (uint64_t)(uintptr_t)blk) != 0) {
        free(blk);
        return NULL;
    }
    return blk;
}

bool uvm_va_block_resident(const uvm_handler_t *h, uint64_t vpn, uint32_t *frame) {
    uint64_t v = 0;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return false;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    const uint32_t page = uvm_block_page(vpn);
    if (!uvm_bitmap_test(blk->resident, page))
        return false;
    if (frame)
        *frame = blk->frame[page];
    return true;
}

void uvm_va_block_fault(uvm_va_block_t *blk, uint64_t vpn, uint64_t ts) {
    const uint32_t page = uvm_block_page(vpn);
    uvm_bitmap_set(blk->faulted, page);
    if (blk->fault_count[page] != UINT32_MAX)
        blk->fault_count[page]++;
    blk->last_fault[page] = ts;
}
